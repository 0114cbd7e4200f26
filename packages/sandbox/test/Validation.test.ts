import { assert, describe, layer } from "@effect/vitest"
import { Effect } from "effect"
import * as Sandbox from "../src/Sandbox.js"
import type { Params } from "./support.js"
import { code, data, DAY, paths, publicGet, send, signedGet, signedPost } from "./support.js"

interface SymbolRecord {
  readonly symbol: string
  readonly baseCoin: string
  readonly status: string
  readonly pricePrecision: string
  readonly offTime: string
  readonly minTradeAmount: string
}

describe("parameter validation and market data", () => {
  // the canonical shapes (string book levels, every symbol field): Shapes.test.ts checks the varied ones
  layer(Sandbox.layer({ limits: false, sizes: { symbols: 300 }, shapes: "canonical" }))((it) => {
    it.effect("answers the exchange's codes for missing, invalid and out-of-range parameters", () =>
      Effect.gen(function*() {
        const sandbox = yield* Sandbox.Sandbox
        const key = sandbox.credentials.hmac
        const now = Date.now()
        const cases: ReadonlyArray<readonly [string, string, Params]> = [
          ["40019", paths.tradeRate, []],
          ["40020", paths.tradeRate, [["businessType", "futures"]]],
          ["40034", paths.tradeRate, [["businessType", "spot"], ["symbol", "NOPEUSDT"]]],
          ["40019", paths.tax, [["endTime", String(now)]]],
          ["40020", paths.tax, [["startTime", "yesterday"], ["endTime", String(now)]]],
          ["70008", paths.tax, [["startTime", String(now - 31 * DAY)], ["endTime", String(now)]]],
          ["40053", paths.tax, [["startTime", String(now - DAY)], ["endTime", String(now)], ["limit", "501"]]],
          ["40017", paths.tax, [["startTime", String(now)], ["endTime", String(now - DAY)]]],
          ["00001", paths.p2p, [["startTime", String(now - 91 * DAY)], ["endTime", String(now)]]],
          ["60001", paths.p2p, [["endTime", String(now)], ["limit", "10"]]],
          ["40020", paths.p2p, [["startTime", String(now - DAY)], ["status", "shipped"]]],
          ["40053", paths.p2p, [["startTime", String(now - DAY)], ["limit", "101"]]],
          ["40020", paths.p2p, [["startTime", String(now - DAY)], ["idLessThan", "abc"]]],
          ["40019", paths.futures, []],
          ["40020", paths.futures, [["productType", "SPOT"]]],
          ["40020", paths.futures, [["productType", "USDT-FUTURES"], ["orderSource", "plan_market"]]],
          ["40705", paths.futures, [["productType", "USDT-FUTURES"], ["startTime", String(now - 91 * DAY)]]],
          [
            "40704",
            paths.futures,
            [["productType", "USDT-FUTURES"], ["startTime", String(now - 95 * DAY)], [
              "endTime",
              String(now - 94 * DAY)
            ]]
          ],
          ["40053", paths.futures, [["productType", "USDT-FUTURES"], ["limit", "101"]]],
          ["40019", paths.openInterest, [["category", "USDT-FUTURES"]]],
          ["40020", paths.openInterest, [["symbol", "BTCUSDT"], ["category", "SPOT"]]],
          ["40034", paths.openInterest, [["symbol", "BTCUSD"], ["category", "USDT-FUTURES"]]]
        ]
        for (const [expected, path, params] of cases) {
          const reply = yield* signedGet(sandbox, key, path, params)
          assert.strictEqual(code(reply), expected, `${path} ${JSON.stringify(params)}: ${reply.text}`)
          assert.strictEqual(reply.status, 400)
        }
        const netFlow = yield* publicGet(sandbox, paths.netFlow)
        assert.strictEqual(code(netFlow), "40019")
        const tooMany = yield* signedPost(sandbox, key, paths.batchCancel, {
          symbol: "BTCUSDT",
          orderList: Array.from({ length: 51 }, (_, i) => ({ orderId: String(i + 1) }))
        })
        assert.strictEqual(code(tooMany), "40912")
        const notFound = yield* send(`${sandbox.url}/api/v2/spot/public/nothing`)
        assert.strictEqual(notFound.status, 404)
        assert.strictEqual(code(notFound), "40404")
      }))

    it.effect("lists hundreds of symbols of every status, with a `$` symbol and a CJK coin", () =>
      Effect.gen(function*() {
        const sandbox = yield* Sandbox.Sandbox
        const all = data<ReadonlyArray<SymbolRecord>>(yield* publicGet(sandbox, paths.symbols))
        assert.strictEqual(all.length, 300)
        assert.strictEqual(new Set(all.map((s) => s.symbol)).size, 300)
        assert.deepStrictEqual([...new Set(all.map((s) => s.status))].sort(), ["gray", "halt", "offline", "online"])
        assert.isTrue(all.some((s) => s.symbol === "BTC$USDT"))
        assert.isTrue(all.some((s) => s.baseCoin === "币安人生"))
        assert.isTrue(all.every((s) => /^\d+$/.test(s.pricePrecision)))
        assert.isTrue(all.filter((s) => s.status === "online").every((s) => s.offTime === ""))
        assert.strictEqual(all[0]?.minTradeAmount, "0.0000000000000000")
        const blank = data<ReadonlyArray<SymbolRecord>>(yield* publicGet(sandbox, paths.symbols, [["symbol", ""]]))
        assert.strictEqual(blank.length, 300)
        const one = yield* publicGet(sandbox, paths.symbols, [["symbol", "BTC$USDT"]])
        assert.deepStrictEqual(data<ReadonlyArray<SymbolRecord>>(one).map((s) => s.symbol), ["BTC$USDT"])
        assert.strictEqual(code(yield* publicGet(sandbox, paths.symbols, [["symbol", "NOPEUSDT"]])), "40034")
      }))

    it.effect("answers trade rates, net flow and open interest limits with strings", () =>
      Effect.gen(function*() {
        const sandbox = yield* Sandbox.Sandbox
        const rates = data<ReadonlyArray<Record<string, string>>>(
          yield* signedGet(sandbox, sandbox.credentials.hmac, paths.tradeRate, [["businessType", "mix"]])
        )
        assert.isAbove(rates.length, 20)
        assert.deepStrictEqual(Object.keys(rates[0] ?? {}).sort(), ["makerFeeRate", "symbol", "takerFeeRate"])
        const flow = data<ReadonlyArray<{ netFlow: string; ts: string }>>(
          yield* publicGet(sandbox, paths.netFlow, [["symbol", "币安人生USDT"]])
        )
        assert.isAbove(flow.length, 0)
        assert.isTrue(flow.every((record) => /^-?\d+\.\d+$/.test(record.netFlow) && /^\d{13}$/.test(record.ts)))
        const limit = data<Record<string, string>>(
          yield* signedGet(sandbox, sandbox.credentials.rsa, paths.openInterest, [["symbol", "BTCUSDT"], [
            "category",
            "USDT-FUTURES"
          ]])
        )
        assert.deepStrictEqual(Object.keys(limit).sort(), [
          "marketMakerLimit",
          "masterSubLimit",
          "singleUserLimit",
          "symbol"
        ])
        assert.isTrue(Object.values(limit).every((value) => typeof value === "string"))
      }))

    it.effect("serves the RPI order book to market-maker keys only", () =>
      Effect.gen(function*() {
        const sandbox = yield* Sandbox.Sandbox
        const params: Params = [["category", "SPOT"], ["symbol", "BTCUSDT"], ["limit", "20"]]
        const anonymous = yield* publicGet(sandbox, paths.rpi, params)
        assert.strictEqual(code(anonymous), "40014")
        assert.strictEqual(anonymous.status, 400)
        const ordinary = yield* signedGet(sandbox, sandbox.credentials.hmac, paths.rpi, params)
        assert.strictEqual(code(ordinary), "40014")
        const unknown = yield* publicGet(sandbox, paths.rpi, params, { "ACCESS-KEY": "bg_nobody" })
        assert.strictEqual(code(unknown), "40006")
        const forged = yield* signedGet(sandbox, sandbox.credentials.marketMaker, paths.rpi, params, { sign: "eA==" })
        assert.strictEqual(code(forged), "40009")
        const maker = yield* signedGet(sandbox, sandbox.credentials.marketMaker, paths.rpi, params)
        assert.strictEqual(code(maker), "00000")
        const book = data<
          { a: ReadonlyArray<ReadonlyArray<string>>; b: ReadonlyArray<ReadonlyArray<string>>; ts: string }
        >(maker)
        assert.strictEqual(book.a.length, 20)
        assert.strictEqual(book.b.length, 20)
        const asks = book.a.map((level) => Number(level[0]))
        const bids = book.b.map((level) => Number(level[0]))
        assert.isTrue(asks.every((price, i) => i === 0 || price > (asks[i - 1] ?? 0)), "asks ascending")
        assert.isTrue(bids.every((price, i) => i === 0 || price < (bids[i - 1] ?? 0)), "bids descending")
        assert.isTrue((bids[0] ?? 0) < (asks[0] ?? 0))
        assert.isTrue(book.a.every((level) => level.length === 3 && level.every((value) => typeof value === "string")))
        const bareKey = yield* publicGet(sandbox, paths.rpi, [["category", "usdt-futures"], ["symbol", "ETHUSDT"]], {
          "ACCESS-KEY": sandbox.credentials.marketMaker.apiKey
        })
        assert.strictEqual(data<{ a: ReadonlyArray<unknown> }>(bareKey).a.length, 5)
        const tooDeep = yield* signedGet(sandbox, sandbox.credentials.marketMaker, paths.rpi, [["category", "SPOT"], [
          "symbol",
          "BTCUSDT"
        ], ["limit", "201"]])
        assert.strictEqual(code(tooDeep), "40053")
      }))
  })
})

describe("an open RPI order book", () => {
  layer(Sandbox.layer({ limits: false, rpiOpen: true }))((it) => {
    it.effect("answers callers without credentials", () =>
      Effect.gen(function*() {
        const sandbox = yield* Sandbox.Sandbox
        const reply = yield* publicGet(sandbox, paths.rpi, [["category", "SPOT"], ["symbol", "BTC$USDT"]])
        assert.strictEqual(code(reply), "00000")
        assert.strictEqual(data<{ a: ReadonlyArray<unknown> }>(reply).a.length, 5)
      }))
  })
})
