import type * as DateTime from "effect/DateTime"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type * as StreamProgress from "../StreamProgress.js"

/** A time window, both ends inclusive. */
interface Window {
  readonly start: DateTime.Utc
  readonly end: DateTime.Utc
}

/**
 * What an observed paginated stream has done so far (one tracker per run of
 * the stream), reported to its observer: when a window starts, after each
 * page, and once at the end.
 *
 * @internal
 */
export class ProgressTracker {
  private readonly observer: (progress: StreamProgress.StreamProgress) => Effect.Effect<void>
  private readonly endpoint: string
  private readonly windowsTotal: number
  private records = 0
  private pages = 0
  private windowsDone = 0
  private waitedMillis = 0
  private window: Window | undefined = undefined
  private index = -1
  constructor(
    observer: (progress: StreamProgress.StreamProgress) => Effect.Effect<void>,
    endpoint: string,
    windowsTotal: number
  ) {
    this.observer = observer
    this.endpoint = endpoint
    this.windowsTotal = windowsTotal
  }

  /** Adds time a call of the stream waited for the rate limiter (the stream's `LimiterWaits`). */
  readonly waited = (millis: number): void => {
    this.waitedMillis += millis
  }

  /** Tells the observer a window starts (every record of the earlier ones has been pulled), once per window. */
  starting(index: number, window: Window): Effect.Effect<void> {
    if (this.index === index) return Effect.void
    this.index = index
    this.windowsDone = index
    this.window = window
    return this.report()
  }

  /** Counts a page and the records it emits, and reports. */
  paged(records: number): Effect.Effect<void> {
    this.pages += 1
    this.records += records
    return this.report()
  }

  /** Reports the end: every window done, none being read. */
  ended(): Effect.Effect<void> {
    this.windowsDone = this.windowsTotal
    this.window = undefined
    return this.report()
  }

  private report(): Effect.Effect<void> {
    return this.observer({
      endpoint: this.endpoint,
      records: this.records,
      pages: this.pages,
      windowsDone: this.windowsDone,
      windowsTotal: this.windowsTotal,
      window: Option.fromNullishOr(this.window),
      limiterWait: Duration.millis(this.waitedMillis)
    })
  }
}
