import { assert, describe, layer } from "@effect/vitest"
import { Effect, Option } from "effect"
import * as Sandbox from "../src/Sandbox.js"
import type { Reply } from "./support.js"
import { code, data, DAY, paths, publicGet, signedGet, signedPost } from "./support.js"

const symbolPrice = "/api/v2/mix/market/symbol-price"

interface Prices {
  readonly symbol: string
  readonly price: string
  readonly indexPrice: string
  readonly markPrice: string
  readonly ts: string
}

/** The positions every key holds (see `Sandbox.positions`), as place-pos-tpsl names them. */
const positions = {
  btcLong: { marginCoin: "USDT", productType: "USDT-FUTURES", symbol: "BTCUSDT", holdSide: "long" },
  btcShort: { marginCoin: "USDT", productType: "USDT-FUTURES", symbol: "BTCUSDT", holdSide: "short" },
  ethLong: { marginCoin: "USDT", productType: "USDT-FUTURES", symbol: "ETHUSDT", holdSide: "long" },
  btcBuy: { marginCoin: "BTC", productType: "COIN-FUTURES", symbol: "BTCUSD", holdSide: "buy" },
  ethSell: { marginCoin: "USDC", productType: "USDC-FUTURES", symbol: "ETHPERP", holdSide: "sell" }
} as const

/** A refusal: HTTP 400 with the code, and the message (matched when a pattern: the mark in it is live). */
const refused = (reply: Reply, expected: string, msg: string | RegExp): string | undefined => {
  assert.strictEqual(reply.status, 400, reply.text)
  assert.strictEqual(code(reply), expected, reply.text)
  const text = reply.json?.msg ?? ""
  if (typeof msg === "string") {
    assert.strictEqual(text, msg)
    return undefined
  }
  const match = msg.exec(text)
  assert.isNotNull(match, `${text} does not match ${msg}`)
  return match?.[1]
}

/** The sandbox's mark price of a contract now, as a number. */
const markOf = (sandbox: Sandbox.Sandbox.Service, productType: string, symbol: string) =>
  Effect.map(sandbox.markPrice(productType, symbol), (mark) => Number(Option.getOrThrow(mark)))

/** A price `factor` times the mark, with one decimal (the contracts' tick here). */
const near = (mark: number, factor: number): string => (mark * factor).toFixed(1)

/** Whether a mark read from a message is the sandbox's mark (it may move a tick between the two reads). */
const closeTo = (text: string | undefined, mark: number) => assert.approximately(Number(text), mark, mark * 0.001)

describe("the live rules", () => {
  layer(Sandbox.layer({ limits: false }))((it) => {
    it.effect("serves each contract's last, index and mark price as strings, and the service reads the same mark", () =>
      Effect.gen(function*() {
        const sandbox = yield* Sandbox.Sandbox
        const reply = yield* publicGet(sandbox, symbolPrice, [["productType", "usdt-futures"], ["symbol", "btcusdt"]])
        assert.strictEqual(code(reply), "00000", reply.text)
        const [prices] = data<ReadonlyArray<Prices>>(reply)
        assert.deepStrictEqual(Object.keys(prices ?? {}).sort(), ["indexPrice", "markPrice", "price", "symbol", "ts"])
        assert.strictEqual(prices?.symbol, "BTCUSDT")
        for (const value of [prices?.price, prices?.indexPrice, prices?.markPrice]) assert.match(value!, /^\d+\.\d$/)
        assert.match(prices!.ts, /^\d{13}$/)
        const mark = yield* markOf(sandbox, "USDT-FUTURES", "BTCUSDT")
        closeTo(prices?.markPrice, mark)
        assert.isAtLeast(mark, 95_000 * 0.8)
        assert.isAtMost(mark, 95_000 * 1.2)
        // it moves slowly with time: an hour on, within a few percent
        yield* sandbox.setClockOffset(3_600_000)
        const later = yield* markOf(sandbox, "usdt-futures", "BTCUSDT")
        yield* sandbox.setClockOffset(0)
        assert.notStrictEqual(later, mark)
        assert.approximately(later, mark, mark * 0.05)
        assert.isTrue(Option.isNone(yield* sandbox.markPrice("SPOT", "BTCUSDT")))
        assert.isTrue(Option.isNone(yield* sandbox.markPrice("USDT-FUTURES", "NOTACOINUSDT")))
        const unknown = yield* publicGet(sandbox, symbolPrice, [["productType", "USDT-FUTURES"], [
          "symbol",
          "NOTACOINUSDT"
        ]])
        refused(unknown, "40034", "Parameter NOTACOINUSDT does not exist")
        refused(
          yield* publicGet(sandbox, symbolPrice, [["productType", "SPOT"], ["symbol", "BTCUSDT"]]),
          "40020",
          "Parameter productType error"
        )
        refused(
          yield* publicGet(sandbox, symbolPrice, [["productType", "USDT-FUTURES"]]),
          "40019",
          "Parameter symbol cannot be empty"
        )
      }))

    it.effect("TP/SL triggers stand on the right side of the mark, else the live code and message, the mark filled in", () =>
      Effect.gen(function*() {
        const sandbox = yield* Sandbox.Sandbox
        yield* sandbox.reset
        const key = sandbox.credentials.hmac
        const place = (body: object) => signedPost(sandbox, key, paths.tpsl, body)
        const btc = yield* markOf(sandbox, "USDT-FUTURES", "BTCUSDT")
        refused(
          yield* place({ ...positions.btcLong, stopSurplusTriggerPrice: near(btc, 0.99) }),
          "40915",
          "Long position take profit price please > mark price"
        )
        const longStop = /^Stop price for long positions please < mark price (\d+\.\d+)$/
        closeTo(
          refused(yield* place({ ...positions.btcLong, stopLossTriggerPrice: near(btc, 1.01) }), "40917", longStop),
          btc
        )
        const shortProfit = /^TP price of short position < Current price (\d+\.\d+)$/
        const tp = yield* place({ ...positions.btcShort, stopSurplusTriggerPrice: near(btc, 1.01) })
        closeTo(refused(tp, "45061", shortProfit), btc)
        const shortStop = /^Short position stop loss price please > mark price (\d+\.\d+)$/
        closeTo(
          refused(yield* place({ ...positions.btcShort, stopLossTriggerPrice: near(btc, 0.99) }), "45122", shortStop),
          btc
        )
        // one-way positions: buy follows the long rules, sell the short ones
        const coin = yield* markOf(sandbox, "COIN-FUTURES", "BTCUSD")
        closeTo(
          refused(yield* place({ ...positions.btcBuy, stopLossTriggerPrice: near(coin, 1.01) }), "40917", longStop),
          coin
        )
        const perp = yield* markOf(sandbox, "USDC-FUTURES", "ETHPERP")
        closeTo(
          refused(
            yield* place({ ...positions.ethSell, stopSurplusTriggerPrice: near(perp, 1.01) }),
            "45061",
            shortProfit
          ),
          perp
        )
        // a request with one leg on the wrong side places nothing
        refused(
          yield* place({
            ...positions.btcLong,
            stopSurplusTriggerPrice: near(btc, 1.01),
            stopLossTriggerPrice: near(btc, 1.02)
          }),
          "40917",
          longStop
        )
        assert.deepStrictEqual(yield* sandbox.plans(key.apiKey), [])
        const sides = [
          [positions.btcLong, btc, 1.01, 0.99],
          [positions.btcShort, btc, 0.99, 1.01],
          [positions.btcBuy, coin, 1.01, 0.99],
          [positions.ethSell, perp, 0.99, 1.01]
        ] as const
        for (const [position, mark, profit, loss] of sides) {
          const reply = yield* place({
            ...position,
            stopSurplusTriggerPrice: near(mark, profit),
            stopLossTriggerPrice: near(mark, loss)
          })
          assert.strictEqual(code(reply), "00000", reply.text)
        }
        assert.strictEqual((yield* sandbox.plans(key.apiKey)).length, 8)
      }))

    it.effect("no position: 40837; a size beyond the position: 43023", () =>
      Effect.gen(function*() {
        const sandbox = yield* Sandbox.Sandbox
        yield* sandbox.reset
        const key = sandbox.credentials.rsa
        const noPosition = "There is no position in this position, so stop-profit and stop-loss orders cannot be made"
        for (
          const body of [
            { ...positions.ethLong, symbol: "SOLUSDT", stopLossTriggerPrice: "1" },
            { ...positions.ethLong, holdSide: "short", stopLossTriggerPrice: "99999" },
            { ...positions.ethLong, productType: "SUSDT-FUTURES", stopLossTriggerPrice: "1" }
          ]
        ) {
          refused(yield* signedPost(sandbox, key, paths.tpsl, body), "40837", noPosition)
        }
        // the ETHUSDT long holds 3
        const tooLarge = yield* signedPost(sandbox, key, paths.tpsl, {
          ...positions.ethLong,
          stopSurplusTriggerPrice: "9000",
          stopSurplusSize: "3.000001"
        })
        refused(tooLarge, "43023", "Insufficient position, can not set profit or stop loss")
        const whole = yield* signedPost(sandbox, key, paths.tpsl, {
          ...positions.ethLong,
          stopSurplusTriggerPrice: "9000",
          stopSurplusSize: "3"
        })
        assert.strictEqual(code(whole), "00000", whole.text)
        assert.deepStrictEqual((yield* sandbox.plans(key.apiKey)).map((plan) => [plan.planType, plan.size]), [
          ["profit_plan", "3"]
        ])
      }))

    it.effect("one whole-position take profit and stop loss per position (43030, 43031), partial plans up to the limit (40890)", () =>
      Effect.gen(function*() {
        const sandbox = yield* Sandbox.Sandbox
        yield* sandbox.reset
        const key = sandbox.credentials.marketMaker
        const place = (body: object) => signedPost(sandbox, key, paths.tpsl, body)
        const whole = { stopSurplusTriggerPrice: "9000", stopLossTriggerPrice: "1000" }
        assert.strictEqual(code(yield* place({ ...positions.ethLong, ...whole })), "00000")
        refused(
          yield* place({ ...positions.ethLong, stopSurplusTriggerPrice: "8000" }),
          "43030",
          "Take profit order already existed"
        )
        refused(
          yield* place({ ...positions.ethLong, stopLossTriggerPrice: "1500" }),
          "43031",
          "Stop loss order already existed"
        )
        // with a partial leg that would pass, the duplicate still places nothing
        const mixed = yield* place({
          ...positions.ethLong,
          stopSurplusTriggerPrice: "8000",
          stopSurplusSize: "1",
          stopLossTriggerPrice: "1500"
        })
        refused(mixed, "43031", "Stop loss order already existed")
        assert.strictEqual((yield* sandbox.plans(key.apiKey)).length, 2)
        // partial plans of both BTCUSDT positions count toward the contract's limit of 20
        const partial = (position: object, i: number) =>
          place({ ...position, stopSurplusTriggerPrice: String(200_000 + i), stopSurplusSize: "0.01" })
        for (let i = 0; i < 10; i++) {
          assert.strictEqual(code(yield* partial(positions.btcLong, i)), "00000")
          assert.strictEqual(
            code(
              yield* place({ ...positions.btcShort, stopLossTriggerPrice: String(200_000 + i), stopLossSize: "0.01" })
            ),
            "00000"
          )
        }
        const limit = "The order of stop-profit and stop-loss for this contract has reached the upper limit"
        refused(yield* partial(positions.btcLong, 99), "40890", limit)
        assert.strictEqual((yield* sandbox.plans(key.apiKey)).length, 22)
        // whole-position plans are not partial ones; another contract has its own count
        assert.strictEqual(code(yield* place({ ...positions.btcLong, stopSurplusTriggerPrice: "250000" })), "00000")
        assert.strictEqual(code(yield* partial(positions.btcBuy, 0)), "00000")
      }))

    it.effect("messages fill in the values: the symbol sent (40034) and the range (40053)", () =>
      Effect.gen(function*() {
        const sandbox = yield* Sandbox.Sandbox
        const key = sandbox.credentials.hmac
        const now = Date.now()
        refused(
          yield* publicGet(sandbox, paths.symbols, [["symbol", "NOTACOINUSDT"]]),
          "40034",
          "Parameter NOTACOINUSDT does not exist"
        )
        refused(
          yield* signedGet(sandbox, key, paths.tradeRate, [["businessType", "spot"], ["symbol", "NOPEUSDT"]]),
          "40034",
          "Parameter NOPEUSDT does not exist"
        )
        refused(
          yield* signedGet(sandbox, key, paths.openInterest, [["symbol", "BTCUSD"], ["category", "USDT-FUTURES"]]),
          "40034",
          "Parameter BTCUSD does not exist"
        )
        refused(
          yield* signedGet(sandbox, key, paths.tax, [["startTime", String(now - DAY)], ["endTime", String(now)], [
            "limit",
            "501"
          ]]),
          "40053",
          "Value range verification failed: limit should be between 1 and 500"
        )
        refused(
          yield* signedGet(sandbox, key, paths.p2p, [["startTime", String(now - DAY)], ["limit", "0"]]),
          "40053",
          "Value range verification failed: limit should be between 1 and 100"
        )
      }))

    it.effect("P2P orders need startTime: HTTP 400 60001 without it", () =>
      Effect.gen(function*() {
        const sandbox = yield* Sandbox.Sandbox
        const key = sandbox.credentials.hmac
        refused(yield* signedGet(sandbox, key, paths.p2p, []), "60001", "StartTime not empty")
        refused(
          yield* signedGet(sandbox, key, paths.p2p, [["endTime", String(Date.now())]]),
          "60001",
          "StartTime not empty"
        )
        const reply = yield* signedGet(sandbox, key, paths.p2p, [["startTime", String(Date.now() - DAY)], [
          "limit",
          "5"
        ]])
        assert.strictEqual(code(reply), "00000", reply.text)
      }))
  })
})
