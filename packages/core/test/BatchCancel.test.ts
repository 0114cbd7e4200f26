import { assert, describe, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import * as BatchCancel from "../src/BatchCancel.js"
import type { BitgetRequestError } from "../src/BitgetError.js"
import { assertSigned, exchange, fail, ok } from "./support.js"

const path = "/api/v2/spot/trade/batch-cancel-order"

/** An order of a BTCUSDT batch named by `orderId` that the answer did not mention. */
const unconfirmed = (orderId: string) =>
  new BatchCancel.UnconfirmedOrder({
    symbol: Option.some("BTCUSDT"),
    orderId: Option.some(orderId),
    clientOid: Option.none()
  })

/** Runs a request that must be refused before sending. */
const rejected = (request: BatchCancel.BatchCancelRequest) => {
  const { layer, requests } = exchange(() => ok({ successList: [], failureList: [] }))
  return Effect.gen(function*() {
    const error = yield* Effect.flip(BatchCancel.batchCancelOrders(request))
    assert.strictEqual(requests.length, 0)
    if (error._tag !== "BitgetRequestError") return assert.fail(`expected BitgetRequestError, got ${error._tag}`)
    assert.strictEqual(error.endpoint, `POST ${path}`)
    return error satisfies BitgetRequestError
  }).pipe(Effect.provide(layer))
}

describe("batchCancelOrders: the request", () => {
  it.effect("sends a signed POST with the exact body in single mode", () => {
    const { layer, requests } = exchange(() => ok({ successList: [], failureList: [] }))
    return Effect.gen(function*() {
      // keys given out of order: the body follows the schema's order
      yield* BatchCancel.batchCancelOrders({
        orderList: [{ orderId: "1234567890123456789" }, { orderId: "987", symbol: "BTCUSDT" }],
        symbol: "BTCUSDT"
      })
      assert.strictEqual(requests.length, 1)
      const request = requests[0]!
      assert.strictEqual(request.method, "POST")
      assert.strictEqual(request.url.pathname, path)
      assert.strictEqual(request.url.search, "")
      assert.strictEqual(
        request.body,
        "{\"symbol\":\"BTCUSDT\",\"orderList\":[{\"orderId\":\"1234567890123456789\"},{\"symbol\":\"BTCUSDT\",\"orderId\":\"987\"}]}"
      )
      assert.strictEqual(request.headers["content-type"], "application/json")
      assert.strictEqual(request.headers["locale"], "en-US")
      assertSigned(request, "")
    }).pipe(Effect.provide(layer))
  })

  it.effect("sends batchMode and per-order symbols in multiple mode by clientOid", () => {
    const { layer, requests } = exchange(() => ok({ successList: [], failureList: [] }))
    return Effect.gen(function*() {
      yield* BatchCancel.batchCancelOrders({
        batchMode: "multiple",
        orderList: [{ symbol: "BTCUSDT", clientOid: "a-1" }, { symbol: "ETHUSDT", clientOid: "b+2#x_y" }]
      })
      const request = requests[0]!
      assert.strictEqual(
        request.body,
        "{\"batchMode\":\"multiple\",\"orderList\":[{\"symbol\":\"BTCUSDT\",\"clientOid\":\"a-1\"},{\"symbol\":\"ETHUSDT\",\"clientOid\":\"b+2#x_y\"}]}"
      )
      assertSigned(request, "")
    }).pipe(Effect.provide(layer))
  })
})

describe("batchCancelOrders: the result", () => {
  it.effect("decodes the documented example and accounts for every requested order", () => {
    const { layer } = exchange(() =>
      ok({
        successList: [{ orderId: "121211212122", clientOid: "121211212122", extra: 1 }],
        failureList: [{ orderId: "121211212123", clientOid: "", errorMsg: "duplicate order", newField: "x" }]
      })
    )
    return Effect.gen(function*() {
      const result = yield* BatchCancel.batchCancelOrders({
        symbol: "BTCUSDT",
        orderList: [{ orderId: "121211212122" }, { orderId: "121211212123" }, { orderId: "121211212124" }]
      })
      assert.strictEqual(result.succeeded.length, 1)
      assert.strictEqual(result.succeeded[0]!.orderId, "121211212122")
      assert.deepStrictEqual(result.succeeded[0]!.clientOid, Option.some("121211212122"))
      const failure = result.failed[0]!
      assert.deepStrictEqual(failure.orderId, Option.some("121211212123"))
      assert.isTrue(Option.isNone(failure.clientOid))
      assert.deepStrictEqual(failure.errorMsg, Option.some("duplicate order"))
      assert.isTrue(Option.isNone(failure.errorCode))
      // the third order is in neither list: its state is unknown, not silently dropped
      assert.deepStrictEqual(result.unconfirmed, [unconfirmed("121211212124")])
      assert.isFalse(result.allCancelled)
    }).pipe(Effect.provide(layer))
  })

  it.effect("matches clientOid failures whose orderId is empty, with null values as none", () => {
    const { layer } = exchange(() =>
      ok({
        successList: [{ orderId: "555", clientOid: "a-1" }],
        failureList: [{ orderId: "", clientOid: "b-2", errorMsg: "The order does not exist", errorCode: "43001" }]
      })
    )
    return Effect.gen(function*() {
      const result = yield* BatchCancel.batchCancelOrders({
        symbol: "BTCUSDT",
        orderList: [{ clientOid: "a-1" }, { clientOid: "b-2" }]
      })
      assert.strictEqual(result.succeeded.length, 1)
      const failure = result.failed[0]!
      assert.isTrue(Option.isNone(failure.orderId))
      assert.deepStrictEqual(failure.clientOid, Option.some("b-2"))
      assert.deepStrictEqual(failure.errorCode, Option.some("43001"))
      assert.deepStrictEqual(result.unconfirmed, [])
    }).pipe(Effect.provide(layer))
  })

  it.effect("reads null or missing lists as empty, and null ids as none", () => {
    const { layer } = exchange(() => ok({ successList: [{ orderId: "1", clientOid: null }], failureList: null }))
    return Effect.gen(function*() {
      const result = yield* BatchCancel.batchCancelOrders({ symbol: "BTCUSDT", orderList: [{ orderId: "1" }] })
      assert.isTrue(Option.isNone(result.succeeded[0]!.clientOid))
      assert.deepStrictEqual(result.failed, [])
      assert.isTrue(result.allCancelled)
      const empty = yield* BatchCancel.batchCancelOrders({ symbol: "BTCUSDT", orderList: [{ orderId: "2" }] }).pipe(
        Effect.provide(exchange(() => ok({})).layer)
      )
      assert.deepStrictEqual(empty.succeeded, [])
      assert.deepStrictEqual(empty.unconfirmed, [unconfirmed("2")])
    }).pipe(Effect.provide(layer))
  })

  it.effect("compares order ids as integers when matching", () => {
    const { layer } = exchange(() => ok({ successList: [{ orderId: "0042", clientOid: "" }], failureList: [] }))
    return Effect.gen(function*() {
      const result = yield* BatchCancel.batchCancelOrders({ symbol: "BTCUSDT", orderList: [{ orderId: "42" }] })
      assert.deepStrictEqual(result.unconfirmed, [])
    }).pipe(Effect.provide(layer))
  })

  it.effect("turns an all-failed 400 43001 envelope into a failure for every requested order", () => {
    const { layer, requests } = exchange(() => fail(400, "43001", "The order does not exist"))
    return Effect.gen(function*() {
      const result = yield* BatchCancel.batchCancelOrders({
        batchMode: "multiple",
        orderList: [{ symbol: "BTCUSDT", orderId: "11" }, { symbol: "ETHUSDT", orderId: "12" }]
      })
      assert.strictEqual(requests.length, 1)
      assert.deepStrictEqual(result.succeeded, [])
      assert.deepStrictEqual(result.unconfirmed, [])
      assert.deepStrictEqual(
        result.failed.map((f) => [f.orderId, f.clientOid, f.errorCode, f.errorMsg]),
        [
          [Option.some("11"), Option.none(), Option.some("43001"), Option.some("The order does not exist")],
          [Option.some("12"), Option.none(), Option.some("43001"), Option.some("The order does not exist")]
        ]
      )
    }).pipe(Effect.provide(layer))
  })

  it.effect("keeps other envelope failures as typed errors", () => {
    const { layer } = exchange(() => fail(400, "40009", "sign signature error"))
    return Effect.gen(function*() {
      const error = yield* Effect.flip(
        BatchCancel.batchCancelOrders({ symbol: "BTCUSDT", orderList: [{ orderId: "1" }] })
      )
      if (error._tag !== "BitgetApiError") return assert.fail(`expected BitgetApiError, got ${error._tag}`)
      assert.strictEqual(error.code, "40009")
      assert.strictEqual(error.kind, "Auth")
      assert.strictEqual(error.status, 400)
    }).pipe(Effect.provide(layer))
  })
})

describe("batchCancelOrdersOrFail", () => {
  it.effect("returns the cancelled orders when all are cancelled", () => {
    const { layer } = exchange(() =>
      ok({ successList: [{ orderId: "1", clientOid: "c1" }, { orderId: "2", clientOid: "c2" }], failureList: [] })
    )
    return Effect.gen(function*() {
      const cancelled = yield* BatchCancel.batchCancelOrdersOrFail({
        symbol: "BTCUSDT",
        orderList: [{ orderId: "1" }, { orderId: "2" }]
      })
      assert.deepStrictEqual(cancelled.map((o) => o.orderId), ["1", "2"])
    }).pipe(Effect.provide(layer))
  })

  it.effect("fails with a partial failure carrying both lists and a readable message", () => {
    const { layer } = exchange(() =>
      ok({
        successList: [{ orderId: "1", clientOid: "c1" }],
        failureList: [{ orderId: "2", clientOid: "c2", errorMsg: "status cannot be cancelled", errorCode: "45055" }]
      })
    )
    return Effect.gen(function*() {
      const error = yield* Effect.flip(
        BatchCancel.batchCancelOrdersOrFail({ symbol: "BTCUSDT", orderList: [{ orderId: "1" }, { orderId: "2" }] })
      )
      if (error._tag !== "BatchCancelPartialFailure") return assert.fail(`unexpected ${error._tag}`)
      assert.instanceOf(error, BatchCancel.BatchCancelPartialFailure)
      assert.deepStrictEqual(error.succeeded.map((o) => o.orderId), ["1"])
      assert.deepStrictEqual(error.failed.map((o) => o.errorCode), [Option.some("45055")])
      assert.deepStrictEqual(error.unconfirmed, [])
      assert.strictEqual(
        error.message,
        "batch cancel incomplete: 1 of 2 orders cancelled, 1 failed (codes 45055), 0 unconfirmed"
      )
      assert.notInclude(error.message, "key-1")
      assert.notInclude(error.message, "phrase-1")
    }).pipe(Effect.provide(layer))
  })

  it.effect("fails for orders the exchange did not mention", () => {
    const { layer } = exchange(() => ok({ successList: [{ orderId: "1", clientOid: "" }], failureList: [] }))
    return Effect.gen(function*() {
      const error = yield* Effect.flip(
        BatchCancel.batchCancelOrdersOrFail({ symbol: "BTCUSDT", orderList: [{ orderId: "1" }, { orderId: "3" }] })
      )
      if (error._tag !== "BatchCancelPartialFailure") return assert.fail(`unexpected ${error._tag}`)
      assert.deepStrictEqual(error.unconfirmed, [unconfirmed("3")])
      assert.strictEqual(error.message, "batch cancel incomplete: 1 of 2 orders cancelled, 0 failed, 1 unconfirmed")
    }).pipe(Effect.provide(layer))
  })

  it.effect("fails when the whole batch came back as 43001", () => {
    const { layer } = exchange(() => fail(400, "43001", "The order does not exist"))
    return Effect.gen(function*() {
      const error = yield* Effect.flip(
        BatchCancel.batchCancelOrdersOrFail({ symbol: "BTCUSDT", orderList: [{ clientOid: "x" }] })
      )
      if (error._tag !== "BatchCancelPartialFailure") return assert.fail(`unexpected ${error._tag}`)
      assert.deepStrictEqual(error.failed.map((f) => f.clientOid), [Option.some("x")])
      assert.include(error.message, "0 of 1 orders cancelled, 1 failed (codes 43001)")
    }).pipe(Effect.provide(layer))
  })
})

describe("batchCancelOrders: validation (nothing is sent)", () => {
  it.effect("rejects an order with both orderId and clientOid", () =>
    Effect.gen(function*() {
      const error = yield* rejected({ symbol: "BTCUSDT", orderList: [{ orderId: "1", clientOid: "c" }] })
      assert.include(error.issue, "not both")
    }))

  it.effect("rejects an order with neither orderId nor clientOid", () =>
    Effect.gen(function*() {
      const error = yield* rejected({ symbol: "BTCUSDT", orderList: [{ symbol: "BTCUSDT" }] })
      assert.include(error.issue, "needs an orderId or a clientOid")
    }))

  it.effect("rejects a batch mixing orderId and clientOid", () =>
    Effect.gen(function*() {
      const error = yield* rejected({ symbol: "BTCUSDT", orderList: [{ orderId: "1" }, { clientOid: "c" }] })
      assert.include(error.issue, "must not mix orderId and clientOid")
    }))

  it.effect("rejects single mode (default or explicit) without the top-level symbol", () =>
    Effect.gen(function*() {
      const implicit = yield* rejected({ orderList: [{ orderId: "1", symbol: "BTCUSDT" }] })
      assert.include(implicit.issue, "single mode (the default) needs the top-level symbol")
      const explicit = yield* rejected({ batchMode: "single", orderList: [{ orderId: "1" }] })
      assert.include(explicit.issue, "needs the top-level symbol")
    }))

  it.effect("rejects in single mode an order symbol that differs from the top-level one", () =>
    Effect.gen(function*() {
      const error = yield* rejected({ symbol: "BTCUSDT", orderList: [{ orderId: "1", symbol: "ETHUSDT" }] })
      assert.include(error.issue, "names ETHUSDT")
    }))

  it.effect("rejects in multiple mode an order without a symbol", () =>
    Effect.gen(function*() {
      const error = yield* rejected({
        batchMode: "multiple",
        symbol: "BTCUSDT",
        orderList: [{ orderId: "1", symbol: "BTCUSDT" }, { orderId: "2" }]
      })
      assert.include(error.issue, "multiple mode needs a symbol on every order")
    }))

  it.effect("rejects an empty list and more than 50 orders", () =>
    Effect.gen(function*() {
      const empty = yield* rejected({ symbol: "BTCUSDT", orderList: [] })
      assert.include(empty.issue, "at least one order")
      const tooMany = yield* rejected({
        symbol: "BTCUSDT",
        orderList: Array.from({ length: 51 }, (_, i) => ({ orderId: String(i + 1) }))
      })
      assert.include(tooMany.issue, "at most 50 orders")
    }))

  it.effect("accepts exactly 50 orders", () => {
    const { layer, requests } = exchange(() => ok({ successList: [], failureList: [] }))
    return Effect.gen(function*() {
      const result = yield* BatchCancel.batchCancelOrders({
        symbol: "BTCUSDT",
        orderList: Array.from({ length: 50 }, (_, i) => ({ orderId: String(i + 1) }))
      })
      assert.strictEqual(requests.length, 1)
      assert.strictEqual(result.unconfirmed.length, 50)
    }).pipe(Effect.provide(layer))
  })

  it.effect("rejects malformed ids, a blank symbol and a repeated order", () =>
    Effect.gen(function*() {
      const orderId = yield* rejected({ symbol: "BTCUSDT", orderList: [{ orderId: "12ab" }] })
      assert.include(orderId.issue, "numeric id")
      const clientOid = yield* rejected({ symbol: "BTCUSDT", orderList: [{ clientOid: "has space" }] })
      assert.include(clientOid.issue, "[0-9a-zA-Z-+_#]")
      const blank = yield* rejected({ symbol: " ", orderList: [{ orderId: "1" }] })
      assert.include(blank.issue, "must not be blank")
      const repeated = yield* rejected({ symbol: "BTCUSDT", orderList: [{ orderId: "7" }, { orderId: "07" }] })
      assert.include(repeated.issue, "names the same order twice")
    }))
})
