/**
 * Mutation testing of the modules in `modules.ts` (`npx -y pnpm@10 mutation`):
 * runs StrykerJS on each selected module, prints its score and surviving
 * mutants, records the run in `scores.json` and rewrites the section of
 * docs/reliability.md. Exits 1 when an enforced module scores below its
 * threshold, 2 when a run fails.
 *
 *   --module NAME   that module (repeatable, or comma-separated)
 *   --changed REF   the modules changed since a git ref
 *   --ci            CI's choice (see select.ts); writes nothing
 *   --force         retest every mutant, whatever the incremental report holds
 *   --no-write      print only: neither scores.json nor the docs
 *   --budget S      CI's time budget in seconds (default MUTATION_BUDGET or 1200)
 *
 * MUTATION_CONCURRENCY sets StrykerJS's test processes (default: the cores).
 */
import { execFileSync } from "node:child_process"
import { existsSync, readFileSync, writeFileSync } from "node:fs"
import { parseArgs } from "node:util"
import { docsFile, section, splice } from "./docs.js"
import type { Module } from "./modules.js"
import { modules } from "./modules.js"
import type { Figures, Survivor } from "./report.js"
import { figures, readEquivalents, readReport, survivors } from "./report.js"
import type { Recorded, Scores } from "./scores.js"
import { readScores, writeScores } from "./scores.js"
import { changedSince, ciBase, ciChoice, named } from "./select.js"
import { incrementalFile, mutate } from "./stryker.js"

const equivalentsFolder = "mutation/equivalent"

/** The command line's options; a wrong one ends the run (exit 2) with parseArgs' message. */
const parse = () => {
  try {
    return parseArgs({
      args: process.argv.slice(2).filter((arg, i) => !(i === 0 && arg === "--")),
      options: {
        module: { type: "string", multiple: true, short: "m" },
        changed: { type: "string" },
        ci: { type: "boolean", default: false },
        force: { type: "boolean", default: false },
        write: { type: "boolean", default: true },
        budget: { type: "string", default: process.env.MUTATION_BUDGET ?? "1200" }
      },
      allowNegative: true
    }).values
  } catch (error) {
    console.error(`mutation testing: ${error instanceof Error ? error.message : String(error)}`)
    return process.exit(2)
  }
}

const args = parse()

/** A run's estimate for CI: the module's last full run, if it had one. */
const estimate = (scores: Scores) => (module: Module): number | undefined => scores[module.name]?.fullSeconds

/** The modules to run, and why (printed). */
const selection = (scores: Scores): { readonly modules: ReadonlyArray<Module>; readonly why: string } => {
  if (args.ci) {
    const base = ciBase()
    if (base === undefined) return { modules: [], why: "no commit to compare with (a single-commit clone)" }
    return ciChoice(changedSince(base), base, estimate(scores), Number(args.budget), new Date())
  }
  if (args.module !== undefined) {
    return { modules: named(args.module.flatMap((m) => m.split(","))), why: "named on the command line" }
  }
  if (args.changed !== undefined) {
    const changed = changedSince(args.changed)
    return {
      modules: changed,
      why: `changed since ${args.changed}: ${changed.map((m) => m.name).join(", ") || "none"}`
    }
  }
  return { modules, why: "every module" }
}

const git = (...a: ReadonlyArray<string>): string => execFileSync("git", a, { encoding: "utf8" }).trim()

/** HEAD, short, with `+` when the module's files or tests differ from it. */
const commitOf = (module: Module): string => {
  const dirty = git("status", "--porcelain", "--", ...module.files, ...(module.tests ?? [])) !== ""
  return `${git("rev-parse", "--short", "HEAD")}${dirty ? "+" : ""}`
}

const now = (): string => `${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC`

const describe = (module: Module, f: Figures, seconds: number): string => {
  const threshold = module.threshold === undefined ? "not enforced" : `threshold ${module.threshold} %`
  return `${module.name}: ${f.score.toFixed(1)} % (${threshold}): killed ${f.killed}, survived ${f.survived}` +
    `${f.equivalent > 0 ? ` (${f.equivalent} equivalent)` : ""}, timeout ${f.timeout}, no coverage ` +
    `${f.noCoverage}${f.errors > 0 ? `, errors ${f.errors}` : ""}; ${seconds} s`
}

const describeSurvivor = (s: Survivor): string =>
  `  ${s.file}:${s.line} ${s.mutator} -> ${s.replacement.replace(/\s+/g, " ").slice(0, 60)}` +
  `${s.status === "NoCoverage" ? " (no coverage)" : ""}\n      ${s.text.slice(0, 110)}`

/** Runs one module; its record, or undefined when StrykerJS failed. */
const runModule = async (module: Module, previous: Recorded | undefined): Promise<Recorded | undefined> => {
  const full = args.force || !existsSync(incrementalFile(module))
  const started = Date.now()
  try {
    await mutate(module, { force: args.force, appendOnly: !process.stdout.isTTY })
  } catch (error) {
    console.error(`${module.name}: StrykerJS failed: ${error instanceof Error ? error.message : String(error)}`)
    return undefined
  }
  const seconds = Math.round((Date.now() - started) / 1000)
  const report = readReport(incrementalFile(module))
  const equivalents = readEquivalents(equivalentsFolder)
  const result = figures(report, module, equivalents)
  console.log(describe(module, result, seconds))
  for (const s of survivors(report, module, equivalents)) {
    if (s.equivalent === undefined) console.log(describeSurvivor(s))
  }
  const fullSeconds = full ? seconds : previous?.fullSeconds
  const record = { ...result, date: now(), commit: commitOf(module), seconds }
  return fullSeconds === undefined ? record : { ...record, fullSeconds }
}

const belowThreshold = (module: Module, r: Recorded): boolean =>
  module.threshold !== undefined && r.score < module.threshold

const main = async (): Promise<number> => {
  const scores = readScores()
  const chosen = selection(scores)
  console.log(`mutation testing: ${chosen.why}`)
  if (chosen.modules.length === 0) return 0
  const results: Array<readonly [Module, Recorded | undefined]> = []
  for (const module of chosen.modules) results.push([module, await runModule(module, scores[module.name])])
  console.log("\nsummary:")
  for (const [module, r] of results) {
    console.log(r === undefined ? `${module.name}: failed to run` : describe(module, r, r.seconds))
  }
  if (args.write && !args.ci) {
    // read again: a run of another module may have recorded its own meanwhile
    const updated: Scores = {
      ...readScores(),
      ...Object.fromEntries(results.flatMap(([m, r]) => (r === undefined ? [] : [[m.name, r]])))
    }
    writeScores(updated)
    const generated = section(modules, updated, readEquivalents(equivalentsFolder))
    writeFileSync(docsFile, splice(readFileSync(docsFile, "utf8"), generated))
    console.log(`wrote mutation/scores.json and the mutation section of ${docsFile}`)
  }
  if (results.some(([, r]) => r === undefined)) return 2
  const failing = results.filter(([m, r]) => r !== undefined && belowThreshold(m, r))
  for (const [module, r] of failing) console.error(`${module.name} scores ${r?.score} %, below ${module.threshold} %`)
  return failing.length > 0 ? 1 : 0
}

process.exitCode = await main().catch((error: unknown) => {
  console.error(`mutation testing: ${error instanceof Error ? error.message : String(error)}`)
  return 2
})
