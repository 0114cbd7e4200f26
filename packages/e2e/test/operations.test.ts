/**
 * Every operation (and server time) through the real client against the
 * sandbox over loopback: decoded values compared with what the sandbox holds,
 * with the HMAC and the RSA key, and the writes (batch cancel, TP/SL) checked
 * against the sandbox's account state. The tests are kept by endpoint, and
 * every endpoint core exports must have some.
 */
import {
  BatchCancel,
  BitgetError,
  FundNetFlow,
  FuturesHistory,
  OpenInterestLimit,
  P2pOrders,
  PositionTpsl,
  RpiOrderBook,
  Schemas,
  ServerTime,
  Symbols,
  TaxRecords,
  TradeRates
} from "@bitget-effect/core"
import type { Sandbox } from "@bitget-effect/sandbox"
import { assert, describe } from "@effect/vitest"
import { BigDecimal, DateTime, Effect, Option } from "effect"
import type { ByEndpoint } from "./support.js"
import {
  apiKeyOf,
  assertDecimal,
  assertMaybeDecimal,
  assertMaybeTime,
  assertTime,
  covered,
  DAY,
  enumText,
  failureOf,
  freshSandbox,
  logOf,
  onSandbox,
  oracle,
  withClient
} from "./support.js"

const sizes = { p2pOrders: 500, p2pDays: 60, taxRecords: 3_000, taxDays: 60, taxBurst: 0, futuresOrders: 500 }

const decimal = BigDecimal.fromStringUnsafe

/** One test: its title, and its body on the block's sandbox. */
interface Check {
  readonly title: string
  readonly run: Effect.Effect<void, unknown, Sandbox.Sandbox>
}

const check = (title: string, run: Effect.Effect<void, unknown, Sandbox.Sandbox>): Check => ({ title, run })

const symbols = check(
  "symbols: every pair decoded exactly as the sandbox holds it; `$` and CJK pairs by name",
  Effect.gen(function*() {
    const sandbox = yield* freshSandbox
    const truth = oracle(sandbox).dataset.symbols
    const { all, cjk, dollar } = yield* Effect.all({
      all: Symbols.symbols(),
      dollar: Symbols.symbols({ symbol: "BTC$USDT" }),
      cjk: Symbols.symbols({ symbol: "币安人生USDT" })
    }).pipe(withClient({ key: "none" }))
    assert.strictEqual(all.length, sandbox.sizes.symbols)
    all.forEach((symbol, i) => {
      const raw = truth[i] as Readonly<Record<string, string>>
      const at = `${raw.symbol}`
      assert.strictEqual(symbol.symbol, raw.symbol)
      assert.strictEqual(symbol.baseCoin, raw.baseCoin, at)
      assert.strictEqual(symbol.quoteCoin, raw.quoteCoin, at)
      assert.strictEqual(enumText(symbol.status), raw.status, at)
      assertDecimal(symbol.takerFeeRate, raw.takerFeeRate as string, `${at} takerFeeRate`)
      assertDecimal(symbol.makerFeeRate, raw.makerFeeRate as string, `${at} makerFeeRate`)
      assertMaybeDecimal(symbol.minTradeUSDT, raw.minTradeUSDT as string, `${at} minTradeUSDT`)
      // zero-padded spot decimals ("0.0500000000000000", "900000000000000000000.0000000000000000") decode exactly
      assertMaybeDecimal(symbol.buyLimitPriceRatio, raw.buyLimitPriceRatio as string, `${at} buyLimitPriceRatio`)
      assertMaybeDecimal(symbol.maxTradeAmount, raw.maxTradeAmount as string, `${at} maxTradeAmount`)
      assert.strictEqual(symbol.pricePrecision, Number(raw.pricePrecision), at)
      assert.strictEqual(symbol.quantityPrecision, Number(raw.quantityPrecision), at)
      assertMaybeTime(symbol.offTime, raw.offTime ?? "", `${at} offTime`)
      assertMaybeTime(symbol.openTime, raw.openTime ?? "", `${at} openTime`)
      assertMaybeDecimal(symbol.maxLimitOrderValue, raw.maxLimitOrderValue ?? "", `${at} maxLimitOrderValue`)
      assertMaybeDecimal(symbol.maxMarketOrderValue, raw.maxMarketOrderValue ?? "", `${at} maxMarketOrderValue`)
    })
    assert.deepStrictEqual(
      new Set(all.map((s) => enumText(s.status))),
      new Set(["online", "offline", "gray", "halt"]),
      "all four statuses, each decoded as a known value"
    )
    assert.deepStrictEqual(dollar.map((s) => [s.symbol, s.baseCoin, s.quoteCoin]), [["BTC$USDT", "BTC$", "USDT"]])
    assert.deepStrictEqual(cjk.map((s) => [s.symbol, s.baseCoin, s.quoteCoin]), [[
      "币安人生USDT",
      "币安人生",
      "USDT"
    ]])
    const log = yield* logOf("symbols")
    assert.deepStrictEqual(
      log.map((e) => e.query).sort(),
      ["", "symbol=BTC%24USDT", "symbol=%E5%B8%81%E5%AE%89%E4%BA%BA%E7%94%9FUSDT"].sort()
    )
  })
)

const tradeRates = check(
  "trade rates: spot with HMAC, mix with RSA, the market maker's negative maker rate",
  Effect.gen(function*() {
    const sandbox = yield* freshSandbox
    const dataset = oracle(sandbox).dataset
    const spot = yield* TradeRates.tradeRates({ businessType: "spot" }).pipe(withClient({ key: "hmac" }))
    const listed = dataset.symbols.filter((s) => s.status !== "offline")
    assert.deepStrictEqual(spot.map((r) => r.symbol), listed.map((s) => s.symbol))
    for (const rate of spot) {
      const truth = dataset.tradeRate("spot", rate.symbol)
      assertDecimal(rate.makerFeeRate, truth.makerFeeRate, `${rate.symbol} maker`)
      assertDecimal(rate.takerFeeRate, truth.takerFeeRate, `${rate.symbol} taker`)
    }
    const [mix] = yield* TradeRates.tradeRates({ businessType: "mix", symbol: "ETHUSDT" }).pipe(
      withClient({ key: "rsa" })
    )
    assert.strictEqual(mix?.symbol, "ETHUSDT")
    assertDecimal(mix!.takerFeeRate, "0.0006", "mix taker (RSA)")
    const [maker] = yield* TradeRates.tradeRates({ businessType: "mix", symbol: "BTCUSDT" }).pipe(
      withClient({ key: "marketMaker" })
    )
    assertDecimal(maker!.makerFeeRate, "-0.00005", "market maker rebate")
    assert.isTrue(BigDecimal.isNegative(maker!.makerFeeRate))
    const log = yield* logOf("trade-rate")
    assert.deepStrictEqual(log.map((e) => [e.apiKey, e.signature, e.status]), [
      [apiKeyOf(sandbox, "hmac"), "valid", 200],
      [apiKeyOf(sandbox, "rsa"), "valid", 200],
      [apiKeyOf(sandbox, "marketMaker"), "valid", 200]
    ])
  })
)

const fundNetFlow = check(
  "fund net flow: 24 hourly points, newest first, signed decimals",
  Effect.gen(function*() {
    yield* freshSandbox
    const now = Date.now()
    const flow = yield* FundNetFlow.fundNetFlow({ symbol: "BTCUSDT" }).pipe(withClient({ key: "none" }))
    assert.strictEqual(flow.length, 24)
    const times = flow.map((point) => DateTime.toEpochMillis(point.ts))
    times.forEach((t, i) => {
      assert.strictEqual(t % 3_600_000, 0, "at the top of an hour")
      if (i > 0) assert.strictEqual(times[i - 1]! - t, 3_600_000, "hourly, newest first")
    })
    assert.isTrue(
      now - times[0]! < 3_600_000 + 5_000 && times[0]! <= now + 5_000,
      "the newest point is the current hour"
    )
    assert.isTrue(flow.every((point) => point.netFlow.scale <= 4))
    assert.isTrue(flow.some((point) => !BigDecimal.isZero(point.netFlow)))
  })
)

const openInterestLimit = check(
  "open interest limit with the RSA key, for USDT- and coin-margined contracts",
  Effect.gen(function*() {
    const sandbox = yield* freshSandbox
    const dataset = oracle(sandbox).dataset
    const { coin, usdt } = yield* Effect.all({
      usdt: OpenInterestLimit.openInterestLimit({ symbol: "BTCUSDT", category: "USDT-FUTURES" }),
      coin: OpenInterestLimit.openInterestLimit({ symbol: "ETHUSD", category: "COIN-FUTURES" })
    }).pipe(withClient({ key: "rsa" }))
    for (
      const [decoded, truth] of [
        [usdt, dataset.openInterestLimit("USDT-FUTURES", "BTCUSDT")!],
        [coin, dataset.openInterestLimit("COIN-FUTURES", "ETHUSD")!]
      ] as const
    ) {
      assert.strictEqual(decoded.symbol, truth.symbol)
      assertDecimal(decoded.singleUserLimit, truth.singleUserLimit, `${truth.symbol} singleUserLimit`)
      assertDecimal(decoded.masterSubLimit, truth.masterSubLimit, `${truth.symbol} masterSubLimit`)
      assertDecimal(decoded.marketMakerLimit, truth.marketMakerLimit, `${truth.symbol} marketMakerLimit`)
      assert.isTrue(BigDecimal.isLessThan(decoded.singleUserLimit, decoded.masterSubLimit))
      assert.isTrue(BigDecimal.isLessThan(decoded.masterSubLimit, decoded.marketMakerLimit))
    }
    assert.deepStrictEqual((yield* logOf("open-interest-limit")).map((e) => e.signature), ["valid", "valid"])
  })
)

const rpiOrderBook = check(
  "RPI order book: the market maker reads it; an ordinary key gets 40014 (Permission)",
  Effect.gen(function*() {
    yield* freshSandbox
    const book = yield* RpiOrderBook.rpiOrderBook({ category: "SPOT", symbol: "BTCUSDT", limit: 20 }).pipe(
      withClient({ key: "marketMaker" })
    )
    assert.strictEqual(book.a.length, 20)
    assert.strictEqual(book.b.length, 20)
    for (let i = 1; i < 20; i++) {
      assert.isTrue(BigDecimal.isGreaterThan(book.a[i]!.price, book.a[i - 1]!.price), "asks ascending")
      assert.isTrue(BigDecimal.isLessThan(book.b[i]!.price, book.b[i - 1]!.price), "bids descending")
    }
    assert.isTrue(BigDecimal.isGreaterThan(book.a[0]!.price, book.b[0]!.price), "the book is not crossed")
    assert.isTrue([...book.a, ...book.b].every((level) => BigDecimal.isPositive(level.nonRpiQuantity)))
    assert.isTrue([...book.a, ...book.b].every((level) => !BigDecimal.isNegative(level.rpiQuantity)))
    assert.isTrue(
      [...book.a, ...book.b].some((level) => BigDecimal.isPositive(level.rpiQuantity)),
      "some RPI quantity"
    )
    assert.isTrue(Math.abs(DateTime.toEpochMillis(book.ts) - Date.now()) < 5_000)
    const futures = yield* RpiOrderBook.rpiOrderBook({ category: "USDT-FUTURES", symbol: "ETHUSDT" }).pipe(
      withClient({ key: "marketMaker" })
    )
    assert.strictEqual(futures.a.length, 5, "the default depth")

    for (const key of ["hmac", "rsa", "none"] as const) {
      const error = yield* failureOf(
        RpiOrderBook.rpiOrderBook({ category: "SPOT", symbol: "BTCUSDT" }).pipe(withClient({ key }))
      )
      assert.instanceOf(error, BitgetError.BitgetApiError, key)
      if (error instanceof BitgetError.BitgetApiError) {
        assert.strictEqual(error.code, "40014", key)
        assert.strictEqual(error.kind, "Permission", key)
        assert.strictEqual(error.status, 400, key)
      }
    }
    const log = yield* logOf("rpi-orderbook")
    assert.deepStrictEqual(
      log.map((e) => e.code),
      ["00000", "00000", "40014", "40014", "40014"],
      "no retry of a permission error"
    )
  })
)

const p2pOrders = check(
  "P2P orders with HMAC and RSA: a page decoded as the sandbox holds it",
  Effect.gen(function*() {
    const sandbox = yield* freshSandbox
    const dataset = oracle(sandbox).dataset
    for (const key of ["hmac", "rsa"] as const) {
      const orders = dataset.p2pOrders(apiKeyOf(sandbox, key))
      const page = yield* P2pOrders.p2pOrders({ limit: 40 }).pipe(withClient({ key }))
      assert.strictEqual(page.orderList.length, 40)
      page.orderList.forEach((order, i) => {
        const raw = orders[i]!
        const at = `${key} order ${raw.orderId}`
        assert.strictEqual(order.orderId, raw.orderId, at)
        assert.strictEqual(order.orderNo, raw.orderNo, at)
        assert.strictEqual(order.coin, raw.coin, at)
        assert.strictEqual(order.fiat, raw.fiat, at)
        assert.strictEqual(enumText(order.side), raw.side, at)
        assert.strictEqual(
          enumText(order.status).toLowerCase(),
          raw.status,
          `${at}: status decoded as a known value`
        )
        assertDecimal(order.count, raw.count, `${at} count`)
        assertDecimal(order.price, raw.price, `${at} price`)
        assertDecimal(order.amount, raw.amount, `${at} amount`)
        assertTime(order.ctime, raw.ctime, `${at} ctime`)
        assertTime(order.utime, raw.utime, `${at} utime`)
        assertMaybeTime(order.paymentTime, raw.paymentTime, `${at} paymentTime`)
        assertMaybeTime(order.releaseTime, raw.releaseTime, `${at} releaseTime`)
        assertMaybeTime(order.withdrawTime, raw.withdrawTime, `${at} withdrawTime`)
        assert.strictEqual(Option.getOrElse(order.buyerRealName, () => ""), raw.buyerRealName, at)
        assert.deepStrictEqual(
          Option.map(order.paymentInfo, (info) => info.paymethodInfo.map((item) => item.name)),
          Option.some(raw.paymentInfo.paymethodInfo.map((item) => item.name)),
          at
        )
      })
      assert.deepStrictEqual(page.minOrderId, Option.some(page.orderList[39]!.orderId))
    }
  })
)

const taxRecords = check(
  "tax records with the RSA key, filtered by a CJK coin: exactly the sandbox's records",
  Effect.gen(function*() {
    const sandbox = yield* freshSandbox
    const dataset = oracle(sandbox).dataset
    const end = sandbox.anchor
    const start = end - 30 * DAY
    const records = yield* TaxRecords.spotRecords({
      coin: "币安人生",
      startTime: DateTime.makeUnsafe(start),
      endTime: DateTime.makeUnsafe(end),
      limit: 500
    }).pipe(withClient({ key: "rsa" }))
    const expected = dataset.taxRecords(apiKeyOf(sandbox, "rsa"), { start, end }).filter((r) => r.coin === "币安人生")
    assert.isAbove(expected.length, 5, "the filter has something to find")
    assert.isBelow(expected.length, 500, "one page holds it all")
    assert.deepStrictEqual(records.map((r) => r.id), expected.map((r) => r.id))
    records.forEach((record, i) => {
      const raw = expected[i]!
      assert.strictEqual(record.coin, "币安人生")
      assert.strictEqual(enumText(record.spotTaxType), raw.spotTaxType)
      assertDecimal(record.amount, raw.amount, `${raw.id} amount`)
      assertDecimal(record.fee, raw.fee, `${raw.id} fee`)
      assertDecimal(record.balance, raw.balance, `${raw.id} balance`)
      assertTime(record.ts, raw.ts, `${raw.id} ts`)
      assert.deepStrictEqual(record.bizOrderId, raw.bizOrderId === "" ? Option.none() : Option.some(raw.bizOrderId))
    })
    const [entry] = yield* logOf("tax-records")
    assert.strictEqual(entry?.signature, "valid")
    assert.include(entry?.query, "coin=%E5%B8%81%E5%AE%89%E4%BA%BA%E7%94%9F")
  })
)

const futuresHistory = check(
  "futures history: a page decoded as the sandbox holds it (lower-case enums, empty prices)",
  Effect.gen(function*() {
    const sandbox = yield* freshSandbox
    const orders = oracle(sandbox).dataset.futuresOrders(apiKeyOf(sandbox, "hmac"), "USDT-FUTURES")
    const page = yield* FuturesHistory.ordersHistory({ productType: "USDT-FUTURES", limit: 100 }).pipe(withClient())
    assert.strictEqual(page.entrustedList.length, 100)
    page.entrustedList.forEach((order, i) => {
      const raw = orders[i]!
      const at = `order ${raw.orderId}`
      assert.strictEqual(order.orderId, raw.orderId)
      assert.strictEqual(order.symbol, raw.symbol, at)
      assert.strictEqual(Option.getOrElse(order.clientOid, () => ""), raw.clientOid, at)
      assert.strictEqual(enumText(order.status), raw.status, at)
      assert.strictEqual(enumText(order.enterPointSource), raw.enterPointSource.toUpperCase(), at)
      assert.strictEqual(enumText(order.orderSource), raw.orderSource, at)
      assert.strictEqual(enumText(order.tradeSide), raw.tradeSide, at)
      assert.strictEqual(enumText(order.posMode), "hedge_mode", at)
      assert.strictEqual(Option.match(order.reduceOnly, { onNone: () => "", onSome: enumText }), raw.reduceOnly, at)
      assertDecimal(order.size, raw.size, `${at} size`)
      assertDecimal(order.fee, raw.fee, `${at} fee`)
      assertDecimal(order.leverage, raw.leverage, `${at} leverage`)
      assertMaybeDecimal(order.price, raw.price, `${at} price`)
      assertMaybeDecimal(order.priceAvg, raw.priceAvg, `${at} priceAvg`)
      assertMaybeDecimal(order.posAvg, raw.posAvg ?? "", `${at} posAvg`)
      assertMaybeDecimal(order.presetStopLossPrice, raw.presetStopLossPrice, `${at} presetStopLossPrice`)
      assertTime(order.cTime, raw.cTime, `${at} cTime`)
      for (
        const value of [
          order.status,
          order.side,
          order.force,
          order.orderSource,
          order.tradeSide,
          order.enterPointSource
        ]
      ) {
        assert.isTrue(Schemas.isKnown(value), `${at}: ${String(value)} is a known value`)
      }
    })
    assert.isTrue(
      page.entrustedList.some((o) => o.status === "canceled") &&
        page.entrustedList.some((o) => o.status === "filled")
    )
    assert.isTrue(
      page.entrustedList.some((o) => Option.isNone(o.priceAvg)),
      "unfilled orders have no average price"
    )
    assert.deepStrictEqual(page.endId, Option.some(page.entrustedList[99]!.orderId))
  })
)

const querySigning = check(
  "`$` and CJK symbols go through query signing with both keys",
  Effect.gen(function*() {
    yield* freshSandbox
    for (const key of ["hmac", "rsa"] as const) {
      const rates = yield* Effect.all([
        TradeRates.tradeRates({ businessType: "spot", symbol: "BTC$USDT" }),
        TradeRates.tradeRates({ businessType: "margin", symbol: "币安人生USDT" })
      ]).pipe(withClient({ key }))
      assert.deepStrictEqual(rates.map((list) => list.map((r) => r.symbol)), [["BTC$USDT"], ["币安人生USDT"]], key)
      const tax = yield* TaxRecords.spotRecords({
        coin: "BTC$",
        startTime: DateTime.makeUnsafe(Date.now() - 20 * DAY),
        endTime: DateTime.makeUnsafe(Date.now()),
        limit: 20
      }).pipe(withClient({ key }))
      assert.isAbove(tax.length, 0, key)
      assert.isTrue(tax.every((r) => r.coin === "BTC$"), key)
    }
    const log = yield* logOf("trade-rate", "tax-records")
    assert.strictEqual(log.length, 6)
    assert.deepStrictEqual(log.map((e) => e.signature), Array(6).fill("valid"))
    assert.isTrue(log.some((e) => e.query.includes("symbol=BTC%24USDT")), "sent percent-encoded, signed decoded")
    assert.isTrue(log.some((e) => e.query.includes("coin=BTC%24")))
  })
)

const batchCancel = check(
  "batch cancel really cancels; a second cancel of the same order is a per-order failure",
  Effect.gen(function*() {
    const sandbox = yield* freshSandbox
    const apiKey = apiKeyOf(sandbox, "hmac")
    const before = yield* sandbox.openOrders(apiKey)
    assert.strictEqual(before.length, sandbox.sizes.openOrders)
    const btc = before.filter((o) => o.symbol === "BTCUSDT")
    const [first, second, third, fourth] = btc
    assert.isDefined(fourth)
    const result = yield* BatchCancel.batchCancelOrders({
      symbol: "BTCUSDT",
      orderList: [first!, second!, third!].map((o) => ({ orderId: o.orderId }))
    }).pipe(withClient())
    assert.isTrue(result.allCancelled)
    assert.deepStrictEqual(result.succeeded.map((o) => o.orderId), [
      first!.orderId,
      second!.orderId,
      third!.orderId
    ])
    assert.deepStrictEqual(
      result.succeeded.map((o) => o.clientOid),
      [first!, second!, third!].map((o) => Option.some(o.clientOid))
    )
    const after = yield* sandbox.openOrders(apiKey)
    assert.strictEqual(after.length, before.length - 3)
    assert.isFalse(after.some((o) => [first!.orderId, second!.orderId, third!.orderId].includes(o.orderId)))

    // again, with one order still open: the cancelled one is a failure in the data
    const again = yield* BatchCancel.batchCancelOrders({
      symbol: "BTCUSDT",
      orderList: [{ orderId: first!.orderId }, { orderId: fourth!.orderId }]
    }).pipe(withClient())
    assert.deepStrictEqual(again.succeeded.map((o) => o.orderId), [fourth!.orderId])
    assert.deepStrictEqual(again.failed.map((f) => [Option.getOrNull(f.orderId), Option.getOrNull(f.errorCode)]), [
      [first!.orderId, "43001"]
    ])
    assert.deepStrictEqual(again.unconfirmed, [])
    assert.isFalse(again.allCancelled)

    // alone: every order fails; the doc's answer (canonical) is 00000 with every order in failureList (the other
    // answer, a top-level HTTP 400 43001, is met in shapes.test.ts); either way data for the caller
    const alone = yield* BatchCancel.batchCancelOrders({
      symbol: "BTCUSDT",
      orderList: [{ orderId: second!.orderId }]
    })
      .pipe(withClient())
    assert.deepStrictEqual(alone.succeeded, [])
    assert.deepStrictEqual(alone.failed.map((f) => [Option.getOrNull(f.orderId), Option.getOrNull(f.errorCode)]), [
      [second!.orderId, "43001"]
    ])
    assert.strictEqual((yield* sandbox.openOrders(apiKey)).length, before.length - 4)
    assert.deepStrictEqual(
      (yield* logOf("batch-cancel")).map((e) => [e.status, e.code]),
      [[200, "00000"], [200, "00000"], [200, "00000"]],
      "one request each, nothing retried"
    )
  })
)

const batchCancelOrFail = check(
  "batchCancelOrdersOrFail fails with BatchCancelPartialFailure; the cancellable order is still cancelled",
  Effect.gen(function*() {
    const sandbox = yield* freshSandbox
    const apiKey = apiKeyOf(sandbox, "rsa")
    const [open, other] = (yield* sandbox.openOrders(apiKey)).filter((o) => o.symbol === "ETHUSDT")
    const all = yield* BatchCancel.batchCancelOrdersOrFail({
      symbol: "ETHUSDT",
      orderList: [{ orderId: other!.orderId }]
    })
      .pipe(withClient({ key: "rsa" }))
    assert.deepStrictEqual(all.map((o) => o.orderId), [other!.orderId])
    const error = yield* failureOf(
      BatchCancel.batchCancelOrdersOrFail({
        symbol: "ETHUSDT",
        orderList: [{ orderId: open!.orderId }, { orderId: other!.orderId }]
      }).pipe(withClient({ key: "rsa" }))
    )
    assert.instanceOf(error, BatchCancel.BatchCancelPartialFailure)
    if (error instanceof BatchCancel.BatchCancelPartialFailure) {
      assert.deepStrictEqual(error.succeeded.map((o) => o.orderId), [open!.orderId])
      assert.deepStrictEqual(error.failed.map((f) => Option.getOrNull(f.orderId)), [other!.orderId])
      assert.include(error.message, "1 of 2 orders cancelled")
    }
    const left = yield* sandbox.openOrders(apiKey)
    assert.isFalse(left.some((o) => o.orderId === open!.orderId || o.orderId === other!.orderId))
  })
)

const cancelByClientOid = check(
  "cancelOrders by clientOid across `$` and CJK pairs (multiple mode, RSA)",
  Effect.gen(function*() {
    const sandbox = yield* freshSandbox
    const apiKey = apiKeyOf(sandbox, "rsa")
    const before = yield* sandbox.openOrders(apiKey)
    const targets = before.filter((o) => o.symbol === "BTC$USDT" || o.symbol === "币安人生USDT")
    assert.isAbove(targets.length, 10)
    const { batchErrors, result } = yield* BatchCancel.cancelOrders(
      targets.map((o) => ({ symbol: o.symbol, clientOid: o.clientOid }))
    ).pipe(withClient({ key: "rsa" }))
    assert.deepStrictEqual(batchErrors, [])
    assert.isTrue(result.allCancelled)
    assert.deepStrictEqual(
      result.succeeded.map((o) => o.orderId).sort(),
      targets.map((o) => o.orderId).sort()
    )
    const after = yield* sandbox.openOrders(apiKey)
    assert.deepStrictEqual(
      after.map((o) => o.orderId),
      before.filter((o) => !targets.includes(o)).map((o) => o.orderId)
    )
    assert.deepStrictEqual(
      (yield* logOf("batch-cancel")).map((e) => e.signature),
      ["valid"],
      "one batch, body signed"
    )
  })
)

const cancelAll = check(
  "cancelOrders: all 60 open orders of five pairs, in batches of at most 50",
  Effect.gen(function*() {
    const sandbox = yield* freshSandbox
    const apiKey = apiKeyOf(sandbox, "marketMaker")
    const open = yield* sandbox.openOrders(apiKey)
    assert.strictEqual(open.length, 60)
    assert.strictEqual(new Set(open.map((o) => o.symbol)).size, 5)
    const { batchErrors, result } = yield* BatchCancel.cancelOrders(
      open.map((o) => ({ symbol: o.symbol, orderId: o.orderId }))
    )
      .pipe(withClient({ key: "marketMaker" }))
    assert.deepStrictEqual(batchErrors, [])
    assert.isTrue(result.allCancelled)
    assert.strictEqual(result.succeeded.length, 60)
    assert.deepStrictEqual(yield* sandbox.openOrders(apiKey), [])
    const log = yield* logOf("batch-cancel")
    assert.deepStrictEqual(log.map((e) => [e.status, e.signature]), [[200, "valid"], [200, "valid"]], "two batches")
  })
)

const positionTpsl = check(
  "TP/SL creates plans on a seeded position (HMAC and RSA), fails with 40837 without one and 45122 past the mark",
  Effect.gen(function*() {
    const sandbox = yield* freshSandbox
    const hmac = apiKeyOf(sandbox, "hmac")
    const positions = yield* sandbox.positions(hmac)
    assert.isTrue(positions.some((p) => p.symbol === "BTCUSDT" && p.holdSide === "long"))
    const placed = yield* PositionTpsl.placePositionTpsl({
      marginCoin: "USDT",
      productType: "USDT-FUTURES",
      symbol: "BTCUSDT",
      holdSide: "long",
      stopSurplusTriggerPrice: decimal("125000.5"),
      stopSurplusSize: decimal("0.00000001"),
      stopSurplusTriggerType: "mark_price",
      stopSurplusClientOid: "tp-e2e-1",
      // BTC's mark stays within 95000 ± 17%: a long's take profit above it, its stop loss below
      stopLossTriggerPrice: decimal("60000"),
      stopLossExecutePrice: decimal("59950.25"),
      stopLossClientOid: "sl-e2e-1"
    }).pipe(withClient())
    assert.strictEqual(placed.length, 2)
    assert.deepStrictEqual(
      placed.map((o) => [Option.getOrNull(o.stopSurplusClientOid), Option.getOrNull(o.stopLossClientOid)]),
      [
        ["tp-e2e-1", null],
        [null, "sl-e2e-1"]
      ]
    )
    const plans = yield* sandbox.plans(hmac)
    assert.deepStrictEqual(plans.map((p) => p.orderId), placed.map((o) => o.orderId))
    assert.deepStrictEqual(
      plans.map((
        p
      ) => [p.planType, p.symbol, p.holdSide, p.triggerPrice, p.triggerType, p.executePrice, p.size, p.clientOid]),
      [
        ["profit_plan", "BTCUSDT", "long", "125000.5", "mark_price", "", "0.00000001", "tp-e2e-1"],
        ["pos_loss", "BTCUSDT", "long", "60000", "fill_price", "59950.25", "", "sl-e2e-1"]
      ],
      "decimals sent in fixed point, never 1e-8"
    )

    const rsa = apiKeyOf(sandbox, "rsa")
    const oneWay = yield* PositionTpsl.placePositionTpsl({
      marginCoin: "BTC",
      productType: "coin-futures",
      symbol: "BTCUSD",
      holdSide: "buy",
      stopLossTriggerPrice: decimal("70000")
    }).pipe(withClient({ key: "rsa" }))
    assert.strictEqual(oneWay.length, 1)
    assert.deepStrictEqual((yield* sandbox.plans(rsa)).map((p) => [p.orderId, p.planType, p.productType]), [
      [oneWay[0]!.orderId, "pos_loss", "COIN-FUTURES"]
    ])

    for (
      const [symbol, holdSide] of [["SOLUSDT", "long"], ["ETHUSDT", "short"]] as const
    ) {
      const error = yield* failureOf(
        PositionTpsl.placePositionTpsl({
          marginCoin: "USDT",
          productType: "USDT-FUTURES",
          symbol,
          holdSide,
          stopSurplusTriggerPrice: decimal("999")
        }).pipe(withClient())
      )
      assert.instanceOf(error, BitgetError.BitgetApiError)
      if (error instanceof BitgetError.BitgetApiError) {
        assert.strictEqual(error.code, "40837", symbol)
        assert.strictEqual(error.kind, "Order", symbol)
      }
    }
    const mark = Option.getOrThrow(yield* sandbox.markPrice("USDT-FUTURES", "BTCUSDT"))
    const pastMark = yield* failureOf(
      PositionTpsl.placePositionTpsl({
        marginCoin: "USDT",
        productType: "USDT-FUTURES",
        symbol: "BTCUSDT",
        holdSide: "short",
        stopLossTriggerPrice: decimal("1000")
      }).pipe(withClient())
    )
    assert.instanceOf(pastMark, BitgetError.BitgetApiError)
    if (pastMark instanceof BitgetError.BitgetApiError) {
      assert.strictEqual(pastMark.code, "45122")
      assert.match(pastMark.msg, /^Short position stop loss price please > mark price \d+\.\d$/)
      assert.approximately(Number(pastMark.msg.split(" ").at(-1)), Number(mark), Number(mark) * 0.001)
    }
    assert.strictEqual((yield* sandbox.plans(hmac)).length, 2, "no plan was added by the failures")
    assert.deepStrictEqual(
      (yield* logOf("place-pos-tpsl")).map((e) => e.code),
      ["00000", "00000", "40837", "40837", "45122"]
    )
  })
)

const refusals = check(
  "an unknown symbol is a typed Parameter error; invalid input is refused before sending",
  Effect.gen(function*() {
    yield* freshSandbox
    const unknown = yield* failureOf(Symbols.symbols({ symbol: "NOPEUSDT" }).pipe(withClient({ key: "none" })))
    assert.instanceOf(unknown, BitgetError.BitgetApiError)
    if (unknown instanceof BitgetError.BitgetApiError) {
      assert.deepStrictEqual([unknown.code, unknown.kind, unknown.status], ["40034", "Parameter", 400])
    }
    const tooLong = yield* failureOf(
      TaxRecords.spotRecords({
        startTime: DateTime.makeUnsafe(Date.now() - 31 * DAY),
        endTime: DateTime.makeUnsafe(Date.now())
      }).pipe(withClient())
    )
    assert.instanceOf(tooLong, BitgetError.BitgetRequestError)
    const tooMany = yield* failureOf(
      BatchCancel.batchCancelOrders({
        symbol: "BTCUSDT",
        orderList: Array.from({ length: 51 }, (_, i) => ({ orderId: String(1_000 + i) }))
      }).pipe(withClient())
    )
    assert.instanceOf(tooMany, BitgetError.BitgetRequestError)
    assert.deepStrictEqual((yield* logOf()).map((e) => e.route), ["symbols"], "only the valid request was sent")
  })
)

const serverTime = check(
  "server time: the sandbox's clock",
  Effect.gen(function*() {
    const sandbox = yield* freshSandbox
    yield* sandbox.setClockOffset(-12_000)
    const { serverTime } = yield* ServerTime.serverTime.pipe(withClient({ key: "none" }))
    const expected = Date.now() - 12_000
    assert.isTrue(Math.abs(DateTime.toEpochMillis(serverTime) - expected) < 2_000)
  })
)

// ---------------------------------------------------------------------------
// The tests, by endpoint
// ---------------------------------------------------------------------------

/** The tests of each endpoint, by name; an endpoint core exports and this table lacks fails the suite. */
const byEndpoint: ByEndpoint<ReadonlyArray<Check>> = {
  "spot.symbols": [symbols],
  "common.allTradeRate": [tradeRates],
  "spot.fundNetFlow": [fundNetFlow],
  "account.openInterestLimit": [openInterestLimit],
  "market.rpiOrderBook": [rpiOrderBook],
  "p2p.orderList": [p2pOrders],
  "tax.spotRecords": [taxRecords],
  "mix.ordersHistory": [futuresHistory],
  "spot.batchCancelOrders": [batchCancel, batchCancelOrFail, cancelByClientOid, cancelAll],
  "mix.placePositionTpsl": [positionTpsl],
  "public.time": [serverTime]
}

/** Tests of several endpoints at once. */
const acrossEndpoints: ReadonlyArray<Check> = [querySigning, refusals]

describe("operations", () => {
  // the canonical shapes, so each value is checked exactly; shapes.test.ts decodes the varied ones
  onSandbox({ seed: 7, sizes, shapes: "canonical" })((it) => {
    for (const [, checks] of covered(byEndpoint)) {
      for (const { run, title } of checks) it.effect(title, () => run)
    }
    for (const { run, title } of acrossEndpoints) it.effect(title, () => run)
  })
})
