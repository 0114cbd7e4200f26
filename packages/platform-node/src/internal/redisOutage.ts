import * as Effect from "effect/Effect"

/**
 * The log of the store's outages: each is reported once, as a warning, and
 * its end at info level.
 *
 * @internal
 */
export interface Outage {
  /** Reports an outage for `issue`, unless this one has been reported already. */
  readonly report: (issue: string) => Effect.Effect<void>
  /** Reports the end of the outage reported, if any. */
  readonly recovered: Effect.Effect<void>
}

/**
 * The outage log of a store whose calls, while Redis is unavailable, fail
 * or (`fallback`) are limited in this process alone.
 *
 * @internal
 */
export const make = (fallback: boolean): Outage => {
  // whether this outage has been reported
  let reported = false
  const consequence = fallback ? "calls are limited in this process alone" : "calls fail with RateLimiterStoreError"
  return {
    report: (issue) =>
      Effect.suspend(() => {
        if (reported) return Effect.void
        reported = true
        return Effect.logWarning(`rate-limit store: ${issue}; ${consequence} until it answers again`)
      }),
    recovered: Effect.suspend(() => {
      if (!reported) return Effect.void
      reported = false
      return Effect.logInfo("rate-limit store: Redis answers again")
    })
  }
}
