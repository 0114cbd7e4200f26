import { RateLimiterStoreError } from "@bitget-effect/core/BitgetError"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import type * as Scope from "effect/Scope"
import type { RedisOptions } from "ioredis"
import type { Outage } from "./redisOutage.js"
import type { ScriptedRedis } from "./redisScripts.js"
import { defineScripts } from "./redisScripts.js"

/**
 * A connection to Redis, closed with its scope.
 *
 * @internal
 */
export interface Connection {
  /**
   * Runs a command once Redis is ready, bounded by the store's timeout (the
   * wait for the connection included); a failure is a `RateLimiterStoreError`.
   */
  readonly run: <A>(command: (redis: ScriptedRedis) => Promise<A>) => Effect.Effect<A, RateLimiterStoreError>
}

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

/** The text of a failure with the passwords of `options` redacted. */
const describer = (options: RedisOptions) => {
  const secrets = [options.password, options.sentinelPassword].filter(
    (secret): secret is string => secret !== undefined && secret !== ""
  )
  const redact = (text: string): string => secrets.reduce((out, secret) => out.split(secret).join("<redacted>"), text)
  return (error: unknown): string => redact(errorText(error))
}

const unavailable = (reason: string) => new RateLimiterStoreError({ issue: `Redis is unavailable (${reason})` })

/** Why the connection is down, from its error until it is ready again (`undefined` while it is not known down). */
interface Health {
  down: string | undefined
}

/** Closes a client: politely when it is connected, within `bound`, then for certain. */
const close = (client: ScriptedRedis, bound: Duration.Duration): Effect.Effect<void> =>
  Effect.promise(() => client.status === "ready" ? client.quit().catch(() => "closed") : Promise.resolve("")).pipe(
    Effect.timeout(bound),
    Effect.ignore,
    Effect.ensuring(Effect.sync(() => client.disconnect()))
  )

/** Waits for the client's next `ready` (the connection is made), or fails on its next error. */
const nextReady = (redis: ScriptedRedis, describe: (error: unknown) => string) =>
  Effect.callback<void, RateLimiterStoreError>((resume) => {
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

/** Ready to send: connected, or connecting for the first time (or again) with no failure seen yet. */
const ready = (redis: ScriptedRedis, health: Health, describe: (error: unknown) => string) =>
  Effect.suspend((): Effect.Effect<void, RateLimiterStoreError> => {
    if (redis.status === "ready") return Effect.void
    if (health.down !== undefined) return Effect.fail(unavailable(health.down))
    if (redis.status === "end") return Effect.fail(unavailable("the connection is closed"))
    return nextReady(redis, describe)
  })

/**
 * ioredis's `commandTimeout` (as given, else from `timeout`, else 1 second)
 * and the bound of a store call (`timeout`, else `commandTimeout`).
 */
const timeouts = (options: RedisOptions, timeout: Duration.Input | undefined) => {
  const commandTimeout = options.commandTimeout ??
    (timeout === undefined ? 1000 : Math.max(1, Math.ceil(Duration.toMillis(timeout))))
  const bound = timeout === undefined ? Duration.millis(commandTimeout) : Duration.fromInputUnsafe(timeout)
  return { bound, commandTimeout }
}

/**
 * Connects to Redis with `options` (closed with the scope), each command
 * bounded by `timeout` (default: `commandTimeout` when given, else 1
 * second). ioredis, loaded here with the first store, runs with no offline
 * queue, no resending and a reconnection at most every 2 seconds unless
 * `options` say otherwise; every outage is told to `outage`.
 *
 * @internal
 */
export const connect = (
  options: RedisOptions,
  timeout: Duration.Input | undefined,
  outage: Outage
): Effect.Effect<Connection, never, Scope.Scope> =>
  Effect.gen(function*() {
    const { bound, commandTimeout } = timeouts(options, timeout)
    const describe = describer(options)
    const runFork = Effect.runForkWith(yield* Effect.context<never>())
    const health: Health = { down: undefined }
    // loaded with the first store, not with the package: a program without Redis never pays for it
    const { Redis, ReplyError } = yield* Effect.promise(() => import("ioredis"))
    const redis = yield* Effect.acquireRelease(
      Effect.sync(() => {
        const client = defineScripts(
          new Redis({
            enableOfflineQueue: false,
            maxRetriesPerRequest: 0,
            retryStrategy: (times) => Math.min(times * 100, 2000),
            ...options,
            commandTimeout
          })
        )
        // without a listener ioredis prints every connection error to the console
        client.on("error", (error: unknown) => {
          health.down = describe(error)
          runFork(outage.report(unavailable(health.down).issue))
        })
        client.on("ready", () => {
          health.down = undefined
          runFork(outage.recovered)
        })
        return client
      }),
      (client) => close(client, bound)
    )
    const failure = (error: unknown) =>
      error instanceof ReplyError
        ? new RateLimiterStoreError({ issue: `Redis answered with an error (${describe(error)})` })
        : unavailable(describe(error))
    const connected = ready(redis, health, describe)
    return {
      run: (command) =>
        Effect.andThen(connected, Effect.tryPromise({ try: () => command(redis), catch: failure })).pipe(
          Effect.timeoutOrElse({
            duration: bound,
            orElse: () => Effect.fail(unavailable(`no answer within ${Duration.format(bound)}`))
          }),
          Effect.tap(() => outage.recovered)
        )
    }
  })
