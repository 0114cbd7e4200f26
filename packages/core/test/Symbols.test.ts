import { assert, describe, it } from "@effect/vitest"
import { BigDecimal, DateTime, Effect, Option, Schema } from "effect"
import { Unrecognized } from "../src/Schemas.js"
import * as Symbols from "../src/Symbols.js"
import { exchange, ok, spotPair as record } from "./support.js"

/** The fields an older answer leaves out (a live capture without them). */
const newer = [
  "openTime",
  "offTime",
  "areaSymbol",
  "orderQuantity",
  "maxLimitOrderValue",
  "maxMarketOrderValue"
] as const

/** The record without the fields an older answer leaves out. */
const older: Record<string, string> = Object.fromEntries(
  Object.entries(record).filter(([key]) => !(newer as ReadonlyArray<string>).includes(key))
)

/** The fields that may be absent, as `Option`s of a decoded symbol. */
const optionals = (symbol: Symbols.SpotSymbol): ReadonlyArray<Option.Option<unknown>> => newer.map((key) => symbol[key])

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

  it.effect("decodes the order value caps as exact decimals, None when \"\" or null", () => {
    const { layer } = exchange(() =>
      ok([record, { ...record, maxLimitOrderValue: "", maxMarketOrderValue: null }, older])
    )
    return Effect.gen(function*() {
      const [current, unset] = yield* Symbols.symbols()
      const decimal = (value: string) => Option.some(BigDecimal.fromStringUnsafe(value))
      assert.deepStrictEqual(current!.maxLimitOrderValue, decimal("1000000"))
      assert.deepStrictEqual(current!.maxMarketOrderValue, decimal("250000.5"))
      assert.deepStrictEqual([unset!.maxLimitOrderValue, unset!.maxMarketOrderValue], [Option.none(), Option.none()])
    }).pipe(Effect.provide(layer))
  })

  it.effect("decodes an older answer, without openTime, offTime, areaSymbol, orderQuantity and the caps, as None", () => {
    const { layer } = exchange(() => ok([older, record]))
    return Effect.gen(function*() {
      const [old, current] = yield* Symbols.symbols()
      assert.deepStrictEqual(optionals(old!), newer.map(() => Option.none()))
      assert.isTrue(optionals(current!).filter((_, i) => newer[i] !== "offTime").every(Option.isSome))
      // the Schema decoder (which reports failures) reads it the same as the fast one
      const slow = Schema.decodeUnknownSync(Symbols.SpotSymbol)(older)
      assert.deepStrictEqual(optionals(slow), newer.map(() => Option.none()))
      assert.strictEqual(slow.symbol, old!.symbol)
    }).pipe(Effect.provide(layer))
  })

  it("builds with make without the order value caps (None), as values written before they existed", () => {
    const built = Symbols.SpotSymbol.make({
      symbol: "BTCUSDT",
      baseCoin: "BTC",
      quoteCoin: "USDT",
      minTradeAmount: Option.none(),
      maxTradeAmount: Option.none(),
      takerFeeRate: BigDecimal.fromStringUnsafe("0.001"),
      makerFeeRate: BigDecimal.fromStringUnsafe("0.001"),
      pricePrecision: 2,
      quantityPrecision: 6,
      quotePrecision: 8,
      minTradeUSDT: Option.none(),
      status: "online",
      buyLimitPriceRatio: Option.none(),
      sellLimitPriceRatio: Option.none(),
      orderQuantity: Option.none(),
      areaSymbol: Option.none(),
      offTime: Option.none(),
      openTime: Option.none()
    })
    assert.deepStrictEqual([built.maxLimitOrderValue, built.maxMarketOrderValue], [Option.none(), Option.none()])
  })

  it.effect("keeps an unknown status visible instead of failing", () => {
    const { layer } = exchange(() => ok([{ ...record, status: "delisting" }]))
    return Effect.gen(function*() {
      const [symbol] = yield* Symbols.symbols()
      assert.deepStrictEqual(symbol!.status, new Unrecognized({ value: "delisting" }))
    }).pipe(Effect.provide(layer))
  })
})
