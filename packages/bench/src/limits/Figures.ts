/**
 * What the sandbox's request log says about one run: per endpoint, the
 * answered calls of the measured span and two measures of how close they came
 * to the limit, and every 429.
 */
import type * as RequestLog from "@bitget-effect/sandbox/RequestLog"
import { Duration } from "effect"
import type { Workload } from "./table.js"

/** One endpoint's figures. */
export interface Row {
  /** Calls answered with 200 whose arrival falls in the measured span, per second. */
  readonly perSecond: number
  /** `perSecond` over the allowed rate (counts in a span: ±1 call of quantisation, 5% for 1/s over 20 s). */
  readonly counted: number
  /**
   * The allowed rate over the rate the calls kept: `window / mean(t[k+limit] − t[k])` over the calls `k` of the span,
   * `t` the sandbox's arrival times. Exactly 1 when every window the sandbox checks holds `limit` calls, above 1
   * only when one held more (which it would have refused); free of the span's quantisation.
   */
  readonly spaced: number
  readonly rejected: number
}

/** A run's figures, by route. */
export type Figures = ReadonlyMap<string, Row>

/** Reads the log of a run whose measured span is [`from`, `to`). */
export const measure = (
  entries: ReadonlyArray<RequestLog.Entry>,
  workloads: ReadonlyArray<Workload>,
  from: number,
  to: number
): Figures =>
  new Map(workloads.map((w): [string, Row] => {
    const { limit, window } = w.endpoint.rateLimit
    const windowMillis = Duration.toMillis(Duration.fromInputUnsafe(window))
    // the log is in the order calls ended; the sandbox's window counts them in the order they arrived
    const answered = entries.filter((e) => e.route === w.route && e.status === 200).map((e) => e.time)
    answered.sort((a, b) => a - b)
    let inside = 0
    let spans = 0
    let kept = 0
    for (let k = 0; k < answered.length; k++) {
      const t = answered[k] as number
      if (t < from || t >= to) continue
      inside++
      const later = answered[k + limit]
      if (later === undefined) continue
      spans += later - t
      kept++
    }
    const perSecond = (inside * 1000) / (to - from)
    return [w.route, {
      perSecond,
      counted: perSecond / ((limit * 1000) / windowMillis),
      spaced: kept === 0 ? 0 : (windowMillis * kept) / spans,
      rejected: entries.filter((e) => e.route === w.route && e.rateLimited).length
    }]
  }))

/** The median of each figure over several runs of one limiter. */
export const median = (runs: ReadonlyArray<Figures>, workloads: ReadonlyArray<Workload>): Figures => {
  const middle = (values: ReadonlyArray<number>) => [...values].sort((a, b) => a - b)[values.length >> 1] ?? 0
  return new Map(workloads.map((w): [string, Row] => {
    const rows = runs.map((run) => run.get(w.route)).filter((row) => row !== undefined)
    return [w.route, {
      perSecond: middle(rows.map((r) => r.perSecond)),
      counted: middle(rows.map((r) => r.counted)),
      spaced: middle(rows.map((r) => r.spaced)),
      rejected: rows.reduce((sum, r) => sum + r.rejected, 0)
    }]
  }))
}

/** The lowest of one measure over the endpoints. */
export const lowest = (figures: Figures, measure: "counted" | "spaced"): number =>
  Math.min(...Array.from(figures.values(), (row) => row[measure]))

/** All 429s of a run. */
export const rejected = (figures: Figures): number =>
  Array.from(figures.values()).reduce((sum, row) => sum + row.rejected, 0)
