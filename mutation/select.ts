/**
 * Which modules a run tests: named ones, the ones changed since a git ref, or
 * CI's choice (the changed ones when they fit its time budget, else one of
 * them, rotating by day of year).
 */
import { execFileSync } from "node:child_process"
import { matchesGlob } from "node:path"
import type { Module } from "./modules.js"
import { modules } from "./modules.js"

const git = (...args: ReadonlyArray<string>): string =>
  execFileSync("git", args, { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim()

/** The commit a ref names, or undefined when it names none. */
const commitOf = (ref: string): string | undefined => {
  try {
    return git("rev-parse", "--verify", "--quiet", `${ref}^{commit}`)
  } catch {
    return undefined
  }
}

/** The modules with these names; an unknown name throws, listing the known ones. */
export const named = (names: ReadonlyArray<string>): ReadonlyArray<Module> =>
  names.map((name) => {
    const module = modules.find((m) => m.name.toLowerCase() === name.toLowerCase())
    if (module === undefined) throw new Error(`no module ${name}: one of ${modules.map((m) => m.name).join(", ")}`)
    return module
  })

/** Files changed since a ref, in the work tree included, and new files not yet committed. */
const changedFiles = (base: string): ReadonlyArray<string> =>
  [
    ...git("diff", "--name-only", base).split("\n"),
    ...git("ls-files", "--others", "--exclude-standard").split("\n")
  ].filter((file) => file !== "")

/** The modules one of whose files (or listed tests) changed since a ref. */
export const changedSince = (base: string): ReadonlyArray<Module> => {
  if (commitOf(base) === undefined) throw new Error(`--changed ${base}: no such commit`)
  const changed = changedFiles(base)
  return modules.filter((module) =>
    [...module.files, ...(module.tests ?? [])].some((pattern) => changed.some((file) => matchesGlob(file, pattern)))
  )
}

/**
 * What CI compares with: `origin/main`'s merge base when this checkout is
 * ahead of it (a branch), else the commit before HEAD (CI's clone of the
 * submitted main, where origin/main is HEAD: the last commit is the change).
 */
export const ciBase = (): string | undefined => {
  const head = commitOf("HEAD")
  const main = commitOf("origin/main")
  if (main !== undefined && main !== head) {
    const base = git("merge-base", "HEAD", main)
    if (base !== head) return base
  }
  return commitOf("HEAD~1")
}

/** Day of the year, 0 on 1 January (UTC). */
const dayOfYear = (now: Date): number => Math.floor((now.getTime() - Date.UTC(now.getUTCFullYear(), 0, 1)) / 86_400_000)

/** What CI runs, and why. */
export interface CiChoice {
  readonly modules: ReadonlyArray<Module>
  readonly why: string
}

/**
 * Of the changed modules, those timed by an earlier run whose time fits the
 * budget: all of them when their sum fits, else one, rotating by day of year.
 * A module never timed (`estimate` undefined), or whose one run exceeds the
 * budget, is named and left out: CI cannot tell how long it would take.
 */
export const ciChoice = (
  changed: ReadonlyArray<Module>,
  base: string,
  estimate: (module: Module) => number | undefined,
  budgetSeconds: number,
  now: Date
): CiChoice => {
  const since = `since ${base.slice(0, 7)}`
  if (changed.length === 0) return { modules: [], why: `no mutated module changed ${since}` }
  const fits = changed.filter((module) => (estimate(module) ?? Infinity) <= budgetSeconds)
  const left = changed.filter((module) => !fits.includes(module)).map((m) => m.name)
  const leftOut = left.length === 0
    ? ""
    : `; left out (never timed, or over ${budgetSeconds} s alone): ${left.join(", ")}`
  const seconds = fits.reduce((sum, module) => sum + (estimate(module) ?? 0), 0)
  const names = fits.map((m) => m.name).join(", ")
  if (fits.length === 0) return { modules: [], why: `changed ${since}${leftOut}` }
  if (seconds <= budgetSeconds) {
    return {
      modules: fits,
      why: `changed ${since}: ${names} (about ${seconds} s, budget ${budgetSeconds} s)${leftOut}`
    }
  }
  const module = fits[dayOfYear(now) % fits.length]!
  return {
    modules: [module],
    why: `changed ${since}: ${names}, about ${seconds} s in all, over the budget of ${budgetSeconds} s: ` +
      `${module.name} today (one a run, rotating by day of year)${leftOut}`
  }
}
