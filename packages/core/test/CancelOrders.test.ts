import { assert, describe, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import * as BatchCancel from "../src/BatchCancel.js"
import { credentials, exchange, ok } from "./support.js"

const byId = (n: number) => ({ symbol: n % 2 === 0 ? "BTCUSDT" : "ETHUSDT", orderId: String(1_000_000 + n) })
const byClient = (n: number) => ({ symbol: "BTCUSDT", clientOid: `c-${n}` })

describe("cancelOrders", () => {
  it.effect("splits by identifier kind and into batches of 50, accounting for every order", () => {
    const { layer, requests } = exchange((request) => {
      const body = JSON.parse(request.body) as { orderList: ReadonlyArray<{ orderId?: string; clientOid?: string }> }
      // the exchange cancels every order but the first of each batch, and forgets to mention the second
      const [first, , ...rest] = body.orderList
      return ok({
        successList: rest.map((o) => ({ orderId: o.orderId ?? "9", clientOid: o.clientOid ?? "" })),
        failureList: [{
          orderId: first!.orderId ?? "",
          clientOid: first!.clientOid ?? "",
          errorMsg: "no",
          errorCode: "43001"
        }]
      })
    }, { credentials, rateLimit: { enabled: false } })
    return Effect.gen(function*() {
      const orders = [
        ...Array.from({ length: 120 }, (_, i) => byId(i)),
        ...Array.from({ length: 7 }, (_, i) => byClient(i))
      ]
      const { batchErrors, result } = yield* BatchCancel.cancelOrders(orders)
      const bodies = requests.map((r) => JSON.parse(r.body) as { batchMode: string; orderList: ReadonlyArray<object> })
      assert.deepStrictEqual(bodies.map((b) => b.orderList.length), [50, 50, 20, 7])
      assert.isTrue(bodies.every((b) => b.batchMode === "multiple"))
      assert.strictEqual(result.succeeded.length + result.failed.length + result.unconfirmed.length, 127)
      assert.strictEqual(result.failed.length, 4)
      assert.strictEqual(result.unconfirmed.length, 4)
      assert.strictEqual(batchErrors.length, 0)
    }).pipe(Effect.provide(layer))
  })

  it.effect("leaves the orders of a batch that failed as a whole unconfirmed, with its error", () => {
    let calls = 0
    const { layer } = exchange(() =>
      ++calls === 2
        ? { status: 400, body: JSON.stringify({ code: "40009", msg: "sign signature error", data: null }) }
        : ok({ successList: [], failureList: [] }), { credentials, rateLimit: { enabled: false } })
    return Effect.gen(function*() {
      const { batchErrors, result } = yield* BatchCancel.cancelOrders(Array.from({ length: 60 }, (_, i) => byId(i)))
      assert.strictEqual(batchErrors.length, 1)
      assert.strictEqual(batchErrors[0]!.orders.length, 10)
      assert.strictEqual(batchErrors[0]!.error._tag, "BitgetApiError")
      assert.strictEqual(result.unconfirmed.length, 60)
      // each keeps its own symbol and the identifier it was named by
      assert.deepStrictEqual(
        result.unconfirmed[59],
        new BatchCancel.UnconfirmedOrder({
          symbol: Option.some("ETHUSDT"),
          orderId: Option.some("1000059"),
          clientOid: Option.none()
        })
      )
    }).pipe(Effect.provide(layer))
  })

  it.effect("a multiple of 50 orders makes full batches only", () => {
    const { layer, requests } = exchange(() => ok({ successList: [], failureList: [] }), {
      credentials,
      rateLimit: { enabled: false }
    })
    return Effect.gen(function*() {
      const { batchErrors, result } = yield* BatchCancel.cancelOrders(Array.from({ length: 100 }, (_, i) => byId(i)))
      const sizes = requests.map((r) => (JSON.parse(r.body) as { orderList: ReadonlyArray<object> }).orderList.length)
      assert.deepStrictEqual(sizes, [50, 50])
      assert.strictEqual(result.unconfirmed.length, 100)
      assert.deepStrictEqual(batchErrors, [])
    }).pipe(Effect.provide(layer))
  })

  it.effect("reports every problem of a refused batch at once", () => {
    const { layer, requests } = exchange(() => ok({ successList: [], failureList: [] }), { credentials })
    return Effect.gen(function*() {
      const error = yield* Effect.flip(
        BatchCancel.cancelOrders([{ symbol: "BTCUSDT", orderId: "12x" }, { symbol: "BTCUSDT", orderId: "34y" }])
      )
      assert.strictEqual(
        error.issue,
        "orderList.0.orderId: must be a numeric id (digits only); orderList.1.orderId: must be a numeric id (digits only)"
      )
      assert.strictEqual(requests.length, 0)
    }).pipe(Effect.provide(layer))
  })

  it.effect("validates every batch before sending any", () => {
    const { layer, requests } = exchange(() => ok({ successList: [], failureList: [] }), { credentials })
    return Effect.gen(function*() {
      const orders = [...Array.from({ length: 60 }, (_, i) => byId(i)), { symbol: "BTCUSDT", orderId: "12x" }]
      const error = yield* Effect.flip(BatchCancel.cancelOrders(orders))
      assert.strictEqual(error._tag, "BitgetRequestError")
      assert.strictEqual(requests.length, 0)
    }).pipe(Effect.provide(layer))
  })
})
