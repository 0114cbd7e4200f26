import { assert, describe, it } from "@effect/vitest"
import { Clock, Duration, Effect, Fiber, Logger } from "effect"
import { TestClock } from "effect/testing"
import type { RateLimit } from "../src/Endpoint.js"
import * as RateLimiter from "../src/RateLimiter.js"
import * as Symbols from "../src/Symbols.js"
import { advance, exchange, ok, quiesce } from "./support.js"

const tenPerSecond: RateLimit = { limit: 10, window: "1 second", scope: "uid" }
const endpoint = (name: string, rateLimit: RateLimit = tenPerSecond) => ({ name, label: `GET /${name}`, rateLimit })

/** Takes a slot and settles it at once, as a call answered in no time; answers the clock time of the slot. */
const call = (limiter: RateLimiter.Limiter, name = "a", identity = "key") =>
  limiter.take(endpoint(name), identity).pipe(
    Effect.flatMap((permit) => permit.settle),
    Effect.andThen(Clock.currentTimeMillis)
  )

/**
 * Starts `count` calls at once and answers the clock time at which each got its slot. The calls are forked by the
 * caller's fiber, one after another (on Effect 4 a fiber forked by a worker of a concurrent `forEach` is interrupted
 * when that worker ends); none runs before the caller yields, and the clock does not move meanwhile.
 */
const burst = (limiter: RateLimiter.Limiter, count: number, name = "a", identity = "key") =>
  Effect.forEach(Array.from({ length: count }), () => Effect.forkChild(call(limiter, name, identity)))

/** A limiter in memory; bursts unless the test asks for smoothing. */
const limiterWith = (options: RateLimiter.RateLimitOptions) =>
  RateLimiter.make({ smoothing: 0, ...options }).pipe(Effect.provide(RateLimiter.layerMemory))

describe("RateLimiter", () => {
  it.effect("lets a burst through at exactly the limit per window", () =>
    Effect.gen(function*() {
      const limiter = yield* limiterWith({ margin: 0 })
      const fibers = yield* burst(limiter, 25)
      yield* TestClock.adjust("2 seconds")
      const starts = (yield* Effect.forEach(fibers, Fiber.join)).sort((a, b) => a - b)
      assert.deepStrictEqual(starts, [...Array(10).fill(0), ...Array(10).fill(1000), ...Array(5).fill(2000)])
    }))

  it.effect("adds the safety margin to every window", () =>
    Effect.gen(function*() {
      const limiter = yield* limiterWith({})
      const fibers = yield* burst(limiter, 11)
      yield* TestClock.adjust("2 seconds")
      const starts = (yield* Effect.forEach(fibers, Fiber.join)).sort((a, b) => a - b)
      assert.strictEqual(starts[10], 1002)
    }))

  it.effect("spreads a burst at twice the average rate by default", () =>
    Effect.gen(function*() {
      const limiter = yield* RateLimiter.make({ margin: 0 }).pipe(Effect.provide(RateLimiter.layerMemory))
      const fibers = yield* burst(limiter, 12)
      yield* TestClock.adjust("2 seconds")
      const starts = (yield* Effect.forEach(fibers, Fiber.join)).sort((a, b) => a - b)
      assert.deepStrictEqual(starts, [0, 50, 100, 150, 200, 250, 300, 350, 400, 450, 1000, 1050])
    }))

  it.effect("counts a window from when the answer arrived, when that is later than the slot", () =>
    Effect.gen(function*() {
      const limiter = yield* limiterWith({ margin: 0 })
      const one = endpoint("one", { limit: 1, window: "1 second", scope: "uid" })
      const permit = yield* limiter.take(one, "k")
      yield* TestClock.adjust("300 millis") // the first call was slow to arrive
      yield* permit.settle
      const next = yield* Effect.forkChild(Effect.andThen(limiter.take(one, "k"), Clock.currentTimeMillis))
      yield* TestClock.adjust("1 second")
      assert.strictEqual(yield* Fiber.join(next), 1300)
    }))

  it.effect("settles without holding up the caller when the store never answers, giving up after a bound", () =>
    Effect.gen(function*() {
      const memory = yield* RateLimiter.makeMemoryStore
      const asked: Array<number> = []
      const store = RateLimiter.RateLimiterStore.of({
        acquire: (request) =>
          Effect.andThen(Effect.map(Clock.currentTimeMillis, (now) => asked.push(now)), memory.acquire(request)),
        settle: () => Effect.never
      })
      const warnings: Array<string> = []
      const logger = Logger.make(({ logLevel, message }) => {
        if (logLevel === "Warn") warnings.push(Array.isArray(message) ? message.join(" ") : String(message))
      })
      const limiter = yield* RateLimiter.make({ margin: 0 }).pipe(
        Effect.provideService(RateLimiter.RateLimiterStore, store)
      )
      const one = endpoint("one", { limit: 1, window: "1 second", scope: "uid" })
      const permit = yield* limiter.take(one, "k")
      yield* TestClock.adjust("300 millis")
      // as the client settles: in a finalizer, once the answer has arrived; the clock does not move meanwhile
      yield* Effect.void.pipe(
        Effect.ensuring(permit.settle),
        Effect.provide(Logger.layer([logger, Logger.tracerLogger]))
      )
      assert.strictEqual(yield* Clock.currentTimeMillis, 300)
      // the next take of the bucket waits for the settlement only until it is given up (2 s), then asks the store
      asked.length = 0
      const next = yield* Effect.forkChild(Effect.andThen(limiter.take(one, "k"), Clock.currentTimeMillis))
      yield* TestClock.adjust("2 seconds")
      assert.deepStrictEqual(asked.slice(0, 2), [2300, 2300])
      // one warning for each of the call's two slots (the endpoint's and the IP ceiling's)
      assert.strictEqual(warnings.length, 2)
      for (const warning of warnings) assert.include(warning, "settling a slot took longer than 2s")
      // the store never heard of the answer: the slot counts as in flight for inFlightLimit, then as arrived
      yield* TestClock.adjust("10 seconds")
      assert.strictEqual(yield* Fiber.join(next), Duration.toMillis(RateLimiter.inFlightLimit) + 1000)
    }))

  it.effect("a settlement lands before the next take of the same bucket", () =>
    Effect.gen(function*() {
      const limiter = yield* limiterWith({ margin: 0, maxWait: "500 millis" })
      const one = endpoint("one", { limit: 1, window: "1 second", scope: "uid" })
      const permit = yield* limiter.take(one, "k")
      yield* TestClock.adjust("1 second") // the answer took the whole window to arrive
      yield* permit.settle
      // settled at 1000, so the window is full until 2000, past maxWait
      const error = yield* Effect.flip(limiter.take(one, "k"))
      assert.strictEqual(error._tag, "RateLimitWaitExceeded")
    }))

  it.effect("settles the IP ceiling's slot as well as the endpoint's", () =>
    Effect.gen(function*() {
      const memory = yield* RateLimiter.makeMemoryStore
      const settled: Array<string> = []
      const store = RateLimiter.RateLimiterStore.of({
        acquire: memory.acquire,
        settle: (slot) => Effect.andThen(Effect.sync(() => settled.push(slot.key)), memory.settle(slot))
      })
      const limiter = yield* RateLimiter.make({ margin: 0, smoothing: 0 }).pipe(
        Effect.provideService(RateLimiter.RateLimiterStore, store)
      )
      const permit = yield* limiter.take(endpoint("a"), "key")
      yield* permit.settle
      // the next take of each bucket waits for its settlement
      yield* limiter.take(endpoint("a"), "key")
      assert.deepStrictEqual(settled.sort(), ["ip:*", RateLimiter.bucketKey("a", "uid", "key")].sort())
    }))

  it.effect("keeps endpoints and API keys apart", () =>
    Effect.gen(function*() {
      const limiter = yield* limiterWith({ margin: 0 })
      yield* burst(limiter, 10, "slow")
      const other = yield* burst(limiter, 1, "fast")
      const otherKey = yield* burst(limiter, 1, "slow", "another-key")
      const starts = yield* Effect.forEach([...other, ...otherKey], Fiber.join)
      assert.deepStrictEqual(starts, [0, 0])
    }))

  it.effect("fails with a typed error when the wait would exceed maxWait, reserving nothing", () =>
    Effect.gen(function*() {
      const limiter = yield* limiterWith({ margin: 0, maxWait: "500 millis" })
      const one = endpoint("one", { limit: 1, window: "1 second", scope: "uid" })
      yield* Effect.flatMap(limiter.take(one, "k"), (permit) => permit.settle)
      const error = yield* Effect.flip(limiter.take(one, "k"))
      assert.strictEqual(error._tag, "RateLimitWaitExceeded")
      assert.include(error.message, "500ms")
      yield* TestClock.adjust("1 second")
      yield* limiter.take(one, "k")
    }))

  it.effect("applies overrides by endpoint name", () =>
    Effect.gen(function*() {
      const limiter = yield* limiterWith({ margin: 0, overrides: { a: { limit: 2, window: "1 second" } } })
      const fibers = yield* burst(limiter, 3)
      yield* TestClock.adjust("1 second")
      assert.deepStrictEqual((yield* Effect.forEach(fibers, Fiber.join)).sort((a, b) => a - b), [0, 0, 1000])
    }))

  it.effect("holds every endpoint under the 6000 per minute IP ceiling", () =>
    Effect.gen(function*() {
      const limiter = yield* limiterWith({ margin: 0, overrides: { a: { limit: 100_000, window: "1 second" } } })
      const fibers = yield* burst(limiter, 6001)
      yield* TestClock.adjust("61 seconds")
      const starts = (yield* Effect.forEach(fibers, Fiber.join)).sort((a, b) => a - b)
      assert.strictEqual(starts.filter((t) => t === 0).length, 6000)
      assert.strictEqual(starts[6000], 60_000)
    }), 60_000) // 6001 calls: about 2 s alone, so a loaded machine must not fail it

  it.effect(
    "keeps every rolling minute under 6000 sends under steady load across endpoints and keys",
    () =>
      Effect.gen(function*() {
        // endpoints and keys whose own limits never bind: only the IP ceiling holds the calls back
        const limiter = yield* limiterWith({
          margin: 0,
          overrides: Object.fromEntries(["a", "b", "c"].map((name) => [name, { limit: 100_000, window: "1 second" }]))
        })
        const fibers: Array<Fiber.Fiber<number, unknown>> = []
        // 150 calls a second for 80 seconds: 12,000 calls, twice the ceiling's minute
        for (let second = 0; second < 80; second++) {
          for (const [name, identity] of [["a", "k1"], ["b", "k1"], ["c", "k2"]] as const) {
            fibers.push(...(yield* burst(limiter, 50, name, identity)))
          }
          yield* TestClock.adjust("1 second")
        }
        yield* TestClock.adjust("3 minutes")
        const starts = (yield* Effect.forEach(fibers, Fiber.join)).sort((a, b) => a - b)
        assert.strictEqual(starts.length, 12_000)
        // any 6001 consecutive sends span at least a minute
        const crowded = starts.findIndex((start, i) => i + 6000 < starts.length && starts[i + 6000]! - start < 60_000)
        assert.strictEqual(crowded, -1, `6001 sends within a minute from ${starts[crowded]} ms`)
        // and the ceiling is used, not undershot: the first minute sends 6000
        assert.strictEqual(starts.filter((start) => start < 60_000).length, 6000)
      }),
    60_000 // 12,000 calls: about 4 s alone, so a loaded machine must not fail it
  )

  it.effect("does nothing when switched off", () =>
    Effect.gen(function*() {
      const limiter = yield* limiterWith({ enabled: false })
      const fibers = yield* burst(limiter, 50)
      assert.deepStrictEqual(yield* Effect.forEach(fibers, Fiber.join), Array(50).fill(0))
    }))

  it.effect("makes client calls wait for their turn (symbols: 20 per second per IP)", () => {
    const { layer, requests } = exchange(() => ok([]), { rateLimit: { smoothing: 0 } })
    return Effect.gen(function*() {
      const fiber = yield* Effect.forkChild(
        Effect.all(Array.from({ length: 21 }, () => Symbols.symbols()), { concurrency: "unbounded" })
      )
      yield* quiesce
      yield* TestClock.adjust("1001 millis")
      assert.strictEqual(requests.length, 20)
      yield* TestClock.adjust("1 millis")
      yield* Fiber.join(fiber)
      assert.strictEqual(requests.length, 21)
    }).pipe(Effect.provide(layer))
  })

  it.effect("counts a client call's slot from the arrival of its answer, not from its send", () => {
    // symbols at one call a second, each answered 300 ms after it was sent
    const { layer, sentAt } = exchange(
      () => ok([]),
      { rateLimit: { margin: 0, overrides: { "spot.symbols": { limit: 1, window: "1 second" } } } },
      "300 millis"
    )
    return Effect.gen(function*() {
      const fiber = yield* Effect.forkChild(Effect.andThen(Symbols.symbols(), Symbols.symbols()))
      yield* advance("2 seconds")
      yield* Fiber.join(fiber)
      // the first answer arrived at 300 ms: its window ends at 1300 ms (at 1000 ms had the slot been settled as sent)
      assert.deepStrictEqual(sentAt, [0, 1300])
    }).pipe(Effect.provide(layer))
  })
})
