/**
 * The machine and code a run measured: CPU, cores, memory, Node, OS, date,
 * and the last commit of the library packages (flagged when their sources
 * have uncommitted changes, since the built `dist` is what ran).
 */
import { execFileSync } from "node:child_process"
import * as Os from "node:os"
import { repositoryRoot } from "./paths.js"

/** Where and on what a run happened. */
export interface Machine {
  readonly cpu: string
  readonly cores: number
  readonly memory: string
  readonly node: string
  readonly os: string
  readonly date: string
  readonly commit: string
}

const git = (...args: ReadonlyArray<string>): string =>
  execFileSync("git", args, { cwd: repositoryRoot, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim()

/** The last commit touching core or platform-node, `+ uncommitted changes` when their sources differ from it. */
const libraryCommit = (): string => {
  try {
    const packages = ["packages/core", "packages/platform-node"]
    const commit = git("log", "-1", "--format=%h", "--", ...packages)
    const dirty = git("status", "--porcelain", "--", ...packages.map((p) => `${p}/src`)) !== ""
    return dirty ? `${commit} + uncommitted changes` : commit
  } catch {
    return "unknown (no git)"
  }
}

/** This machine, now. */
export const machine = (): Machine => {
  const cpus = Os.cpus()
  return {
    cpu: cpus[0]?.model.trim() ?? "unknown CPU",
    cores: cpus.length,
    memory: `${(Os.totalmem() / 2 ** 30).toFixed(0)} GiB`,
    node: process.version,
    os: `${Os.type()} ${Os.release()} ${Os.arch()}`,
    date: new Date().toISOString().slice(0, 16).replace("T", " ") + " UTC",
    commit: libraryCommit()
  }
}

/** The machine in one line. */
export const describeMachine = (m: Machine): string =>
  `${m.cpu}, ${m.cores} cores, ${m.memory}; Node ${m.node}; ${m.os}; ${m.date}; core/platform-node at ${m.commit}`
