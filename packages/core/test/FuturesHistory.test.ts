import { assert, describe, it } from "@effect/vitest"
import { BigDecimal, DateTime, Effect, Option } from "effect"
import { TestClock } from "effect/testing"
import { BitgetDecodeError, BitgetRequestError } from "../src/BitgetError.js"
import * as FuturesHistory from "../src/FuturesHistory.js"
import { Unrecognized } from "../src/Schemas.js"
import { assertSigned, day, exchange, ok } from "./support.js"

const decimal = BigDecimal.fromStringUnsafe

/** The client limits itself to the endpoint's rate under the TestClock: let the window pass between calls. */
const waitOutRateLimit = TestClock.adjust("2 seconds")
const isDecimal = (actual: Option.Option<BigDecimal.BigDecimal>, expected: string) =>
  Option.isSome(actual) && BigDecimal.equals(actual.value, decimal(expected))

const start = 1_700_000_000_000
const startTime = DateTime.makeUnsafe(start)

/** The response example's record shape (no reduceOnly, no liqPrice, lower-case enterPointSource). */
const order = {
  symbol: "ETHUSDT",
  size: "0.1",
  orderId: "1135977925498548224",
  clientOid: "1135977925498548225",
  baseVolume: "0.1",
  fee: "-0.0134178",
  price: "",
  priceAvg: "2236.3",
  status: "filled",
  side: "buy",
  force: "gtc",
  totalProfits: "0",
  posSide: "long",
  marginCoin: "USDT",
  quoteVolume: "223.63",
  leverage: "20",
  marginMode: "crossed",
  enterPointSource: "web",
  tradeSide: "open",
  posMode: "hedge_mode",
  orderType: "market",
  orderSource: "market",
  cTime: "1708496549452",
  uTime: "1708496549484",
  presetStopSurplusPrice: "",
  presetStopLossPrice: "",
  posAvg: ""
}

const page = { entrustedList: [order], endId: "1135977925498548224" }

const rejects = (request: FuturesHistory.FuturesHistoryRequest, issue: RegExp) => {
  const { layer, requests } = exchange(() => ok(page))
  return Effect.gen(function*() {
    const error = yield* Effect.flip(FuturesHistory.ordersHistory(request))
    assert.instanceOf(error, BitgetRequestError)
    assert.match(error.issue, issue)
    assert.strictEqual(requests.length, 0)
  }).pipe(Effect.provide(layer))
}

describe("ordersHistory", () => {
  it.effect("is described as a signed, idempotent GET limited to 10/s per user", () =>
    Effect.sync(() => {
      const { endpoint } = FuturesHistory
      assert.strictEqual(endpoint.method, "GET")
      assert.strictEqual(endpoint.path, "/api/v2/mix/order/orders-history")
      assert.strictEqual(endpoint.auth, "signed")
      assert.strictEqual(endpoint.idempotency, "idempotent")
      assert.deepStrictEqual(endpoint.rateLimit, { limit: 10, window: "1 second", scope: "uid" })
    }))

  it.effect("sends a signed GET with every parameter, keys sorted", () => {
    const { layer, requests } = exchange(() => ok(page))
    return Effect.gen(function*() {
      yield* FuturesHistory.ordersHistory({
        productType: "USDT-FUTURES",
        symbol: "ETHUSDT",
        orderId: "1135977925498548224",
        idLessThan: "1135977925498548000",
        orderSource: "Trader_delegate",
        startTime,
        endTime: DateTime.makeUnsafe(start + day),
        limit: 100
      })
      assert.strictEqual(requests.length, 1)
      const request = requests[0]!
      assert.strictEqual(request.method, "GET")
      assert.strictEqual(request.url.pathname, "/api/v2/mix/order/orders-history")
      const query = "endTime=1700086400000&idLessThan=1135977925498548000&limit=100&orderId=1135977925498548224" +
        "&orderSource=Trader_delegate&productType=USDT-FUTURES&startTime=1700000000000&symbol=ETHUSDT"
      assert.strictEqual(request.url.search, `?${query}`)
      assert.strictEqual(request.headers["locale"], "en-US")
      assert.strictEqual(request.body, "")
      assertSigned(request, query)
    }).pipe(Effect.provide(layer))
  })

  it.effect("sends only productType when nothing else is given", () => {
    const { layer, requests } = exchange(() => ok(page))
    return Effect.gen(function*() {
      yield* FuturesHistory.ordersHistory({ productType: "COIN-FUTURES" })
      assert.strictEqual(requests[0]!.url.search, "?productType=COIN-FUTURES")
      assertSigned(requests[0]!, "productType=COIN-FUTURES")
    }).pipe(Effect.provide(layer))
  })

  it.effect("sends only orderId when both orderId and clientOid are given", () => {
    const { layer, requests } = exchange(() => ok(page))
    return Effect.gen(function*() {
      yield* FuturesHistory.ordersHistory({
        productType: "USDT-FUTURES",
        clientOid: "my-order-1",
        orderId: "1135977925498548224"
      })
      const request = requests[0]!
      assert.isNull(request.url.searchParams.get("clientOid"))
      assert.strictEqual(request.url.search, "?orderId=1135977925498548224&productType=USDT-FUTURES")
      assertSigned(request, "orderId=1135977925498548224&productType=USDT-FUTURES")
    }).pipe(Effect.provide(layer))
  })

  it.effect("signs a clientOid with `#` and `+` and a `$` symbol raw while the URL carries them encoded", () => {
    const { layer, requests } = exchange(() => ok(page))
    return Effect.gen(function*() {
      yield* FuturesHistory.ordersHistory({ productType: "USDT-FUTURES", clientOid: "my#oid+1", symbol: "$WIFUSDT" })
      const request = requests[0]!
      assert.strictEqual(request.url.search, "?clientOid=my%23oid%2B1&productType=USDT-FUTURES&symbol=%24WIFUSDT")
      assert.strictEqual(request.url.searchParams.get("clientOid"), "my#oid+1")
      assertSigned(request, "clientOid=my#oid+1&productType=USDT-FUTURES&symbol=$WIFUSDT")
    }).pipe(Effect.provide(layer))
  })

  it.effect("decodes the example record: unset prices as None, lower-case enterPointSource as known", () => {
    const { layer } = exchange(() => ok({ ...page, entrustedList: [{ ...order, newField: "x" }] }))
    return Effect.gen(function*() {
      const result = yield* FuturesHistory.ordersHistory({ productType: "USDT-FUTURES" })
      assert.instanceOf(result, FuturesHistory.FuturesHistoryPage)
      assert.deepStrictEqual(result.endId, Option.some("1135977925498548224"))
      assert.strictEqual(result.entrustedList.length, 1)
      const o = result.entrustedList[0]!
      assert.instanceOf(o, FuturesHistory.FuturesOrder)
      assert.strictEqual(o.symbol, "ETHUSDT")
      assert.isTrue(BigDecimal.equals(o.size, decimal("0.1")))
      assert.strictEqual(o.orderId, "1135977925498548224")
      assert.deepStrictEqual(o.clientOid, Option.some("1135977925498548225"))
      assert.isTrue(BigDecimal.equals(o.baseVolume, decimal("0.1")))
      assert.isTrue(BigDecimal.equals(o.fee, decimal("-0.0134178")))
      assert.deepStrictEqual(o.price, Option.none())
      assert.isTrue(isDecimal(o.priceAvg, "2236.3"))
      assert.strictEqual(o.status, "filled")
      assert.strictEqual(o.side, "buy")
      assert.strictEqual(o.force, "gtc")
      assert.isTrue(BigDecimal.equals(o.totalProfits, decimal("0")))
      assert.strictEqual(o.posSide, "long")
      assert.strictEqual(o.marginCoin, "USDT")
      assert.isTrue(BigDecimal.equals(o.quoteVolume, decimal("223.63")))
      assert.isTrue(BigDecimal.equals(o.leverage, decimal("20")))
      assert.strictEqual(o.marginMode, "crossed")
      assert.deepStrictEqual(o.reduceOnly, Option.none())
      assert.strictEqual(o.enterPointSource, "WEB")
      assert.strictEqual(o.tradeSide, "open")
      assert.strictEqual(o.posMode, "hedge_mode")
      assert.strictEqual(o.orderType, "market")
      assert.strictEqual(o.orderSource, "market")
      assert.deepStrictEqual(o.liqPrice, Option.none())
      assert.strictEqual(DateTime.toEpochMillis(o.cTime), 1_708_496_549_452)
      assert.strictEqual(DateTime.toEpochMillis(o.uTime), 1_708_496_549_484)
      assert.deepStrictEqual(o.presetStopSurplusPrice, Option.none())
      assert.deepStrictEqual(o.presetStopLossPrice, Option.none())
      assert.deepStrictEqual(o.posAvg, Option.none())
      assert.notProperty(o, "newField")
    }).pipe(Effect.provide(layer))
  })

  it.effect("decodes set optional fields, null as None, and unknown enum values as Unrecognized", () => {
    const limitOrder = {
      ...order,
      price: "2240.5",
      status: "canceled",
      side: "sell",
      force: "post_only",
      posSide: "net",
      marginMode: "isolated",
      reduceOnly: "YES",
      enterPointSource: "API",
      tradeSide: "sell_single",
      posMode: "one_way_mode",
      orderType: "limit",
      orderSource: "strategy_grid_middle",
      liqPrice: "1850.25",
      presetStopSurplusPrice: "2500",
      presetStopLossPrice: "2100",
      posAvg: "2230.1"
    }
    const unknowns = {
      ...order,
      clientOid: null,
      priceAvg: null,
      posAvg: null,
      liqPrice: "",
      reduceOnly: "",
      status: "partially_filled",
      side: "hold",
      force: "rpi",
      posSide: "both",
      marginMode: "portfolio",
      enterPointSource: "mcp",
      tradeSide: "dte_sys_adl_close_both",
      posMode: "unified_mode",
      orderType: "twap",
      orderSource: "brand_new_source"
    }
    const { layer } = exchange(() => ok({ entrustedList: [limitOrder, unknowns], endId: "1" }))
    return Effect.gen(function*() {
      const [known, unknown] = (yield* FuturesHistory.ordersHistory({ productType: "USDT-FUTURES" })).entrustedList
      assert.isTrue(isDecimal(known!.price, "2240.5"))
      assert.strictEqual(known!.status, "canceled")
      assert.strictEqual(known!.side, "sell")
      assert.strictEqual(known!.force, "post_only")
      assert.strictEqual(known!.posSide, "net")
      assert.strictEqual(known!.marginMode, "isolated")
      assert.deepStrictEqual(known!.reduceOnly, Option.some("YES"))
      assert.strictEqual(known!.enterPointSource, "API")
      assert.strictEqual(known!.tradeSide, "sell_single")
      assert.strictEqual(known!.posMode, "one_way_mode")
      assert.strictEqual(known!.orderType, "limit")
      assert.strictEqual(known!.orderSource, "strategy_grid_middle")
      assert.isTrue(isDecimal(known!.liqPrice, "1850.25"))
      assert.isTrue(isDecimal(known!.presetStopSurplusPrice, "2500"))
      assert.isTrue(isDecimal(known!.presetStopLossPrice, "2100"))
      assert.isTrue(isDecimal(known!.posAvg, "2230.1"))

      assert.deepStrictEqual(unknown!.clientOid, Option.none())
      assert.deepStrictEqual(unknown!.priceAvg, Option.none())
      assert.deepStrictEqual(unknown!.posAvg, Option.none())
      assert.deepStrictEqual(unknown!.liqPrice, Option.none())
      assert.deepStrictEqual(unknown!.reduceOnly, Option.none())
      assert.deepStrictEqual(unknown!.status, new Unrecognized({ value: "partially_filled" }))
      assert.deepStrictEqual(unknown!.side, new Unrecognized({ value: "hold" }))
      assert.deepStrictEqual(unknown!.force, new Unrecognized({ value: "rpi" }))
      assert.deepStrictEqual(unknown!.posSide, new Unrecognized({ value: "both" }))
      assert.deepStrictEqual(unknown!.marginMode, new Unrecognized({ value: "portfolio" }))
      assert.deepStrictEqual(unknown!.enterPointSource, new Unrecognized({ value: "mcp" }))
      assert.deepStrictEqual(unknown!.tradeSide, new Unrecognized({ value: "dte_sys_adl_close_both" }))
      assert.deepStrictEqual(unknown!.posMode, new Unrecognized({ value: "unified_mode" }))
      assert.deepStrictEqual(unknown!.orderType, new Unrecognized({ value: "twap" }))
      assert.deepStrictEqual(unknown!.orderSource, new Unrecognized({ value: "brand_new_source" }))
    }).pipe(Effect.provide(layer))
  })

  it.effect("decodes every documented tradeSide, orderSource and enterPointSource (any case) as known", () => {
    const rawEntryPoints = ["web", "api", "sys", "android", "ios", "Web", "IOS"]
    const knownEntryPoints = ["WEB", "API", "SYS", "ANDROID", "IOS", "WEB", "IOS"] as const
    const count = Math.max(FuturesHistory.tradeSides.length, FuturesHistory.orderSources.length)
    const entry = (i: number) => ({
      ...order,
      orderId: String(i),
      tradeSide: FuturesHistory.tradeSides[i % FuturesHistory.tradeSides.length]!,
      orderSource: FuturesHistory.orderSources[i % FuturesHistory.orderSources.length]!,
      enterPointSource: rawEntryPoints[i % rawEntryPoints.length]!
    })
    const entrustedList = Array.from({ length: count }, (_, i) => entry(i))
    const { layer } = exchange(() => ok({ entrustedList, endId: "" }))
    return Effect.gen(function*() {
      assert.strictEqual(FuturesHistory.tradeSides.length, 22)
      assert.strictEqual(FuturesHistory.orderSources.length, 39)
      assert.strictEqual(FuturesHistory.orderSourceFilters.length, 18)
      const { entrustedList } = yield* FuturesHistory.ordersHistory({ productType: "USDT-FUTURES" })
      assert.strictEqual(entrustedList.length, count)
      entrustedList.forEach((o, i) => {
        assert.strictEqual(o.tradeSide, entry(i).tradeSide)
        assert.strictEqual(o.orderSource, entry(i).orderSource)
        assert.strictEqual(o.enterPointSource, knownEntryPoints[i % knownEntryPoints.length])
      })
    }).pipe(Effect.provide(layer))
  })

  it.effect("reads the end of data as an empty page without a cursor, in both shapes", () => {
    const answers = [ok({ entrustedList: null, endId: null }), ok({ entrustedList: [], endId: "" })]
    const { layer } = exchange(() => answers.shift()!)
    return Effect.gen(function*() {
      const nulls = yield* FuturesHistory.ordersHistory({ productType: "USDT-FUTURES" })
      assert.deepStrictEqual(nulls.entrustedList, [])
      assert.deepStrictEqual(nulls.endId, Option.none())
      const empties = yield* FuturesHistory.ordersHistory({ productType: "USDT-FUTURES" })
      assert.deepStrictEqual(empties.entrustedList, [])
      assert.deepStrictEqual(empties.endId, Option.none())
    }).pipe(Effect.provide(layer))
  })

  it.effect("fails to decode a record with an unreadable decimal", () => {
    const { layer } = exchange(() => ok({ ...page, entrustedList: [{ ...order, size: "lots" }] }))
    return Effect.gen(function*() {
      const error = yield* Effect.flip(FuturesHistory.ordersHistory({ productType: "USDT-FUTURES" }))
      assert.instanceOf(error, BitgetDecodeError)
      assert.match(error.issue, /entrustedList/)
      assert.include(error.excerpt, "\"size\":\"lots\"")
    }).pipe(Effect.provide(layer))
  })

  it.effect("accepts a window of exactly 90 days, and completes a range with one end", () => {
    const { layer, requests } = exchange(() => ok(page))
    return Effect.gen(function*() {
      yield* TestClock.setTime(start + 10 * day)
      yield* FuturesHistory.ordersHistory({
        productType: "USDT-FUTURES",
        startTime,
        endTime: DateTime.makeUnsafe(start + 90 * day)
      })
      // only the start: the end is now; only the end: the start is 90 days before it, but not before the
      // 90 days the exchange keeps (80 days before it here, plus a minute of grace)
      yield* FuturesHistory.ordersHistory({ productType: "USDT-FUTURES", startTime })
      yield* FuturesHistory.ordersHistory({ productType: "USDT-FUTURES", endTime: startTime })
      assert.deepStrictEqual(requests.map((r) => r.url.search), [
        "?endTime=1707776000000&productType=USDT-FUTURES&startTime=1700000000000",
        "?endTime=1700864000000&productType=USDT-FUTURES&startTime=1700000000000",
        "?endTime=1700000000000&productType=USDT-FUTURES&startTime=1693088060000"
      ])
    }).pipe(Effect.provide(layer))
  })

  it.effect("refuses a time older than the 90 days the exchange keeps before sending", () => {
    const { layer, requests } = exchange(() => ok(page))
    return Effect.gen(function*() {
      yield* TestClock.setTime(start + 100 * day)
      const error = yield* Effect.flip(FuturesHistory.ordersHistory({ productType: "USDT-FUTURES", startTime }))
      assert.instanceOf(error, BitgetRequestError)
      assert.match(error.message, /startTime: the exchange keeps 90 days of history/)
      const endOnly = yield* Effect.flip(
        FuturesHistory.ordersHistory({ productType: "USDT-FUTURES", endTime: startTime })
      )
      assert.match(endOnly.message, /endTime: the exchange keeps 90 days of history/)
      assert.strictEqual(requests.length, 0)
    }).pipe(Effect.provide(layer))
  })

  it.effect("accepts every orderSource filter value and limits 1 and 100", () => {
    const { layer, requests } = exchange(() => ok(page))
    return Effect.gen(function*() {
      for (const orderSource of FuturesHistory.orderSourceFilters) {
        yield* FuturesHistory.ordersHistory({ productType: "USDT-FUTURES", orderSource })
        yield* waitOutRateLimit
      }
      yield* FuturesHistory.ordersHistory({ productType: "USDT-FUTURES", limit: 1 })
      yield* FuturesHistory.ordersHistory({ productType: "USDT-FUTURES", limit: 100 })
      assert.deepStrictEqual(
        requests.slice(0, 18).map((r) => r.url.searchParams.get("orderSource")),
        [...FuturesHistory.orderSourceFilters]
      )
      assert.deepStrictEqual(requests.slice(18).map((r) => r.url.searchParams.get("limit")), ["1", "100"])
    }).pipe(Effect.provide(layer))
  })

  it.effect("rejects a missing productType before sending", () =>
    // @ts-expect-error productType is required
    rejects({ symbol: "ETHUSDT" }, /productType: [\s\S]*Missing key/))

  it.effect("rejects a lower-case productType before sending", () =>
    rejects(
      // @ts-expect-error product types are upper case here
      { productType: "usdt-futures" },
      /productType: [\s\S]*must be one of USDT-FUTURES, COIN-FUTURES, USDC-FUTURES, got "usdt-futures"/
    ))

  it.effect("rejects a demo productType before sending", () =>
    // @ts-expect-error only the three documented product types are accepted
    rejects({ productType: "SUSDT-FUTURES" }, /got "SUSDT-FUTURES"/))

  it.effect("rejects an orderSource that appears only in responses before sending", () =>
    rejects(
      // @ts-expect-error plan_limit is not a filter value
      { productType: "USDT-FUTURES", orderSource: "plan_limit" },
      /orderSource: [\s\S]*orderSource filter values[\s\S]*got "plan_limit"/
    ))

  it.effect("rejects an orderSource in the wrong case before sending", () =>
    // @ts-expect-error filter values are matched exactly
    rejects({ productType: "USDT-FUTURES", orderSource: "trader_delegate" }, /got "trader_delegate"/))

  it.effect("rejects a non-numeric orderId before sending", () =>
    rejects({ productType: "USDT-FUTURES", orderId: "12ab" }, /orderId: [\s\S]*numeric id/))

  it.effect("rejects a clientOid with a forbidden character before sending", () =>
    rejects({ productType: "USDT-FUTURES", clientOid: "my oid" }, /clientOid: [\s\S]*1-49 characters/))

  it.effect("rejects a clientOid of 50 characters before sending", () =>
    rejects({ productType: "USDT-FUTURES", clientOid: "a".repeat(50) }, /clientOid: [\s\S]*1-49 characters/))

  it.effect("rejects an invalid clientOid even when orderId wins", () =>
    rejects(
      { productType: "USDT-FUTURES", orderId: "1135977925498548224", clientOid: "" },
      /clientOid: [\s\S]*1-49 characters/
    ))

  it.effect("rejects a non-numeric idLessThan before sending", () =>
    rejects({ productType: "USDT-FUTURES", idLessThan: "-1" }, /idLessThan: [\s\S]*numeric id/))

  it.effect("rejects a blank symbol before sending", () =>
    rejects({ productType: "USDT-FUTURES", symbol: "" }, /symbol: [\s\S]*must not be blank/))

  it.effect("rejects a window longer than 90 days before sending", () =>
    rejects(
      { productType: "USDT-FUTURES", startTime, endTime: DateTime.makeUnsafe(start + 90 * day + 1) },
      /at most 90 days/
    ))

  it.effect("rejects a start after the end before sending", () =>
    rejects(
      { productType: "USDT-FUTURES", startTime: DateTime.makeUnsafe(start + 1), endTime: startTime },
      /startTime must not be after endTime/
    ))

  it.effect("rejects a limit of 0 before sending", () =>
    rejects({ productType: "USDT-FUTURES", limit: 0 }, /integer from 1 to 100/))

  it.effect("rejects a limit above 100 before sending", () =>
    rejects({ productType: "USDT-FUTURES", limit: 101 }, /integer from 1 to 100/))

  it.effect("rejects a fractional limit before sending", () =>
    rejects({ productType: "USDT-FUTURES", limit: 10.5 }, /limit: [\s\S]*integer/))
})
