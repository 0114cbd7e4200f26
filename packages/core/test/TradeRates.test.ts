import { assert, describe, it } from "@effect/vitest"
import { BigDecimal, Effect } from "effect"
import type { BitgetRequestError } from "../src/BitgetError.js"
import * as TradeRates from "../src/TradeRates.js"
import { assertSigned, exchange, fail, ok } from "./support.js"

const path = "/api/v2/common/all-trade-rate"
const dec = BigDecimal.fromStringUnsafe

/** Runs a request that must be refused before sending. */
const rejected = (request: TradeRates.TradeRatesRequest) => {
  const { layer, requests } = exchange(() => ok([]))
  return Effect.gen(function*() {
    const error = yield* Effect.flip(TradeRates.tradeRates(request))
    assert.strictEqual(requests.length, 0)
    if (error._tag !== "BitgetRequestError") return assert.fail(`expected BitgetRequestError, got ${error._tag}`)
    assert.strictEqual(error.endpoint, `GET ${path}`)
    return error satisfies BitgetRequestError
  }).pipe(Effect.provide(layer))
}

/** A request as an untyped (JavaScript) caller could build it. */
const untyped = (value: Record<string, unknown>): TradeRates.TradeRatesRequest => value as TradeRates.TradeRatesRequest

describe("tradeRates: the request", () => {
  it.effect("sends a signed GET with businessType (never business) and symbol, keys sorted", () => {
    const { layer, requests } = exchange(() => ok([]))
    return Effect.gen(function*() {
      yield* TradeRates.tradeRates({ symbol: "BTCUSDT", businessType: "mix" })
      assert.strictEqual(requests.length, 1)
      const request = requests[0]!
      assert.strictEqual(request.method, "GET")
      assert.strictEqual(request.url.pathname, path)
      assert.strictEqual(request.url.search, "?businessType=mix&symbol=BTCUSDT")
      assert.isFalse(request.url.searchParams.has("business"))
      assert.strictEqual(request.body, "")
      assert.strictEqual(request.headers["locale"], "en-US")
      assertSigned(request, "businessType=mix&symbol=BTCUSDT")
    }).pipe(Effect.provide(layer))
  })

  it.effect("leaves the symbol out when none is given, for every business line", () => {
    const { layer, requests } = exchange(() => ok([]))
    return Effect.gen(function*() {
      for (const businessType of ["mix", "spot", "margin"] as const) {
        yield* TradeRates.tradeRates({ businessType })
      }
      assert.deepStrictEqual(requests.map((request) => request.url.search), [
        "?businessType=mix",
        "?businessType=spot",
        "?businessType=margin"
      ])
      assertSigned(requests[1]!, "businessType=spot")
    }).pipe(Effect.provide(layer))
  })

  it.effect("signs a symbol with characters that percent-encoding changes in its raw form", () => {
    const { layer, requests } = exchange(() => ok([]))
    return Effect.gen(function*() {
      yield* TradeRates.tradeRates({ businessType: "spot", symbol: "$AIUSDT" })
      assert.strictEqual(requests[0]!.url.search, "?businessType=spot&symbol=%24AIUSDT")
      assertSigned(requests[0]!, "businessType=spot&symbol=$AIUSDT")
    }).pipe(Effect.provide(layer))
  })
})

describe("tradeRates: decoding", () => {
  it.effect("decodes the documented example exactly, ignoring unknown fields", () => {
    const { layer } = exchange(() =>
      ok([
        { symbol: "BTCUSDT", makerFeeRate: "0.0002", takerFeeRate: "0.0006", vipLevel: "1" },
        { symbol: "ETHUSDT", makerFeeRate: "-0.00005", takerFeeRate: "0.00060000000000000000" }
      ])
    )
    return Effect.gen(function*() {
      const rates = yield* TradeRates.tradeRates({ businessType: "mix" })
      assert.strictEqual(rates.length, 2)
      const [btc, eth] = rates
      assert.instanceOf(btc, TradeRates.TradeRate)
      assert.strictEqual(btc!.symbol, "BTCUSDT")
      assert.isTrue(BigDecimal.equals(btc!.makerFeeRate, dec("0.0002")))
      assert.isTrue(BigDecimal.equals(btc!.takerFeeRate, dec("0.0006")))
      assert.isFalse("vipLevel" in btc!)
      assert.isTrue(BigDecimal.equals(eth!.makerFeeRate, dec("-0.00005")))
      assert.isTrue(BigDecimal.equals(eth!.takerFeeRate, dec("0.0006")))
    }).pipe(Effect.provide(layer))
  })

  it.effect("rejects an answer that uses the table's makerRate name instead of makerFeeRate", () => {
    const { layer } = exchange(() => ok([{ symbol: "BTCUSDT", makerRate: "0.0002", takerFeeRate: "0.0006" }]))
    return Effect.gen(function*() {
      const error = yield* Effect.flip(TradeRates.tradeRates({ businessType: "spot" }))
      if (error._tag !== "BitgetDecodeError") return assert.fail(`expected BitgetDecodeError, got ${error._tag}`)
      assert.include(error.issue, "makerFeeRate")
    }).pipe(Effect.provide(layer))
  })
})

describe("tradeRates: errors", () => {
  it.effect("maps a parameter error of the exchange", () => {
    const { layer } = exchange(() => fail(400, "40019", "Parameter businessType cannot be empty"))
    return Effect.gen(function*() {
      const error = yield* Effect.flip(TradeRates.tradeRates({ businessType: "spot" }))
      if (error._tag !== "BitgetApiError") return assert.fail(`expected BitgetApiError, got ${error._tag}`)
      assert.strictEqual(error.code, "40019")
      assert.strictEqual(error.kind, "Parameter")
      assert.strictEqual(error.endpoint, `GET ${path}`)
    }).pipe(Effect.provide(layer))
  })
})

describe("tradeRates: validation (nothing is sent)", () => {
  it.effect("rejects a missing or unknown business line", () =>
    Effect.gen(function*() {
      const missing = yield* rejected(untyped({ symbol: "BTCUSDT" }))
      assert.include(missing.issue, "businessType")
      const unknown = yield* rejected(untyped({ businessType: "futures" }))
      assert.include(unknown.issue, "businessType")
      const legacyName = yield* rejected(untyped({ business: "spot" }))
      assert.include(legacyName.issue, "businessType")
    }))

  it.effect("rejects a blank symbol", () =>
    Effect.gen(function*() {
      const error = yield* rejected({ businessType: "spot", symbol: " " })
      assert.include(error.issue, "must not be blank")
    }))
})
