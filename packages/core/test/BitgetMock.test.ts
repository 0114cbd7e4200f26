import { assert, describe, it } from "@effect/vitest"
import { BigDecimal, Effect, Exit, Option } from "effect"
import * as BitgetError from "../src/BitgetError.js"
import * as BitgetMock from "../src/BitgetMock.js"
import * as Symbols from "../src/Symbols.js"

const btc = Symbols.SpotSymbol.make({
  symbol: "BTCUSDT",
  baseCoin: "BTC",
  quoteCoin: "USDT",
  minTradeAmount: Option.none(),
  maxTradeAmount: Option.none(),
  takerFeeRate: BigDecimal.fromStringUnsafe("0.001"),
  makerFeeRate: BigDecimal.fromStringUnsafe("0.0008"),
  pricePrecision: 2,
  quantityPrecision: 4,
  quotePrecision: 6,
  minTradeUSDT: Option.some(BigDecimal.fromStringUnsafe("5")),
  status: "online",
  buyLimitPriceRatio: Option.none(),
  sellLimitPriceRatio: Option.none(),
  orderQuantity: Option.none(),
  areaSymbol: Option.none(),
  offTime: Option.none(),
  openTime: Option.none()
})

/** The kind of code a user would test: it calls the client and derives something. */
const cheapestMaker = Effect.map(Symbols.symbols(), (all) => all.map((s) => s.symbol))

describe("BitgetMock", () => {
  it.effect("answers with canned typed values and records the calls", () =>
    Effect.gen(function*() {
      const names = yield* cheapestMaker
      assert.deepStrictEqual(names, ["BTCUSDT"])
      yield* Symbols.symbols({ symbol: "BTCUSDT" })
      assert.deepStrictEqual(yield* BitgetMock.requestsOf(Symbols.endpoint), [{}, { symbol: "BTCUSDT" }])
      const calls = yield* Effect.flatMap(BitgetMock.BitgetMock, (mock) => mock.calls)
      assert.deepStrictEqual(calls.map((c) => c.name), ["spot.symbols", "spot.symbols"])
    }).pipe(Effect.provide(BitgetMock.layer(BitgetMock.succeed(Symbols.endpoint, [btc])))))

  it.effect("records a request by its own properties, as the client sends it: an inherited field is not", () =>
    Effect.gen(function*() {
      const inherited: Symbols.SymbolsRequest = Object.create({ symbol: "ETHUSDT" })
      yield* Symbols.symbols(inherited)
      assert.deepStrictEqual(yield* BitgetMock.requestsOf(Symbols.endpoint), [{}])
    }).pipe(Effect.provide(BitgetMock.layer(BitgetMock.succeed(Symbols.endpoint, [btc])))))

  it.effect("answers from a handler of the typed request", () =>
    Effect.gen(function*() {
      const all = yield* Symbols.symbols({ symbol: "ETHUSDT" })
      assert.deepStrictEqual(all.map((s) => s.symbol), ["ETHUSDT"])
    }).pipe(Effect.provide(BitgetMock.layer(
      // Schema 4 encodes a class from its instances only (Effect 3 took a plain object of its fields)
      BitgetMock.on(
        Symbols.endpoint,
        (request) => Effect.succeed([Symbols.SpotSymbol.make({ ...btc, symbol: request.symbol ?? "?" })])
      )
    ))))

  it.effect("fails with a canned typed error", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(Symbols.symbols())
      assert.strictEqual(error._tag === "BitgetApiError" && error.kind, "RateLimited")
    }).pipe(Effect.provide(BitgetMock.layer(
      BitgetMock.fail(
        Symbols.endpoint,
        BitgetError.apiError({
          endpoint: "GET /api/v2/spot/public/symbols",
          code: "429",
          msg: "Too Many Requests",
          status: 429
        })
      )
    ))))

  it.effect("dies naming the endpoint that has no canned response", () =>
    Effect.gen(function*() {
      const exit = yield* Effect.exit(Symbols.symbols())
      assert.isTrue(Exit.isFailure(exit) && String(exit.cause).includes("no response for spot.symbols"))
    }).pipe(Effect.provide(BitgetMock.layer())))
})
