import { assert, describe, layer } from "@effect/vitest"
import { Effect } from "effect"
import type { DemoKey } from "../src/DemoKey.js"
import * as Sandbox from "../src/Sandbox.js"
import type { Params, Reply } from "./support.js"
import { code, data, DAY, paths, publicGet, query, send, signature } from "./support.js"

/** A call signed correctly by `key`, with the headers given (`paptrading`, `locale`) and no others. */
const signed = (
  sandbox: Sandbox.Sandbox.Service,
  key: DemoKey,
  call: { readonly path: string; readonly params?: Params; readonly body?: unknown },
  headers: Readonly<Record<string, string>> = {}
): Effect.Effect<Reply, unknown> => {
  const q = query(call.params ?? [])
  const body = call.body === undefined ? "" : JSON.stringify(call.body)
  const method = call.body === undefined ? "GET" : "POST"
  const timestamp = String(Date.now())
  const prehash = `${timestamp}${method}${call.path}${q.raw === "" ? "" : `?${q.raw}`}${body}`
  return send(`${sandbox.url}${call.path}${q.sent === "" ? "" : `?${q.sent}`}`, {
    method,
    headers: {
      "ACCESS-KEY": key.apiKey,
      "ACCESS-SIGN": signature(key, prehash),
      "ACCESS-PASSPHRASE": key.passphrase,
      "ACCESS-TIMESTAMP": timestamp,
      "Content-Type": "application/json",
      ...headers
    },
    ...(body === "" ? {} : { body })
  })
}

const tradeRate = { path: paths.tradeRate, params: [["businessType", "spot"], ["symbol", "BTCUSDT"]] } as const
const demoTrading = { paptrading: "1" } as const

/** The first page of a key's P2P orders (its own data). */
const p2pOrderIds = (sandbox: Sandbox.Sandbox.Service, key: DemoKey, headers: Readonly<Record<string, string>>) =>
  Effect.map(
    signed(
      sandbox,
      key,
      { path: paths.p2p, params: [["startTime", String(Date.now() - 80 * DAY)], ["limit", "5"]] },
      headers
    ),
    (reply) =>
      data<{ readonly orderList: ReadonlyArray<{ readonly orderId: string }> }>(reply).orderList.map((o) => o.orderId)
  )

describe("demo trading", () => {
  layer(Sandbox.layer({ limits: false }))((it) => {
    it.effect("a demo key needs paptrading: 1, a live key must not send it: else HTTP 400 40099", () =>
      Effect.gen(function*() {
        const sandbox = yield* Sandbox.Sandbox
        yield* sandbox.reset
        const { demo, hmac, rsa } = sandbox.credentials
        assert.isTrue(demo.demo)
        assert.isFalse(hmac.demo || rsa.demo)
        assert.strictEqual(code(yield* signed(sandbox, demo, tradeRate, demoTrading)), "00000")
        assert.strictEqual(code(yield* signed(sandbox, hmac, tradeRate)), "00000")
        const wrong: ReadonlyArray<readonly [DemoKey, Readonly<Record<string, string>>]> = [
          [demo, {}],
          [demo, { paptrading: "0" }],
          [hmac, demoTrading],
          [rsa, demoTrading]
        ]
        for (const [key, headers] of wrong) {
          const reply = yield* signed(sandbox, key, tradeRate, headers)
          assert.strictEqual(reply.status, 400, `${key.apiKey} ${JSON.stringify(headers)}`)
          assert.deepInclude(reply.json, { code: "40099", msg: "exchange environment is incorrect", data: null })
        }
        // public routes take either
        for (const headers of [{}, demoTrading]) {
          assert.strictEqual(code(yield* publicGet(sandbox, paths.time, [], headers)), "00000")
        }
        // a refused call changes nothing: the demo key places TP/SL only in its environment
        const tpsl = {
          path: paths.tpsl,
          body: {
            marginCoin: "USDT",
            productType: "USDT-FUTURES",
            symbol: "BTCUSDT",
            holdSide: "long",
            stopLossTriggerPrice: "1000"
          }
        }
        assert.strictEqual(code(yield* signed(sandbox, demo, tpsl)), "40099")
        assert.deepStrictEqual(yield* sandbox.plans(demo.apiKey), [])
        assert.strictEqual(code(yield* signed(sandbox, demo, tpsl, demoTrading)), "00000")
        assert.strictEqual((yield* sandbox.plans(demo.apiKey)).length, 1)
        assert.deepStrictEqual(yield* sandbox.plans(hmac.apiKey), [], "the demo key is its own user")
      }))

    it.effect("the demo key has its own data", () =>
      Effect.gen(function*() {
        const sandbox = yield* Sandbox.Sandbox
        const demo = yield* p2pOrderIds(sandbox, sandbox.credentials.demo, demoTrading)
        const live = yield* p2pOrderIds(sandbox, sandbox.credentials.hmac, {})
        assert.strictEqual(demo.length, 5)
        assert.notDeepEqual(demo, live)
      }))
  })

  layer(Sandbox.layer())((it) => {
    it.effect("the demo key has its own limits", () =>
      Effect.gen(function*() {
        const sandbox = yield* Sandbox.Sandbox
        const { demo, hmac } = sandbox.credentials
        const burst = yield* Effect.forEach(Array.from({ length: 11 }), () => signed(sandbox, hmac, tradeRate))
        assert.deepStrictEqual(burst.map((reply) => reply.status), [...Array(10).fill(200), 429])
        assert.strictEqual((yield* signed(sandbox, demo, tradeRate, demoTrading)).status, 200)
      }))
  })
})

describe("the locale header", () => {
  layer(Sandbox.layer({ limits: false }))((it) => {
    it.effect("zh-CN answers Chinese messages with the values filled in; en-US or no header English", () =>
      Effect.gen(function*() {
        const sandbox = yield* Sandbox.Sandbox
        yield* sandbox.reset
        const unknown = (headers: Readonly<Record<string, string>>) =>
          Effect.map(
            publicGet(sandbox, paths.symbols, [["symbol", "NOTACOINUSDT"]], headers),
            (reply) => reply.json?.msg
          )
        assert.strictEqual(yield* unknown({ locale: "zh-CN" }), "参数NOTACOINUSDT不存在")
        assert.strictEqual(yield* unknown({ locale: "en-US" }), "Parameter NOTACOINUSDT does not exist")
        assert.strictEqual(yield* unknown({}), "Parameter NOTACOINUSDT does not exist")
        const zh = { locale: "zh-CN" } as const
        const { hmac } = sandbox.credentials
        const environment = yield* signed(sandbox, hmac, tradeRate, { ...zh, ...demoTrading })
        assert.deepInclude(environment.json, { code: "40099", msg: "交易环境不正确" })
        const range = yield* signed(sandbox, hmac, {
          path: paths.p2p,
          params: [["startTime", String(Date.now() - DAY)], ["limit", "101"]]
        }, zh)
        assert.deepInclude(range.json, { code: "40053", msg: "数值范围校验失败：limit应在1到100之间" })
        const stop = yield* signed(sandbox, hmac, {
          path: paths.tpsl,
          body: {
            marginCoin: "USDT",
            productType: "USDT-FUTURES",
            symbol: "BTCUSDT",
            holdSide: "long",
            stopLossTriggerPrice: "999999"
          }
        }, zh)
        assert.strictEqual(code(stop), "40917")
        assert.match(stop.json?.msg ?? "", /^多仓止损价请小于标记价格 \d+\.\d$/)
        const start = yield* signed(sandbox, hmac, { path: paths.p2p }, zh)
        assert.deepInclude(start.json, { code: "60001", msg: "开始时间不能为空" })
      }))
  })
})
