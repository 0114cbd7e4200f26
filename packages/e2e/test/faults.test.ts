/**
 * Every fault the sandbox can inject, surfacing through the real client as a
 * typed failure (never a defect, never a hang) when retries are off; then
 * which faults the retry policy absorbs: idempotent calls are retried, the
 * unsafe TP/SL placement only when the answer proves nothing was placed.
 */
import type { BitgetClient } from "@bitget-effect/core"
import {
  BatchCancel,
  BitgetError,
  FundNetFlow,
  FuturesHistory,
  OpenInterestLimit,
  P2pOrders,
  PositionTpsl,
  RpiOrderBook,
  Symbols,
  TaxRecords,
  TradeRates
} from "@bitget-effect/core"
import type { Route } from "@bitget-effect/sandbox"
import { Fault, Sandbox } from "@bitget-effect/sandbox"
import { assert, describe } from "@effect/vitest"
import { BigDecimal, DateTime, Effect } from "effect"
import type { ClientOptions, KeyName } from "./support.js"
import { apiKeyOf, DAY, describeLog, failureOf, freshSandbox, logOf, onSandbox, withClient } from "./support.js"

const noRetries: ClientOptions = { retry: { maxAttempts: 1 }, timeout: "500 millis" }

const tpsl = PositionTpsl.placePositionTpsl({
  marginCoin: "USDT",
  productType: "USDT-FUTURES",
  symbol: "ETHUSDT",
  holdSide: "long",
  stopSurplusTriggerPrice: BigDecimal.fromStringUnsafe("5000"),
  stopLossTriggerPrice: BigDecimal.fromStringUnsafe("2500")
})

const tax = Effect.suspend(() =>
  TaxRecords.spotRecords({
    startTime: DateTime.makeUnsafe(Date.now() - DAY),
    endTime: DateTime.makeUnsafe(Date.now()),
    limit: 10
  })
)

/** How many orders the HMAC key has open in the sandbox. */
const openHmacOrders = Effect.flatMap(Sandbox.Sandbox, (sandbox) => sandbox.openOrders(apiKeyOf(sandbox, "hmac"))).pipe(
  Effect.map((orders) => orders.length)
)

/** Orders of BTCUSDT to cancel, read from the sandbox at the time of the call. */
const cancelFirstBtcOrders = Effect.gen(function*() {
  const sandbox = yield* Sandbox.Sandbox
  const orders = (yield* sandbox.openOrders(sandbox.credentials.hmac.apiKey)).filter((o) => o.symbol === "BTCUSDT")
    .slice(0, 2)
  return yield* BatchCancel.batchCancelOrders({
    symbol: "BTCUSDT",
    orderList: orders.map((o) => ({ orderId: o.orderId }))
  })
})

type Call = Effect.Effect<unknown, BitgetError.BitgetError, BitgetClient.BitgetClient | Sandbox.Sandbox>

interface Case {
  readonly name: string
  readonly route: Route.RouteName
  readonly fault: Fault.Fault
  readonly call: Call
  readonly key?: KeyName
  readonly check: (error: BitgetError.BitgetError) => void
  /** The request is in the log as answered (false: the client gave up before the answer). */
  readonly logged?: boolean
}

const httpError = (status: number) => (error: BitgetError.BitgetError) => {
  assert.instanceOf(error, BitgetError.BitgetHttpError)
  if (error instanceof BitgetError.BitgetHttpError) {
    assert.strictEqual(error.status, status)
    assert.include(error.excerpt, "nginx")
  }
}

const apiError = (code: string, status: number, kind: BitgetError.ErrorKind) => (error: BitgetError.BitgetError) => {
  assert.instanceOf(error, BitgetError.BitgetApiError)
  if (error instanceof BitgetError.BitgetApiError) {
    assert.strictEqual(error.code, code)
    assert.strictEqual(error.status, status)
    assert.strictEqual(error.kind, kind)
  }
}

const transportError = (reason: "Timeout" | "Network") => (error: BitgetError.BitgetError) => {
  assert.instanceOf(error, BitgetError.BitgetTransportError)
  if (error instanceof BitgetError.BitgetTransportError) {
    assert.strictEqual(error.reason, reason)
    assert.isTrue(error.sent, "the request may have reached the exchange")
  }
}

const decodeError = (error: BitgetError.BitgetError) => {
  assert.instanceOf(error, BitgetError.BitgetDecodeError)
  if (error instanceof BitgetError.BitgetDecodeError) {
    assert.strictEqual(error.status, 200)
    assert.strictEqual(error.issue, "the body is not valid JSON")
  }
}

const cases: ReadonlyArray<Case> = [
  {
    name: "HTTP 500 HTML page (public GET)",
    route: "symbols",
    fault: Fault.httpError(500),
    call: Symbols.symbols({ symbol: "BTCUSDT" }),
    check: httpError(500)
  },
  {
    name: "HTTP 502 HTML page (signed GET)",
    route: "tax-records",
    fault: Fault.httpError(502),
    call: tax,
    check: httpError(502)
  },
  {
    name: "HTTP 503 HTML page (POST)",
    route: "batch-cancel",
    fault: Fault.httpError(503),
    call: cancelFirstBtcOrders,
    check: httpError(503)
  },
  {
    name: "HTTP 429",
    route: "trade-rate",
    fault: Fault.tooManyRequests,
    call: TradeRates.tradeRates({ businessType: "spot" }),
    check: apiError("429", 429, "RateLimited")
  },
  {
    name: "an answer held back beyond the timeout",
    route: "open-interest-limit",
    fault: Fault.delay("1500 millis"),
    call: OpenInterestLimit.openInterestLimit({ symbol: "BTCUSDT", category: "USDT-FUTURES" }),
    check: transportError("Timeout"),
    logged: false
  },
  {
    name: "a reset connection (GET)",
    route: "p2p-orders",
    fault: Fault.connectionReset,
    call: P2pOrders.p2pOrders({ limit: 5 }),
    check: transportError("Network")
  },
  {
    name: "a reset connection (POST)",
    route: "place-pos-tpsl",
    fault: Fault.connectionReset,
    call: tpsl,
    check: transportError("Network")
  },
  {
    name: "truncated JSON",
    route: "futures-history",
    fault: Fault.truncatedJson,
    call: FuturesHistory.ordersHistory({ productType: "USDT-FUTURES", limit: 20 }),
    check: decodeError
  },
  {
    name: "invalid JSON",
    route: "rpi-orderbook",
    fault: Fault.invalidJson,
    key: "marketMaker",
    call: RpiOrderBook.rpiOrderBook({ category: "SPOT", symbol: "ETHUSDT" }),
    check: decodeError
  },
  {
    name: "code 40015 on HTTP 200",
    route: "fund-net-flow",
    fault: Fault.errorCode("40015"),
    call: FundNetFlow.fundNetFlow({ symbol: "BTCUSDT" }),
    check: (error) => {
      apiError("40015", 200, "Maintenance")(error)
      if (error instanceof BitgetError.BitgetApiError) {
        assert.strictEqual(error.msg, "System is abnormal, please try again later")
      }
    }
  },
  {
    name: "an unknown code on HTTP 200, kept verbatim",
    route: "symbols",
    fault: Fault.errorCode("31999", "something new"),
    call: Symbols.symbols(),
    check: (error) => {
      apiError("31999", 200, "Unknown")(error)
      if (error instanceof BitgetError.BitgetApiError) assert.strictEqual(error.msg, "something new")
    }
  }
]

describe("faults", () => {
  onSandbox({ seed: 51 })((it) => {
    for (const testCase of cases) {
      it.effect(`retries off: ${testCase.name} → ${testCase.route} fails typed, once`, () =>
        Effect.gen(function*() {
          const sandbox = yield* freshSandbox
          const ordersBefore = yield* openHmacOrders
          yield* sandbox.inject(testCase.route, testCase.fault)
          const error = yield* failureOf(
            testCase.call.pipe(withClient({ ...noRetries, key: testCase.key ?? "hmac" })),
            "5 seconds"
          )
          testCase.check(error)
          assert.notInclude(error.message, "sandbox-hmac-secret")
          assert.strictEqual((yield* sandbox.stats).faultsInjected, 1)
          if (testCase.logged !== false) {
            assert.deepStrictEqual(
              (yield* logOf()).map((e) => [e.route, e.fault]),
              [[testCase.route, Fault.describe(testCase.fault)]],
              "one request, not retried"
            )
          }
          // a fault that is answered before processing leaves the orders and plans as they were
          if (testCase.route === "batch-cancel") {
            assert.strictEqual(yield* openHmacOrders, ordersBefore)
          }
          if (testCase.route === "place-pos-tpsl") {
            assert.deepStrictEqual(yield* sandbox.plans(apiKeyOf(sandbox, "hmac")), [])
          }
        }))
    }

    it.effect("retries off: a truncated batch-cancel answer is a decode error, though the orders were cancelled", () =>
      Effect.gen(function*() {
        const sandbox = yield* freshSandbox
        const before = yield* openHmacOrders
        yield* sandbox.inject("batch-cancel", Fault.truncatedJson)
        const error = yield* failureOf(cancelFirstBtcOrders.pipe(withClient(noRetries)))
        decodeError(error)
        assert.strictEqual(yield* openHmacOrders, before - 2, "the sandbox processed the cancel")
      }))

    it.effect("retries on: TP/SL (unsafe) is not retried after a 503; nothing was placed", () =>
      Effect.gen(function*() {
        const sandbox = yield* freshSandbox
        yield* sandbox.inject("place-pos-tpsl", Fault.httpError(503))
        const error = yield* failureOf(tpsl.pipe(withClient()))
        httpError(503)(error)
        assert.deepStrictEqual(describeLog(yield* logOf()), ["place-pos-tpsl 503 - 503"], "one request")
        assert.deepStrictEqual(yield* sandbox.plans(apiKeyOf(sandbox, "hmac")), [])
      }))

    it.effect("retries on: TP/SL is not retried after a reset connection either (it may have been received)", () =>
      Effect.gen(function*() {
        const sandbox = yield* freshSandbox
        yield* sandbox.inject("place-pos-tpsl", Fault.connectionReset)
        transportError("Network")(yield* failureOf(tpsl.pipe(withClient())))
        assert.deepStrictEqual(describeLog(yield* logOf()), ["place-pos-tpsl - - reset"])
      }))

    it.effect("retries on: TP/SL is retried after a 429 (proof it was not acted on) and placed exactly once", () =>
      Effect.gen(function*() {
        const sandbox = yield* freshSandbox
        yield* sandbox.inject("place-pos-tpsl", Fault.tooManyRequests)
        const placed = yield* tpsl.pipe(withClient())
        assert.strictEqual(placed.length, 2)
        assert.deepStrictEqual(describeLog(yield* logOf()), ["place-pos-tpsl 429 429 429", "place-pos-tpsl 200 00000"])
        assert.deepStrictEqual(
          (yield* sandbox.plans(apiKeyOf(sandbox, "hmac"))).map((p) => p.orderId),
          placed.map((o) => o.orderId)
        )
      }))

    it.effect("retries on: an idempotent call is retried after a 503, a reset, a timeout and a 40015 on HTTP 200", () =>
      Effect.gen(function*() {
        const sandbox = yield* freshSandbox
        yield* sandbox.inject("trade-rate", Fault.httpError(503))
        yield* sandbox.inject("trade-rate", Fault.connectionReset)
        yield* sandbox.inject("trade-rate", Fault.errorCode("40015"))
        const rates = yield* TradeRates.tradeRates({ businessType: "spot", symbol: "BTCUSDT" }).pipe(
          withClient({ retry: { baseDelay: "20 millis" } })
        )
        assert.strictEqual(rates.length, 1)
        assert.deepStrictEqual(describeLog(yield* logOf()), [
          "trade-rate 503 - 503",
          "trade-rate - - reset",
          "trade-rate 200 40015 code:40015:System is abnormal, please try again later",
          "trade-rate 200 00000"
        ])

        yield* sandbox.reset
        yield* sandbox.inject("open-interest-limit", Fault.delay("1500 millis"))
        const limit = yield* OpenInterestLimit.openInterestLimit({ symbol: "ETHUSDT", category: "USDT-FUTURES" }).pipe(
          withClient({ timeout: "400 millis", retry: { baseDelay: "20 millis" } })
        )
        assert.strictEqual(limit.symbol, "ETHUSDT")
        assert.strictEqual((yield* sandbox.stats).faultsInjected, 1)
      }))

    it.effect("retries on: a batch cancel (idempotent) is retried after a reset and cancels its orders", () =>
      Effect.gen(function*() {
        const sandbox = yield* freshSandbox
        const before = yield* openHmacOrders
        yield* sandbox.inject("batch-cancel", Fault.connectionReset)
        const result = yield* cancelFirstBtcOrders.pipe(withClient())
        assert.isTrue(result.allCancelled)
        assert.strictEqual(result.succeeded.length, 2)
        assert.strictEqual(yield* openHmacOrders, before - 2)
        assert.deepStrictEqual(describeLog(yield* logOf()), ["batch-cancel - - reset", "batch-cancel 200 00000"])
      }))

    it.effect("retries on: cancelOrders keeps going when one batch fails for good; its orders are unconfirmed", () =>
      Effect.gen(function*() {
        const sandbox = yield* freshSandbox
        const apiKey = apiKeyOf(sandbox, "hmac")
        const open = yield* sandbox.openOrders(apiKey)
        // the first batch (50 orders) meets four 503s, all its attempts; the second meets one and is retried
        yield* sandbox.inject("batch-cancel", Fault.httpError(503), { times: 5 })
        const { batchErrors, result } = yield* BatchCancel.cancelOrders(
          open.map((o) => ({ symbol: o.symbol, orderId: o.orderId }))
        )
          .pipe(withClient({ retry: { baseDelay: "10 millis" } }))
        assert.strictEqual(batchErrors.length, 1)
        httpError(503)(batchErrors[0]!.error)
        assert.strictEqual(batchErrors[0]!.orders.length, 50)
        assert.strictEqual(result.unconfirmed.length, 50)
        assert.strictEqual(result.succeeded.length, 10)
        assert.deepStrictEqual(
          (yield* sandbox.openOrders(apiKey)).map((o) => o.orderId).sort(),
          batchErrors[0]!.orders.map((o) => o.orderId ?? "").sort(),
          "exactly the unconfirmed orders are still open"
        )
        assert.deepStrictEqual(describeLog(yield* logOf()), [
          ...Array(5).fill("batch-cancel 503 - 503"),
          "batch-cancel 200 00000"
        ])
      }))

    it.effect("retries on: retries stop after maxAttempts and the last failure is returned", () =>
      Effect.gen(function*() {
        const sandbox = yield* freshSandbox
        yield* sandbox.inject("symbols", Fault.httpError(502), { times: "forever" })
        const error = yield* failureOf(
          Symbols.symbols().pipe(withClient({ key: "none", retry: { maxAttempts: 3, baseDelay: "10 millis" } }))
        )
        httpError(502)(error)
        assert.deepStrictEqual(describeLog(yield* logOf()), Array(3).fill("symbols 502 - 502"))
      }))

    it.effect("sandbox: a request the client abandons during a delay fault is still in the request log", () =>
      Effect.gen(function*() {
        const sandbox = yield* freshSandbox
        yield* sandbox.inject("open-interest-limit", Fault.delay("300 millis"))
        const error = yield* failureOf(
          OpenInterestLimit.openInterestLimit({ symbol: "BTCUSDT", category: "USDT-FUTURES" }).pipe(
            withClient({ retry: { maxAttempts: 1 }, timeout: "100 millis" })
          )
        )
        transportError("Timeout")(error)
        yield* Effect.sleep("400 millis")
        assert.strictEqual((yield* sandbox.stats).faultsInjected, 1)
        assert.deepStrictEqual(
          (yield* logOf()).map((e) => [e.route, e.fault]),
          [["open-interest-limit", "delay:300"]],
          "the sandbox received the request, so its log must show it (stats.requests too)"
        )
        assert.strictEqual((yield* sandbox.stats).requests, 1)
      }))
  })
})
