/**
 * Client-side rate limiting: one sliding-window limiter per endpoint × scope,
 * plus the exchange's overall ceiling per IP. A call reserves the earliest
 * send time that keeps every window of the limit's length under the limit,
 * then waits for it; it fails only when a maximum wait is set and exceeded.
 *
 * The store behind it is an interface: `layerMemory` for one process, or a
 * shared store (Redis, in `@bitget-effect/platform-node`) for several
 * processes or hosts using the same key or IP.
 *
 * @since 0.1.0
 */
import { Context, Duration, Effect, Layer, Metric, MetricBoundaries, Option } from "effect"
import type { RateLimiterStoreError } from "./BitgetError.js"
import { RateLimitWaitExceeded } from "./BitgetError.js"
import type { RateLimit } from "./Endpoint.js"

/**
 * Where reservations are kept. `reserve` records a send time for `key` that
 * keeps at most `limit` sends in any `windowMillis`, and answers the delay
 * until it in milliseconds; or `None` (recording nothing) when the delay
 * would exceed `maxDelayMillis`.
 *
 * @since 0.1.0
 * @category services
 */
export class RateLimiterStore extends Context.Tag("@bitget-effect/core/RateLimiterStore")<RateLimiterStore, {
  readonly reserve: (options: {
    readonly key: string
    readonly limit: number
    readonly windowMillis: number
    readonly maxDelayMillis: number | undefined
  }) => Effect.Effect<Option.Option<number>, RateLimiterStoreError>
}>() {}

/**
 * An in-process store: per key, the recent and reserved send times.
 *
 * @since 0.1.0
 * @category constructors
 */
export const makeMemoryStore: Effect.Effect<RateLimiterStore["Type"]> = Effect.sync(() => {
  const logs = new Map<string, Array<number>>()
  return RateLimiterStore.of({
    reserve: ({ key, limit, maxDelayMillis, windowMillis }) =>
      Effect.clockWith((clock) =>
        Effect.sync(() => {
          const now = clock.unsafeCurrentTimeMillis()
          let log = logs.get(key)
          if (log === undefined) {
            log = []
            logs.set(key, log)
          }
          let expired = 0
          while (expired < log.length && (log[expired] as number) <= now - windowMillis) expired++
          if (expired > 0) log.splice(0, expired)
          const at = log.length < limit ? now : Math.max(now, (log[log.length - limit] as number) + windowMillis)
          if (maxDelayMillis !== undefined && at - now > maxDelayMillis) return Option.none()
          log.push(at)
          return Option.some(at - now)
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
  readonly maxWait?: Duration.DurationInput
  /** Added to every window to absorb network jitter (default 25 ms). */
  readonly margin?: Duration.DurationInput
}

/**
 * Counts calls that had to wait for their turn, by endpoint.
 *
 * @since 0.1.0
 * @category metrics
 */
export const waits = Metric.counter("bitget_rate_limit_waits", { description: "calls delayed by the client-side rate limiter" })

/**
 * Counts answers of the exchange that said "too many requests" (HTTP 429 and
 * the "too frequent" codes), by endpoint.
 *
 * @since 0.1.0
 * @category metrics
 */
export const rejections = Metric.counter("bitget_rate_limit_rejections", {
  description: "answers of the exchange refusing a call as too frequent"
})

/**
 * The time calls spent waiting for their turn, by endpoint (milliseconds).
 *
 * @since 0.1.0
 * @category metrics
 */
export const waitTime = Metric.histogram(
  "bitget_rate_limit_wait_ms",
  MetricBoundaries.exponential({ start: 1, factor: 2, count: 16 }),
  "time calls waited for the client-side rate limiter"
)

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
  }, identity: string) => Effect.Effect<void, RateLimitWaitExceeded | RateLimiterStoreError>
}

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
  Effect.map(RateLimiterStore, (store) => {
    if (options.enabled === false) return { take: () => Effect.void }
    const marginMillis = Duration.toMillis(options.margin ?? "25 millis")
    const maxWait = Option.map(Option.fromNullable(options.maxWait), Duration.decode)
    const maxDelayMillis = Option.getOrUndefined(Option.map(maxWait, Duration.toMillis))
    const acquire = (endpoint: string, key: string, limit: number, window: Duration.DurationInput) =>
      store.reserve({ key, limit, windowMillis: Duration.toMillis(window) + marginMillis, maxDelayMillis }).pipe(
        Effect.flatMap(Option.match({
          onNone: () =>
            Effect.fail(new RateLimitWaitExceeded({ endpoint, key, maxWait: Option.getOrElse(maxWait, () => Duration.zero) })),
          onSome: (delay) =>
            delay <= 0
              ? Effect.void
              : Effect.sleep(Duration.millis(delay)).pipe(
                Effect.zipLeft(Metric.increment(Metric.tagged(waits, "endpoint", endpoint))),
                Effect.zipLeft(Metric.update(Metric.tagged(waitTime, "endpoint", endpoint), delay)),
                Effect.zipLeft(Effect.logDebug(`rate limit: ${endpoint} waited ${delay} ms`))
              )
        }))
      )
    return {
      take: (endpoint, identity) => {
        const limit = options.overrides?.[endpoint.name] ?? endpoint.rateLimit
        return acquire(endpoint.label, bucketKey(endpoint.name, endpoint.rateLimit.scope, identity), limit.limit, limit.window)
          .pipe(Effect.zipRight(acquire(endpoint.label, "ip:*", ipCeiling.limit, ipCeiling.window)))
      }
    }
  })
