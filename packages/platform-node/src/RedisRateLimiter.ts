/**
 * A `RateLimiterStore` in Redis, for several processes or hosts sharing one
 * API key or IP: every reservation is made atomically by a Lua script on the
 * Redis server's clock (reservations and settlements alike), with the same
 * rule as the memory store.
 *
 * @since 0.1.0
 */
import { RateLimiterStoreError } from "@bitget-effect/core/BitgetError"
import type { Acquisition } from "@bitget-effect/core/RateLimiter"
import { RateLimiterStore } from "@bitget-effect/core/RateLimiter"
import { Effect, Layer } from "effect"
import type { Scope } from "effect"
import type { RedisOptions } from "ioredis"
import { Redis } from "ioredis"

// KEYS[1] the bucket; ARGV: limit, window ms, spacing ms, unique member.
// Answers 0 when the send is granted (and recorded), else the ms to wait before asking again.
const acquireScript = `
local key = KEYS[1]
local limit = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local spacing = tonumber(ARGV[3])
local time = redis.call("TIME")
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
redis.call("ZREMRANGEBYSCORE", key, "-inf", now - window)
local count = redis.call("ZCARD", key)
local at = now
if count > 0 then
  local last = redis.call("ZRANGE", key, -1, -1, "WITHSCORES")
  at = math.max(at, tonumber(last[2]) + spacing)
end
if count >= limit then
  local edge = redis.call("ZRANGE", key, count - limit, count - limit, "WITHSCORES")
  at = math.max(at, tonumber(edge[2]) + window)
end
if at > now then
  return math.ceil(at - now)
end
redis.call("ZADD", key, now, ARGV[4])
redis.call("PEXPIRE", key, window + 60000)
return 0
`

// KEYS[1] the bucket; ARGV[1] the member. Moves the reservation to now (Redis's clock) when that is later.
const settleScript = `
local time = redis.call("TIME")
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
redis.call("ZADD", KEYS[1], "XX", "GT", now, ARGV[1])
return 0
`

interface RedisWithReserve extends Redis {
  bitgetSettle(key: string, member: string): Promise<number>
  bitgetAcquire(key: string, limit: number, window: number, spacing: number, member: string): Promise<number>
}

/**
 * Connects to Redis (closed with the scope) and makes the store. Keys are
 * prefixed with `prefix` (default `bitget:ratelimit:`).
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (
  options: RedisOptions & { readonly prefix?: string }
): Effect.Effect<RateLimiterStore["Type"], never, Scope.Scope> =>
  Effect.gen(function*() {
    const { prefix = "bitget:ratelimit:", ...redisOptions } = options
    const redis = yield* Effect.acquireRelease(
      Effect.sync(() => {
        const client = new Redis(redisOptions) as RedisWithReserve
        client.defineCommand("bitgetAcquire", { numberOfKeys: 1, lua: acquireScript })
        client.defineCommand("bitgetSettle", { numberOfKeys: 1, lua: settleScript })
        return client
      }),
      (client) => Effect.promise(() => client.quit().catch(() => "closed"))
    )
    let sequence = 0
    const instance = `${process.pid}-${Math.random().toString(36).slice(2)}`
    const failure = (error: unknown) =>
      new RateLimiterStoreError({ issue: error instanceof Error ? error.message : "the Redis command failed" })
    return RateLimiterStore.of({
      acquire: ({ key, limit, spacingMillis, windowMillis }) => {
        const ticket = `${instance}-${sequence++}`
        return Effect.tryPromise({
          try: () => redis.bitgetAcquire(`${prefix}${key}`, limit, Math.ceil(windowMillis), spacingMillis, ticket),
          catch: failure
        }).pipe(
          Effect.map((millis): Acquisition => (millis > 0 ? { _tag: "Wait", millis } : { _tag: "Granted", ticket }))
        )
      },
      settle: ({ key, ticket }) =>
        Effect.tryPromise({ try: () => redis.bitgetSettle(`${prefix}${key}`, ticket), catch: failure }).pipe(
          Effect.asVoid
        )
    })
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
export const layer = (options: RedisOptions & { readonly prefix?: string }): Layer.Layer<RateLimiterStore> =>
  Layer.scoped(RateLimiterStore, make(options))
