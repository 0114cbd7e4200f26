import { assert, describe, layer } from "@effect/vitest"
import { Effect } from "effect"
import * as Sandbox from "../src/Sandbox.js"
import { code, data, paths, signedPost } from "./support.js"

interface CancelResult {
  readonly successList: ReadonlyArray<{ readonly orderId: string; readonly clientOid: string }>
  readonly failureList: ReadonlyArray<{
    readonly orderId: string
    readonly clientOid: string
    readonly errorMsg: string
    readonly errorCode: string
  }>
}

interface PlanRef {
  readonly orderId: string
  readonly stopSurplusClientOid: string
  readonly stopLossClientOid: string
}

describe("orders and positions", () => {
  // the canonical shapes (failure items with errorCode, an all-failed batch answered 00000): Shapes.test.ts checks the varied ones
  layer(Sandbox.layer({ limits: false, shapes: "canonical" }))((it) => {
    it.effect("batch cancel really cancels; a second cancel and unknown ids fail per order with 43001", () =>
      Effect.gen(function*() {
        const sandbox = yield* Sandbox.Sandbox
        yield* sandbox.reset
        const key = sandbox.credentials.hmac
        const open = (yield* sandbox.openOrders(key.apiKey)).filter((order) => order.symbol === "BTCUSDT")
        assert.isAbove(open.length, 3)
        const [a, b] = open
        assert.isDefined(a)
        assert.isDefined(b)
        assert.match(a.orderId, /^\d{19}$/)
        const first = yield* signedPost(sandbox, key, paths.batchCancel, {
          symbol: "BTCUSDT",
          orderList: [{ orderId: a.orderId }, { orderId: b.orderId }, { orderId: "1234567890123456789" }]
        })
        assert.strictEqual(code(first), "00000")
        const result = data<CancelResult>(first)
        assert.deepStrictEqual(result.successList, [
          { orderId: a.orderId, clientOid: a.clientOid },
          { orderId: b.orderId, clientOid: b.clientOid }
        ])
        assert.deepStrictEqual(result.failureList, [
          { orderId: "1234567890123456789", clientOid: "", errorMsg: "The order does not exist", errorCode: "43001" }
        ])
        const remaining = yield* sandbox.openOrders(key.apiKey)
        assert.isFalse(remaining.some((order) => order.orderId === a?.orderId || order.orderId === b?.orderId))
        const third = open[2]
        const again = yield* signedPost(sandbox, key, paths.batchCancel, {
          symbol: "BTCUSDT",
          orderList: [{ orderId: a?.orderId }, { orderId: third?.orderId }]
        })
        assert.deepStrictEqual(data<CancelResult>(again).failureList.map((f) => [f.orderId, f.errorCode]), [
          [a?.orderId, "43001"]
        ])
        const allFailed = yield* signedPost(sandbox, key, paths.batchCancel, {
          symbol: "BTCUSDT",
          orderList: [{ orderId: a?.orderId }, { orderId: b?.orderId }]
        })
        assert.strictEqual(allFailed.status, 200)
        assert.strictEqual(code(allFailed), "00000")
        assert.deepStrictEqual(data<CancelResult>(allFailed), {
          successList: [],
          failureList: [a, b].map(({ orderId }) => ({
            orderId,
            clientOid: "",
            errorMsg: "The order does not exist",
            errorCode: "43001"
          }))
        })
      }))

    it.effect("in a batch mixing orderId and clientOid items, the clientOid-only items fail", () =>
      Effect.gen(function*() {
        const sandbox = yield* Sandbox.Sandbox
        yield* sandbox.reset
        const key = sandbox.credentials.rsa
        const open = (yield* sandbox.openOrders(key.apiKey)).filter((order) => order.symbol === "ETHUSDT")
        const [a, b, c] = open
        const mixed = yield* signedPost(sandbox, key, paths.batchCancel, {
          symbol: "ETHUSDT",
          orderList: [{ orderId: a?.orderId }, { clientOid: b?.clientOid }]
        })
        const result = data<CancelResult>(mixed)
        assert.deepStrictEqual(result.successList.map((s) => s.orderId), [a?.orderId])
        assert.deepStrictEqual(result.failureList.map((f) => [f.orderId, f.clientOid, f.errorCode]), [
          ["", b?.clientOid, "43001"]
        ])
        const byClientOid = yield* signedPost(sandbox, key, paths.batchCancel, {
          symbol: "ETHUSDT",
          orderList: [{ clientOid: b?.clientOid }, { clientOid: c?.clientOid }]
        })
        assert.deepStrictEqual(data<CancelResult>(byClientOid).successList.map((s) => s.orderId), [
          b?.orderId,
          c?.orderId
        ])
      }))

    it.effect("multiple mode takes each item's symbol; a wrong symbol does not cancel", () =>
      Effect.gen(function*() {
        const sandbox = yield* Sandbox.Sandbox
        yield* sandbox.reset
        const key = sandbox.credentials.hmac
        const open = yield* sandbox.openOrders(key.apiKey)
        const dollar = open.find((order) => order.symbol === "BTC$USDT")
        const cjk = open.find((order) => order.symbol === "币安人生USDT")
        const reply = yield* signedPost(sandbox, key, paths.batchCancel, {
          batchMode: "multiple",
          orderList: [
            { symbol: "BTC$USDT", orderId: dollar?.orderId },
            { symbol: "BTCUSDT", orderId: cjk?.orderId },
            { symbol: "币安人生USDT", orderId: cjk?.orderId }
          ]
        })
        const result = data<CancelResult>(reply)
        assert.deepStrictEqual(result.successList.map((s) => s.orderId), [dollar?.orderId, cjk?.orderId])
        assert.strictEqual(result.failureList.length, 1)
        const missingSymbol = yield* signedPost(sandbox, key, paths.batchCancel, {
          batchMode: "multiple",
          orderList: [{ orderId: dollar?.orderId }]
        })
        assert.strictEqual(code(missingSymbol), "40019")
        const noIds = yield* signedPost(sandbox, key, paths.batchCancel, { symbol: "BTCUSDT", orderList: [{}] })
        assert.strictEqual(code(noIds), "40924")
        const noList = yield* signedPost(sandbox, key, paths.batchCancel, { symbol: "BTCUSDT" })
        assert.strictEqual(code(noList), "40019")
      }))

    it.effect("place-pos-tpsl creates one plan per trigger price on an existing position", () =>
      Effect.gen(function*() {
        const sandbox = yield* Sandbox.Sandbox
        yield* sandbox.reset
        const key = sandbox.credentials.hmac
        const base = { marginCoin: "USDT", productType: "usdt-futures", symbol: "BTCUSDT", holdSide: "long" }
        const both = yield* signedPost(sandbox, key, paths.tpsl, {
          ...base,
          // far from BTC's mark (95000 ± 17%): the trigger rules are Rules.test.ts's
          stopSurplusTriggerPrice: "200000",
          stopSurplusTriggerType: "mark_price",
          stopSurplusClientOid: "tp-1",
          stopLossTriggerPrice: "50000",
          stopLossSize: "0.1",
          stopLossClientOid: "sl-1"
        })
        assert.strictEqual(code(both), "00000")
        const refs = data<ReadonlyArray<PlanRef>>(both)
        assert.strictEqual(refs.length, 2)
        assert.deepInclude(refs[0], { stopSurplusClientOid: "tp-1", stopLossClientOid: "" })
        assert.deepInclude(refs[1], { stopSurplusClientOid: "", stopLossClientOid: "sl-1" })
        assert.isTrue(refs.every((ref) => /^\d{19}$/.test(ref.orderId)))
        assert.notStrictEqual(refs[0]?.orderId, refs[1]?.orderId)
        const plans = yield* sandbox.plans(key.apiKey)
        assert.deepStrictEqual(plans.map((plan) => [plan.planType, plan.triggerPrice, plan.triggerType]), [
          ["pos_profit", "200000", "mark_price"],
          ["loss_plan", "50000", "fill_price"]
        ])
        const one = yield* signedPost(sandbox, key, paths.tpsl, {
          ...base,
          productType: "USDT-FUTURES",
          stopLossTriggerPrice: "60000"
        })
        assert.strictEqual(data<ReadonlyArray<PlanRef>>(one).length, 1)
      }))

    it.effect("place-pos-tpsl rejects a missing position (40837), missing triggers and bad values", () =>
      Effect.gen(function*() {
        const sandbox = yield* Sandbox.Sandbox
        yield* sandbox.reset
        const key = sandbox.credentials.hmac
        const base = { marginCoin: "USDT", productType: "USDT-FUTURES", symbol: "BTCUSDT", holdSide: "long" }
        const cases: ReadonlyArray<readonly [string, Record<string, string>]> = [
          ["40837", { ...base, symbol: "SOLUSDT", stopLossTriggerPrice: "100" }],
          ["40837", { ...base, holdSide: "buy", stopLossTriggerPrice: "100" }],
          ["40837", { ...base, productType: "SUSDT-FUTURES", stopLossTriggerPrice: "100" }],
          ["40017", base],
          ["40019", { ...base, stopSurplusSize: "0.1", stopLossTriggerPrice: "100" }],
          ["40019", {
            marginCoin: "USDT",
            productType: "USDT-FUTURES",
            symbol: "BTCUSDT",
            stopLossTriggerPrice: "100"
          }],
          ["40020", { ...base, holdSide: "up", stopLossTriggerPrice: "100" }],
          ["40020", { ...base, productType: "spot", stopLossTriggerPrice: "100" }],
          ["40020", { ...base, stopLossTriggerPrice: "1e5" }],
          ["40020", { ...base, stopLossTriggerPrice: "100", stopLossTriggerType: "last_price" }],
          ["40020", { ...base, stopLossTriggerPrice: "100", stopLossClientOid: "bad oid!" }]
        ]
        for (const [expected, body] of cases) {
          const reply = yield* signedPost(sandbox, key, paths.tpsl, body)
          assert.strictEqual(code(reply), expected, `${JSON.stringify(body)}: ${reply.text}`)
          assert.strictEqual(reply.status, 400)
        }
        const oneWay = yield* signedPost(sandbox, key, paths.tpsl, {
          marginCoin: "BTC",
          productType: "COIN-FUTURES",
          symbol: "BTCUSD",
          holdSide: "buy",
          stopSurplusTriggerPrice: "150000"
        })
        assert.strictEqual(code(oneWay), "00000")
        assert.strictEqual((yield* sandbox.plans(key.apiKey)).length, 1)
        assert.strictEqual((yield* sandbox.plans(sandbox.credentials.rsa.apiKey)).length, 0)
      }))

    it.effect("reset restores the seeded orders and drops plans", () =>
      Effect.gen(function*() {
        const sandbox = yield* Sandbox.Sandbox
        yield* sandbox.reset
        const key = sandbox.credentials.marketMaker
        const before = yield* sandbox.openOrders(key.apiKey)
        const target = before[0]
        yield* signedPost(sandbox, key, paths.batchCancel, {
          symbol: target?.symbol,
          orderList: [{ orderId: target?.orderId }]
        })
        assert.strictEqual((yield* sandbox.openOrders(key.apiKey)).length, before.length - 1)
        yield* sandbox.reset
        assert.deepStrictEqual(yield* sandbox.openOrders(key.apiKey), before)
      }))
  })
})
