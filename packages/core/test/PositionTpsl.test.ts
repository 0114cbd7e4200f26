import { assert, describe, it } from "@effect/vitest"
import { BigDecimal, Effect, Option } from "effect"
import type { BitgetRequestError } from "../src/BitgetError.js"
import * as PositionTpsl from "../src/PositionTpsl.js"
import { assertSigned, exchange, fail, ok } from "./support.js"

const path = "/api/v2/mix/order/place-pos-tpsl"
const dec = BigDecimal.fromStringUnsafe

const base = {
  marginCoin: "USDT",
  productType: "usdt-futures",
  symbol: "BTCUSDT",
  holdSide: "long"
} as const

/** Runs a request that must be refused before sending. */
const rejected = (request: PositionTpsl.PositionTpslRequest) => {
  const { layer, requests } = exchange(() => ok([]))
  return Effect.gen(function*() {
    const error = yield* Effect.flip(PositionTpsl.placePositionTpsl(request))
    assert.strictEqual(requests.length, 0)
    if (error._tag !== "BitgetRequestError") return assert.fail(`expected BitgetRequestError, got ${error._tag}`)
    assert.strictEqual(error.endpoint, `POST ${path}`)
    return error satisfies BitgetRequestError
  }).pipe(Effect.provide(layer))
}

/** A request as an untyped (JavaScript) caller could build it. */
const untyped = (value: Record<string, unknown>): PositionTpsl.PositionTpslRequest =>
  value as PositionTpsl.PositionTpslRequest

describe("placePositionTpsl: the request", () => {
  it.effect("sends a signed POST with every field in order, stopLossSize by its real name, decimals in fixed point", () => {
    const { layer, requests } = exchange(() =>
      ok([
        { orderId: "1111111111111111111", stopSurplusClientOid: "tp-1", stopLossClientOid: "", extra: "x" },
        { orderId: "1111111111111111112", stopSurplusClientOid: "", stopLossClientOid: "sl-1" }
      ])
    )
    return Effect.gen(function*() {
      const orders = yield* PositionTpsl.placePositionTpsl({
        holdSide: "sell",
        stpMode: "cancel_both",
        stopLossClientOid: "sl-1",
        stopLossExecutePrice: dec("0"),
        stopLossTriggerType: "mark_price",
        stopLossSize: dec("0.00000001"),
        stopLossTriggerPrice: dec("59000.50"),
        stopSurplusClientOid: "tp-1",
        stopSurplusExecutePrice: dec("70100"),
        stopSurplusTriggerType: "fill_price",
        stopSurplusSize: dec("0.5"),
        stopSurplusTriggerPrice: dec("70000"),
        symbol: "BTCUSDT",
        productType: "USDT-FUTURES",
        marginCoin: "USDT"
      })
      assert.strictEqual(requests.length, 1)
      const request = requests[0]!
      assert.strictEqual(request.method, "POST")
      assert.strictEqual(request.url.pathname, path)
      assert.strictEqual(request.url.search, "")
      assert.strictEqual(
        request.body,
        "{\"marginCoin\":\"USDT\",\"productType\":\"usdt-futures\",\"symbol\":\"BTCUSDT\"," +
          "\"stopSurplusTriggerPrice\":\"70000\",\"stopSurplusSize\":\"0.5\",\"stopSurplusTriggerType\":\"fill_price\"," +
          "\"stopSurplusExecutePrice\":\"70100\",\"stopSurplusClientOid\":\"tp-1\"," +
          "\"stopLossTriggerPrice\":\"59000.5\",\"stopLossSize\":\"0.00000001\",\"stopLossTriggerType\":\"mark_price\"," +
          "\"stopLossExecutePrice\":\"0\",\"stopLossClientOid\":\"sl-1\",\"holdSide\":\"sell\",\"stpMode\":\"cancel_both\"}"
      )
      assert.notInclude(request.body, "e-")
      assert.strictEqual(request.headers["content-type"], "application/json")
      assert.strictEqual(request.headers["locale"], "en-US")
      assertSigned(request, "")
      assert.deepStrictEqual(
        orders.map((order) => [order.orderId, order.stopSurplusClientOid, order.stopLossClientOid]),
        [
          ["1111111111111111111", Option.some("tp-1"), Option.none()],
          ["1111111111111111112", Option.none(), Option.some("sl-1")]
        ]
      )
      assert.instanceOf(orders[0], PositionTpsl.PositionTpslOrder)
      assert.isFalse("extra" in orders[0]!)
    }).pipe(Effect.provide(layer))
  })

  it.effect("sends only what was given: one take-profit leg for the whole position", () => {
    const { layer, requests } = exchange(() => ok([{ orderId: "42" }]))
    return Effect.gen(function*() {
      const orders = yield* PositionTpsl.placePositionTpsl({ ...base, stopSurplusTriggerPrice: dec("70000") })
      const request = requests[0]!
      assert.strictEqual(
        request.body,
        "{\"marginCoin\":\"USDT\",\"productType\":\"usdt-futures\",\"symbol\":\"BTCUSDT\",\"stopSurplusTriggerPrice\":\"70000\",\"holdSide\":\"long\"}"
      )
      assertSigned(request, "")
      assert.strictEqual(orders[0]!.orderId, "42")
      assert.isTrue(Option.isNone(orders[0]!.stopSurplusClientOid))
      assert.isTrue(Option.isNone(orders[0]!.stopLossClientOid))
    }).pipe(Effect.provide(layer))
  })

  it.effect("sends every product type in lower case, whichever case it was given in", () => {
    const { layer, requests } = exchange(() => ok([]))
    const types = [
      "usdt-futures",
      "COIN-FUTURES",
      "usdc-futures",
      "SUSDT-FUTURES",
      "scoin-futures",
      "SUSDC-FUTURES"
    ] as const
    return Effect.gen(function*() {
      for (const productType of types) {
        yield* PositionTpsl.placePositionTpsl({ ...base, productType, stopLossTriggerPrice: dec("1") })
      }
      assert.deepStrictEqual(
        requests.map((request) => /"productType":"([^"]*)"/.exec(request.body)?.[1]),
        ["usdt-futures", "coin-futures", "usdc-futures", "susdt-futures", "scoin-futures", "susdc-futures"]
      )
    }).pipe(Effect.provide(layer))
  })

  it.effect("reads null client order ids as none and an empty array as no orders", () => {
    const { layer } = exchange(() => ok([{ orderId: "7", stopSurplusClientOid: null, stopLossClientOid: null }]))
    return Effect.gen(function*() {
      const [order] = yield* PositionTpsl.placePositionTpsl({ ...base, stopLossTriggerPrice: dec("1") })
      assert.isTrue(Option.isNone(order!.stopSurplusClientOid))
      assert.isTrue(Option.isNone(order!.stopLossClientOid))
      const none = yield* PositionTpsl.placePositionTpsl({ ...base, stopLossTriggerPrice: dec("1") }).pipe(
        Effect.provide(exchange(() => ok([])).layer)
      )
      assert.deepStrictEqual(none, [])
    }).pipe(Effect.provide(layer))
  })

  it.effect("describes a non-idempotent, signed, 10/s-per-UID endpoint", () =>
    Effect.sync(() => {
      const { endpoint } = PositionTpsl
      assert.strictEqual(endpoint.method, "POST")
      assert.strictEqual(endpoint.auth, "signed")
      assert.strictEqual(endpoint.idempotency, "unsafe")
      assert.deepStrictEqual(endpoint.rateLimit, { limit: 10, window: "1 second", scope: "uid" })
    }))
})

describe("placePositionTpsl: errors", () => {
  it.effect("maps TP/SL business errors to typed API errors", () => {
    const { layer, requests } = exchange(() => fail(400, "40837", "No position to close"))
    return Effect.gen(function*() {
      const error = yield* Effect.flip(PositionTpsl.placePositionTpsl({ ...base, stopLossTriggerPrice: dec("1") }))
      if (error._tag !== "BitgetApiError") return assert.fail(`expected BitgetApiError, got ${error._tag}`)
      assert.strictEqual(error.code, "40837")
      assert.strictEqual(error.kind, "Order")
      assert.strictEqual(error.msg, "No position to close")
      assert.strictEqual(requests.length, 1)
      const exists = yield* Effect.flip(PositionTpsl.placePositionTpsl({ ...base, stopLossTriggerPrice: dec("1") }))
        .pipe(
          Effect.provide(exchange(() => fail(400, "43031", "TP/SL already exists")).layer)
        )
      if (exists._tag !== "BitgetApiError") return assert.fail(`expected BitgetApiError, got ${exists._tag}`)
      assert.strictEqual(exists.code, "43031")
    }).pipe(Effect.provide(layer))
  })
})

describe("planKinds", () => {
  it("derives the plan kinds from the sizes", () => {
    assert.deepStrictEqual(PositionTpsl.planKinds({ stopSurplusTriggerPrice: dec("1") }), ["pos_profit"])
    assert.deepStrictEqual(
      PositionTpsl.planKinds({ stopSurplusTriggerPrice: dec("1"), stopSurplusSize: dec("2") }),
      ["profit_plan"]
    )
    assert.deepStrictEqual(PositionTpsl.planKinds({ stopLossTriggerPrice: dec("1") }), ["pos_loss"])
    assert.deepStrictEqual(PositionTpsl.planKinds({ stopLossTriggerPrice: dec("1"), stopLossSize: dec("2") }), [
      "loss_plan"
    ])
    assert.deepStrictEqual(
      PositionTpsl.planKinds({
        stopSurplusTriggerPrice: dec("1"),
        stopSurplusSize: dec("2"),
        stopLossTriggerPrice: dec("1")
      }),
      ["profit_plan", "pos_loss"]
    )
    assert.deepStrictEqual(
      PositionTpsl.planKinds({
        stopSurplusTriggerPrice: dec("1"),
        stopLossTriggerPrice: dec("1"),
        stopLossSize: dec("3")
      }),
      ["pos_profit", "loss_plan"]
    )
    assert.deepStrictEqual(PositionTpsl.planKinds({}), [])
  })
})

describe("placePositionTpsl: validation (nothing is sent)", () => {
  it.effect("rejects a request without any trigger price", () =>
    Effect.gen(function*() {
      const error = yield* rejected({ ...base })
      assert.include(error.issue, "needs stopSurplusTriggerPrice, stopLossTriggerPrice or both")
    }))

  it.effect("rejects each take-profit or stop-loss field given without its trigger price", () =>
    Effect.gen(function*() {
      const cases: ReadonlyArray<readonly [PositionTpsl.PositionTpslRequest, string]> = [
        [
          { ...base, stopLossTriggerPrice: dec("1"), stopSurplusSize: dec("1") },
          "stopSurplusSize needs stopSurplusTriggerPrice"
        ],
        [
          { ...base, stopLossTriggerPrice: dec("1"), stopSurplusTriggerType: "mark_price" },
          "stopSurplusTriggerType needs stopSurplusTriggerPrice"
        ],
        [
          { ...base, stopLossTriggerPrice: dec("1"), stopSurplusExecutePrice: dec("5") },
          "stopSurplusExecutePrice needs stopSurplusTriggerPrice"
        ],
        [
          { ...base, stopLossTriggerPrice: dec("1"), stopSurplusClientOid: "tp" },
          "stopSurplusClientOid needs stopSurplusTriggerPrice"
        ],
        [
          { ...base, stopSurplusTriggerPrice: dec("1"), stopLossSize: dec("1") },
          "stopLossSize needs stopLossTriggerPrice"
        ],
        [
          { ...base, stopSurplusTriggerPrice: dec("1"), stopLossTriggerType: "fill_price" },
          "stopLossTriggerType needs stopLossTriggerPrice"
        ],
        [
          { ...base, stopSurplusTriggerPrice: dec("1"), stopLossExecutePrice: dec("0") },
          "stopLossExecutePrice needs stopLossTriggerPrice"
        ],
        [
          { ...base, stopSurplusTriggerPrice: dec("1"), stopLossClientOid: "sl" },
          "stopLossClientOid needs stopLossTriggerPrice"
        ]
      ]
      for (const [request, message] of cases) {
        const error = yield* rejected(request)
        assert.include(error.issue, message)
      }
    }))

  it.effect("rejects trigger prices and sizes that are not above zero, and negative execute prices", () =>
    Effect.gen(function*() {
      const cases: ReadonlyArray<readonly [PositionTpsl.PositionTpslRequest, string]> = [
        [{ ...base, stopSurplusTriggerPrice: dec("0") }, "must be greater than 0"],
        [{ ...base, stopLossTriggerPrice: dec("-1") }, "must be greater than 0"],
        [{ ...base, stopSurplusTriggerPrice: dec("1"), stopSurplusSize: dec("0") }, "must be greater than 0"],
        [{ ...base, stopLossTriggerPrice: dec("1"), stopLossSize: dec("-0.1") }, "must be greater than 0"],
        [{ ...base, stopLossTriggerPrice: dec("1"), stopLossExecutePrice: dec("-1") }, "must not be negative"],
        [{ ...base, stopSurplusTriggerPrice: dec("1"), stopSurplusExecutePrice: dec("-1") }, "must not be negative"]
      ]
      for (const [request, message] of cases) {
        const error = yield* rejected(request)
        assert.include(error.issue, message)
      }
    }))

  it.effect("rejects malformed client order ids and blank coins or symbols", () =>
    Effect.gen(function*() {
      const oid = yield* rejected({ ...base, stopSurplusTriggerPrice: dec("1"), stopSurplusClientOid: "tp 1" })
      assert.include(oid.issue, "[0-9a-zA-Z-+_#]")
      const long = yield* rejected({ ...base, stopLossTriggerPrice: dec("1"), stopLossClientOid: "x".repeat(50) })
      assert.include(long.issue, "1-49 characters")
      const coin = yield* rejected({ ...base, marginCoin: " ", stopLossTriggerPrice: dec("1") })
      assert.include(coin.issue, "must not be blank")
      const symbol = yield* rejected({ ...base, symbol: "", stopLossTriggerPrice: dec("1") })
      assert.include(symbol.issue, "must not be blank")
    }))

  it.effect("rejects values outside the request enums", () =>
    Effect.gen(function*() {
      const valid = { ...base, stopLossTriggerPrice: dec("1") }
      const productType = yield* rejected(untyped({ ...valid, productType: "Usdt-Futures" }))
      assert.include(productType.issue, "productType")
      const unknownProduct = yield* rejected(untyped({ ...valid, productType: "usdt-swap" }))
      assert.include(unknownProduct.issue, "productType")
      const holdSide = yield* rejected(untyped({ ...valid, holdSide: "net" }))
      assert.include(holdSide.issue, "holdSide")
      const triggerType = yield* rejected(untyped({ ...valid, stopLossTriggerType: "index_price" }))
      assert.include(triggerType.issue, "stopLossTriggerType")
      const stpMode = yield* rejected(untyped({ ...valid, stpMode: "cancel_all" }))
      assert.include(stpMode.issue, "stpMode")
    }))
})
