/**
 * Where a rate limiter keeps its send times: the store contract
 * (`RateLimiterStore`), with the in-process store (`layerMemory`). A store
 * shared by several processes or hosts (Redis, in
 * `@bitget-effect/platform-node`) implements the same contract.
 *
 * @since 0.3.0
 */
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type { RateLimiterStoreError } from "./BitgetError.js"

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
