/**
 * Client-side rate limiting: one sliding-window limiter per endpoint × scope,
 * plus the exchange's overall ceiling per IP. A call is sent only when every
 * window of the limit's length (counted to the arrival of each earlier answer,
 * a call still on its way counting as present) stays under the limit;
 * otherwise it waits and asks again. Callers of a full bucket queue in order
 * and only the first asks the store, so a bucket costs one store call and one
 * timer per grant however many callers wait. It fails only when a maximum
 * wait is set and would be exceeded.
 *
 * The store behind it is an interface (`RateLimiterStore`, in its own
 * module, its names kept here too): `layerMemory` for one process, or a
 * shared store (Redis, in `@bitget-effect/platform-node`) for several
 * processes or hosts using the same key or IP.
 *
 * @since 0.1.0
 */
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Metric from "effect/Metric"
import * as Option from "effect/Option"
import type { RateLimiterStoreError } from "./BitgetError.js"
import { RateLimitWaitExceeded } from "./BitgetError.js"
import type { RateLimit } from "./Endpoint.js"
import * as BucketGates from "./internal/bucketGates.js"
import * as Settlements from "./internal/settlements.js"
import * as Store from "./RateLimiterStore.js"
import * as Telemetry from "./Telemetry.js"

export {
  /**
   * `RateLimiterStore.inFlightLimit`, kept here for 0.2 programs: how long a
   * granted slot may count as in flight before a store takes its answer as
   * arrived.
   *
   * @since 0.2.0
   * @category constants
   */
  inFlightLimit,
  /**
   * `RateLimiterStore.layerMemory`, kept here for 0.2 programs: the
   * in-process store as a layer.
   *
   * @since 0.1.0
   * @category layers
   */
  layerMemory,
  /**
   * `RateLimiterStore.makeMemoryStore`, kept here for 0.2 programs: an
   * in-process store.
   *
   * @since 0.1.0
   * @category constructors
   */
  makeMemoryStore,
  /**
   * `RateLimiterStore.RateLimiterStore`, kept here for 0.2 programs: where
   * send times are kept.
   *
   * @since 0.1.0
   * @category services
   */
  RateLimiterStore
} from "./RateLimiterStore.js"

/**
 * `RateLimiterStore.Acquisition`, kept here for 0.2 programs: the answer of a
 * store, `Granted` or `Wait`.
 *
 * @since 0.1.0
 * @category models
 */
export type Acquisition = Store.Acquisition

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
  /**
   * Added to every window for the granularity and drift of the clocks
   * involved (default 2 ms): a window counts from the arrival of each answer,
   * so timers and latency need no margin, only the millisecond clocks of
   * client, store and exchange.
   */
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
 * `Telemetry.rateLimitWaits`, kept here for 0.2 programs.
 *
 * @since 0.1.0
 * @category metrics
 */
export const waits: Metric.Counter<number> = Telemetry.rateLimitWaits

/**
 * `Telemetry.rateLimitRejections`, kept here for 0.2 programs.
 *
 * @since 0.1.0
 * @category metrics
 */
export const rejections: Metric.Counter<number> = Telemetry.rateLimitRejections

/**
 * `Telemetry.rateLimitWaitTime`, kept here for 0.2 programs.
 *
 * @since 0.1.0
 * @category metrics
 */
export const waitTime: Metric.Histogram<number> = Telemetry.rateLimitWaitTime

/**
 * `Telemetry.rateLimitStoreFallbacks`, kept here for 0.2 programs.
 *
 * @since 0.1.0
 * @category metrics
 */
export const storeFallbacks: Metric.Counter<number> = Telemetry.rateLimitStoreFallbacks

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
 * @category formatting
 */
export const bucketKey = (name: string, scope: RateLimit["scope"], identity: string): string =>
  scope === "uid" ? `uid:${fnv1a(identity)}:${name}` : `ip:${name}`

/** The options as the limiter reads them. */
interface Settings {
  readonly marginMillis: number
  readonly maxWait: Option.Option<Duration.Duration>
  /** `maxWait` in milliseconds, infinite when there is none. */
  readonly maxWaitMillis: number
  readonly smoothing: number
}

/** Reads the options, with their defaults. */
const settings = (options: RateLimitOptions): Settings => {
  const marginMillis = Duration.toMillis(options.margin ?? "2 millis")
  const maxWait = Option.map(Option.fromUndefinedOr(options.maxWait), Duration.fromInputUnsafe)
  return {
    marginMillis,
    maxWait,
    maxWaitMillis: Option.getOrElse(Option.map(maxWait, Duration.toMillis), () => Number.POSITIVE_INFINITY),
    smoothing: Math.min(1, Math.max(0, options.smoothing ?? 0.5))
  }
}

/** What the store is asked for a bucket. */
type StoreRequest = Parameters<Store.RateLimiterStore["Service"]["acquire"]>[0]

/** What the store is asked for a bucket: its window lengthened by the margin, sends spaced as `smooth` says. */
const storeRequest = (
  key: string,
  { limit, window }: Omit<RateLimit, "scope">,
  smooth: number,
  marginMillis: number
): StoreRequest => {
  const windowMillis = Duration.toMillis(window) + marginMillis
  return { key, limit, windowMillis, spacingMillis: (smooth * windowMillis) / limit }
}

/** Counts a call that waited for its slot, in the metrics and the debug log. */
const recordWait = (endpoint: string, waited: number): Effect.Effect<void> =>
  Metric.update(Metric.withAttributes(Telemetry.rateLimitWaits, { endpoint }), 1).pipe(
    Effect.andThen(Metric.update(Metric.withAttributes(Telemetry.rateLimitWaitTime, { endpoint }), waited)),
    Effect.andThen(Effect.logDebug(`rate limit: ${endpoint} waited ${waited} ms`))
  )

/** `run`, failing with `exceeded()` once it has taken `maxWait`, however long the queue or the store takes. */
const boundedBy = <A, E>(
  maxWait: Option.Option<Duration.Duration>,
  exceeded: () => RateLimitWaitExceeded,
  run: Effect.Effect<A, E>
): Effect.Effect<A, E | RateLimitWaitExceeded> =>
  Option.match(maxWait, {
    onNone: () => run,
    onSome: (duration) => Effect.timeoutOrElse(run, { duration, orElse: () => Effect.fail(exceeded()) })
  })

/** The permit of the two slots a call takes: the IP ceiling's and the endpoint's own. */
const bothSlots = (ceiling: Permit, own: Permit): Permit => ({
  settle: Effect.andThen(ceiling.settle, own.settle),
  waitedMillis: ceiling.waitedMillis + own.waitedMillis
})

/**
 * Takes a slot of one bucket: waits for the bucket's turn and for its
 * settlements under way, then asks the store until it grants, sleeping as
 * long as the store says between asks.
 */
const makeAcquire = (store: Store.RateLimiterStore["Service"], { maxWait, maxWaitMillis }: Settings) => {
  const settlements = Settlements.make(store.settle, settleTimeout)
  const inTurn = BucketGates.make()
  const permit = (endpoint: string, key: string, ticket: string, waited: number): Effect.Effect<Permit> => {
    const granted: Permit = { settle: settlements.settle(key, ticket), waitedMillis: waited }
    return waited === 0 ? Effect.succeed(granted) : Effect.as(recordWait(endpoint, waited), granted)
  }
  return (endpoint: string, request: StoreRequest) => {
    const { key } = request
    const exceeded = () =>
      new RateLimitWaitExceeded({ endpoint, key, maxWait: Option.getOrElse(maxWait, () => Duration.zero) })
    return boundedBy(
      maxWait,
      exceeded,
      Effect.clockWith((clock) => {
        const started = clock.currentTimeMillisUnsafe()
        // `held`: whether the caller has queued or slept so far (a call granted at its first ask waited 0 ms)
        const ask = (held: boolean): Effect.Effect<Permit, RateLimitWaitExceeded | RateLimiterStoreError> =>
          Effect.flatMap(store.acquire(request), (answer) => {
            const waited = held ? clock.currentTimeMillisUnsafe() - started : 0
            if (answer._tag === "Granted") return permit(endpoint, key, answer.ticket, waited)
            return waited + answer.millis > maxWaitMillis
              ? Effect.fail(exceeded())
              : Effect.andThen(Effect.sleep(Duration.millis(answer.millis)), ask(true))
          })
        return inTurn(key, (queued) => Effect.andThen(settlements.settled(key), ask(queued)))
      })
    )
  }
}

/**
 * Makes a limiter over the store in context.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (options: RateLimitOptions = {}): Effect.Effect<Limiter, never, Store.RateLimiterStore> =>
  Effect.map(Store.RateLimiterStore, (store): Limiter => {
    if (options.enabled === false) return { take: () => Effect.succeed(unlimited) }
    const resolved = settings(options)
    const acquire = makeAcquire(store, resolved)
    const ceiling = storeRequest("ip:*", ipCeiling, 0, resolved.marginMillis)
    // each endpoint's request, by caller identity, worked out at its first call (not per call: a key hash, a
    // window read from its text)
    const requests = new WeakMap<object, Map<string, StoreRequest>>()
    const requestOf = (endpoint: Parameters<Limiter["take"]>[0], identity: string): StoreRequest => {
      let byIdentity = requests.get(endpoint)
      if (byIdentity === undefined) requests.set(endpoint, byIdentity = new Map())
      let request = byIdentity.get(identity)
      if (request === undefined) {
        request = storeRequest(
          bucketKey(endpoint.name, endpoint.rateLimit.scope, identity),
          options.overrides?.[endpoint.name] ?? endpoint.rateLimit,
          resolved.smoothing,
          resolved.marginMillis
        )
        byIdentity.set(identity, request)
      }
      return request
    }
    return {
      take: (endpoint, identity) =>
        // the endpoint's own slot is taken last, so nothing delays the send after it is granted
        // (both slots settle when the answer arrives, the ceiling's too)
        Effect.zipWith(
          acquire(endpoint.label, ceiling),
          acquire(endpoint.label, requestOf(endpoint, identity)),
          bothSlots
        )
    }
  })
