import { assert, describe, layer } from "@effect/vitest"
import { Effect } from "effect"
import { createHmac } from "node:crypto"
import * as Sandbox from "../src/Sandbox.js"
import { code, data, DAY, paths, publicGet, send, signedGet, signedPost } from "./support.js"

describe("authentication", () => {
  layer(Sandbox.layer({ limits: false }))((it) => {
    it.effect("accepts HMAC and RSA signatures and answers the success envelope", () =>
      Effect.gen(function*() {
        const sandbox = yield* Sandbox.Sandbox
        for (const key of [sandbox.credentials.hmac, sandbox.credentials.rsa]) {
          const reply = yield* signedGet(sandbox, key, paths.tradeRate, [["businessType", "spot"], [
            "symbol",
            "BTCUSDT"
          ]])
          assert.strictEqual(reply.status, 200)
          assert.strictEqual(code(reply), "00000")
          assert.strictEqual(reply.json?.msg, "success")
          assert.isNumber(reply.json?.requestTime)
          assert.deepStrictEqual(data(reply), [{ symbol: "BTCUSDT", makerFeeRate: "0.001", takerFeeRate: "0.001" }])
        }
      }))

    it.effect("answers each missing or wrong credential with its code and HTTP 400", () =>
      Effect.gen(function*() {
        const sandbox = yield* Sandbox.Sandbox
        const key = sandbox.credentials.hmac
        const get = (options: Parameters<typeof signedGet>[4]) =>
          signedGet(sandbox, key, paths.tradeRate, [["businessType", "spot"]], options)
        const cases: ReadonlyArray<readonly [string, Parameters<typeof signedGet>[4]]> = [
          ["40001", { omit: ["ACCESS-KEY"] }],
          ["40002", { omit: ["ACCESS-SIGN"] }],
          ["40011", { omit: ["ACCESS-PASSPHRASE"] }],
          ["40005", { omit: ["ACCESS-TIMESTAMP"] }],
          ["40005", { timestamp: "17000000000a0" }],
          ["40008", { timestamp: String(Date.now() - 31_000) }],
          ["40008", { timestamp: String(Date.now() + 31_000) }],
          ["40006", { apiKey: "bg_unknown" }],
          ["40012", { passphrase: "wrong" }],
          ["40009", { sign: "c2lnbmF0dXJl" }]
        ]
        for (const [expected, options] of cases) {
          const reply = yield* get(options)
          assert.strictEqual(code(reply), expected, JSON.stringify(options))
          assert.strictEqual(reply.status, 400)
          assert.strictEqual(reply.json?.data, null)
        }
        const ok = yield* get({ timestamp: String(Date.now() - 25_000) })
        assert.strictEqual(code(ok), "00000")
      }))

    it.effect("requires a JSON content type on POST (40007)", () =>
      Effect.gen(function*() {
        const sandbox = yield* Sandbox.Sandbox
        const body = { symbol: "BTCUSDT", orderList: [{ orderId: "1" }] }
        const reply = yield* signedPost(sandbox, sandbox.credentials.hmac, paths.batchCancel, body, {
          contentType: "text/plain"
        })
        assert.strictEqual(code(reply), "40007")
      }))

    it.effect("signs the body exactly as sent", () =>
      Effect.gen(function*() {
        const sandbox = yield* Sandbox.Sandbox
        const key = sandbox.credentials.hmac
        const body = `{"symbol":"BTCUSDT","orderList":[{"orderId":"1"}]}`
        const timestamp = String(Date.now())
        const sign = (text: string) =>
          createHmac("sha256", key.secret).update(`${timestamp}POST${paths.batchCancel}${text}`).digest("base64")
        const headers = (text: string) => ({
          "ACCESS-KEY": key.apiKey,
          "ACCESS-SIGN": sign(text),
          "ACCESS-PASSPHRASE": key.passphrase,
          "ACCESS-TIMESTAMP": timestamp,
          "Content-Type": "application/json"
        })
        const exact = yield* send(`${sandbox.url}${paths.batchCancel}`, {
          method: "POST",
          headers: headers(body),
          body
        })
        // past the signature check: the unknown order fails, answered either way (00000 or 43001) under varied shapes
        assert.oneOf(code(exact), ["00000", "43001"])
        const reformatted = yield* send(`${sandbox.url}${paths.batchCancel}`, {
          method: "POST",
          headers: headers(body),
          body: body.replace(",", ", ")
        })
        assert.strictEqual(code(reformatted), "40009")
      }))

    it.effect("verifies the query in the order sent with values percent-decoded ($ and CJK)", () =>
      Effect.gen(function*() {
        const sandbox = yield* Sandbox.Sandbox
        const now = Date.now()
        for (const key of [sandbox.credentials.hmac, sandbox.credentials.rsa]) {
          const params = [
            ["coin", "币安人生"],
            ["endTime", String(now)],
            ["startTime", String(now - DAY)]
          ] as const
          const raw = yield* signedGet(sandbox, key, paths.tax, params)
          assert.strictEqual(code(raw), "00000")
          const encoded = params.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join("&")
          const wrong = yield* signedGet(sandbox, key, paths.tax, params, { signedQuery: encoded })
          assert.strictEqual(code(wrong), "40009")
          const reordered = params.slice().reverse().map(([k, v]) => `${k}=${v}`).join("&")
          const order = yield* signedGet(sandbox, key, paths.tax, params, { signedQuery: reordered })
          assert.strictEqual(code(order), "40009")
        }
        const dollar = [["businessType", "spot"], ["symbol", "BTC$USDT"]] as const
        const ok = yield* signedGet(sandbox, sandbox.credentials.hmac, paths.tradeRate, dollar)
        assert.strictEqual(code(ok), "00000")
        assert.strictEqual(data<ReadonlyArray<{ symbol: string }>>(ok)[0]?.symbol, "BTC$USDT")
        const bad = yield* signedGet(sandbox, sandbox.credentials.hmac, paths.tradeRate, dollar, {
          signedQuery: "businessType=spot&symbol=BTC%24USDT"
        })
        assert.strictEqual(code(bad), "40009")
      }))

    it.effect("serves public routes without credentials, and server time", () =>
      Effect.gen(function*() {
        const sandbox = yield* Sandbox.Sandbox
        const before = Date.now()
        const reply = yield* publicGet(sandbox, paths.time)
        const serverTime = Number(data<{ serverTime: string }>(reply).serverTime)
        assert.strictEqual(code(reply), "00000")
        assert.isTrue(serverTime >= before && serverTime <= Date.now())
        assert.strictEqual(reply.json?.requestTime, serverTime)
        const symbols = yield* publicGet(sandbox, paths.symbols, [["symbol", "币安人生USDT"]])
        assert.strictEqual(data<ReadonlyArray<{ baseCoin: string }>>(symbols)[0]?.baseCoin, "币安人生")
      }))

    it.effect("verifies a signature sent to a public route: valid is served, broken gets 40009", () =>
      Effect.gen(function*() {
        const sandbox = yield* Sandbox.Sandbox
        yield* sandbox.clearRequests
        const params = [["symbol", "BTC$USDT"]] as const
        const valid = yield* signedGet(sandbox, sandbox.credentials.hmac, paths.symbols, params)
        assert.strictEqual(code(valid), "00000")
        const broken = yield* signedGet(sandbox, sandbox.credentials.hmac, paths.symbols, params, {
          signedQuery: "symbol=BTC%24USDT"
        })
        assert.strictEqual(code(broken), "40009")
        const log = yield* sandbox.requests
        assert.deepStrictEqual(log.map((entry) => entry.signature), ["valid", "invalid"])
      }))

    it.effect("moves server time and the timestamp window with the clock offset", () =>
      Effect.gen(function*() {
        const sandbox = yield* Sandbox.Sandbox
        yield* sandbox.setClockOffset(120_000)
        const reply = yield* publicGet(sandbox, paths.time)
        const skew = Number(data<{ serverTime: string }>(reply).serverTime) - Date.now()
        assert.isTrue(skew > 110_000 && skew <= 120_000, `skew ${skew}`)
        const local = yield* signedGet(sandbox, sandbox.credentials.hmac, paths.tradeRate, [["businessType", "mix"]])
        assert.strictEqual(code(local), "40008")
        const synced = yield* signedGet(sandbox, sandbox.credentials.hmac, paths.tradeRate, [["businessType", "mix"]], {
          timestamp: String(Date.now() + 120_000)
        })
        assert.strictEqual(code(synced), "00000")
        yield* sandbox.setClockOffset(0)
      }))

    it.effect("logs method, path, query, key, signature outcome and code", () =>
      Effect.gen(function*() {
        const sandbox = yield* Sandbox.Sandbox
        yield* sandbox.clearRequests
        const key = sandbox.credentials.hmac
        yield* signedGet(sandbox, key, paths.tradeRate, [["businessType", "spot"], ["symbol", "BTC$USDT"]])
        yield* signedGet(sandbox, key, paths.tradeRate, [["businessType", "spot"]], { sign: "eA==" })
        yield* signedGet(sandbox, key, paths.tradeRate, [["businessType", "spot"]], { omit: ["ACCESS-KEY"] })
        yield* publicGet(sandbox, "/api/v2/unknown")
        const log = yield* sandbox.requests
        assert.strictEqual(log.length, 4)
        const [ok, bad, missing, unknown] = log
        assert.deepInclude(ok, {
          method: "GET",
          path: paths.tradeRate,
          query: "businessType=spot&symbol=BTC%24USDT",
          route: "trade-rate",
          apiKey: key.apiKey,
          signature: "valid",
          status: 200,
          code: "00000",
          rateLimited: false
        })
        assert.deepInclude(bad, { signature: "invalid", code: "40009", status: 400 })
        assert.deepInclude(missing, { signature: "unchecked", code: "40001", apiKey: undefined })
        assert.deepInclude(unknown, { route: undefined, status: 404, code: "40404" })
        assert.isTrue(log.every((entry, i) => i === 0 || entry.seq === (log[i - 1]?.seq ?? 0) + 1))
      }))
  })
})
