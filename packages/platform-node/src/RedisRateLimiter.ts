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
import { RateLimiterStoreError } from "@bitget-effect/core/BitgetError"
import type { Acquisition } from "@bitget-effect/core/RateLimiter"
import { inFlightLimit, makeMemoryStore, RateLimiterStore, storeFallbacks } from "@bitget-effect/core/RateLimiter"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Metric from "effect/Metric"
import type * as Scope from "effect/Scope"
import type { Redis, RedisOptions } from "ioredis"

// KEYS[1] the bucket, KEYS[2] the time its next grant is spaced from; ARGV: limit, window ms, spacing ms, unique
// member, in-flight limit ms. The bucket holds a slot in flight with its grant time negated, a settled one with the
// arrival of its answer. Answers 0 when the send is granted (and recorded), else the ms to wait before asking again.
const acquireScript = `
local key = KEYS[1]
local limit = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local spacing = tonumber(ARGV[3])
local bound = tonumber(ARGV[5])
local time = redis.call("TIME")
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local flying = redis.call("ZRANGEBYSCORE", key, "-inf", "(0", "WITHSCORES")
local inflight = 0
for i = 1, #flying, 2 do
  local granted = -tonumber(flying[i + 1])
  if granted + bound <= now then
    redis.call("ZADD", key, granted + bound, flying[i])
  else
    inflight = inflight + 1
  end
end
redis.call("ZREMRANGEBYSCORE", key, 0, now - window)
local count = redis.call("ZCARD", key)
local last = tonumber(redis.call("GET", KEYS[2]))
local due = -math.huge
if last then due = last + spacing end
if count >= limit then
  local edge = now + window
  if inflight < limit then
    local rank = count - (limit - inflight)
    edge = tonumber(redis.call("ZRANGE", key, rank, rank, "WITHSCORES")[2]) + window
  end
  due = math.max(due, edge)
end
if due > now then
  return math.ceil(due - now)
end
redis.call("ZADD", key, -now, ARGV[4])
local from = now
if now - due < spacing then from = due end
local ttl = math.ceil(window + bound + 60000)
redis.call("SET", KEYS[2], string.format("%.3f", from), "PX", ttl)
redis.call("PEXPIRE", key, ttl)
return 0
`

// KEYS[1] the bucket; ARGV[1] the member. Records the answer's arrival (Redis's clock) for a slot in flight, or
// moves a settled one to it when that is later.
const settleScript = `
local time = redis.call("TIME")
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
redis.call("ZADD", KEYS[1], "XX", "GT", now, ARGV[1])
return 0
`

interface RedisWithReserve extends Redis {
  bitgetSettle(key: string, member: string): Promise<number>
  bitgetAcquire(
    key: string,
    spacedFrom: string,
    limit: number,
    window: number,
    spacing: number,
    member: string,
    inFlight: number
  ): Promise<number>
}

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

const memoryTicket = "memory:"

/** The readable text of a failure: a connection failure may be an AggregateError with an empty message. */
const errorText = (error: unknown): string => {
  if (!(error instanceof Error)) return "unknown failure"
  if (error.message !== "") return error.message
  if ("errors" in error && Array.isArray(error.errors)) {
    const inner: unknown = error.errors.find((e: unknown) => e instanceof Error && e.message !== "")
    if (inner instanceof Error) return inner.message
  }
  return "code" in error && typeof error.code === "string" ? error.code : error.name
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
    const commandTimeout = redisOptions.commandTimeout ??
      (timeout === undefined ? 1000 : Math.max(1, Math.ceil(Duration.toMillis(timeout))))
    const bound = timeout === undefined ? Duration.millis(commandTimeout) : Duration.fromInputUnsafe(timeout)
    const secrets = [redisOptions.password, redisOptions.sentinelPassword].filter(
      (secret): secret is string => secret !== undefined && secret !== ""
    )
    const redact = (text: string): string => secrets.reduce((out, secret) => out.split(secret).join("<redacted>"), text)
    const describe = (error: unknown): string => redact(errorText(error))
    const unavailable = (reason: string) => new RateLimiterStoreError({ issue: `Redis is unavailable (${reason})` })
    const runFork = Effect.runForkWith(yield* Effect.context<never>())
    const memory = onUnavailable === "memory" ? yield* makeMemoryStore : undefined
    const fallbacks = Metric.withAttributes(storeFallbacks, { store: "redis" })

    // why the connection is down, from its error until it is ready again
    let down: string | undefined
    // whether this outage has been reported
    let reported = false
    const report = (issue: string): Effect.Effect<void> =>
      Effect.suspend(() => {
        if (reported) return Effect.void
        reported = true
        return Effect.logWarning(
          `rate-limit store: ${issue}; ${
            memory === undefined
              ? "calls fail with RateLimiterStoreError"
              : "calls are limited in this process alone"
          } until it answers again`
        )
      })
    const recovered: Effect.Effect<void> = Effect.suspend(() => {
      if (!reported) return Effect.void
      reported = false
      return Effect.logInfo("rate-limit store: Redis answers again")
    })

    // loaded with the first store, not with the package: a program without Redis never pays for it
    const { Redis, ReplyError } = yield* Effect.promise(() => import("ioredis"))
    const redis = yield* Effect.acquireRelease(
      Effect.sync(() => {
        const client = new Redis({
          enableOfflineQueue: false,
          maxRetriesPerRequest: 0,
          retryStrategy: (times) => Math.min(times * 100, 2000),
          ...redisOptions,
          commandTimeout
        }) as RedisWithReserve
        // without a listener ioredis prints every connection error to the console
        client.on("error", (error: unknown) => {
          down = describe(error)
          runFork(report(unavailable(down).issue))
        })
        client.on("ready", () => {
          down = undefined
          runFork(recovered)
        })
        client.defineCommand("bitgetAcquire", { numberOfKeys: 2, lua: acquireScript })
        client.defineCommand("bitgetSettle", { numberOfKeys: 1, lua: settleScript })
        return client
      }),
      (client) =>
        Effect.promise(() => client.status === "ready" ? client.quit().catch(() => "closed") : Promise.resolve(""))
          .pipe(
            Effect.timeout(bound),
            Effect.ignore,
            Effect.ensuring(Effect.sync(() => client.disconnect()))
          )
    )

    /** Ready to send: connected, or connecting for the first time (or again) with no failure seen yet. */
    const connected: Effect.Effect<void, RateLimiterStoreError> = Effect.suspend(() => {
      if (redis.status === "ready") return Effect.void
      if (down !== undefined) return Effect.fail(unavailable(down))
      if (redis.status === "end") return Effect.fail(unavailable("the connection is closed"))
      return Effect.callback<void, RateLimiterStoreError>((resume) => {
        // with lazyConnect, the first call opens the connection
        if (redis.status === "wait") redis.connect().catch(() => undefined)
        const off = () => {
          redis.off("ready", onReady)
          redis.off("error", onError)
        }
        const onReady = () => {
          off()
          resume(Effect.void)
        }
        const onError = (error: unknown) => {
          off()
          resume(Effect.fail(unavailable(describe(error))))
        }
        redis.on("ready", onReady)
        redis.on("error", onError)
        return Effect.sync(off)
      })
    })

    const run = <A>(command: () => Promise<A>): Effect.Effect<A, RateLimiterStoreError> =>
      Effect.andThen(
        connected,
        Effect.tryPromise({
          try: command,
          catch: (error) =>
            error instanceof ReplyError
              ? new RateLimiterStoreError({ issue: `Redis answered with an error (${describe(error)})` })
              : unavailable(describe(error))
        })
      ).pipe(
        Effect.timeoutOrElse({
          duration: bound,
          orElse: () => Effect.fail(unavailable(`no answer within ${Duration.format(bound)}`))
        }),
        Effect.tap(() => recovered)
      )

    const inFlightMillis = Duration.toMillis(inFlightLimit)
    let sequence = 0
    const instance = `${process.pid}-${Math.random().toString(36).slice(2)}`
    const shared = RateLimiterStore.of({
      acquire: ({ key, limit, spacingMillis, windowMillis }) => {
        const ticket = `${instance}-${sequence++}`
        return run(() =>
          redis.bitgetAcquire(
            `${prefix}${key}`,
            `${prefix}${key}:spaced`,
            limit,
            Math.ceil(windowMillis),
            spacingMillis,
            ticket,
            inFlightMillis
          )
        )
          .pipe(
            Effect.map((millis): Acquisition => (millis > 0 ? { _tag: "Wait", millis } : { _tag: "Granted", ticket }))
          )
      },
      settle: ({ key, ticket }) => Effect.asVoid(run(() => redis.bitgetSettle(`${prefix}${key}`, ticket)))
    })
    if (memory === undefined) return shared
    return RateLimiterStore.of({
      acquire: (request) =>
        Effect.catch(
          shared.acquire(request),
          (error) =>
            Effect.andThen(report(error.issue), memory.acquire(request)).pipe(
              Effect.flatMap((answer): Effect.Effect<Acquisition> =>
                answer._tag === "Granted"
                  ? Effect.as(Metric.update(fallbacks, 1), {
                    _tag: "Granted",
                    ticket: `${memoryTicket}${answer.ticket}`
                  })
                  : Effect.succeed(answer)
              )
            )
        ),
      settle: ({ key, ticket }) =>
        ticket.startsWith(memoryTicket)
          ? memory.settle({ key, ticket: ticket.slice(memoryTicket.length) })
          : shared.settle({ key, ticket })
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
export const layer = (options: Options): Layer.Layer<RateLimiterStore> => Layer.effect(RateLimiterStore, make(options))
