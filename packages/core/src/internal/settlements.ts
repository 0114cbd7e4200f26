/**
 * The limiter's settlements: a granted slot is settled in the background when
 * its answer arrives (bounded by a timeout, a failure warned of), and a
 * bucket's next take waits for the settlements under way.
 */
import * as Deferred from "effect/Deferred"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import { RateLimiterStoreError } from "../BitgetError.js"

/** A granted slot as the store names it. */
interface Slot {
  readonly key: string
  readonly ticket: string
}

/**
 * The settlements of granted slots under way, by bucket. Each runs in a
 * background fiber of its own and ends within the timeout it was made with.
 *
 * @internal
 */
export interface Settlements {
  /** Waits until the settlements of the bucket under way have ended (at once when there are none). */
  readonly settled: (key: string) => Effect.Effect<void>
  /** Starts the store's settlement of a slot in the background and returns at once. */
  readonly settle: (key: string, ticket: string) => Effect.Effect<void>
}

/**
 * The store's settlement of a slot, given up after `timeout`; a failure is
 * logged as a warning, never returned (a settlement holds up no caller).
 */
const bounded = (settlement: Effect.Effect<void, RateLimiterStoreError>, timeout: Duration.Duration) =>
  settlement.pipe(
    Effect.timeoutOrElse({
      duration: timeout,
      orElse: () =>
        Effect.fail(
          new RateLimiterStoreError({ issue: `settling a slot took longer than ${Duration.format(timeout)}` })
        )
    }),
    Effect.catch((error) => Effect.logWarning(error.message))
  )

/**
 * Settlements over a store's `settle`, each given up after `timeout`.
 *
 * @internal
 */
export const make = (
  settle: (slot: Slot) => Effect.Effect<void, RateLimiterStoreError>,
  timeout: Duration.Duration
): Settlements => {
  const pending = new Map<string, Set<Deferred.Deferred<void>>>()
  /** Records a settlement of the bucket as under way; the effect returned records its end. */
  const track = (key: string, done: Deferred.Deferred<void>): Effect.Effect<void> => {
    const bucket = pending.get(key) ?? new Set()
    pending.set(key, bucket)
    bucket.add(done)
    return Effect.sync(() => {
      bucket.delete(done)
      // the last settlement under way of a set ends it: a later one of the bucket starts a new set
      if (bucket.size === 0) pending.delete(key)
    }).pipe(Effect.andThen(Deferred.succeed(done, undefined)))
  }
  return {
    settled: (key) =>
      Effect.suspend(() => {
        const bucket = pending.get(key)
        return bucket === undefined
          ? Effect.void
          : Effect.forEach(Array.from(bucket), Deferred.await, { discard: true })
      }),
    // a forked fiber is interruptible even when the caller settles in a finalizer (an uninterruptible region),
    // so the timeout can stop a store that never answers; it starts at once, so the slot's time is the call's
    // end, not whenever the scheduler next runs it
    settle: (key, ticket) =>
      Effect.flatMap(Deferred.make<void>(), (done) =>
        bounded(settle({ key, ticket }), timeout).pipe(
          Effect.ensuring(track(key, done)),
          Effect.forkDetach({ startImmediately: true }),
          Effect.asVoid
        ))
  }
}
