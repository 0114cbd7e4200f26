/**
 * A `RateLimiterStore` in Redis, for several processes or hosts sharing one
 * API key or IP: every reservation is made atomically by a Lua script on the
 * Redis server's clock (reservations and settlements alike), with the same
 * rule as the memory store (slots in flight count as present until their
 * answer arrives, for at most `RateLimiter.inFlightLimit`).
 *
 * No call waits on Redis for long. Each store call is bounded by `timeout`
 * (1 second by default, the ioredis `commandTimeout` too): a call made while
 * the first connection is being made waits for it within that bound, a call
 * made while Redis is known to be unreachable fails at once (no offline
 * queue, no resending of a reservation whose answer was lost), and the client
 * reconnects in the background every 2 seconds at most. Each outage is logged
 * once, as a warning through Effect's logger, and its end at info level.
 *
 * When Redis cannot be reached, `onUnavailable` decides:
 *
 * - `"fail"` (the default): the call fails with `RateLimiterStoreError`
 *   without being sent. Several processes limiting themselves alone could
 *   together exceed the exchange's limits, and past its IP ceiling the IP is
 *   locked out for 5 minutes, so no call goes out unshared.
 * - `"memory"`: the call is limited by an in-process store instead (as
 *   `RateLimiter.layerMemory`), so this process alone keeps to the limits
 *   while its neighbours do the same; each such slot counts in the
 *   `bitget_rate_limit_store_fallbacks` metric. Choose it when one process,
 *   or few, share the key, and staying up matters more than the risk of
 *   several processes together exceeding a limit during the outage.
 *
 * Messages never carry the `password` or `sentinelPassword` given.
 *
 * @since 0.1.0
 */
import type { Acquisition } from "@bitget-effect/core/RateLimiter"
import { inFlightLimit, makeMemoryStore, RateLimiterStore } from "@bitget-effect/core/RateLimiter"
import { rateLimitStoreFallbacks } from "@bitget-effect/core/Telemetry"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Metric from "effect/Metric"
import type * as Scope from "effect/Scope"
import type { RedisOptions } from "ioredis"
import type { Connection } from "./internal/redisConnection.js"
import { connect } from "./internal/redisConnection.js"
import * as RedisOutage from "./internal/redisOutage.js"

/**
 * The options of the Redis store: the ioredis connection options, and how
 * the store behaves.
 *
 * Unless given, ioredis runs with `commandTimeout` from `timeout`,
 * `enableOfflineQueue: false` (a call while disconnected fails at once),
 * `maxRetriesPerRequest: 0` (a command whose answer was lost is not sent
 * again) and a `retryStrategy` reconnecting after 100 ms more each attempt,
 * at most 2 seconds apart, for as long as the store is in use.
 *
 * @since 0.1.0
 * @category models
 */
export interface Options extends RedisOptions {
  /** Prefix of the bucket keys (default `bitget:ratelimit:`). */
  readonly prefix?: string
  /**
   * The longest a store call may take, waiting for the first connection
   * included, before it counts as unavailable (default: `commandTimeout` when
   * given, else 1 second).
   */
  readonly timeout?: Duration.Input
  /**
   * What a call does when Redis cannot be reached or does not answer in time:
   * `"fail"` (default) with `RateLimiterStoreError`, or `"memory"`, limited by
   * an in-process store until Redis answers again.
   */
  readonly onUnavailable?: "fail" | "memory"
}

/** The prefix of a ticket granted by the in-process fallback. */
const memoryTicket = "memory:"

/** The store on Redis: each call runs one of the scripts, on the bucket's keys under `prefix`. */
const redisStore = (connection: Connection, prefix: string): RateLimiterStore["Service"] => {
  const inFlightMillis = Duration.toMillis(inFlightLimit)
  let sequence = 0
  const instance = `${process.pid}-${Math.random().toString(36).slice(2)}`
  return RateLimiterStore.of({
    acquire: ({ key, limit, spacingMillis, windowMillis }) => {
      const ticket = `${instance}-${sequence++}`
      return connection.run((redis) =>
        redis.bitgetAcquire(
          `${prefix}${key}`,
          `${prefix}${key}:spaced`,
          limit,
          Math.ceil(windowMillis),
          spacingMillis,
          ticket,
          inFlightMillis
        )
      ).pipe(
        Effect.map((millis): Acquisition => (millis > 0 ? { _tag: "Wait", millis } : { _tag: "Granted", ticket }))
      )
    },
    settle: ({ key, ticket }) => Effect.asVoid(connection.run((redis) => redis.bitgetSettle(`${prefix}${key}`, ticket)))
  })
}

/**
 * `shared`, with `memory` taking over each call that `shared` cannot answer
 * (the outage reported, each slot granted so counted); a slot settles in the
 * store that granted it.
 */
const withFallback = (
  shared: RateLimiterStore["Service"],
  memory: RateLimiterStore["Service"],
  report: (issue: string) => Effect.Effect<void>
): RateLimiterStore["Service"] => {
  const fallbacks = Metric.withAttributes(rateLimitStoreFallbacks, { store: "redis" })
  return RateLimiterStore.of({
    acquire: (request) =>
      Effect.catch(
        shared.acquire(request),
        (error) =>
          Effect.andThen(report(error.issue), memory.acquire(request)).pipe(
            Effect.flatMap((answer): Effect.Effect<Acquisition> =>
              answer._tag === "Granted"
                ? Effect.as(Metric.update(fallbacks, 1), { _tag: "Granted", ticket: `${memoryTicket}${answer.ticket}` })
                : Effect.succeed(answer)
            )
          )
      ),
    settle: ({ key, ticket }) =>
      ticket.startsWith(memoryTicket)
        ? memory.settle({ key, ticket: ticket.slice(memoryTicket.length) })
        : shared.settle({ key, ticket })
  })
}

/**
 * Connects to Redis (closed with the scope) and makes the store. Keys are
 * prefixed with `prefix` (default `bitget:ratelimit:`); see `Options` for
 * the bounds and the choice when Redis is unreachable.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (options: Options): Effect.Effect<RateLimiterStore["Service"], never, Scope.Scope> =>
  Effect.gen(function*() {
    const { onUnavailable = "fail", prefix = "bitget:ratelimit:", timeout, ...redisOptions } = options
    const memory = onUnavailable === "memory" ? yield* makeMemoryStore : undefined
    const outage = RedisOutage.make(memory !== undefined)
    const shared = redisStore(yield* connect(redisOptions, timeout, outage), prefix)
    return memory === undefined ? shared : withFallback(shared, memory, outage.report)
  })

/**
 * The Redis store as a layer; provide it to `BitgetClient.layer` (or
 * `BitgetNode.layer`) to share rate limits between processes.
 *
 * @example
 * ```ts
 * import { FundNetFlow } from "@bitget-effect/core"
 * import { BitgetNode, RedisRateLimiter } from "@bitget-effect/platform-node"
 * import { Effect, Layer } from "effect"
 *
 * // Every process built with this layer counts its calls in the same Redis buckets.
 * const client = BitgetNode.layerConfig().pipe(
 *   Layer.provide(RedisRateLimiter.layer({ host: "127.0.0.1", port: 6379 }))
 * )
 *
 * const program = FundNetFlow.fundNetFlow({ symbol: "BTCUSDT" }).pipe(Effect.provide(client))
 * ```
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = (options: Options): Layer.Layer<RateLimiterStore> => Layer.effect(RateLimiterStore, make(options))
