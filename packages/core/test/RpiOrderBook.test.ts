import { assert, describe, it } from "@effect/vitest"
import { BigDecimal, DateTime, Effect, Schema } from "effect"
import { BitgetDecodeError, BitgetRequestError } from "../src/BitgetError.js"
import * as RpiOrderBook from "../src/RpiOrderBook.js"
import type { Recorded } from "./support.js"
import { assertSigned, exchange, ok } from "./support.js"

const decimal = BigDecimal.fromStringUnsafe

const credentialHeaderNames = (request: Recorded) =>
  Object.keys(request.headers).filter((name) => name.toLowerCase().startsWith("access-"))

const book = {
  a: [
    ["65000.1", "0.5", "0.25"],
    ["65000.2", "1.0000", "0"],
    ["65001", "0", "3"]
  ],
  b: [
    ["64999.9", "2", "0.1"],
    ["64999", "0.001", "0"]
  ],
  ts: "1700000000555"
}

/** A level as plain strings, for comparing against what was decoded. */
const levels = (decoded: ReadonlyArray<RpiOrderBook.RpiLevel>) =>
  decoded.map((level) => [
    BigDecimal.format(level.price),
    BigDecimal.format(level.nonRpiQuantity),
    BigDecimal.format(level.rpiQuantity)
  ])

const rejects = (request: RpiOrderBook.RpiOrderBookRequest, issue: RegExp) => {
  const { layer, requests } = exchange(() => ok(book))
  return Effect.gen(function*() {
    const error = yield* Effect.flip(RpiOrderBook.rpiOrderBook(request))
    assert.instanceOf(error, BitgetRequestError)
    assert.match(error.issue, issue)
    assert.strictEqual(requests.length, 0)
  }).pipe(Effect.provide(layer))
}

describe("rpiOrderBook", () => {
  it.effect("is described as an optionally signed, idempotent v3 GET limited to 10/s per IP", () =>
    Effect.sync(() => {
      const { endpoint } = RpiOrderBook
      assert.strictEqual(endpoint.method, "GET")
      assert.strictEqual(endpoint.path, "/api/v3/market/rpi-orderbook")
      assert.strictEqual(endpoint.auth, "optional")
      assert.strictEqual(endpoint.idempotency, "idempotent")
      assert.deepStrictEqual(endpoint.rateLimit, { limit: 10, window: "1 second", scope: "ip" })
    }))

  it.effect("signs the call when credentials are configured, so the exchange knows the market maker", () => {
    const { layer, requests } = exchange(() => ok(book))
    return Effect.gen(function*() {
      yield* RpiOrderBook.rpiOrderBook({ symbol: "BTC$USDT", category: "SPOT" })
      assertSigned(requests[0]!, "category=SPOT&symbol=BTC$USDT")
    }).pipe(Effect.provide(layer))
  })

  it.effect("sends an unsigned GET without credentials, keys sorted, and decodes levels in the given order", () => {
    const { layer, requests } = exchange(() => ok(book), {})
    return Effect.gen(function*() {
      const result = yield* RpiOrderBook.rpiOrderBook({ symbol: "BTCUSDT", category: "SPOT", limit: 200 })
      assert.strictEqual(requests.length, 1)
      const request = requests[0]!
      assert.strictEqual(request.method, "GET")
      assert.strictEqual(request.url.pathname, "/api/v3/market/rpi-orderbook")
      assert.strictEqual(request.url.search, "?category=SPOT&limit=200&symbol=BTCUSDT")
      assert.deepStrictEqual(credentialHeaderNames(request), [])
      assert.isUndefined(request.headers["content-type"])
      assert.strictEqual(request.headers["locale"], "en-US")
      assert.strictEqual(request.body, "")

      assert.instanceOf(result, RpiOrderBook.RpiOrderBook)
      assert.instanceOf(result.a[0], RpiOrderBook.RpiLevel)
      assert.deepStrictEqual(levels(result.a), [
        ["65000.1", "0.5", "0.25"],
        ["65000.2", "1", "0"],
        ["65001", "0", "3"]
      ])
      assert.deepStrictEqual(levels(result.b), [
        ["64999.9", "2", "0.1"],
        ["64999", "0.001", "0"]
      ])
      assert.strictEqual(DateTime.toEpochMillis(result.ts), 1_700_000_000_555)
    }).pipe(Effect.provide(layer))
  })

  it.effect("leaves out an absent limit and sends every category as given", () => {
    const { layer, requests } = exchange(() => ok(book), {})
    return Effect.gen(function*() {
      for (const category of RpiOrderBook.rpiCategories) {
        yield* RpiOrderBook.rpiOrderBook({ symbol: "BTCUSDT", category })
      }
      assert.deepStrictEqual(requests.map((r) => r.url.search), [
        "?category=SPOT&symbol=BTCUSDT",
        "?category=USDT-FUTURES&symbol=BTCUSDT",
        "?category=COIN-FUTURES&symbol=BTCUSDT",
        "?category=USDC-FUTURES&symbol=BTCUSDT"
      ])
      assert.isTrue(requests.every((r) => credentialHeaderNames(r).length === 0))
    }).pipe(Effect.provide(layer))
  })

  it.effect("percent-encodes a `$` symbol in the URL of the unsigned request", () => {
    const { layer, requests } = exchange(() => ok(book))
    return Effect.gen(function*() {
      yield* RpiOrderBook.rpiOrderBook({ symbol: "$PEPEUSDT", category: "SPOT", limit: 1 })
      assert.strictEqual(requests[0]!.url.search, "?category=SPOT&limit=1&symbol=%24PEPEUSDT")
      assert.strictEqual(requests[0]!.url.searchParams.get("symbol"), "$PEPEUSDT")
    }).pipe(Effect.provide(layer))
  })

  it.effect("decodes levels sent as JSON numbers like levels sent as strings", () => {
    const { layer } = exchange(() =>
      ok({ a: [[65000.1, 0.5, 0.25], [65001, 0, 3]], b: [[64999.9, 2, 0.1]], ts: 1700000000555 })
    )
    return Effect.gen(function*() {
      const result = yield* RpiOrderBook.rpiOrderBook({ symbol: "BTCUSDT", category: "USDT-FUTURES" })
      assert.deepStrictEqual(levels(result.a), [["65000.1", "0.5", "0.25"], ["65001", "0", "3"]])
      assert.deepStrictEqual(levels(result.b), [["64999.9", "2", "0.1"]])
      assert.strictEqual(DateTime.toEpochMillis(result.ts), 1_700_000_000_555)
    }).pipe(Effect.provide(layer))
  })

  it.effect("ignores unknown fields, extra level elements, and decodes an empty book", () => {
    const answers = [
      ok({ ...book, a: [["65000.1", "0.5", "0.25", "future-field"]], b: [], seq: 42 }),
      ok({ a: [], b: [], ts: "1700000000000" })
    ]
    const { layer } = exchange(() => answers.shift()!)
    return Effect.gen(function*() {
      const first = yield* RpiOrderBook.rpiOrderBook({ symbol: "BTCUSDT", category: "SPOT" })
      assert.deepStrictEqual(levels(first.a), [["65000.1", "0.5", "0.25"]])
      assert.deepStrictEqual(first.b, [])
      assert.notProperty(first, "seq")
      const empty = yield* RpiOrderBook.rpiOrderBook({ symbol: "BTCUSDT", category: "SPOT" })
      assert.deepStrictEqual(empty.a, [])
      assert.deepStrictEqual(empty.b, [])
    }).pipe(Effect.provide(layer))
  })

  it.effect("fails to decode a level with fewer than three elements", () => {
    const { layer } = exchange(() => ok({ ...book, b: [["64999.9", "2"]] }))
    return Effect.gen(function*() {
      const error = yield* Effect.flip(RpiOrderBook.rpiOrderBook({ symbol: "BTCUSDT", category: "SPOT" }))
      assert.instanceOf(error, BitgetDecodeError)
      assert.strictEqual(error.issue, "b.0.2: Missing key")
    }).pipe(Effect.provide(layer))
  })

  it.effect("encodes a level back to the string triple, in fixed point", () =>
    Effect.gen(function*() {
      const encode = Schema.encodeEffect(RpiOrderBook.RpiLevelFromTuple)
      const level = new RpiOrderBook.RpiLevel({
        price: decimal("0.00000001"),
        nonRpiQuantity: decimal("1500"),
        rpiQuantity: decimal("0")
      })
      assert.deepStrictEqual(yield* encode(level), ["0.00000001", "1500", "0"])
      const decoded = yield* Schema.decodeUnknownEffect(RpiOrderBook.RpiLevelFromTuple)([0.5, "2", 3])
      assert.instanceOf(decoded, RpiOrderBook.RpiLevel)
      assert.deepStrictEqual(yield* encode(decoded), ["0.5", "2", "3"])
    }))

  it.effect("accepts limits 1 and 200", () => {
    const { layer, requests } = exchange(() => ok(book))
    return Effect.gen(function*() {
      yield* RpiOrderBook.rpiOrderBook({ symbol: "BTCUSDT", category: "SPOT", limit: 1 })
      yield* RpiOrderBook.rpiOrderBook({ symbol: "BTCUSDT", category: "SPOT", limit: 200 })
      assert.deepStrictEqual(requests.map((r) => r.url.searchParams.get("limit")), ["1", "200"])
    }).pipe(Effect.provide(layer))
  })

  it.effect("rejects a limit of 0 before sending", () =>
    rejects({ symbol: "BTCUSDT", category: "SPOT", limit: 0 }, /integer from 1 to 200/))

  it.effect("rejects a limit above 200 before sending", () =>
    rejects({ symbol: "BTCUSDT", category: "SPOT", limit: 201 }, /integer from 1 to 200/))

  it.effect("rejects a fractional limit before sending", () =>
    rejects({ symbol: "BTCUSDT", category: "SPOT", limit: 5.5 }, /integer/))

  it.effect("rejects a blank symbol before sending", () =>
    rejects({ symbol: "", category: "SPOT" }, /symbol: [\s\S]*must not be blank/))

  it.effect("rejects an unknown category before sending", () =>
    rejects(
      // @ts-expect-error only the four documented categories are accepted
      { symbol: "BTCUSDT", category: "MARGIN" },
      /category: [\s\S]*must be one of SPOT, USDT-FUTURES, COIN-FUTURES, USDC-FUTURES, got "MARGIN"/
    ))

  it.effect("rejects a lower-case category before sending", () =>
    // @ts-expect-error categories are upper case
    rejects({ symbol: "BTCUSDT", category: "spot" }, /got "spot"/))

  it.effect("rejects a missing category before sending", () =>
    // @ts-expect-error category is required
    rejects({ symbol: "BTCUSDT" }, /category: [\s\S]*Missing key/))

  it.effect("rejects a missing symbol before sending", () =>
    // @ts-expect-error symbol is required
    rejects({ category: "SPOT" }, /symbol: [\s\S]*Missing key/))
})
