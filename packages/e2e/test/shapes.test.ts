/**
 * The real client (`BitgetNode.layer`) decodes every shape the sandbox sends
 * under `varied` (its default), as the live exchange sends them: symbols of
 * the older and the current shape, futures orders with and without `posAvg`
 * (market orders with `price: ""`, hedge-mode closes as the live exchange
 * writes them), batch-cancel failures with and without `errorCode` and an
 * all-failed batch both listed (`00000`) and refused (HTTP 400 `43001`), RPI
 * levels as strings and as JSON numbers, and `requestTime` as a number and as
 * a string.
 */
import { BatchCancel, FuturesHistory, RpiOrderBook, Symbols } from "@bitget-effect/core"
import type { Sandbox } from "@bitget-effect/sandbox"
import { assert, describe } from "@effect/vitest"
import { BigDecimal, DateTime, Effect, Option, Stream } from "effect"
import type { ClientOptions } from "./support.js"
import {
  apiKeyOf,
  assertMaybeDecimal,
  assertMaybeTime,
  DAY,
  enumText,
  freshSandbox,
  logOf,
  onSandbox,
  oracle,
  withClient
} from "./support.js"

const sizes = { symbols: 200, futuresOrders: 1_000 }

/** Calls per operation: enough that each shape drawn per answer comes up. */
const CALLS = 16

/** A client whose own limiter lets an operation's calls through quickly (the sandbox's limits are off). */
const quick = (operation: string, options: ClientOptions = {}): ClientOptions => ({
  ...options,
  rateLimit: { overrides: { [operation]: { limit: 200, window: "1 second" } } }
})

/** An effect run `n` times, one after another. */
const times = <A, E, R>(n: number, effect: Effect.Effect<A, E, R>) =>
  Effect.forEach(Array.from({ length: n }), () => effect)

/** The distinct values of a list, sorted, as JSON text (for set comparisons of any values). */
const distinct = (values: ReadonlyArray<unknown>): ReadonlyArray<string> =>
  [...new Set(values.map((value) => JSON.stringify(value) ?? "undefined"))].sort()

/** `status code` of the log entries of a route, oldest first. */
const outcomes = (route: "batch-cancel" | "rpi-orderbook") =>
  Effect.map(logOf(route), (entries) => entries.map((entry) => `${entry.status} ${entry.code}`))

/** Two order ids no account holds: a batch of them fails in full. */
const unknownOrders = [{ orderId: "1234567890123456789" }, { orderId: "1234567890123456788" }]

const symbols = Effect.gen(function*() {
  const sandbox = yield* freshSandbox
  const truth = oracle(sandbox).dataset.symbols
  const older = truth.filter((raw) => !("openTime" in raw)).length
  assert.isAbove(older, 0, "some records of the older shape")
  assert.isBelow(older, truth.length, "and some of the current one")
  const all = yield* Symbols.symbols().pipe(withClient({ key: "none" }))
  assert.strictEqual(all.length, truth.length)
  all.forEach((symbol, i) => {
    const raw = truth[i] as Readonly<Record<string, string>>
    const at = `${raw.symbol}`
    assert.strictEqual(symbol.symbol, raw.symbol)
    assertMaybeTime(symbol.openTime, raw.openTime ?? "", `${at} openTime`)
    assertMaybeTime(symbol.offTime, raw.offTime ?? "", `${at} offTime`)
    assert.deepStrictEqual(Option.map(symbol.areaSymbol, enumText), Option.fromUndefinedOr(raw.areaSymbol), at)
    assert.deepStrictEqual(symbol.orderQuantity, Option.map(Option.fromUndefinedOr(raw.orderQuantity), Number), at)
    assertMaybeDecimal(symbol.maxLimitOrderValue, raw.maxLimitOrderValue ?? "", `${at} maxLimitOrderValue`)
    assertMaybeDecimal(symbol.maxMarketOrderValue, raw.maxMarketOrderValue ?? "", `${at} maxMarketOrderValue`)
  })
})

/** The orders of a product type over 80 days, walked by the client, checked against the sandbox's records. */
const futuresOrders = (sandbox: Sandbox.Sandbox.Service, productType: "USDT-FUTURES" | "COIN-FUTURES") =>
  Effect.gen(function*() {
    const [start, end] = [sandbox.anchor - 80 * DAY, sandbox.anchor]
    const raws = oracle(sandbox).dataset.futuresOrders(apiKeyOf(sandbox, "hmac"), productType, { start, end })
    const orders = yield* Stream.runCollect(FuturesHistory.stream({
      productType,
      startTime: DateTime.makeUnsafe(start),
      endTime: DateTime.makeUnsafe(end)
    })).pipe(withClient(quick("mix.ordersHistory")))
    assert.deepStrictEqual(orders.map((o) => o.orderId), raws.map((raw) => raw.orderId), productType)
    orders.forEach((order, i) => {
      const raw = raws[i]!
      const at = `${productType} ${raw.orderId}`
      assertMaybeDecimal(order.price, raw.price, `${at} price`)
      assertMaybeDecimal(order.posAvg, raw.posAvg ?? "", `${at} posAvg`)
      assert.deepStrictEqual(
        [order.side, order.posSide, order.tradeSide].map(enumText),
        [raw.side, raw.posSide, raw.tradeSide],
        at
      )
      assert.deepStrictEqual(Option.map(order.reduceOnly, enumText), Option.fromNullishOr(raw.reduceOnly), at)
    })
    return raws
  })

const futuresHistory = Effect.gen(function*() {
  const sandbox = yield* freshSandbox
  const hedge = yield* futuresOrders(sandbox, "USDT-FUTURES")
  const oneWay = yield* futuresOrders(sandbox, "COIN-FUTURES")
  const raws = [...hedge, ...oneWay]
  assert.isTrue(raws.some((raw) => raw.orderType === "market" && raw.price === ""), "market orders without a price")
  assert.deepStrictEqual(distinct(raws.map((raw) => "posAvg" in raw)), ["false", "true"], "posAvg sent or left out")
  assert.deepStrictEqual(distinct(raws.map((raw) => "reduceOnly" in raw)), ["false", "true"], "reduceOnly too")
  assert.isTrue(
    hedge.some((raw) => raw.tradeSide === "close" && raw.side === "buy" && raw.posSide === "long"),
    "a hedge-mode close of a long, written as a buy"
  )
})

const batchCancel = Effect.gen(function*() {
  const sandbox = yield* freshSandbox
  const client = withClient(quick("spot.batchCancelOrders"))
  const allFailed = { symbol: "BTCUSDT", orderList: unknownOrders }
  const results = yield* times(CALLS, BatchCancel.batchCancelOrders(allFailed)).pipe(client)
  const log = yield* outcomes("batch-cancel")
  assert.deepStrictEqual(distinct(log), distinct(["200 00000", "400 43001"]), "both answers, one request each")
  assert.strictEqual(log.length, CALLS)
  const listedCodes: Array<ReadonlyArray<string | null>> = []
  results.forEach((result, i) => {
    assert.deepStrictEqual([result.succeeded, result.unconfirmed], [[], []])
    assert.deepStrictEqual(result.failed.map((f) => Option.getOrNull(f.orderId)), unknownOrders.map((o) => o.orderId))
    const codes = result.failed.map((f) => Option.getOrNull(f.errorCode))
    if (log[i] === "200 00000") listedCodes.push(codes)
    else assert.deepStrictEqual(codes, ["43001", "43001"], "a refused batch: every order failed with 43001")
  })
  assert.deepStrictEqual(distinct(listedCodes), distinct([[null, null], ["43001", "43001"]]), "errorCode or none")

  // the same on a batch that cancels one order: failures with and without errorCode
  const open = (yield* sandbox.openOrders(apiKeyOf(sandbox, "hmac"))).filter((o) => o.symbol === "BTCUSDT")
  assert.isAtLeast(open.length, CALLS / 2)
  const partial = yield* Effect.forEach(
    open.slice(0, CALLS / 2),
    (order) =>
      BatchCancel.batchCancelOrders({ symbol: "BTCUSDT", orderList: [{ orderId: order.orderId }, unknownOrders[0]!] })
        .pipe(client)
  )
  assert.isTrue(partial.every((result) => result.succeeded.length === 1 && result.failed.length === 1))
  assert.deepStrictEqual(
    distinct(partial.map((result) => Option.getOrNull(result.failed[0]!.errorCode))),
    distinct([null, "43001"])
  )

  // the operations over it: every order failed, never a batch error, whichever answer came
  yield* sandbox.reset
  for (let i = 0; i < CALLS / 2; i++) {
    const failure = yield* Effect.flip(BatchCancel.batchCancelOrdersOrFail(allFailed)).pipe(client)
    assert.instanceOf(failure, BatchCancel.BatchCancelPartialFailure)
    if (failure instanceof BatchCancel.BatchCancelPartialFailure) assert.strictEqual(failure.failed.length, 2)
    const { batchErrors, result } = yield* BatchCancel.cancelOrders(
      unknownOrders.map((o) => ({ ...o, symbol: "BTCUSDT" }))
    ).pipe(client)
    assert.deepStrictEqual(batchErrors, [])
    assert.deepStrictEqual([result.succeeded.length, result.failed.length, result.unconfirmed.length], [0, 2, 0])
  }
  const both = yield* outcomes("batch-cancel")
  for (const parity of [0, 1]) {
    assert.deepStrictEqual(
      distinct(both.filter((_, i) => i % 2 === parity)),
      distinct(["200 00000", "400 43001"]),
      parity === 0 ? "batchCancelOrdersOrFail met both answers" : "cancelOrders met both answers"
    )
  }
})

/** What a raw RPI answer is made of: its `requestTime` and level values. */
interface RawBook {
  readonly requestTime: unknown
  readonly data: {
    readonly a: ReadonlyArray<ReadonlyArray<unknown>>
    readonly b: ReadonlyArray<ReadonlyArray<unknown>>
  }
}

const rpiOrderBook = Effect.gen(function*() {
  const sandbox = yield* freshSandbox
  const request = { category: "SPOT", symbol: "BTCUSDT", limit: 10 } as const
  const books = yield* times(CALLS * 2, RpiOrderBook.rpiOrderBook(request)).pipe(
    withClient(quick("market.rpiOrderBook", { key: "marketMaker" }))
  )
  assert.deepStrictEqual(distinct(yield* outcomes("rpi-orderbook")), distinct(["200 00000"]))
  for (const book of books) {
    assert.strictEqual(book.a.length, 10)
    assert.isTrue(book.a.every((level, i) => i === 0 || BigDecimal.isGreaterThan(level.price, book.a[i - 1]!.price)))
    assert.isTrue([...book.a, ...book.b].every((level) => BigDecimal.isPositive(level.nonRpiQuantity)))
  }
  // the shapes of those answers: each is drawn from the seed and the answer's number, so after a reset the same
  // answers, asked again, take them again
  yield* sandbox.reset
  const url = `${sandbox.url}/api/v3/market/rpi-orderbook?category=SPOT&symbol=BTCUSDT&limit=10`
  const headers = { "ACCESS-KEY": sandbox.credentials.marketMaker.apiKey }
  const raws = yield* times(
    CALLS * 2,
    Effect.promise(() => fetch(url, { headers }).then((response) => response.json() as Promise<RawBook>))
  )
  const levelTypes = raws.map((raw) => [...new Set([...raw.data.a, ...raw.data.b].flat().map((v) => typeof v))].join())
  assert.deepStrictEqual(distinct(levelTypes), distinct(["number", "string"]), "levels as numbers, or as strings")
  assert.deepStrictEqual(distinct(raws.map((raw) => typeof raw.requestTime)), distinct(["number", "string"]))
})

describe("shapes", () => {
  onSandbox({ seed: 9, sizes, limits: false })((it) => {
    it.effect("symbols: records of the older shape (without six fields) and of the current one decode", () => symbols)
    it.effect(
      "futures history: orders with and without posAvg or reduceOnly, market orders priced \"\", both modes decode",
      () => futuresHistory,
      20_000
    )
    it.effect(
      "batch cancel: an all-failed batch listed (00000) or refused (400 43001), errorCode or none: every order failed",
      () => batchCancel,
      20_000
    )
    it.effect("RPI book: levels as strings and as JSON numbers, requestTime a number or a string, all decode", () =>
      rpiOrderBook)
  })
})
