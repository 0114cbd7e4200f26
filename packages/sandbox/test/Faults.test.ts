import { assert, describe, it, layer } from "@effect/vitest"
import { Effect, Result } from "effect"
import * as Fault from "../src/Fault.js"
import * as Sandbox from "../src/Sandbox.js"
import { code, paths, publicGet, send, signedPost } from "./support.js"

describe("fault injection", () => {
  layer(Sandbox.layer({ limits: false, faults: [{ target: "time", fault: Fault.httpError(502), times: 1 }] }))((it) => {
    it.effect("answers 5xx with an HTML page without processing the request", () =>
      Effect.gen(function*() {
        const sandbox = yield* Sandbox.Sandbox
        yield* sandbox.reset
        const initial = yield* publicGet(sandbox, paths.time)
        assert.strictEqual(initial.status, 502, "faults from the options are installed at start and by reset")
        const key = sandbox.credentials.hmac
        const order = (yield* sandbox.openOrders(key.apiKey))[0]
        for (const status of [500, 502, 503] as const) {
          yield* sandbox.inject("batch-cancel", Fault.httpError(status))
          const reply = yield* signedPost(sandbox, key, paths.batchCancel, {
            symbol: order?.symbol,
            orderList: [{ orderId: order?.orderId }]
          })
          assert.strictEqual(reply.status, status)
          assert.match(reply.headers.get("content-type") ?? "", /^text\/html/)
          assert.match(reply.text, /^<html>/)
          assert.isUndefined(reply.json)
        }
        assert.isTrue((yield* sandbox.openOrders(key.apiKey)).some((o) => o.orderId === order?.orderId))
        const log = yield* sandbox.requests
        assert.deepStrictEqual(log.slice(-3).map((entry) => [entry.status, entry.fault, entry.code]), [
          [500, "500", undefined],
          [502, "502", undefined],
          [503, "503", undefined]
        ])
      }))

    it.effect("answers a burst of 429s for the next N requests", () =>
      Effect.gen(function*() {
        const sandbox = yield* Sandbox.Sandbox
        yield* sandbox.reset
        yield* sandbox.inject("symbols", Fault.tooManyRequests, { times: 3 })
        assert.deepStrictEqual(yield* sandbox.pendingFaults, [
          { target: "time", fault: Fault.httpError(502), times: 1 },
          { target: "symbols", fault: Fault.tooManyRequests, times: 3 }
        ])
        const replies = yield* Effect.forEach([1, 2, 3, 4], () =>
          publicGet(sandbox, paths.symbols, [["symbol", "ETHUSDT"]]))
        assert.deepStrictEqual(
          replies.map((reply) =>
            reply.status
          ),
          [429, 429, 429, 200]
        )
        assert.deepInclude(replies[0]?.json, { code: "429", msg: "Too Many Requests", data: null })
        const log = (yield* sandbox.requests).slice(-4)
        assert.deepStrictEqual(log.map((entry) => [entry.fault, entry.rateLimited]), [
          ["429", false],
          ["429", false],
          ["429", false],
          [undefined, false]
        ])
      }))

    it.effect("delays an answer, then processes the request", () =>
      Effect.gen(function*() {
        const sandbox = yield* Sandbox.Sandbox
        yield* sandbox.inject("symbols", Fault.delay("300 millis"))
        const started = Date.now()
        const reply = yield* publicGet(sandbox, paths.symbols, [["symbol", "BTCUSDT"]])
        assert.isAtLeast(Date.now() - started, 290)
        assert.strictEqual(code(reply), "00000")
        assert.strictEqual((yield* sandbox.requests).at(-1)?.fault, "delay:300")
      }))

    it.effect("resets the connection", () =>
      Effect.gen(function*() {
        const sandbox = yield* Sandbox.Sandbox
        yield* sandbox.inject("symbols", Fault.connectionReset)
        const failed = yield* Effect.result(publicGet(sandbox, paths.symbols, [["symbol", "BTCUSDT"]]))
        assert.isTrue(Result.isFailure(failed))
        const entry = (yield* sandbox.requests).at(-1)
        assert.deepInclude(entry, { fault: "reset", status: undefined, code: undefined })
        const after = yield* publicGet(sandbox, paths.symbols, [["symbol", "BTCUSDT"]])
        assert.strictEqual(code(after), "00000")
      }))

    it.effect("truncates JSON after processing the request", () =>
      Effect.gen(function*() {
        const sandbox = yield* Sandbox.Sandbox
        yield* sandbox.reset
        const key = sandbox.credentials.hmac
        const order = (yield* sandbox.openOrders(key.apiKey))[0]
        yield* sandbox.inject("batch-cancel", Fault.truncatedJson)
        const reply = yield* signedPost(sandbox, key, paths.batchCancel, {
          symbol: order?.symbol,
          orderList: [{ orderId: order?.orderId }]
        })
        assert.strictEqual(reply.status, 200)
        assert.isUndefined(reply.json)
        assert.isTrue(reply.text.startsWith(`{"code":"00000"`))
        assert.isFalse((yield* sandbox.openOrders(key.apiKey)).some((o) => o.orderId === order?.orderId))
      }))

    it.effect("answers malformed JSON", () =>
      Effect.gen(function*() {
        const sandbox = yield* Sandbox.Sandbox
        yield* sandbox.inject("fund-net-flow", Fault.invalidJson)
        const reply = yield* publicGet(sandbox, paths.netFlow, [["symbol", "BTCUSDT"]])
        assert.strictEqual(reply.status, 200)
        assert.strictEqual(reply.headers.get("content-type"), "application/json")
        assert.isUndefined(reply.json)
      }))

    it.effect("answers an error code on HTTP 200", () =>
      Effect.gen(function*() {
        const sandbox = yield* Sandbox.Sandbox
        yield* sandbox.inject("symbols", Fault.errorCode("40015"))
        const reply = yield* publicGet(sandbox, paths.symbols)
        assert.strictEqual(reply.status, 200)
        assert.deepInclude(reply.json, { code: "40015", msg: "System is abnormal, please try again later", data: null })
      }))

    it.effect("aims faults at every route with *, forever, until cleared; a route's own fault goes first", () =>
      Effect.gen(function*() {
        const sandbox = yield* Sandbox.Sandbox
        yield* sandbox.reset
        yield* sandbox.clearFaults()
        yield* sandbox.inject("*", Fault.httpError(503), { times: "forever" })
        yield* sandbox.inject("time", Fault.errorCode("40200"))
        const time = yield* publicGet(sandbox, paths.time)
        assert.strictEqual(code(time), "40200")
        for (const path of [paths.time, paths.symbols, paths.netFlow]) {
          assert.strictEqual((yield* publicGet(sandbox, path)).status, 503)
        }
        const unknown = yield* send(`${sandbox.url}/api/v2/nothing`)
        assert.strictEqual(unknown.status, 404, "unknown paths are not routes")
        yield* sandbox.clearFaults("*")
        assert.strictEqual((yield* publicGet(sandbox, paths.time)).status, 200)
        assert.deepStrictEqual(yield* sandbox.pendingFaults, [])
        assert.strictEqual((yield* sandbox.stats).faultsInjected, 4)
      }))
  })

  it("parses the CLI form", () => {
    assert.deepStrictEqual(
      Fault.parse("symbols=503@3"),
      Result.succeed({ target: "symbols", fault: Fault.httpError(503), times: 3 })
    )
    assert.deepStrictEqual(
      Fault.parse("/api/v2/tax/spot-record=delay:1500"),
      Result.succeed({ target: "tax-records", fault: Fault.delay(1500), times: 1 })
    )
    assert.deepStrictEqual(
      Fault.parse("*=reset@forever"),
      Result.succeed({ target: "*", fault: Fault.connectionReset, times: "forever" })
    )
    assert.deepStrictEqual(
      Fault.parse("p2p-orders=code:40015:try later@2"),
      Result.succeed({ target: "p2p-orders", fault: Fault.errorCode("40015", "try later"), times: 2 })
    )
    assert.deepStrictEqual(
      Fault.parse("all=truncated"),
      Result.succeed({ target: "*", fault: Fault.truncatedJson, times: 1 })
    )
    assert.deepStrictEqual(
      Fault.parse("time=invalid-json"),
      Result.succeed({ target: "time", fault: Fault.invalidJson, times: 1 })
    )
    assert.deepStrictEqual(
      Fault.parse("time=429@5"),
      Result.succeed({ target: "time", fault: Fault.tooManyRequests, times: 5 })
    )
    for (const bad of ["symbols", "nowhere=500", "symbols=418", "symbols=delay", "symbols=500@0"]) {
      assert.isTrue(Result.isFailure(Fault.parse(bad)), bad)
    }
  })
})

describe("a sandbox built under the TestClock", () => {
  it.effect("still keeps real time for delays and timestamps", () =>
    Effect.gen(function*() {
      const sandbox = yield* Sandbox.make({ limits: false })
      yield* sandbox.inject("time", Fault.delay(150))
      const started = Date.now()
      const reply = yield* publicGet(sandbox, paths.time)
      assert.isAtLeast(Date.now() - started, 140)
      assert.isAbove(Number((reply.json?.data as { serverTime: string }).serverTime), started)
    }))
})
