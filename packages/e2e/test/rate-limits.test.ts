/**
 * Rate limits end to end, with the sandbox enforcing the spec's limits
 * (sliding one-second windows): a burst over a limit is refused with HTTP 429
 * when the client's own limiter is off, and never reaches the exchange as a
 * 429 when it is on (the default).
 */
import { BitgetError, FundNetFlow, OpenInterestLimit, Symbols } from "@bitget-effect/core"
import { assert, describe } from "@effect/vitest"
import { Effect, Result } from "effect"
import { freshSandbox, logOf, onSandbox, withClient } from "./support.js"

/** `n` calls at once to an endpoint limited to 5 per second per UID. */
const openInterestBurstOf = (n: number) =>
  Effect.all(
    Array.from({ length: n }, () =>
      Effect.result(OpenInterestLimit.openInterestLimit({ symbol: "BTCUSDT", category: "USDT-FUTURES" }))),
    { concurrency: "unbounded" }
  )

const openInterestBurst = openInterestBurstOf(8)

/** 26 calls at once to an endpoint limited to 20 per second per IP. */
const symbolsBurst = Effect.all(
  Array.from({ length: 26 }, () => Effect.result(Symbols.symbols({ symbol: "ETHUSDT" }))),
  { concurrency: "unbounded" }
)

describe("rate limits", () => {
  onSandbox({ seed: 5 })((it) => {
    it.effect("limiter off, no retries: a burst over 5/s per UID yields typed 429s (kind RateLimited)", () =>
      Effect.gen(function*() {
        yield* freshSandbox
        const outcomes = yield* openInterestBurst.pipe(
          withClient({ rateLimit: { enabled: false }, retry: { maxAttempts: 1 } })
        )
        const failures = outcomes.filter(Result.isFailure).map((outcome) => outcome.failure)
        assert.strictEqual(outcomes.filter(Result.isSuccess).length, 5, "the sandbox serves exactly its limit")
        assert.strictEqual(failures.length, 3)
        for (const error of failures) {
          assert.instanceOf(error, BitgetError.BitgetApiError)
          if (error instanceof BitgetError.BitgetApiError) {
            assert.strictEqual(error.code, "429")
            assert.strictEqual(error.kind, "RateLimited")
            assert.strictEqual(error.status, 429)
          }
        }
        const log = yield* logOf("open-interest-limit")
        assert.strictEqual(log.length, 8, "nothing retried")
        assert.strictEqual(log.filter((e) => e.rateLimited && e.status === 429).length, 3)
      }))

    it.effect("limiter on (default): the same burst gets through with zero 429s", () =>
      Effect.gen(function*() {
        const sandbox = yield* freshSandbox
        const outcomes = yield* openInterestBurst.pipe(withClient())
        assert.isTrue(outcomes.every(Result.isSuccess))
        const log = yield* logOf("open-interest-limit")
        assert.deepStrictEqual(log.map((e) => e.status), Array(8).fill(200), "8 requests, no 429, no retry")
        assert.strictEqual((yield* sandbox.stats).limitViolations, 0)
      }))

    it.effect("IP scope: 26 public calls at once; limiter off → 429s, limiter on → none", () =>
      Effect.gen(function*() {
        const sandbox = yield* freshSandbox
        const unlimited = yield* symbolsBurst.pipe(
          withClient({ key: "none", rateLimit: { enabled: false }, retry: { maxAttempts: 1 } })
        )
        const refused = unlimited.filter(Result.isFailure).map((outcome) => outcome.failure)
        assert.strictEqual(refused.length, 6)
        assert.isTrue(refused.every((error) => BitgetError.isApiErrorOfKind("RateLimited")(error)))

        yield* sandbox.reset
        const limited = yield* symbolsBurst.pipe(withClient({ key: "none" }))
        assert.isTrue(limited.every(Result.isSuccess))
        const log = yield* logOf("symbols")
        assert.strictEqual(log.length, 26)
        assert.isFalse(log.some((e) => e.rateLimited), "no call went over the exchange's limit")
      }))

    it.effect("maxWait: a call that would wait too long for its slot fails typed, without a request", () =>
      Effect.gen(function*() {
        yield* freshSandbox
        const [first, second] = yield* Effect.all([
          Effect.result(FundNetFlow.fundNetFlow({ symbol: "BTCUSDT" })),
          Effect.result(FundNetFlow.fundNetFlow({ symbol: "ETHUSDT" }))
        ]).pipe(withClient({ key: "none", rateLimit: { maxWait: "200 millis" } }))
        assert.isTrue(first !== undefined && Result.isSuccess(first))
        const error = second !== undefined && Result.isFailure(second) ? second.failure : undefined
        assert.instanceOf(error, BitgetError.RateLimitWaitExceeded, "1 call per second: the second would wait ~1 s")
        assert.strictEqual((yield* logOf("fund-net-flow")).length, 1)
      }))

    it.effect("a real 429 from the exchange is retried by default and the call succeeds", () =>
      Effect.gen(function*() {
        yield* freshSandbox
        // two clients share one key: each keeps to 5/s, together they exceed it, and the exchange refuses some
        const both = yield* Effect.all([
          openInterestBurstOf(5).pipe(withClient()),
          openInterestBurstOf(5).pipe(withClient())
        ], { concurrency: 2 })
        assert.isTrue(both.flat().every(Result.isSuccess), "every call eventually succeeded")
        const log = yield* logOf("open-interest-limit")
        assert.isAbove(log.filter((e) => e.rateLimited).length, 0, "the exchange did refuse some calls")
        assert.strictEqual(log.filter((e) => e.status === 200).length, 10)
      }), 15_000)
  })
})
