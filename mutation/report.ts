/**
 * A module's figures from StrykerJS's report (the mutation-testing-report
 * JSON it writes as its incremental file): mutants by status, the survivors,
 * and which survivors `equivalent/<module>.json` judges equivalent.
 */
import { readdirSync, readFileSync } from "node:fs"
import { basename, join, matchesGlob } from "node:path"
import type { Module } from "./modules.js"

/** The part of a report this script reads. */
export interface Report {
  readonly files: { readonly [file: string]: ReportFile }
}

interface ReportFile {
  readonly source: string
  readonly mutants: ReadonlyArray<ReportMutant>
}

interface ReportMutant {
  readonly mutatorName: string
  readonly replacement?: string
  readonly status: string
  readonly location: { readonly start: { readonly line: number; readonly column: number } }
}

/**
 * A surviving mutant judged equivalent: no test can tell it from the original.
 * Listed in its module's file, `equivalent/<module>.json` (without `module`).
 */
export interface Equivalent {
  readonly module: string
  readonly mutator: string
  /** The text of the mutant's first line, trimmed. */
  readonly line: string
  /** Its replacement, when the line holds several mutants of the mutator. */
  readonly replacement?: string
  readonly reason: string
}

/** A mutant that no test killed. */
export interface Survivor {
  readonly file: string
  readonly line: number
  readonly text: string
  readonly mutator: string
  readonly replacement: string
  readonly status: "Survived" | "NoCoverage"
  /** Why it is equivalent, when it is judged so. */
  readonly equivalent?: string
}

/** What a run of a module found. */
export interface Figures {
  readonly killed: number
  readonly survived: number
  readonly timeout: number
  readonly noCoverage: number
  /** Survivors judged equivalent (counted in `survived` or `noCoverage` too). */
  readonly equivalent: number
  /** Mutants that did not compile or crashed the run: not scored. */
  readonly errors: number
  /** Killed or timed out over all scored mutants but the equivalent ones, in percent (1 decimal). */
  readonly score: number
}

export const readReport = (file: string): Report => JSON.parse(readFileSync(file, "utf8")) as Report

/** Every module's equivalent mutants, from the folder of one file per module. */
export const readEquivalents = (folder: string): ReadonlyArray<Equivalent> =>
  readdirSync(folder).filter((file) => file.endsWith(".json")).flatMap((file) =>
    (JSON.parse(readFileSync(join(folder, file), "utf8")) as ReadonlyArray<Omit<Equivalent, "module">>).map((
      entry
    ) => ({ ...entry, module: basename(file, ".json") }))
  )

const isUndetected = (status: string): status is Survivor["status"] => status === "Survived" || status === "NoCoverage"

const matches = (module: Module, survivor: Omit<Survivor, "equivalent">) => (entry: Equivalent): boolean =>
  entry.module === module.name && entry.mutator === survivor.mutator && entry.line === survivor.text &&
  (entry.replacement === undefined || entry.replacement === survivor.replacement)

/** The report's mutants of a module's files, each with the file it is in and its line's text. */
const mutantsOf = (report: Report, module: Module) =>
  Object.entries(report.files)
    .filter(([file]) => module.files.some((pattern) => matchesGlob(file, pattern)))
    .flatMap(([file, { mutants, source }]) => {
      const lines = source.split("\n")
      return mutants.map((mutant) => ({
        file,
        mutant,
        text: (lines[mutant.location.start.line - 1] ?? "").trim()
      }))
    })

/** The survivors of a module, each marked when `equivalents` lists it. */
export const survivors = (
  report: Report,
  module: Module,
  equivalents: ReadonlyArray<Equivalent>
): ReadonlyArray<Survivor> =>
  mutantsOf(report, module).flatMap(({ file, mutant, text }) => {
    if (!isUndetected(mutant.status)) return []
    const survivor = {
      file,
      line: mutant.location.start.line,
      text,
      mutator: mutant.mutatorName,
      replacement: mutant.replacement ?? "",
      status: mutant.status
    }
    const reason = equivalents.find(matches(module, survivor))?.reason
    return [reason === undefined ? survivor : { ...survivor, equivalent: reason }]
  })

/** Mutants of a module by status. */
const statusCounts = (report: Report, module: Module): ReadonlyMap<string, number> => {
  const counts = new Map<string, number>()
  for (const { mutant } of mutantsOf(report, module)) counts.set(mutant.status, (counts.get(mutant.status) ?? 0) + 1)
  return counts
}

export const figures = (report: Report, module: Module, equivalents: ReadonlyArray<Equivalent>): Figures => {
  const counts = statusCounts(report, module)
  const count = (status: string) => counts.get(status) ?? 0
  const [killed, survived, timeout, noCoverage] = [
    count("Killed"),
    count("Survived"),
    count("Timeout"),
    count("NoCoverage")
  ]
  const equivalent = survivors(report, module, equivalents).filter((s) => s.equivalent !== undefined).length
  const scored = killed + timeout + survived + noCoverage - equivalent
  return {
    killed,
    survived,
    timeout,
    noCoverage,
    equivalent,
    errors: count("CompileError") + count("RuntimeError"),
    score: scored === 0 ? 100 : Math.floor((1000 * (killed + timeout)) / scored) / 10
  }
}
