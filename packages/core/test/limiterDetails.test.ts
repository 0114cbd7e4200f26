import { assert, describe, it } from "@effect/vitest"
import { Clock, Effect, Fiber, Logger, Metric, References } from "effect"
import { TestClock } from "effect/testing"
import type { RateLimit } from "../src/Endpoint.js"
import * as RateLimiter from "../src/RateLimiter.js"

const perSecond = (limit: number): RateLimit => ({ limit, window: "1 second", scope: "uid" })
const endpoint = (name: string, rateLimit: RateLimit) => ({ name, label: `GET /limiter/${name}`, rateLimit })

/** A memory store's answers for one key, `at` a clock time (the clock only moves forward). */
const storeAt = Effect.map(RateLimiter.makeMemoryStore, (store) => {
  const at = <A, E>(time: number, effect: Effect.Effect<A, E>) =>
    Effect.andThen(
      Effect.flatMap(Clock.currentTimeMillis, (now) => TestClock.adjust(time - now)),
      effect
    )
  const ticketOf = (answer: RateLimiter.Acquisition): Effect.Effect<string, RateLimiter.Acquisition> =>
    answer._tag === "Granted" ? Effect.succeed(answer.ticket) : Effect.fail(answer)
  return { at, store, ticketOf }
})

/** The series of a metric in the process-wide registry, by name and endpoint (each test uses endpoints of its own). */
const seriesOf = (name: string, endpoint: string) =>
  Effect.map(
    Metric.snapshot,
    (metrics) => metrics.find((metric) => metric.id === name && metric.attributes?.["endpoint"] === endpoint)
  )

describe("the memory store", () => {
  it.effect("answers how long to wait while the window is full", () =>
    Effect.gen(function*() {
      const { store } = yield* storeAt
      const request = { key: "k", limit: 1, windowMillis: 1000, spacingMillis: 0 }
      const first = yield* store.acquire(request)
      assert.strictEqual(first._tag, "Granted")
      if (first._tag === "Granted") yield* store.settle({ key: "k", ticket: first.ticket })
      yield* TestClock.adjust("400 millis")
      assert.deepStrictEqual(yield* store.acquire(request), { _tag: "Wait", millis: 600 })
    }))

  it.effect("counts a slot never answered as arrived before a later answer that came first", () =>
    Effect.gen(function*() {
      const { at, store, ticketOf } = yield* storeAt
      const request = { key: "k", limit: 2, windowMillis: 1000, spacingMillis: 0 }
      yield* Effect.flatMap(store.acquire(request), ticketOf) // never answered: arrived at 10,000 by inFlightLimit
      const later = yield* at(1, Effect.flatMap(store.acquire(request), ticketOf))
      yield* at(10_200, store.settle({ key: "k", ticket: later }))
      // the two most recent arrivals are 10,000 and 10,200: the window has room at 11,000
      assert.deepStrictEqual(yield* at(10_500, store.acquire(request)), { _tag: "Wait", millis: 500 })
      assert.strictEqual((yield* at(11_000, store.acquire(request)))._tag, "Granted")
    }))

  it.effect("spaces the next grant from a grant that came a whole spacing after it was due", () =>
    Effect.gen(function*() {
      const { at, store } = yield* storeAt
      const request = { key: "k", limit: 10, windowMillis: 1000, spacingMillis: 100 }
      yield* store.acquire(request)
      assert.strictEqual((yield* at(200, store.acquire(request)))._tag, "Granted") // due at 100
      assert.deepStrictEqual(yield* store.acquire(request), { _tag: "Wait", millis: 100 })
    }))

  it.effect("ignores settling a slot it does not hold: unknown, or settled already", () =>
    Effect.gen(function*() {
      const { store, ticketOf } = yield* storeAt
      const request = { key: "k", limit: 1, windowMillis: 1000, spacingMillis: 0 }
      yield* store.settle({ key: "never-asked", ticket: "0" })
      const ticket = yield* Effect.flatMap(store.acquire(request), ticketOf)
      yield* store.settle({ key: "k", ticket })
      yield* store.settle({ key: "k", ticket })
      yield* store.settle({ key: "k", ticket: "unknown" })
      // the one slot arrived at 0, and nothing else: the window is full until 1000
      yield* TestClock.adjust("400 millis")
      assert.deepStrictEqual(yield* store.acquire(request), { _tag: "Wait", millis: 600 })
    }))
})

describe("the limiter", () => {
  it.effect("counts a call that waited, with how long, by endpoint; a call granted at once is not counted", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(10_000)
      const debug: Array<string> = []
      const logger = Logger.make(({ logLevel, message }) => {
        if (logLevel === "Debug") debug.push(Array.isArray(message) ? message.join(" ") : String(message))
      })
      const limiter = yield* RateLimiter.make({ margin: 0, smoothing: 0 }).pipe(
        Effect.provide(RateLimiter.layerMemory)
      )
      const one = endpoint("waited", perSecond(1))
      const first = yield* limiter.take(one, "key")
      yield* first.settle
      const next = yield* Effect.forkChild(limiter.take(one, "key"))
      yield* TestClock.adjust("1 second")
      const second = yield* Fiber.join(next)
      yield* second.settle
      assert.deepStrictEqual([first.waitedMillis, second.waitedMillis], [0, 1000])
      const waits = yield* seriesOf("bitget_rate_limit_waits", one.label)
      assert.strictEqual(waits?.type === "Counter" ? waits.state.count : undefined, 1)
      const waitTime = yield* seriesOf("bitget_rate_limit_wait_ms", one.label)
      assert.deepStrictEqual(
        waitTime?.type === "Histogram" ? [waitTime.state.count, waitTime.state.sum] : undefined,
        [1, 1000]
      )
      assert.deepStrictEqual(debug, []) // the debug line is below the default level
      yield* Effect.flatMap(
        Effect.forkChild(limiter.take(one, "key")),
        (fiber) => Effect.andThen(TestClock.adjust("1 second"), Fiber.join(fiber))
      ).pipe(
        Effect.provide(Logger.layer([logger])),
        Effect.provideService(References.MinimumLogLevel, "Debug")
      )
      assert.deepStrictEqual(debug, ["rate limit: GET /limiter/waited waited 1000 ms"])
    }))

  it.effect("does not count a call held only by a settlement under way as waiting", () =>
    Effect.gen(function*() {
      const memory = yield* RateLimiter.makeMemoryStore
      // a shared store takes a round trip to settle
      const store = RateLimiter.RateLimiterStore.of({
        acquire: memory.acquire,
        settle: (slot) => Effect.delay(memory.settle(slot), "300 millis")
      })
      const limiter = yield* RateLimiter.make({ margin: 0 }).pipe(
        Effect.provideService(RateLimiter.RateLimiterStore, store)
      )
      const ten = endpoint("settling", { ...perSecond(10), window: "1 millis" })
      yield* Effect.flatMap(limiter.take(ten, "key"), (permit) => permit.settle)
      const next = yield* Effect.forkChild(limiter.take(ten, "key"))
      yield* TestClock.adjust("300 millis")
      assert.strictEqual((yield* Fiber.join(next)).waitedMillis, 0)
      assert.isUndefined(yield* seriesOf("bitget_rate_limit_waits", ten.label))
    }))

  it.effect("the next take of a bucket waits for every settlement under way, not only the first to end", () =>
    Effect.gen(function*() {
      const memory = yield* RateLimiter.makeMemoryStore
      const asked: Array<number> = []
      const delays = ["100 millis", "500 millis"] as const
      let settling = 0
      // the endpoint's first settlement takes 100 ms, its second 500 ms
      const store = RateLimiter.RateLimiterStore.of({
        acquire: (request) =>
          request.key === "ip:*"
            ? memory.acquire(request)
            : Effect.andThen(Effect.map(Clock.currentTimeMillis, (now) => asked.push(now)), memory.acquire(request)),
        settle: (slot) =>
          slot.key === "ip:*" ? memory.settle(slot) : Effect.delay(memory.settle(slot), delays[settling++] ?? 0)
      })
      const limiter = yield* RateLimiter.make({ margin: 0, smoothing: 0 }).pipe(
        Effect.provideService(RateLimiter.RateLimiterStore, store)
      )
      const ten = endpoint("settlements", perSecond(10))
      const permits = [yield* limiter.take(ten, "key"), yield* limiter.take(ten, "key")]
      yield* Effect.forEach(permits, (permit) => permit.settle)
      yield* TestClock.adjust("100 millis")
      const next = yield* Effect.forkChild(limiter.take(ten, "key"))
      yield* TestClock.adjust("400 millis")
      yield* Fiber.join(next)
      assert.deepStrictEqual(asked, [0, 0, 500])
    }))

  it.effect("counts the time a caller spent queued behind another, though granted at its first ask", () =>
    Effect.gen(function*() {
      const memory = yield* RateLimiter.makeMemoryStore
      // the store takes 200 ms to answer the endpoint's bucket
      const store = RateLimiter.RateLimiterStore.of({
        acquire: (request) =>
          request.key === "ip:*" ? memory.acquire(request) : Effect.delay(memory.acquire(request), "200 millis"),
        settle: memory.settle
      })
      const limiter = yield* RateLimiter.make({ margin: 0, smoothing: 0 }).pipe(
        Effect.provideService(RateLimiter.RateLimiterStore, store)
      )
      const ten = endpoint("queued", perSecond(10))
      const fibers = yield* Effect.forEach([1, 2], () => Effect.forkChild(limiter.take(ten, "key")))
      yield* TestClock.adjust("400 millis")
      const permits = yield* Effect.forEach(fibers, Fiber.join)
      // the second waited for the first (200 ms), then for its own answer of the store (200 ms)
      assert.deepStrictEqual(permits.map((permit) => permit.waitedMillis), [0, 400])
    }))

  it.effect("lets a call wait exactly maxWait", () =>
    Effect.gen(function*() {
      const limiter = yield* RateLimiter.make({ margin: 0, maxWait: "1 second" }).pipe(
        Effect.provide(RateLimiter.layerMemory)
      )
      const one = endpoint("exactly", perSecond(1))
      yield* Effect.flatMap(limiter.take(one, "key"), (permit) => permit.settle)
      const next = yield* Effect.forkChild(limiter.take(one, "key"))
      yield* TestClock.adjust("1 second")
      assert.strictEqual((yield* Fiber.join(next)).waitedMillis, 1000)
    }))
})

describe("names", () => {
  it("keys a UID-scoped bucket by the FNV-1a hash of the API key, an IP-scoped one by the endpoint alone", () => {
    // FNV-1a (32 bits) of "" and "a", the published test vectors
    assert.strictEqual(RateLimiter.bucketKey("spot.symbols", "uid", ""), "uid:811c9dc5:spot.symbols")
    assert.strictEqual(RateLimiter.bucketKey("spot.symbols", "uid", "a"), "uid:e40c292c:spot.symbols")
    assert.strictEqual(RateLimiter.bucketKey("spot.symbols", "uid", "foobar"), "uid:bf9cf968:spot.symbols")
    assert.strictEqual(RateLimiter.bucketKey("spot.symbols", "ip", "a"), "ip:spot.symbols")
  })

  it("states the exchange's IP ceiling, and the store's service key", () => {
    assert.deepStrictEqual(RateLimiter.ipCeiling, { limit: 6000, window: "1 minute", scope: "ip" })
    assert.strictEqual(RateLimiter.RateLimiterStore.key, "@bitget-effect/core/RateLimiterStore")
  })

  it.effect("exports its metrics under their documented names and descriptions", () =>
    Effect.gen(function*() {
      const endpoint = "GET /limiter/names"
      const counters = [
        [RateLimiter.waits, "bitget_rate_limit_waits", "calls delayed by the client-side rate limiter"],
        [
          RateLimiter.rejections,
          "bitget_rate_limit_rejections",
          "answers of the exchange refusing a call as too frequent"
        ],
        [
          RateLimiter.storeFallbacks,
          "bitget_rate_limit_store_fallbacks",
          "rate-limit slots taken from an in-process fallback because the shared store was unavailable"
        ]
      ] as const
      for (const [metric] of counters) yield* Metric.update(Metric.withAttributes(metric, { endpoint }), 2)
      yield* Metric.update(Metric.withAttributes(RateLimiter.waitTime, { endpoint }), 3)
      for (const [, name, description] of counters) {
        const series = yield* seriesOf(name, endpoint)
        assert.deepStrictEqual(
          series?.type === "Counter" ? [series.description, series.state.count, series.state.incremental] : series,
          [description, 2, true]
        )
      }
      const waitTime = yield* seriesOf("bitget_rate_limit_wait_ms", endpoint)
      assert.deepStrictEqual(
        waitTime?.type === "Histogram"
          ? [waitTime.description, waitTime.state.buckets.map(([boundary]) => boundary)]
          : waitTime,
        [
          "time calls waited for the client-side rate limiter",
          [...Array.from({ length: 15 }, (_, i) => 2 ** i), Number.POSITIVE_INFINITY]
        ]
      )
    }))
})
