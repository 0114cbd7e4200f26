import { assert, describe, layer } from "@effect/vitest"
import { Effect } from "effect"
import * as Sandbox from "../src/Sandbox.js"
import { code, paths, publicGet, signedGet } from "./support.js"

describe("frequency limits", () => {
  layer(Sandbox.layer())((it) => {
    it.effect("answers HTTP 429 with the exchange's envelope past the per-IP limit", () =>
      Effect.gen(function*() {
        const sandbox = yield* Sandbox.Sandbox
        yield* sandbox.reset
        const first = yield* publicGet(sandbox, paths.netFlow, [["symbol", "BTCUSDT"]])
        const second = yield* publicGet(sandbox, paths.netFlow, [["symbol", "BTCUSDT"]])
        assert.strictEqual(code(first), "00000")
        assert.strictEqual(first.headers.get("x-mbx-used-remain-limit"), "0")
        assert.strictEqual(second.status, 429)
        assert.deepInclude(second.json, { code: "429", msg: "Too Many Requests", data: null })
        assert.isNumber(second.json?.requestTime)
        const symbols = yield* publicGet(sandbox, paths.symbols, [["symbol", "BTCUSDT"]])
        assert.strictEqual(code(symbols), "00000", "each endpoint is counted on its own")
        const log = yield* sandbox.requests
        assert.deepStrictEqual(log.map((entry) => entry.rateLimited), [false, true, false])
        assert.strictEqual((yield* sandbox.stats).limitViolations, 1)
      }))

    it.effect("counts signed routes per API key", () =>
      Effect.gen(function*() {
        const sandbox = yield* Sandbox.Sandbox
        yield* sandbox.reset
        const get = (key: Sandbox.Sandbox.Service["credentials"]["hmac"]) =>
          signedGet(sandbox, key, paths.tradeRate, [["businessType", "spot"], ["symbol", "ETHUSDT"]])
        const burst = yield* Effect.all(Array.from({ length: 12 }, () => get(sandbox.credentials.hmac)), {
          concurrency: "unbounded"
        })
        const statuses = burst.map((reply) => reply.status).sort()
        assert.strictEqual(statuses.filter((status) => status === 200).length, 10)
        assert.strictEqual(statuses.filter((status) => status === 429).length, 2)
        const other = yield* get(sandbox.credentials.marketMaker)
        assert.strictEqual(other.status, 200, "another key has its own budget")
      }))

    it.effect("can be switched off and scaled", () =>
      Effect.gen(function*() {
        const sandbox = yield* Sandbox.Sandbox
        yield* sandbox.reset
        yield* sandbox.setLimits({ enabled: false })
        const free = yield* Effect.all(
          Array.from({ length: 5 }, () => publicGet(sandbox, paths.netFlow, [["symbol", "ETHUSDT"]]))
        )
        assert.isTrue(free.every((reply) => reply.status === 200))
        assert.isNull(free[0]?.headers.get("x-mbx-used-remain-limit") ?? null)
        yield* sandbox.setLimits({ enabled: true, scale: 3 })
        const scaled = yield* Effect.all(
          Array.from({ length: 4 }, () => publicGet(sandbox, paths.netFlow, [["symbol", "ETHUSDT"]]))
        )
        assert.deepStrictEqual(scaled.map((reply) => reply.status), [200, 200, 200, 429])
        yield* sandbox.reset
      }))
  })

  layer(Sandbox.layer({ ipCeilingPerMinute: 5 }))((it) => {
    it.effect("applies the overall per-address ceiling across routes", () =>
      Effect.gen(function*() {
        const sandbox = yield* Sandbox.Sandbox
        const routes = [paths.time, paths.symbols, paths.time, paths.symbols, paths.time, paths.symbols, paths.time]
        const replies = yield* Effect.forEach(routes, (path) => publicGet(sandbox, path, [["symbol", "BTCUSDT"]]))
        assert.deepStrictEqual(replies.map((reply) => reply.status), [200, 200, 200, 200, 200, 429, 429])
        assert.deepStrictEqual((yield* sandbox.requests).map((entry) => entry.rateLimited), [
          false,
          false,
          false,
          false,
          false,
          true,
          true
        ])
      }))
  })

  layer(Sandbox.layer({ ipCeilingPerMinute: 3, ipLockoutMillis: 3 * 60_000 }))((it) => {
    it.effect("locks an address that crosses the ceiling out for ipLockoutMillis, refusing every call, then lifts", () =>
      Effect.gen(function*() {
        const sandbox = yield* Sandbox.Sandbox
        const status = (path: string) => Effect.map(publicGet(sandbox, path, [["symbol", "BTCUSDT"]]), (r) => r.status)
        // server time moved on by `offset` from the call that crossed the ceiling
        const statusesAt = (offset: number) =>
          Effect.andThen(sandbox.setClockOffset(offset), Effect.forEach([paths.time, paths.symbols], status))
        const first = yield* Effect.forEach([paths.time, paths.symbols, paths.time, paths.symbols], status)
        assert.deepStrictEqual(first, [200, 200, 200, 429])
        // past the ceiling's minute only the lockout refuses; the refused calls do not extend it
        assert.deepStrictEqual(yield* statusesAt(61_000), [429, 429])
        assert.deepStrictEqual(yield* statusesAt(3 * 60_000 - 2_000), [429, 429])
        assert.deepStrictEqual(yield* statusesAt(3 * 60_000 + 2_000), [200, 200])
        const log = yield* sandbox.requests
        assert.deepStrictEqual(log.map((entry) => entry.rateLimited), [
          false,
          false,
          false,
          true,
          true,
          true,
          true,
          true,
          false,
          false
        ])
        assert.strictEqual((yield* sandbox.stats).limitViolations, 5)
      }))
  })
})
