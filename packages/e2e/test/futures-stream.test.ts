/**
 * `FuturesHistory.stream` end to end: 80 days of USDT-FUTURES history in
 * 50-order pages compared with what the sandbox holds, the same walk with
 * faults injected mid-way, and the whole 90-day history of a smaller product
 * type with the default range while the server's clock is 45 s ahead.
 *
 * Only 90 days of history exist and one window spans 90 days, so unlike the
 * tax and P2P streams this walk has a single window.
 */
import { FuturesHistory } from "@bitget-effect/core"
import type { Sandbox } from "@bitget-effect/sandbox"
import { assert, describe } from "@effect/vitest"
import { DateTime, Effect, Option, Result, Stream } from "effect"
import type { Walk } from "./support.js"
import {
  assertCleanWalk,
  assertWalk,
  assertWalkRidesOutFaults,
  DAY,
  describeLog,
  enumText,
  freshSandbox,
  logOf,
  onSandbox,
  oracle,
  walkClient,
  withClient
} from "./support.js"

const scale = 20
const sizes = { futuresOrders: 1_200, p2pOrders: 10, taxRecords: 10 }
const client = walkClient("mix.ordersHistory", 10 * scale)

describe("FuturesHistory.stream", () => {
  // anchored at the start (not floored to the minute), so the oldest record stays inside the 90 days for 90 s
  onSandbox({ seed: 41, sizes, limitScale: scale, anchor: Date.now() })((it) => {
    const range = (sandbox: Sandbox.Sandbox.Service) => ({ start: sandbox.anchor - 80 * DAY, end: sandbox.anchor })
    const orders: Walk<FuturesHistory.FuturesOrder> = {
      name: "futures stream",
      route: "futures-history",
      client,
      stream: (sandbox) =>
        FuturesHistory.stream({
          productType: "USDT-FUTURES",
          startTime: DateTime.makeUnsafe(range(sandbox).start),
          endTime: DateTime.makeUnsafe(range(sandbox).end),
          pageSize: 50
        }),
      id: (order) => order.orderId,
      expected: (sandbox) =>
        oracle(sandbox).futuresIds("hmac", "USDT-FUTURES", range(sandbox).start, range(sandbox).end)
    }

    it.effect(
      "walks 80 days in ≥ 10 pages: every order once, none missing, ending on the null page",
      () =>
        Effect.gen(function*() {
          const sandbox = yield* freshSandbox
          const expected = orders.expected(sandbox)
          assert.isAbove(expected.length, 900)
          assert.isBelow(expected.length, sandbox.sizes.futuresOrders)
          const walked = yield* assertWalk(orders, sandbox)
          assert.isTrue(walked.every((o) => o.marginCoin === "USDT" && enumText(o.posMode) === "hedge_mode"))
          const log = yield* assertCleanWalk(orders)
          assert.isTrue(
            log.every((e) => e.query.includes("productType=USDT-FUTURES") && e.query.includes("limit=50"))
          )
        }),
      20_000
    )

    it.effect(
      "the same walk rides out a 503, two 429s, a reset connection and a timeout mid-way",
      () => Effect.flatMap(freshSandbox, (sandbox) => assertWalkRidesOutFaults(orders, sandbox, [50, 200, 450, 700])),
      20_000
    )

    it.effect(
      "COIN-FUTURES, default range (the last 90 days), server clock 45 s ahead: the whole history",
      () =>
        Effect.gen(function*() {
          const sandbox = yield* freshSandbox
          yield* sandbox.setClockOffset(45_000)
          const expected = oracle(sandbox).futuresIds("rsa", "COIN-FUTURES", Date.now() - 90 * DAY, Date.now())
          assert.strictEqual(expected.length, sandbox.sizes.futuresOrders / 5, "every COIN-FUTURES order is in range")
          const orders = yield* Stream.runCollect(FuturesHistory.stream({ productType: "COIN-FUTURES", pageSize: 20 }))
            .pipe(withClient({ ...client, key: "rsa" }))
          assert.deepStrictEqual(
            orders.map((o) => o.orderId),
            expected
          )
          assert.isTrue(orders.every((o) => enumText(o.posMode) === "one_way_mode" && o.symbol.endsWith("USD")))
          assert.isTrue(
            orders.some((o) => Option.getOrUndefined(o.reduceOnly) === "YES"),
            "one-way closes are reduce-only"
          )
          const log = describeLog(yield* logOf())
          assert.deepStrictEqual(log.slice(0, 3), [
            "futures-history 400 40008",
            "time 200 00000",
            "futures-history 200 00000"
          ])
          assert.strictEqual(log.filter((line) => line.includes("40008")).length, 1)
          assert.isAtLeast(log.length - 2, 12, "≥ 12 pages of 20")
        }),
      20_000
    )

    it.effect(
      "core: with the server clock 120 s ahead, the default range still follows the exchange's 90 days",
      () =>
        Effect.gen(function*() {
          const sandbox = yield* freshSandbox
          yield* sandbox.setClockOffset(120_000)
          const outcome = yield* Effect.result(
            Stream.runCollect(FuturesHistory.stream({ productType: "COIN-FUTURES", pageSize: 100 })).pipe(
              withClient(client)
            )
          )
          const serverNow = yield* sandbox.serverTime
          // the client learns the offset from the 40008 and signs with it, but the stream's default start is
          // "local now - 90 days", which is 120 s before the exchange's horizon: the exchange answers 40704
          assert.deepStrictEqual(
            describeLog(yield* logOf()).filter((line) => line.includes("40704")),
            [],
            "the stream asked for data older than the exchange's 90 days"
          )
          assert.isTrue(Result.isSuccess(outcome), Result.isFailure(outcome) ? outcome.failure.message : "")
          if (Result.isSuccess(outcome)) {
            assert.deepStrictEqual(
              outcome.success.map((o) => o.orderId),
              oracle(sandbox).futuresIds("hmac", "COIN-FUTURES", serverNow - 90 * DAY, serverNow)
            )
          }
        }),
      20_000
    )
  })
})
