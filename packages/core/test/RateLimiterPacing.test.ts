import { assert, describe, it } from "@effect/vitest"
import { Clock, Effect, Fiber } from "effect"
import { TestClock } from "effect/testing"
import type { RateLimiterStoreError } from "../src/BitgetError.js"
import type { RateLimit } from "../src/Endpoint.js"
import * as RateLimiter from "../src/RateLimiter.js"

const one: RateLimit = { limit: 1, window: "1 second", scope: "uid" }
const endpoint = (rateLimit: RateLimit) => ({ name: "a", label: "GET /a", rateLimit })

/** A memory store that counts the calls of `acquire` for the endpoint's own bucket (not the IP ceiling's). */
const countingStore = Effect.map(RateLimiter.makeMemoryStore, (memory) => {
  const asked: Array<number> = []
  const store = RateLimiter.RateLimiterStore.of({
    acquire: (request) =>
      request.key === "ip:*"
        ? memory.acquire(request)
        : Effect.andThen(Effect.map(Clock.currentTimeMillis, (now) => asked.push(now)), memory.acquire(request)),
    settle: memory.settle
  })
  return { asked, store }
})

/** Takes a slot and settles it at once; answers the clock time of the slot. */
const call = (limiter: RateLimiter.Limiter, rateLimit: RateLimit = one) =>
  limiter.take(endpoint(rateLimit), "key").pipe(
    Effect.flatMap((permit) => permit.settle),
    Effect.andThen(Clock.currentTimeMillis)
  )

describe("RateLimiter pacing", () => {
  it.effect("counts a slot as present while its call is on its way, however long that takes", () =>
    Effect.gen(function*() {
      const limiter = yield* RateLimiter.make({ margin: 0 }).pipe(Effect.provide(RateLimiter.layerMemory))
      const permit = yield* limiter.take(endpoint(one), "key")
      const next = yield* Effect.forkChild(call(limiter))
      // a whole window after the grant, the first call has still not been answered: the next one waits
      yield* TestClock.adjust("1500 millis")
      assert.isUndefined(next.pollUnsafe())
      yield* TestClock.adjust("300 millis")
      yield* permit.settle
      yield* TestClock.adjust("1 second")
      assert.strictEqual(yield* Fiber.join(next), 2800)
    }))

  it.effect("spaces sends from the latest grant, not from the latest answer", () =>
    Effect.gen(function*() {
      const limiter = yield* RateLimiter.make({ margin: 0, smoothing: 1 }).pipe(
        Effect.provide(RateLimiter.layerMemory)
      )
      const two: RateLimit = { limit: 2, window: "1 second", scope: "uid" }
      const permit = yield* limiter.take(endpoint(two), "key")
      yield* TestClock.adjust("400 millis")
      yield* permit.settle // answered at 400
      const next = yield* Effect.forkChild(call(limiter, two))
      yield* TestClock.adjust("1 second")
      assert.strictEqual(yield* Fiber.join(next), 500)
    }))

  it.effect("does not let a late wake-up push back the grants spaced after it", () =>
    Effect.gen(function*() {
      const store = yield* RateLimiter.makeMemoryStore
      const request = { key: "k", limit: 10, windowMillis: 1000, spacingMillis: 100 }
      // granted and answered at once, or failing with the wait
      const grant = Effect.flatMap(
        store.acquire(request),
        (answer): Effect.Effect<void, number | RateLimiterStoreError> =>
          answer._tag === "Granted" ? store.settle({ key: "k", ticket: answer.ticket }) : Effect.fail(answer.millis)
      )
      yield* grant
      yield* TestClock.adjust("103 millis") // due at 100, woken 3 ms late
      yield* grant
      yield* TestClock.adjust("97 millis")
      yield* grant // due at 200, not 203
      yield* TestClock.adjust("450 millis") // after a pause, spaced from the grant itself
      yield* grant
      const early = yield* Effect.flip(Effect.andThen(TestClock.adjust("99 millis"), grant))
      assert.strictEqual(early, 1)
    }))

  it.effect("lets one caller of a full bucket ask the store while the others queue in order", () =>
    Effect.gen(function*() {
      const { asked, store } = yield* countingStore
      const limiter = yield* RateLimiter.make({ margin: 0 }).pipe(
        Effect.provideService(RateLimiter.RateLimiterStore, store)
      )
      const fibers = yield* Effect.forEach(Array.from({ length: 5 }), () => Effect.forkChild(call(limiter)))
      yield* TestClock.adjust("5 seconds")
      assert.deepStrictEqual(yield* Effect.forEach(fibers, Fiber.join), [0, 1000, 2000, 3000, 4000])
      // one grant at 0, then for each later call: a wait as it reaches the head, a grant as it wakes
      assert.deepStrictEqual(asked, [0, 0, 1000, 1000, 2000, 2000, 3000, 3000, 4000])
    }))

  it.effect("never waits longer than maxWait, even behind a store slow to answer, and frees the queue then", () =>
    Effect.gen(function*() {
      const memory = yield* RateLimiter.makeMemoryStore
      let slow = true
      // the first ask of the endpoint's bucket takes the store two seconds to answer
      const store = RateLimiter.RateLimiterStore.of({
        acquire: (request) =>
          request.key !== "ip:*" && slow
            ? Effect.andThen(Effect.sync(() => (slow = false)), Effect.delay(memory.acquire(request), "2 seconds"))
            : memory.acquire(request),
        settle: memory.settle
      })
      const limiter = yield* RateLimiter.make({ margin: 0, maxWait: "1500 millis" }).pipe(
        Effect.provideService(RateLimiter.RateLimiterStore, store)
      )
      const first = yield* Effect.forkChild(Effect.flip(call(limiter)))
      yield* TestClock.adjust("100 millis")
      const queued = yield* Effect.forkChild(call(limiter))
      yield* TestClock.adjust("1400 millis")
      assert.strictEqual((yield* Fiber.join(first))._tag, "RateLimitWaitExceeded")
      // the caller queued behind it gets its turn as the first one gives up, and is served at once
      assert.strictEqual(yield* Fiber.join(queued), 1500)
    }))
})
