/**
 * Client-side rate limiting: one sliding-window limiter per endpoint × scope,
 * plus the exchange's overall ceiling per IP. A call is sent only when every
 * window of the limit's length (counted to the arrival of each earlier answer)
 * stays under the limit; otherwise it waits and asks again. It fails only when
 * a maximum wait is set and would be exceeded.
 *
 * The store behind it is an interface: `layerMemory` for one process, or a
 * shared store (Redis, in `@bitget-effect/platform-node`) for several
 * processes or hosts using the same key or IP.
 *
 * @since 0.1.0
 */
import * as Context from "effect/Context"
import * as Deferred from "effect/Deferred"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Metric from "effect/Metric"
import * as Option from "effect/Option"
import { RateLimiterStoreError, RateLimitWaitExceeded } from "./BitgetError.js"
import type { RateLimit } from "./Endpoint.js"

/**
 * The answer of a store: the slot is `Granted` now (with the ticket that
 * settles it later), or the caller should `Wait` and ask again.
 *
 * @since 0.1.0
 * @category models
 */
export type Acquisition =
  | { readonly _tag: "Granted"; readonly ticket: string }
  | { readonly _tag: "Wait"; readonly millis: number }

/**
 * Where send times are kept. `acquire` grants a send now when that keeps at
 * most `limit` sends in any `windowMillis` and at least `spacingMillis` after
 * the latest one, recording it; otherwise it records nothing and answers how
 * long to wait before asking again. `settle` moves a send to the time its
 * answer arrived when that is later, so a window counts from when the exchange
 * certainly saw the call. Nothing is reserved ahead: a slow call settles
 * before the next window is granted.
 *
 * @since 0.1.0
 * @category services
 */
export class RateLimiterStore extends Context.Service<RateLimiterStore, {
  readonly acquire: (options: {
    readonly key: string
    readonly limit: number
    readonly windowMillis: number
    readonly spacingMillis: number
  }) => Effect.Effect<Acquisition, RateLimiterStoreError>
  readonly settle: (options: {
    readonly key: string
    readonly ticket: string
  }) => Effect.Effect<void, RateLimiterStoreError>
}>()("@bitget-effect/core/RateLimiterStore") {}

interface Slot {
  readonly ticket: string
  at: number
}

/**
 * An in-process store: per key, the recent send times in order.
 *
 * @since 0.1.0
 * @category constructors
 */
export const makeMemoryStore: Effect.Effect<RateLimiterStore["Service"]> = Effect.sync(() => {
  const logs = new Map<string, Array<Slot>>()
  let tickets = 0
  return RateLimiterStore.of({
    acquire: ({ key, limit, spacingMillis, windowMillis }) =>
      Effect.clockWith((clock) =>
        Effect.sync((): Acquisition => {
          const now = clock.currentTimeMillisUnsafe()
          let log = logs.get(key)
          if (log === undefined) {
            log = []
            logs.set(key, log)
          }
          let expired = 0
          while (expired < log.length && (log[expired] as Slot).at <= now - windowMillis) expired++
          if (expired > 0) log.splice(0, expired)
          const last = log.at(-1)
          const at = Math.max(
            now,
            last === undefined ? now : last.at + spacingMillis,
            log.length < limit ? now : (log[log.length - limit] as Slot).at + windowMillis
          )
          if (at > now) return { _tag: "Wait", millis: at - now }
          const ticket = String(tickets++)
          log.push({ ticket, at: now })
          return { _tag: "Granted", ticket }
        })
      ),
    settle: ({ key, ticket }) =>
      Effect.clockWith((clock) =>
        Effect.sync(() => {
          const log = logs.get(key)
          const index = log === undefined ? -1 : log.findIndex((slot) => slot.ticket === ticket)
          if (log === undefined || index < 0) return
          const slot = log[index] as Slot
          slot.at = Math.max(slot.at, clock.currentTimeMillisUnsafe())
          let i = index
          while (i + 1 < log.length && (log[i + 1] as Slot).at < slot.at) {
            log[i] = log[i + 1] as Slot
            i++
          }
          log[i] = slot
        })
      )
  })
})

/**
 * The in-process store as a layer.
 *
 * @since 0.1.0
 * @category layers
 */
export const layerMemory: Layer.Layer<RateLimiterStore> = Layer.effect(RateLimiterStore, makeMemoryStore)

/**
 * The ceiling the exchange applies to all requests from one IP (6000 a minute;
 * past it the IP is locked out for 5 minutes).
 *
 * @since 0.1.0
 * @category constants
 */
export const ipCeiling: RateLimit = { limit: 6000, window: "1 minute", scope: "ip" }

/**
 * How the client limits itself.
 *
 * @since 0.1.0
 * @category models
 */
export interface RateLimitOptions {
  /** Switch client-side limiting off (the exchange's 429s are still retried). */
  readonly enabled?: boolean
  /** Limits that differ from the spec's, by endpoint name (e.g. `"spot.symbols"`). */
  readonly overrides?: { readonly [endpoint: string]: Omit<RateLimit, "scope"> }
  /** Fail with `RateLimitWaitExceeded` instead of waiting longer than this. */
  readonly maxWait?: Duration.Input
  /** Added to every window for timer and clock granularity (default 10 ms). */
  readonly margin?: Duration.Input
  /**
   * How evenly sends are spread, from 0 (bursts of the whole limit at once) to
   * 1 (one send every window ÷ limit). The default 0.5 lets a burst go at twice
   * the average rate, which keeps the exchange from seeing a whole window's
   * calls arrive at once and jitter push one over its window.
   */
  readonly smoothing?: number
}

/**
 * Counts calls that had to wait for their turn, by endpoint.
 *
 * @since 0.1.0
 * @category metrics
 */
export const waits: Metric.Counter<number> = Metric.counter("bitget_rate_limit_waits", {
  description: "calls delayed by the client-side rate limiter",
  incremental: true
})

/**
 * Counts answers of the exchange that said "too many requests" (HTTP 429 and
 * the "too frequent" codes), by endpoint.
 *
 * @since 0.1.0
 * @category metrics
 */
export const rejections: Metric.Counter<number> = Metric.counter("bitget_rate_limit_rejections", {
  description: "answers of the exchange refusing a call as too frequent",
  incremental: true
})

/**
 * The time calls spent waiting for their turn, by endpoint (milliseconds).
 *
 * @since 0.1.0
 * @category metrics
 */
export const waitTime: Metric.Histogram<number> = Metric.histogram("bitget_rate_limit_wait_ms", {
  description: "time calls waited for the client-side rate limiter",
  boundaries: Metric.exponentialBoundaries({ start: 1, factor: 2, count: 16 })
})

/**
 * Counts slots (one per bucket a call takes) that a shared store granted
 * from its in-process fallback because the store itself was unavailable (the
 * Redis store with `onUnavailable: "memory"`), by store.
 *
 * @since 0.1.0
 * @category metrics
 */
export const storeFallbacks: Metric.Counter<number> = Metric.counter("bitget_rate_limit_store_fallbacks", {
  description: "rate-limit slots taken from an in-process fallback because the shared store was unavailable",
  incremental: true
})

/**
 * How long a permit's settlement may take in the background before it is
 * given up with a warning (2 seconds).
 *
 * @since 0.1.0
 * @category constants
 */
export const settleTimeout: Duration.Duration = Duration.seconds(2)

/**
 * A granted slot; `settle` (called when the answer has arrived) moves the
 * slot to that time, so a call delayed on its way never lets the next window
 * start early.
 *
 * `settle` never holds up its caller: it hands the store's settlement to a
 * background fiber (given up with a warning after `settleTimeout`, as are the
 * store's failures) and returns at once. The next `take` of the same bucket
 * waits for that settlement first, so the bucket it reads is up to date.
 *
 * @since 0.1.0
 * @category models
 */
export interface Permit {
  readonly settle: Effect.Effect<void>
  /** How long the call waited for its slots, in milliseconds (0 when it did not wait). */
  readonly waitedMillis: number
}

/**
 * A limiter bound to a store and options: `take` waits for a slot of an
 * endpoint (and of the IP ceiling).
 *
 * @since 0.1.0
 * @category models
 */
export interface Limiter {
  readonly take: (endpoint: {
    readonly name: string
    readonly label: string
    readonly rateLimit: RateLimit
  }, identity: string) => Effect.Effect<Permit, RateLimitWaitExceeded | RateLimiterStoreError>
}

const unlimited: Permit = { settle: Effect.void, waitedMillis: 0 }

const fnv1a = (text: string): string => {
  let hash = 0x811c9dc5
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i)
    hash = Math.imul(hash, 0x01000193)
  }
  return (hash >>> 0).toString(16)
}

/**
 * The store key of an endpoint's bucket: UID-scoped limits per API key (kept
 * only as a hash), IP-scoped ones per process (or per shared store).
 *
 * @since 0.1.0
 * @category keys
 */
export const bucketKey = (name: string, scope: RateLimit["scope"], identity: string): string =>
  scope === "uid" ? `uid:${fnv1a(identity)}:${name}` : `ip:${name}`

/**
 * Makes a limiter over the store in context.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (options: RateLimitOptions = {}): Effect.Effect<Limiter, never, RateLimiterStore> =>
  Effect.map(RateLimiterStore, (store): Limiter => {
    if (options.enabled === false) return { take: () => Effect.succeed(unlimited) }
    const marginMillis = Duration.toMillis(options.margin ?? "10 millis")
    const maxWait = Option.map(Option.fromUndefinedOr(options.maxWait), Duration.fromInputUnsafe)
    const maxWaitMillis = Option.getOrElse(Option.map(maxWait, Duration.toMillis), () => Number.POSITIVE_INFINITY)
    const smoothing = Math.min(1, Math.max(0, options.smoothing ?? 0.5))
    // settlements under way, by bucket: each ends within settleTimeout
    const settling = new Map<string, Set<Deferred.Deferred<void>>>()
    const settled = (key: string): Effect.Effect<void> =>
      Effect.suspend(() => {
        const pending = settling.get(key)
        return pending === undefined
          ? Effect.void
          : Effect.forEach(Array.from(pending), Deferred.await, { discard: true })
      })
    const settle = (key: string, ticket: string, waitedMillis: number): Permit => ({
      waitedMillis,
      settle: Effect.flatMap(Deferred.make<void>(), (done) => {
        const pending = settling.get(key) ?? new Set()
        settling.set(key, pending)
        pending.add(done)
        const finish = Effect.sync(() => {
          pending.delete(done)
          if (pending.size === 0 && settling.get(key) === pending) settling.delete(key)
        }).pipe(Effect.andThen(Deferred.succeed(done, undefined)))
        // a forked fiber is interruptible even when the caller settles in a finalizer (an uninterruptible
        // region), so the timeout can stop a store that never answers; it starts at once, so the slot's time
        // is the call's end, not whenever the scheduler next runs it
        return store.settle({ key, ticket }).pipe(
          Effect.timeoutOrElse({
            duration: settleTimeout,
            orElse: () =>
              Effect.fail(
                new RateLimiterStoreError({
                  issue: `settling a slot took longer than ${Duration.format(settleTimeout)}`
                })
              )
          }),
          Effect.catch((error) => Effect.logWarning(error.message)),
          Effect.ensuring(finish),
          Effect.forkDetach({ startImmediately: true }),
          Effect.asVoid
        )
      })
    })
    const acquire = (endpoint: string, key: string, limit: number, window: Duration.Input, smooth: number) => {
      const windowMillis = Duration.toMillis(window) + marginMillis
      const request = { key, limit, windowMillis, spacingMillis: (smooth * windowMillis) / limit }
      const loop = (waited: number): Effect.Effect<Permit, RateLimitWaitExceeded | RateLimiterStoreError> =>
        Effect.flatMap(store.acquire(request), (answer) => {
          if (answer._tag === "Granted") {
            return waited === 0 ? Effect.succeed(settle(key, answer.ticket, 0)) : Effect.as(
              Effect.all([
                Metric.update(Metric.withAttributes(waits, { endpoint }), 1),
                Metric.update(Metric.withAttributes(waitTime, { endpoint }), waited),
                Effect.logDebug(`rate limit: ${endpoint} waited ${waited} ms`)
              ], { discard: true }),
              settle(key, answer.ticket, waited)
            )
          }
          return waited + answer.millis > maxWaitMillis
            ? Effect.fail(
              new RateLimitWaitExceeded({ endpoint, key, maxWait: Option.getOrElse(maxWait, () => Duration.zero) })
            )
            : Effect.andThen(Effect.sleep(Duration.millis(answer.millis)), loop(waited + answer.millis))
        })
      return Effect.andThen(settled(key), loop(0))
    }
    return {
      take: (endpoint, identity) => {
        const limit = options.overrides?.[endpoint.name] ?? endpoint.rateLimit
        // the endpoint's own slot is taken last, so nothing delays the send after it is granted
        // (both slots settle when the answer arrives, the ceiling's too)
        return acquire(endpoint.label, "ip:*", ipCeiling.limit, ipCeiling.window, 0).pipe(
          Effect.zipWith(
            acquire(
              endpoint.label,
              bucketKey(endpoint.name, endpoint.rateLimit.scope, identity),
              limit.limit,
              limit.window,
              smoothing
            ),
            (ceiling, own): Permit => ({
              settle: Effect.andThen(ceiling.settle, own.settle),
              waitedMillis: ceiling.waitedMillis + own.waitedMillis
            })
          )
        )
      }
    }
  })
