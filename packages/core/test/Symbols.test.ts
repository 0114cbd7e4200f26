import { assert, describe, it } from "@effect/vitest"
import { BigDecimal, DateTime, Effect, Option } from "effect"
import { Unrecognized } from "../src/Schemas.js"
import * as Symbols from "../src/Symbols.js"
import { exchange, ok } from "./support.js"

const record = {
  symbol: "BTCUSDT",
  baseCoin: "BTC",
  quoteCoin: "USDT",
  minTradeAmount: "0",
  maxTradeAmount: "10000000000",
  takerFeeRate: "0.002",
  makerFeeRate: "0.002",
  pricePrecision: "2",
  quantityPrecision: "4",
  quotePrecision: "6",
  status: "online",
  minTradeUSDT: "5",
  buyLimitPriceRatio: "0.05",
  sellLimitPriceRatio: "0.05",
  areaSymbol: "no",
  orderQuantity: "200",
  openTime: "1532454360000",
  offTime: "",
  maxLimitOrderValue: "1000000"
}

describe("symbols", () => {
  it.effect("sends an unsigned GET without a query when no symbol is given", () => {
    const { layer, requests } = exchange(() => ok([record]))
    return Effect.gen(function*() {
      const [symbol] = yield* Symbols.symbols()
      const request = requests[0]!
      assert.strictEqual(request.method, "GET")
      assert.strictEqual(request.url.pathname, "/api/v2/spot/public/symbols")
      assert.strictEqual(request.url.search, "")
      assert.isUndefined(request.headers["access-sign"])
      assert.isUndefined(request.headers["access-key"])
      assert.strictEqual(request.headers["locale"], "en-US")
      assert.isTrue(BigDecimal.equals(symbol!.takerFeeRate, BigDecimal.fromStringUnsafe("0.002")))
      assert.strictEqual(symbol!.pricePrecision, 2)
      assert.isTrue(Option.isNone(symbol!.offTime))
      assert.deepStrictEqual(Option.map(symbol!.openTime, DateTime.toEpochMillis), Option.some(1532454360000))
    }).pipe(Effect.provide(layer))
  })

  it.effect("asks for all symbols without one, refuses a blank one, and passes a real one", () => {
    const { layer, requests } = exchange(() => ok([]))
    return Effect.gen(function*() {
      yield* Symbols.symbols()
      const blank = yield* Effect.flip(Symbols.symbols({ symbol: "  " }))
      assert.strictEqual(blank._tag, "BitgetRequestError")
      yield* Symbols.symbols({ symbol: "BTCUSDT" })
      assert.strictEqual(requests[0]!.url.search, "")
      assert.strictEqual(requests[1]!.url.search, "?symbol=BTCUSDT")
    }).pipe(Effect.provide(layer))
  })

  it.effect("keeps an unknown status visible instead of failing", () => {
    const { layer } = exchange(() => ok([{ ...record, status: "delisting" }]))
    return Effect.gen(function*() {
      const [symbol] = yield* Symbols.symbols()
      assert.deepStrictEqual(symbol!.status, new Unrecognized({ value: "delisting" }))
    }).pipe(Effect.provide(layer))
  })
})
