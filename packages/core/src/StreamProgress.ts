/**
 * Progress of the paginated streams (`TaxRecords.stream`,
 * `FuturesHistory.stream`, `P2pOrders.stream`): records, pages and windows
 * done, the window being read and the time spent waiting for the rate
 * limiter, reported to whoever asks with `observe`. A stream nobody observes
 * does no progress work at all.
 *
 * @since 0.1.0
 */
import * as Context from "effect/Context"
import type * as DateTime from "effect/DateTime"
import type * as Duration from "effect/Duration"
import type * as Effect from "effect/Effect"
import type * as Option from "effect/Option"
import * as Stream from "effect/Stream"

/**
 * Where a stream stands.
 *
 * A report is made when a window starts (before its first request, when every
 * record of the earlier windows has been pulled by the consumer), after each
 * page, and once at the end. Windows are walked in the stream's `order`. A
 * report is for people; to resume a stream, take it a page at a time
 * (`pages`), each page with its `Resumable.Checkpoint`.
 *
 * @since 0.1.0
 * @category models
 */
export interface StreamProgress {
  /** The endpoint walked, e.g. `GET /api/v2/tax/spot-record`. */
  readonly endpoint: string
  /** Records emitted so far (a record repeated across pages counts once). */
  readonly records: number
  /** Pages read so far. */
  readonly pages: number
  /** Windows whose every record has been emitted. */
  readonly windowsDone: number
  /** Windows in the range. */
  readonly windowsTotal: number
  /** The window being read; `None` once the stream has ended. */
  readonly window: Option.Option<{ readonly start: DateTime.Utc; readonly end: DateTime.Utc }>
  /** Time this stream's calls spent waiting for the client-side rate limiter. */
  readonly limiterWait: Duration.Duration
}

/**
 * The observer a stream reports to: `undefined` (the default) when nobody
 * asked.
 *
 * @since 0.1.0
 * @category services
 */
export const Observer = Context.Reference<((progress: StreamProgress) => Effect.Effect<void>) | undefined>(
  "@bitget-effect/core/StreamProgress/Observer",
  { defaultValue: () => undefined }
)

/**
 * Reports the progress of the paginated streams within `self` to
 * `onProgress`, which runs in the stream's fiber (keep it short: the stream
 * waits for it).
 *
 * @example
 * ```ts
 * import { BitgetMock, StreamProgress, TaxRecords } from "@bitget-effect/core"
 * import { DateTime, Effect, Option, Stream } from "effect"
 * import { strictEqual } from "node:assert"
 *
 * const program = Effect.gen(function*() {
 *   const end = yield* DateTime.now
 *   const reports: Array<StreamProgress.StreamProgress> = []
 *   yield* TaxRecords.stream({ startTime: DateTime.subtract(end, { days: 90 }), endTime: end }).pipe(
 *     StreamProgress.observe((progress) => Effect.sync(() => reports.push(progress))),
 *     Stream.runDrain
 *   )
 *   const last = reports[reports.length - 1]
 *   // 90 days are three 30-day windows, each read in one (empty) page
 *   strictEqual(last.windowsDone, 3)
 *   strictEqual(last.windowsTotal, 3)
 *   strictEqual(last.pages, 3)
 *   strictEqual(Option.isNone(last.window), true)
 * })
 *
 * Effect.runPromise(program.pipe(Effect.provide(BitgetMock.layer(BitgetMock.succeed(TaxRecords.endpoint, [])))))
 * ```
 *
 * @since 0.1.0
 * @category combinators
 */
export const observe =
  (onProgress: (progress: StreamProgress) => Effect.Effect<void>) =>
  <A, E, R>(self: Stream.Stream<A, E, R>): Stream.Stream<A, E, R> => Stream.provideService(self, Observer, onProgress)
