import { assert, describe, it } from "@effect/vitest"
import { Cause, Effect, Exit, Fiber, Option, Schema } from "effect"
import * as BatchCancel from "../src/BatchCancel.js"
import type { BitgetRequestError } from "../src/BitgetError.js"
import { advance, assertSigned, credentials, exchange, fail, ok } from "./support.js"

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

describe("batchCancelOrders: the call", () => {
  it.effect("is signed: refused unsent without credentials", () => {
    const { layer, requests } = exchange(() => ok({ successList: [], failureList: [] }), {})
    return Effect.gen(function*() {
      const error = yield* Effect.flip(
        BatchCancel.batchCancelOrders({ symbol: "BTCUSDT", orderList: [{ orderId: "1" }] })
      )
      assert.isTrue(error._tag === "BitgetRequestError" && error.reason === "NoCredentials")
      assert.strictEqual(requests.length, 0)
    }).pipe(Effect.provide(layer))
  })

  it.effect("is limited to 10 calls a second", () => {
    const { layer, sentAt } = exchange(() => ok({ successList: [], failureList: [] }), {
      credentials,
      rateLimit: { margin: 0 }
    })
    return Effect.gen(function*() {
      const call = BatchCancel.batchCancelOrders({ symbol: "BTCUSDT", orderList: [{ orderId: "1" }] })
      const fiber = yield* Effect.forkChild(Effect.forEach(Array.from({ length: 11 }), () => call))
      yield* advance("2 seconds")
      yield* Fiber.join(fiber)
      // ten in the first second (spaced out), the eleventh when the first one's second is over
      assert.strictEqual(sentAt.length, 11)
      assert.isBelow(sentAt[9]!, 1000)
      assert.strictEqual(sentAt[10], 1000)
    }).pipe(Effect.provide(layer))
  })

  it.effect("is named spot.batchCancelOrders, as rate-limit overrides name it", () => {
    const { layer, sentAt } = exchange(() => ok({ successList: [], failureList: [] }), {
      credentials,
      rateLimit: { margin: 0, overrides: { "spot.batchCancelOrders": { limit: 1, window: "5 seconds" } } }
    })
    return Effect.gen(function*() {
      const call = BatchCancel.batchCancelOrders({ symbol: "BTCUSDT", orderList: [{ orderId: "1" }] })
      const fiber = yield* Effect.forkChild(Effect.andThen(call, call))
      yield* advance("6 seconds", "100 millis")
      yield* Fiber.join(fiber)
      assert.deepStrictEqual(sentAt, [0, 5000])
    }).pipe(Effect.provide(layer))
  })

  it.effect("is idempotent: retried after a gateway error", () => {
    const answers = [{ status: 503, body: "<html>busy</html>" }, ok({ successList: [], failureList: [] })]
    const { layer, requests } = exchange(() => answers.shift()!, {
      credentials,
      retry: { maxAttempts: 2, jitter: false }
    })
    return Effect.gen(function*() {
      const fiber = yield* Effect.forkChild(
        BatchCancel.batchCancelOrders({ symbol: "BTCUSDT", orderList: [{ orderId: "1" }] })
      )
      yield* advance("10 seconds", "100 millis")
      const result = yield* Fiber.join(fiber)
      assert.strictEqual(requests.length, 2)
      assert.deepStrictEqual(result.unconfirmed, [unconfirmed("1")])
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

  it.effect("tells client order ids apart verbatim: 007 and 7 are two orders", () => {
    const { layer } = exchange(() => ok({ successList: [{ orderId: "900", clientOid: "7" }], failureList: [] }))
    return Effect.gen(function*() {
      const result = yield* BatchCancel.batchCancelOrders({
        symbol: "BTCUSDT",
        orderList: [{ clientOid: "007" }, { clientOid: "7" }]
      })
      assert.deepStrictEqual(result.unconfirmed.map((order) => order.clientOid), [Option.some("007")])
    }).pipe(Effect.provide(layer))
  })

  it.effect("in a batch by orderId, a failure without an orderId matches no order", () => {
    const { layer } = exchange(() =>
      ok({ successList: [], failureList: [{ orderId: "", clientOid: "x-1", errorMsg: "no", errorCode: "43001" }] })
    )
    return Effect.gen(function*() {
      const result = yield* BatchCancel.batchCancelOrders({ symbol: "BTCUSDT", orderList: [{ orderId: "1" }] })
      assert.strictEqual(result.failed.length, 1)
      assert.deepStrictEqual(result.unconfirmed, [unconfirmed("1")])
    }).pipe(Effect.provide(layer))
  })

  it.effect("an all-failed 43001 without a message leaves each failure's errorMsg none", () => {
    const { layer } = exchange(() => fail(400, "43001", ""))
    return Effect.gen(function*() {
      const result = yield* BatchCancel.batchCancelOrders({ symbol: "BTCUSDT", orderList: [{ orderId: "1" }] })
      assert.deepStrictEqual(
        result.failed.map((f) => [f.errorCode, f.errorMsg]),
        [[Option.some("43001"), Option.none()]]
      )
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

  it.effect("names each failure code once, in the order first seen", () => {
    const failure = (orderId: string, errorCode: string) => ({ orderId, clientOid: "", errorMsg: "no", errorCode })
    const { layer } = exchange(() =>
      ok({ successList: [], failureList: [failure("1", "45055"), failure("2", "43001"), failure("3", "45055")] })
    )
    return Effect.gen(function*() {
      const error = yield* Effect.flip(
        BatchCancel.batchCancelOrdersOrFail({
          symbol: "BTCUSDT",
          orderList: [{ orderId: "1" }, { orderId: "2" }, { orderId: "3" }]
        })
      )
      assert.strictEqual(
        error.message,
        "batch cancel incomplete: 0 of 3 orders cancelled, 3 failed (codes 45055, 43001), 0 unconfirmed"
      )
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

describe("batchCancelOrders: in logs", () => {
  it.effect("a result and a partial failure print under their own names", () => {
    const { layer } = exchange(() =>
      ok({
        successList: [{ orderId: "1", clientOid: "" }],
        failureList: [{ orderId: "2", clientOid: "", errorMsg: "no", errorCode: "45055" }]
      })
    )
    return Effect.gen(function*() {
      const request = { symbol: "BTCUSDT", orderList: [{ orderId: "1" }, { orderId: "2" }, { orderId: "3" }] }
      const printed = String(yield* BatchCancel.batchCancelOrders(request))
      for (const name of ["BatchCancelResult(", "CancelledOrder(", "CancelFailure(", "UnconfirmedOrder("]) {
        assert.include(printed, name)
      }
      const error = yield* Effect.flip(BatchCancel.batchCancelOrdersOrFail(request))
      assert.match(String(error), /^@bitget-effect\/core\/BatchCancelPartialFailure: batch cancel incomplete/)
      const response = BatchCancel.BatchCancelResponse.make({ successList: [], failureList: [] })
      assert.match(String(response), /^BatchCancelResponse\(/)
    }).pipe(Effect.provide(layer))
  })

  it.effect("input that is no request at all names what was expected", () =>
    Effect.gen(function*() {
      const notRequest = yield* rejected(null as unknown as BatchCancel.BatchCancelRequest)
      assert.strictEqual(notRequest.issue, "(root): Expected BatchCancelFields")
      const notOrder = yield* rejected({ symbol: "BTCUSDT", orderList: [5 as unknown as BatchCancel.OrderRef] })
      assert.strictEqual(notOrder.issue, "orderList.0: Expected OrderRef")
      // the schema itself, decoding what a caller was given
      const decoded = Schema.decodeUnknownExit(BatchCancel.BatchCancelRequest)(null)
      assert.isTrue(
        Exit.isFailure(decoded) && String(Cause.squash(decoded.cause)).includes("Expected BatchCancelRequest")
      )
    }))
})

describe("batchCancelOrders: the result as data", () => {
  it.effect("encodes to JSON with its schema and decodes back, every order accounted for", () => {
    const { layer } = exchange(() =>
      ok({
        successList: [{ orderId: "1", clientOid: "c-1" }],
        failureList: [{ orderId: "2", clientOid: "", errorMsg: "no", errorCode: "45055" }]
      })
    )
    return Effect.gen(function*() {
      const result = yield* BatchCancel.batchCancelOrders({
        symbol: "BTCUSDT",
        orderList: [{ orderId: "1" }, { orderId: "2" }, { orderId: "3" }]
      })
      const codec = Schema.toCodecJson(BatchCancel.BatchCancelResult)
      const json = Schema.encodeUnknownSync(codec)(result)
      assert.deepStrictEqual(json, {
        succeeded: [{ orderId: "1", clientOid: "c-1" }],
        failed: [{ orderId: "2", clientOid: "", errorMsg: "no", errorCode: "45055" }],
        unconfirmed: [{ symbol: "BTCUSDT", orderId: "3", clientOid: "" }]
      })
      assert.deepStrictEqual(Schema.decodeUnknownSync(codec)(json), result)
    }).pipe(Effect.provide(layer))
  })
})

describe("batchCancelOrders: validation (nothing is sent)", () => {
  it.effect("rejects an order with both orderId and clientOid", () =>
    Effect.gen(function*() {
      const error = yield* rejected({ symbol: "BTCUSDT", orderList: [{ orderId: "1", clientOid: "c" }] })
      assert.strictEqual(error.issue, "orderList.0: an order must be named by orderId or clientOid, not both")
    }))

  it.effect("rejects an order with neither orderId nor clientOid", () =>
    Effect.gen(function*() {
      const error = yield* rejected({ symbol: "BTCUSDT", orderList: [{ symbol: "BTCUSDT" }] })
      assert.strictEqual(error.issue, "orderList.0: an order needs an orderId or a clientOid")
    }))

  it.effect("rejects a batch mixing orderId and clientOid", () =>
    Effect.gen(function*() {
      const error = yield* rejected({ symbol: "BTCUSDT", orderList: [{ orderId: "1" }, { clientOid: "c" }] })
      assert.match(
        error.issue,
        /^orderList\.1: mixes orderId and clientOid \(orderList\[0\] uses orderId, this one clientOid\): the exchange silently fails a mixed batch's clientOid orders$/
      )
    }))

  it.effect("rejects single mode (default or explicit) without the top-level symbol", () =>
    Effect.gen(function*() {
      const implicit = yield* rejected({ orderList: [{ orderId: "1", symbol: "BTCUSDT" }] })
      assert.strictEqual(implicit.issue, "symbol: single mode (the default) needs the top-level symbol")
      const explicit = yield* rejected({ batchMode: "single", orderList: [{ orderId: "1" }] })
      assert.include(explicit.issue, "needs the top-level symbol")
    }))

  it.effect("rejects in single mode an order symbol that differs from the top-level one", () =>
    Effect.gen(function*() {
      const error = yield* rejected({ symbol: "BTCUSDT", orderList: [{ orderId: "1", symbol: "ETHUSDT" }] })
      assert.strictEqual(
        error.issue,
        "orderList.0.symbol: in single mode every order is of BTCUSDT, but orderList[0] names ETHUSDT"
      )
    }))

  it.effect("rejects in multiple mode an order without a symbol", () =>
    Effect.gen(function*() {
      const error = yield* rejected({
        batchMode: "multiple",
        symbol: "BTCUSDT",
        orderList: [{ orderId: "1", symbol: "BTCUSDT" }, { orderId: "2" }]
      })
      assert.strictEqual(error.issue, "orderList.1.symbol: multiple mode needs a symbol on every order")
    }))

  it.effect("rejects an empty list and more than 50 orders", () =>
    Effect.gen(function*() {
      const empty = yield* rejected({ symbol: "BTCUSDT", orderList: [] })
      assert.strictEqual(empty.issue, "orderList: orderList needs at least one order")
      const tooMany = yield* rejected({
        symbol: "BTCUSDT",
        orderList: Array.from({ length: 51 }, (_, i) => ({ orderId: String(i + 1) }))
      })
      assert.strictEqual(tooMany.issue, "orderList: orderList may hold at most 50 orders, got 51")
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
      assert.strictEqual(repeated.issue, "orderList.1: the batch names the same order twice (07)")
    }))
})
