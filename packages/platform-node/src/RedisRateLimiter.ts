/**
 * A `RateLimiterStore` in Redis, for several processes or hosts sharing one
 * API key or IP: every reservation is made atomically by a Lua script on the
 * Redis server's clock, with the same sliding-window rule as the memory store.
 *
 * @since 0.1.0
 */
import { RateLimiterStoreError } from "@bitget-effect/core/BitgetError"
import { RateLimiterStore } from "@bitget-effect/core/RateLimiter"
import { Effect, Layer, Option } from "effect"
import type { Scope } from "effect"
import type { RedisOptions } from "ioredis"
import { Redis } from "ioredis"

// KEYS[1] the bucket; ARGV: limit, window ms, max delay ms (-1: none), unique member.
// Answers the delay in ms until the reserved send time, or -1 when it would exceed the max delay.
const reserveScript = `
local key = KEYS[1]
local limit = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local maxDelay = tonumber(ARGV[3])
local time = redis.call("TIME")
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
redis.call("ZREMRANGEBYSCORE", key, "-inf", now - window)
local count = redis.call("ZCARD", key)
local at = now
if count >= limit then
  local edge = redis.call("ZRANGE", key, count - limit, count - limit, "WITHSCORES")
  at = math.max(now, tonumber(edge[2]) + window)
end
if maxDelay >= 0 and at - now > maxDelay then
  return -1
end
redis.call("ZADD", key, at, ARGV[4])
redis.call("PEXPIRE", key, at - now + window)
return at - now
`

interface RedisWithReserve extends Redis {
  bitgetReserve(key: string, limit: number, window: number, maxDelay: number, member: string): Promise<number>
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
        client.defineCommand("bitgetReserve", { numberOfKeys: 1, lua: reserveScript })
        return client
      }),
      (client) => Effect.promise(() => client.quit().catch(() => "closed"))
    )
    let sequence = 0
    const instance = `${process.pid}-${Math.random().toString(36).slice(2)}`
    return RateLimiterStore.of({
      reserve: ({ key, limit, maxDelayMillis, windowMillis }) =>
        Effect.tryPromise({
          try: () =>
            redis.bitgetReserve(`${prefix}${key}`, limit, Math.ceil(windowMillis), maxDelayMillis ?? -1, `${instance}-${sequence++}`),
          catch: (error) =>
            new RateLimiterStoreError({ issue: error instanceof Error ? error.message : "the Redis command failed" })
        }).pipe(Effect.map((delay) => (delay < 0 ? Option.none() : Option.some(delay))))
    })
  })

/**
 * The Redis store as a layer; provide it to `BitgetClient.layer` (or
 * `BitgetNode.layer`) to share rate limits between processes.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = (options: RedisOptions & { readonly prefix?: string }): Layer.Layer<RateLimiterStore> =>
  Layer.scoped(RateLimiterStore, make(options))
