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
 * The store behind it is an interface: `layerMemory` for one process, or a
 * shared store (Redis, in `@bitget-effect/platform-node`) for several
 * processes or hosts using the same key or IP.
 *
 * @since 0.1.0
 */
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Metric from "effect/Metric"
import * as Option from "effect/Option"
import { RateLimiterStoreError, RateLimitWaitExceeded } from "./BitgetError.js"
import type { RateLimit } from "./Endpoint.js"
import * as BucketGates from "./internal/bucketGates.js"
import * as Settlements from "./internal/settlements.js"
import * as Telemetry from "./Telemetry.js"

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
 * the latest grant, recording it; otherwise it records nothing and answers how
 * long to wait before asking again. A granted slot counts as in flight (at
 * the present moment, whenever a window is checked) until `settle` records
 * the time its answer arrived, so a window counts from when the exchange
 * certainly saw the call, however long the answer takes; a slot never
 * settled counts as arrived `inFlightLimit` after its grant. Nothing is
 * reserved ahead.
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

/**
 * How long a granted slot may count as in flight before a store takes its
 * answer as arrived (10 seconds, the client's default request timeout): the
 * bound on what a permit that is never settled costs its bucket.
 *
 * @since 0.2.0
 * @category constants
 */
export const inFlightLimit: Duration.Duration = Duration.seconds(10)

interface Bucket {
  /** Arrival times of settled slots, ascending from `head` (older entries are expired). */
  times: Array<number>
  head: number
  /** Grant times of the slots still in flight, by ticket, in grant order. */
  readonly flying: Map<string, number>
  /** The latest grant, for the spacing. */
  last: number
}

/** Inserts `time` into the ascending live part of `bucket.times`. */
const record = (bucket: Bucket, time: number): void => {
  const { times } = bucket
  let i = times.length
  while (i > bucket.head && (times[i - 1] as number) > time) i--
  times.splice(i, 0, time)
}

/**
 * The time the next grant is spaced from, for a grant made `now` that was due
 * at `due`: the due time when the grant came within one spacing of it (a
 * caller that slept until then and woke a little late), so that timer delays
 * do not add up along a train of spaced grants; `now` otherwise (a call after
 * a pause).
 */
const spaceFrom = (now: number, due: number, spacingMillis: number): number => now - due < spacingMillis ? due : now

/**
 * An in-process store: per key, the arrival times of recent slots and the
 * grant times of the slots in flight.
 *
 * @since 0.1.0
 * @category constructors
 */
export const makeMemoryStore: Effect.Effect<RateLimiterStore["Service"]> = Effect.sync(() => {
  const buckets = new Map<string, Bucket>()
  const limitMillis = Duration.toMillis(inFlightLimit)
  let tickets = 0
  return RateLimiterStore.of({
    acquire: ({ key, limit, spacingMillis, windowMillis }) =>
      Effect.clockWith((clock) =>
        Effect.sync((): Acquisition => {
          const now = clock.currentTimeMillisUnsafe()
          let bucket = buckets.get(key)
          if (bucket === undefined) {
            bucket = { times: [], head: 0, flying: new Map(), last: Number.NEGATIVE_INFINITY }
            buckets.set(key, bucket)
          }
          // a slot in flight for too long counts as arrived then (the map is in grant order)
          for (const [ticket, granted] of bucket.flying) {
            if (granted + limitMillis > now) break
            bucket.flying.delete(ticket)
            record(bucket, granted + limitMillis)
          }
          const { times } = bucket
          while (bucket.head < times.length && (times[bucket.head] as number) <= now - windowMillis) bucket.head++
          if (bucket.head > 1024 && bucket.head * 2 > times.length) {
            bucket.times = times.slice(bucket.head)
            bucket.head = 0
          }
          // the slots in flight count as now, the most recent of all: the limit-th most recent slot is
          // either one of them or a settled one
          const flying = bucket.flying.size
          const settled = bucket.times.length - bucket.head
          const edge = flying + settled < limit
            ? Number.NEGATIVE_INFINITY
            : flying >= limit
            ? now + windowMillis
            : (bucket.times[bucket.times.length - (limit - flying)] as number) + windowMillis
          const due = Math.max(bucket.last + spacingMillis, edge)
          if (due > now) return { _tag: "Wait", millis: due - now }
          const ticket = String(tickets++)
          bucket.flying.set(ticket, now)
          bucket.last = spaceFrom(now, due, spacingMillis)
          return { _tag: "Granted", ticket }
        })
      ),
    settle: ({ key, ticket }) =>
      Effect.clockWith((clock) =>
        Effect.sync(() => {
          const bucket = buckets.get(key)
          const granted = bucket?.flying.get(ticket)
          if (bucket === undefined || granted === undefined) return
          bucket.flying.delete(ticket)
          record(bucket, Math.max(granted, clock.currentTimeMillisUnsafe()))
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
type StoreRequest = Parameters<RateLimiterStore["Service"]["acquire"]>[0]

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
const makeAcquire = (store: RateLimiterStore["Service"], { maxWait, maxWaitMillis }: Settings) => {
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
export const make = (options: RateLimitOptions = {}): Effect.Effect<Limiter, never, RateLimiterStore> =>
  Effect.map(RateLimiterStore, (store): Limiter => {
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
