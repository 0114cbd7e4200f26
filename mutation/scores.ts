/**
 * The last recorded run of each module (`scores.json`, committed): what the
 * docs' table shows and what CI's time estimate reads. A run of some modules
 * replaces their records only.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs"
import type { Figures } from "./report.js"

export const scoresFile = "mutation/scores.json"

export interface Recorded extends Figures {
  /** When, as `YYYY-MM-DD HH:MM UTC`. */
  readonly date: string
  /** The commit (short), with `+` when the module's files or tests differed from it. */
  readonly commit: string
  /** Wall time of the run, in seconds. */
  readonly seconds: number
  /** Wall time of the last run that tested every mutant (none reused from an incremental report), if timed. */
  readonly fullSeconds?: number
}

export type Scores = { readonly [module: string]: Recorded }

export const readScores = (): Scores =>
  existsSync(scoresFile) ? (JSON.parse(readFileSync(scoresFile, "utf8")) as Scores) : {}

export const writeScores = (scores: Scores): void =>
  writeFileSync(
    scoresFile,
    `${JSON.stringify(Object.fromEntries(Object.entries(scores).sort(([a], [b]) => a.localeCompare(b))), null, 2)}\n`
  )
