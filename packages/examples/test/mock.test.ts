import { BitgetError, BitgetMock, FundNetFlow, Symbols, TaxRecords } from "@bitget-effect/core"
import { assert, it } from "@effect/vitest"
import { BigDecimal, Effect, Option } from "effect"

// the code under test
const onlineSymbols = Effect.map(Symbols.symbols(), (all) => all.filter((s) => s.status === "online"))

const symbol = (name: string, status: "online" | "offline") =>
  Symbols.SpotSymbol.make({
    symbol: name,
    baseCoin: name.replace(/USDT$/, ""),
    quoteCoin: "USDT",
    minTradeAmount: Option.none(),
    maxTradeAmount: Option.none(),
    takerFeeRate: BigDecimal.fromStringUnsafe("0.001"),
    makerFeeRate: BigDecimal.fromStringUnsafe("0.001"),
    pricePrecision: 2,
    quantityPrecision: 6,
    quotePrecision: 8,
    minTradeUSDT: Option.some(BigDecimal.fromStringUnsafe("5")),
    status,
    buyLimitPriceRatio: Option.none(),
    sellLimitPriceRatio: Option.none(),
    orderQuantity: Option.none(),
    areaSymbol: Option.some("no" as const),
    offTime: Option.none(),
    openTime: Option.none()
  })

it.effect("keeps online symbols", () =>
  Effect.gen(function*() {
    const names = (yield* onlineSymbols).map((s) => s.symbol)
    assert.deepStrictEqual(names, ["BTCUSDT"])
    // what was asked, typed
    assert.deepStrictEqual(yield* BitgetMock.requestsOf(Symbols.endpoint), [{}])
  }).pipe(Effect.provide(BitgetMock.layer(
    BitgetMock.succeed(Symbols.endpoint, [symbol("BTCUSDT", "online"), symbol("LUNAUSDT", "offline")]), // fixed values
    BitgetMock.on(TaxRecords.endpoint, () => Effect.succeed([])), // a handler of the typed request
    BitgetMock.fail( // a typed failure
      FundNetFlow.endpoint,
      BitgetError.apiError({
        endpoint: "GET /api/v2/spot/market/fund-net-flow",
        code: "429",
        msg: "Too Many Requests",
        status: 429
      })
    )
  ))))
