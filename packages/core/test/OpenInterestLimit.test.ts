import { assert, describe, it } from "@effect/vitest"
import { BigDecimal, Effect } from "effect"
import { BitgetApiError, BitgetDecodeError, BitgetRequestError } from "../src/BitgetError.js"
import * as OpenInterestLimit from "../src/OpenInterestLimit.js"
import { assertSigned, exchange, fail, ok } from "./support.js"

const decimal = BigDecimal.fromStringUnsafe

const limits = {
  symbol: "BTCUSDT",
  singleUserLimit: "1500.5",
  masterSubLimit: "3000",
  marketMakerLimit: "100000.000000"
}

const rejects = (request: OpenInterestLimit.OpenInterestLimitRequest, issue: RegExp) => {
  const { layer, requests } = exchange(() => ok(limits))
  return Effect.gen(function*() {
    const error = yield* Effect.flip(OpenInterestLimit.openInterestLimit(request))
    assert.instanceOf(error, BitgetRequestError)
    assert.match(error.issue, issue)
    assert.strictEqual(requests.length, 0)
  }).pipe(Effect.provide(layer))
}

describe("openInterestLimit", () => {
  it.effect("is described as a signed, idempotent v3 GET limited to 5/s per user", () =>
    Effect.sync(() => {
      const { endpoint } = OpenInterestLimit
      assert.strictEqual(endpoint.method, "GET")
      assert.strictEqual(endpoint.path, "/api/v3/account/open-interest-limit")
      assert.strictEqual(endpoint.auth, "signed")
      assert.strictEqual(endpoint.idempotency, "idempotent")
      assert.deepStrictEqual(endpoint.rateLimit, { limit: 5, window: "1 second", scope: "uid" })
    }))

  it.effect("sends a signed GET with category and symbol, keys sorted, and decodes one object", () => {
    const { layer, requests } = exchange(() => ok({ ...limits, updatedBy: "risk-engine" }))
    return Effect.gen(function*() {
      const result = yield* OpenInterestLimit.openInterestLimit({ symbol: "BTCUSDT", category: "USDT-FUTURES" })
      assert.strictEqual(requests.length, 1)
      const request = requests[0]!
      assert.strictEqual(request.method, "GET")
      assert.strictEqual(request.url.pathname, "/api/v3/account/open-interest-limit")
      assert.strictEqual(request.url.search, "?category=USDT-FUTURES&symbol=BTCUSDT")
      assert.strictEqual(request.headers["locale"], "en-US")
      assert.strictEqual(request.body, "")
      assertSigned(request, "category=USDT-FUTURES&symbol=BTCUSDT")

      assert.instanceOf(result, OpenInterestLimit.OpenInterestLimit)
      assert.strictEqual(result.symbol, "BTCUSDT")
      assert.isTrue(BigDecimal.equals(result.singleUserLimit, decimal("1500.5")))
      assert.isTrue(BigDecimal.equals(result.masterSubLimit, decimal("3000")))
      assert.isTrue(BigDecimal.equals(result.marketMakerLimit, decimal("100000")))
      assert.notProperty(result, "updatedBy")
    }).pipe(Effect.provide(layer))
  })

  it.effect("sends each futures category as given", () => {
    const { layer, requests } = exchange(() => ok(limits))
    return Effect.gen(function*() {
      for (const category of OpenInterestLimit.futuresCategories) {
        yield* OpenInterestLimit.openInterestLimit({ symbol: "BTCUSD", category })
      }
      assert.deepStrictEqual(requests.map((r) => r.url.searchParams.get("category")), [
        "USDT-FUTURES",
        "COIN-FUTURES",
        "USDC-FUTURES"
      ])
      assertSigned(requests[1]!, "category=COIN-FUTURES&symbol=BTCUSD")
    }).pipe(Effect.provide(layer))
  })

  it.effect("signs a `$` symbol raw while the URL carries it percent-encoded", () => {
    const { layer, requests } = exchange(() => ok(limits))
    return Effect.gen(function*() {
      yield* OpenInterestLimit.openInterestLimit({ symbol: "$WIFUSDT", category: "USDT-FUTURES" })
      assert.strictEqual(requests[0]!.url.search, "?category=USDT-FUTURES&symbol=%24WIFUSDT")
      assertSigned(requests[0]!, "category=USDT-FUTURES&symbol=$WIFUSDT")
    }).pipe(Effect.provide(layer))
  })

  it.effect("fails to decode a list where one object is expected", () => {
    const { layer } = exchange(() => ok([limits]))
    return Effect.gen(function*() {
      const error = yield* Effect.flip(
        OpenInterestLimit.openInterestLimit({ symbol: "BTCUSDT", category: "USDT-FUTURES" })
      )
      assert.instanceOf(error, BitgetDecodeError)
    }).pipe(Effect.provide(layer))
  })

  it.effect("passes an exchange error through with its code", () => {
    const { layer } = exchange(() => fail(400, "25620", "permission denied"))
    return Effect.gen(function*() {
      const error = yield* Effect.flip(
        OpenInterestLimit.openInterestLimit({ symbol: "BTCUSDT", category: "USDT-FUTURES" })
      )
      assert.instanceOf(error, BitgetApiError)
      assert.strictEqual(error.code, "25620")
      assert.strictEqual(error.kind, "Permission")
    }).pipe(Effect.provide(layer))
  })

  it.effect("rejects a blank symbol before sending", () =>
    rejects({ symbol: "  ", category: "USDT-FUTURES" }, /symbol: [\s\S]*must not be blank/))

  it.effect("rejects SPOT, which is not a futures category, before sending", () =>
    rejects(
      // @ts-expect-error only the three futures categories are accepted
      { symbol: "BTCUSDT", category: "SPOT" },
      /category: [\s\S]*must be one of USDT-FUTURES, COIN-FUTURES, USDC-FUTURES, got "SPOT"/
    ))

  it.effect("rejects a lower-case category before sending", () =>
    // @ts-expect-error categories are upper case
    rejects({ symbol: "BTCUSDT", category: "usdt-futures" }, /got "usdt-futures"/))

  it.effect("rejects a missing category before sending", () =>
    // @ts-expect-error category is required
    rejects({ symbol: "BTCUSDT" }, /category: [\s\S]*Missing key/))

  it.effect("rejects a missing symbol before sending", () =>
    // @ts-expect-error symbol is required
    rejects({ category: "USDT-FUTURES" }, /symbol: [\s\S]*Missing key/))

  it.effect("refuses to run without credentials, sending nothing", () => {
    const { layer, requests } = exchange(() => ok(limits), {})
    return Effect.gen(function*() {
      const error = yield* Effect.flip(
        OpenInterestLimit.openInterestLimit({ symbol: "BTCUSDT", category: "USDT-FUTURES" })
      )
      assert.instanceOf(error, BitgetRequestError)
      assert.match(error.issue, /credentials/)
      assert.strictEqual(requests.length, 0)
    }).pipe(Effect.provide(layer))
  })
})
