import { assert, describe, it } from "@effect/vitest"
import type { Schema } from "effect"
import { Effect } from "effect"
import { expectTypeOf } from "vitest"
import * as BitgetClient from "../src/BitgetClient.js"
import type { BitgetError, BitgetPublicError } from "../src/BitgetError.js"
import { BitgetDecodeError, BitgetRequestError } from "../src/BitgetError.js"
import * as BitgetMock from "../src/BitgetMock.js"
import * as Endpoint from "../src/Endpoint.js"
import { assertSigned, exchange, ok } from "./support.js"

const tickers = Endpoint.raw({
  method: "GET",
  path: "/api/v2/spot/market/tickers",
  auth: "public",
  rateLimit: { limit: 20, window: "1 second", scope: "ip" },
  idempotency: "idempotent"
})

const cancel = Endpoint.raw({
  method: "POST",
  path: "/api/v2/spot/trade/cancel-order",
  name: "spot.cancelOrder",
  auth: "signed",
  rateLimit: { limit: 10, window: "1 second", scope: "uid" },
  idempotency: "unsafe"
})

const credentialHeaders = (headers: Readonly<Record<string, string>>) =>
  Object.keys(headers).filter((name) => name.startsWith("access-"))

describe("raw", () => {
  it("describes the endpoint as given, named by its label unless named", () => {
    assert.strictEqual(tickers.method, "GET")
    assert.strictEqual(tickers.name, "GET /api/v2/spot/market/tickers")
    assert.strictEqual(tickers.path, "/api/v2/spot/market/tickers")
    assert.strictEqual(tickers.auth, "public")
    assert.strictEqual(tickers.idempotency, "idempotent")
    assert.deepStrictEqual(tickers.rateLimit, { limit: 20, window: "1 second", scope: "ip" })
    assert.isTrue(Endpoint.isEndpoint(tickers))
    assert.strictEqual(cancel.method, "POST")
    assert.strictEqual(cancel.name, "spot.cancelOrder")
  })

  it.effect("a GET sends its query as given, unsigned when public, and returns the data as JSON", () => {
    const data = [{ symbol: "BTCUSDT", lastPr: "97000.5", depth: [[1, null]], open: true }]
    const { layer, requests } = exchange(() => ok(data))
    return Effect.gen(function*() {
      const answer = yield* BitgetClient.execute(tickers, { symbol: "BTC$USDT", limit: "5" })
      assert.deepStrictEqual(answer, data)
      const [request] = requests
      assert.strictEqual(request?.method, "GET")
      assert.strictEqual(request?.url.pathname, "/api/v2/spot/market/tickers")
      assert.strictEqual(request?.url.search, "?limit=5&symbol=BTC%24USDT")
      assert.deepStrictEqual(credentialHeaders(request?.headers ?? {}), [])
    }).pipe(Effect.provide(layer))
  })

  it.effect("a POST sends its body as JSON, signed", () => {
    const { layer, requests } = exchange(() => ok({ orderId: "1201", clientOid: null }))
    return Effect.gen(function*() {
      const answer = yield* BitgetClient.execute(cancel, { symbol: "BTCUSDT", orderId: "1201", tags: ["a", 1] })
      assert.deepStrictEqual(answer, { orderId: "1201", clientOid: null })
      const [request] = requests
      assert.strictEqual(request?.method, "POST")
      assert.strictEqual(request?.body, "{\"symbol\":\"BTCUSDT\",\"orderId\":\"1201\",\"tags\":[\"a\",1]}")
      assertSigned(request!, "")
    }).pipe(Effect.provide(layer))
  })

  it.effect("refuses a query value no request can carry, before sending", () => {
    const { layer, requests } = exchange(() => ok([]))
    return Effect.gen(function*() {
      const error = yield* Effect.flip(BitgetClient.execute(tickers, { symbol: "BTC\nUSDT" }))
      assert.instanceOf(error, BitgetRequestError)
      assert.strictEqual(requests.length, 0)
    }).pipe(Effect.provide(layer))
  })

  it.effect("fails as any endpoint does: a body that is not JSON is a BitgetDecodeError", () => {
    const { layer } = exchange(() => ({ body: "<html>" }))
    return Effect.gen(function*() {
      const error = yield* Effect.flip(BitgetClient.execute(tickers, {}))
      assert.instanceOf(error, BitgetDecodeError)
    }).pipe(Effect.provide(layer))
  })

  it.effect("a mock answers it as any other endpoint", () =>
    Effect.gen(function*() {
      const answer = yield* BitgetClient.execute(tickers, { symbol: "BTCUSDT" })
      assert.deepStrictEqual(answer, [{ symbol: "BTCUSDT" }])
      assert.deepStrictEqual(yield* BitgetMock.requestsOf(tickers), [{ symbol: "BTCUSDT" }])
    }).pipe(Effect.provide(BitgetMock.layer(BitgetMock.succeed(tickers, [{ symbol: "BTCUSDT" }])))))

  it("is typed by its method and auth: strings for a query, JSON for a body, the auth's errors", () => {
    expectTypeOf(tickers).toEqualTypeOf<
      Endpoint.Get<Endpoint.RawQuery, Schema.Json, Endpoint.RawQuery, Schema.Json, "public">
    >()
    expectTypeOf(cancel).toEqualTypeOf<
      Endpoint.Post<Endpoint.RawBody, Schema.Json, Endpoint.RawBody, Schema.Json, "signed">
    >()
    expectTypeOf(BitgetClient.execute(tickers, {})).toEqualTypeOf<
      Effect.Effect<Schema.Json, BitgetPublicError, BitgetClient.BitgetClient>
    >()
    expectTypeOf(BitgetClient.execute(cancel, {})).toEqualTypeOf<
      Effect.Effect<Schema.Json, BitgetError, BitgetClient.BitgetClient>
    >()
    expectTypeOf<{ readonly limit: number }>().not.toExtend<Endpoint.RawQuery>() // a query holds strings only
  })
})
