import * as RateLimiter from "@bitget-effect/core/RateLimiter"
import { assert, describe, it } from "@effect/vitest"
import type { LogLevel } from "effect"
import { Clock, Duration, Effect, Fiber, Logger, Metric } from "effect"
import { Redis } from "ioredis"
import { execFile, execFileSync, spawn } from "node:child_process"
import type { Socket } from "node:net"
import { createServer } from "node:net"
import { fileURLToPath } from "node:url"
import * as RedisRateLimiter from "../src/RedisRateLimiter.js"

const hasRedis = (() => {
  try {
    execFileSync("redis-server", ["--version"])
    return true
  } catch {
    return false
  }
})()

const freePort = Effect.callback<number>((resume) => {
  const server = createServer()
  server.listen(0, "127.0.0.1", () => {
    const address = server.address()
    const port = typeof address === "object" && address !== null ? address.port : 0
    server.close(() => resume(Effect.succeed(port)))
  })
})

/** A redis-server on loopback, on the given port, for the test's scope. */
const redisServerOn = (port: number) =>
  Effect.acquireRelease(
    Effect.callback<ReturnType<typeof spawn>>((resume) => {
      const child = spawn("redis-server", [
        "--port",
        String(port),
        "--bind",
        "127.0.0.1",
        "--save",
        "",
        "--appendonly",
        "no"
      ])
      child.stdout?.on("data", (chunk: Buffer) => {
        if (chunk.toString().includes("Ready to accept connections")) resume(Effect.succeed(child))
      })
    }),
    (child) => Effect.sync(() => child.kill())
  )

/** A redis-server on loopback for the test's scope. */
const redisServer = Effect.gen(function*() {
  const port = yield* freePort
  yield* redisServerOn(port)
  return port
})

/** A server on loopback that accepts connections and never answers, like a Redis that hangs. */
const silentServer = Effect.acquireRelease(
  Effect.callback<{ readonly port: number; readonly close: () => void }>((resume) => {
    const sockets = new Set<Socket>()
    const server = createServer((socket) => {
      sockets.add(socket)
      socket.on("close", () => sockets.delete(socket))
    })
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      const port = typeof address === "object" && address !== null ? address.port : 0
      resume(Effect.succeed({
        port,
        close: () => {
          for (const socket of sockets) socket.destroy()
          server.close()
        }
      }))
    })
  }),
  (server) => Effect.sync(server.close)
)

/** Warnings and infos logged while the effect runs (the store's scope included). */
const logged = <A, E, R>(effect: Effect.Effect<A, E, R>) => {
  const lines: Array<{ readonly level: LogLevel.LogLevel; readonly message: string }> = []
  const logger = Logger.make(({ logLevel, message }) => {
    lines.push({ level: logLevel, message: Array.isArray(message) ? message.join(" ") : String(message) })
  })
  return Effect.map(
    effect.pipe(Effect.provide(Logger.layer([logger]))),
    (a) => [a, lines] as const
  )
}

const symbols = {
  name: "spot.symbols",
  label: "GET /api/v2/spot/public/symbols",
  rateLimit: { limit: 5, window: "1 second", scope: "ip" }
} as const

/** Takes a slot of `symbols` and settles it at once, as a call answered in no time. */
const call = (limiter: RateLimiter.Limiter) =>
  Effect.flatMap(limiter.take(symbols, "shared"), (permit) => permit.settle)

const fallbacks = Metric.withAttributes(RateLimiter.storeFallbacks, { store: "redis" })

const worker = fileURLToPath(new URL("./fixtures/redisWorker.ts", import.meta.url))
const tsx = fileURLToPath(new URL("../../../node_modules/.bin/tsx", import.meta.url))

const runWorker = (script: string, ...args: ReadonlyArray<number>) =>
  Effect.callback<{ readonly stdout: string; readonly stderr: string }, Error>((resume) => {
    execFile(tsx, ["--conditions=@bitget-effect/source", script, ...args.map(String)], {
      cwd: fileURLToPath(new URL("..", import.meta.url)),
      timeout: 60_000
    }, (error, stdout, stderr) =>
      resume(
        error
          ? Effect.fail(new Error(`${error.message}\n${stderr}`))
          : Effect.succeed({ stdout, stderr })
      ))
  })

const unavailableWorker = fileURLToPath(new URL("./fixtures/redisUnavailableWorker.ts", import.meta.url))

describe("RedisRateLimiter", () => {
  // CI installs redis-server (.ci/run), so there the test always runs
  it.live.skipIf(!hasRedis && process.env.CI !== "true")(
    "keeps two processes sharing one key under the limit together",
    () =>
      Effect.gen(function*() {
        const port = yield* redisServer
        const [a, b] =
          (yield* Effect.all([runWorker(worker, port, 10, 2), runWorker(worker, port, 10, 2)], { concurrency: 2 })).map(
            (
              { stdout }
            ) => JSON.parse(stdout) as Array<number>
          )
        const grants = [...a!, ...b!].sort((x, y) => x - y)
        assert.strictEqual(grants.length, 20)
        // 5 per second between them: no span shorter than a window holds more than 5 grants. Redis
        // grants on its own clock; each process stamps a grant after a round trip, late by up to ~100 ms on
        // a loaded machine, so allow 150 ms of skew (two unshared buckets would allow 10 a second: spans
        // near 500 ms)
        for (let i = 0; i + 5 < grants.length; i++) {
          assert.isAtLeast(grants[i + 5]! - grants[i]!, 850, `grants ${i} and ${i + 5} too close`)
        }
        // and both processes were held back, not just one
        assert.isAbove(a!.at(-1)! - a![0]!, 1000)
        assert.isAbove(b!.at(-1)! - b![0]!, 1000)
      }),
    30_000
  )

  it.live.skipIf(!hasRedis && process.env.CI !== "true")(
    "counts a slot as present while its call is on its way, and spaces grants from the latest grant",
    () =>
      Effect.scoped(Effect.gen(function*() {
        const port = yield* redisServer
        const store = yield* RedisRateLimiter.make({ host: "127.0.0.1", port })
        const limiter = yield* RateLimiter.make({ margin: 0, smoothing: 1 }).pipe(
          Effect.provideService(RateLimiter.RateLimiterStore, store)
        )
        const one = { ...symbols, name: "one", rateLimit: { limit: 1, window: "1 second", scope: "ip" } } as const
        const permit = yield* limiter.take(one, "shared")
        const next = yield* Effect.forkChild(Effect.andThen(limiter.take(one, "shared"), Clock.currentTimeMillis))
        // a whole window after the grant the call has not been answered: the next one still waits
        yield* Effect.sleep("1200 millis")
        assert.isUndefined(next.pollUnsafe())
        yield* permit.settle
        const answered = yield* Clock.currentTimeMillis
        // counted from the answer's arrival (Redis's clock and this one may differ by a millisecond or two)
        assert.isAtLeast((yield* Fiber.join(next)) - answered, 990)
        // 2 a second spaced evenly: 500 ms after the latest grant, however late the answer came
        const two = { ...symbols, name: "two", rateLimit: { limit: 2, window: "1 second", scope: "ip" } } as const
        const first = yield* limiter.take(two, "shared")
        const granted = yield* Clock.currentTimeMillis
        yield* Effect.sleep("300 millis")
        yield* first.settle
        yield* limiter.take(two, "shared")
        const spaced = (yield* Clock.currentTimeMillis) - granted
        assert.isAtLeast(spaced, 490)
        assert.isBelow(spaced, 790, "spaced from the answer (800 ms), not the grant (500 ms)")
      })),
    30_000
  )

  it.live.skipIf(!hasRedis && process.env.CI !== "true")(
    "loads its scripts again when Redis has forgotten them, and tells Redis's own errors apart",
    () =>
      Effect.scoped(Effect.gen(function*() {
        const port = yield* redisServer
        const store = yield* RedisRateLimiter.make({ host: "127.0.0.1", port })
        const request = { key: "ip:loaded", limit: 5, windowMillis: 1000, spacingMillis: 0 }
        assert.strictEqual((yield* store.acquire(request))._tag, "Granted")
        const admin = yield* Effect.acquireRelease(
          Effect.sync(() => new Redis({ host: "127.0.0.1", port })),
          (client) => Effect.sync(() => client.disconnect())
        )
        // as after a restart of Redis: the scripts loaded by hash are gone
        yield* Effect.promise(() => admin.call("SCRIPT", "FLUSH"))
        assert.strictEqual((yield* store.acquire(request))._tag, "Granted")
        yield* Effect.promise(() => admin.set("bitget:ratelimit:ip:broken", "not a bucket"))
        const error = yield* Effect.flip(store.acquire({ ...request, key: "ip:broken" }))
        assert.include(error.message, "Redis answered with an error (")
        assert.include(error.message, "WRONGTYPE")
      })),
    30_000
  )

  it.live(
    "fails at once with a typed error when Redis is unreachable, reporting the outage once and printing nothing",
    () =>
      Effect.gen(function*() {
        const port = yield* freePort // nothing listens there
        const { stderr, stdout } = yield* runWorker(unavailableWorker, port, 5)
        const { results, warnings } = JSON.parse(stdout) as {
          readonly results: ReadonlyArray<{ readonly millis: number; readonly outcome: string }>
          readonly warnings: ReadonlyArray<string>
        }
        assert.strictEqual(results.length, 5)
        for (const { millis, outcome } of results) {
          assert.match(outcome, /^RateLimiterStoreError: rate limiter store failed: Redis is unavailable \(/)
          // a hang check, not a speed one: before, the first take waited for 20 reconnections (10 s and more)
          assert.isBelow(millis, 3000)
        }
        // the client kept reconnecting meanwhile; one warning for the outage, through Effect's logger
        assert.strictEqual(warnings.length, 1)
        assert.include(warnings[0], "Redis is unavailable")
        assert.notInclude(stderr, "Unhandled error event")
        assert.notInclude(stdout + stderr, "hunter2-do-not-print")
      }),
    60_000
  )

  it.live(
    "gives up on a Redis that accepts the connection and never answers, within the timeout",
    () =>
      Effect.gen(function*() {
        const server = yield* silentServer
        const password = "hunter2-do-not-print"
        const [[error, elapsed], lines] = yield* logged(Effect.scoped(Effect.gen(function*() {
          const store = yield* RedisRateLimiter.make({ host: "127.0.0.1", port: server.port, password })
          const limiter = yield* RateLimiter.make({ margin: 0 }).pipe(
            Effect.provideService(RateLimiter.RateLimiterStore, store)
          )
          return yield* Effect.timed(Effect.flip(limiter.take(symbols, "shared"))).pipe(
            Effect.map(([duration, error]) => [error, duration] as const)
          )
        })))
        assert.strictEqual(error._tag, "RateLimiterStoreError")
        assert.include(error.message, "Redis is unavailable")
        assert.isBelow(Duration.toMillis(elapsed), 5000) // a hang check: before, this take never ended
        assert.notInclude(error.message, password)
        for (const line of lines) assert.notInclude(line.message, password)
      }),
    30_000
  )

  it.live(
    "with onUnavailable: \"memory\", limits calls in the process while Redis is down, warning once",
    () =>
      Effect.gen(function*() {
        const port = yield* freePort // nothing listens there
        const before = (yield* Metric.value(fallbacks)).count
        const [grants, lines] = yield* logged(Effect.scoped(Effect.gen(function*() {
          const store = yield* RedisRateLimiter.make({ host: "127.0.0.1", port, onUnavailable: "memory" })
          const limiter = yield* RateLimiter.make({ margin: 0, smoothing: 0 }).pipe(
            Effect.provideService(RateLimiter.RateLimiterStore, store)
          )
          const grants: Array<number> = []
          for (let i = 0; i < 10; i++) {
            yield* call(limiter)
            grants.push(Date.now())
          }
          return grants
        })))
        // the in-process store still keeps 5 a second
        assert.strictEqual(grants.length, 10)
        assert.isAtLeast(grants[5]! - grants[0]!, 950)
        const warnings = lines.filter((line) => line.level === "Warn")
        assert.strictEqual(warnings.length, 1, JSON.stringify(warnings))
        assert.include(warnings[0]!.message, "Redis is unavailable")
        assert.include(warnings[0]!.message, "limited in this process alone")
        // two buckets a take: the endpoint's and the IP ceiling's
        assert.strictEqual((yield* Metric.value(fallbacks)).count - before, 20)
      }),
    30_000
  )

  it.live.skipIf(!hasRedis && process.env.CI !== "true")(
    "with onUnavailable: \"memory\", goes back to Redis once it answers again",
    () =>
      Effect.gen(function*() {
        const port = yield* freePort
        const [_, lines] = yield* logged(Effect.scoped(Effect.gen(function*() {
          const store = yield* RedisRateLimiter.make({ host: "127.0.0.1", port, onUnavailable: "memory" })
          const limiter = yield* RateLimiter.make({ margin: 0 }).pipe(
            Effect.provideService(RateLimiter.RateLimiterStore, store)
          )
          yield* call(limiter) // Redis is down: limited in memory
          yield* redisServerOn(port)
          const before = (yield* Metric.value(fallbacks)).count
          // the client reconnects by itself, at most 2 s apart
          yield* Effect.sleep("2500 millis")
          yield* call(limiter)
          assert.strictEqual((yield* Metric.value(fallbacks)).count, before)
          const check = new Redis({ host: "127.0.0.1", port, lazyConnect: true })
          const keys = yield* Effect.promise(() => check.keys("bitget:ratelimit:*").finally(() => check.disconnect()))
          assert.includeMembers(keys, ["bitget:ratelimit:ip:spot.symbols", "bitget:ratelimit:ip:*"])
        })))
        const messages = lines.map((line) => `${line.level} ${line.message}`)
        assert.strictEqual(messages.filter((m) => m.startsWith("Warn")).length, 1, JSON.stringify(messages))
        assert.include(messages, "Info rate-limit store: Redis answers again")
      }),
    30_000
  )
})
