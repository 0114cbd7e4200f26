/**
 * Authentication end to end: the exchange's auth codes reach the caller as
 * typed errors (never retried), and a clock 45 s off is recovered from by the
 * client itself (one 40008, a server-time read, then success).
 */
import { BitgetError, Credentials, FuturesHistory, PositionTpsl, TradeRates } from "@bitget-effect/core"
import type { Sandbox } from "@bitget-effect/sandbox"
import { assert, describe } from "@effect/vitest"
import { BigDecimal, Effect } from "effect"
import { createPrivateKey, generateKeyPairSync } from "node:crypto"
import {
  apiKeyOf,
  clientClockOffset,
  describeLog,
  failureOf,
  freshSandbox,
  logOf,
  onSandbox,
  withClient
} from "./support.js"

const rates = TradeRates.tradeRates({ businessType: "spot", symbol: "BTCUSDT" })

describe("authentication", () => {
  onSandbox({ seed: 11, sizes: { futuresOrders: 300 } })((it) => {
    const cases = [
      {
        name: "a wrong HMAC secret → 40009",
        code: "40009",
        signature: "invalid",
        credentials: (sandbox: Sandbox.Sandbox.Service) =>
          Credentials.hmac({ ...sandbox.credentials.hmac, secret: "not-the-secret-0000000000000000000000000001" })
      },
      {
        name: "an RSA key that is not the registered one → 40009",
        code: "40009",
        signature: "invalid",
        credentials: (sandbox: Sandbox.Sandbox.Service) =>
          Credentials.rsa({
            ...sandbox.credentials.rsa,
            privateKeyPem: generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({
              type: "pkcs8",
              format: "pem"
            })
              .toString()
          })
      },
      {
        name: "a wrong passphrase → 40012",
        code: "40012",
        signature: "unchecked",
        credentials: (sandbox: Sandbox.Sandbox.Service) =>
          Credentials.hmac({ ...sandbox.credentials.hmac, passphrase: "wrong" })
      },
      {
        name: "an unknown key → 40006",
        code: "40006",
        signature: "unchecked",
        credentials: (sandbox: Sandbox.Sandbox.Service) =>
          Credentials.hmac({ ...sandbox.credentials.hmac, apiKey: "bg_sandbox_hmac_9999999999999999" })
      }
    ] as const

    for (const testCase of cases) {
      it.effect(`${testCase.name} (kind Auth), not retried`, () =>
        Effect.gen(function*() {
          const sandbox = yield* freshSandbox
          const error = yield* failureOf(rates.pipe(withClient({ credentials: testCase.credentials(sandbox) })))
          assert.instanceOf(error, BitgetError.BitgetApiError)
          if (error instanceof BitgetError.BitgetApiError) {
            assert.strictEqual(error.code, testCase.code)
            assert.strictEqual(error.kind, "Auth")
            assert.strictEqual(error.status, 400)
            assert.strictEqual(error.endpoint, "GET /api/v2/common/all-trade-rate")
            assert.isTrue(error.requestTime._tag === "Some", "requestTime decoded from the envelope")
            assert.notInclude(error.message, "sandbox-hmac-secret")
            assert.notInclude(error.message, "sandbox-passphrase")
          }
          const log = yield* logOf()
          assert.deepStrictEqual(log.map((e) => [e.route, e.status, e.code, e.signature]), [
            ["trade-rate", 400, testCase.code, testCase.signature]
          ])
        }))
    }

    it.effect("a POST signed with a wrong secret → 40009 and nothing is placed", () =>
      Effect.gen(function*() {
        const sandbox = yield* freshSandbox
        const error = yield* failureOf(
          PositionTpsl.placePositionTpsl({
            marginCoin: "USDT",
            productType: "USDT-FUTURES",
            symbol: "BTCUSDT",
            holdSide: "long",
            stopLossTriggerPrice: BigDecimal.fromStringUnsafe("80000")
          }).pipe(withClient({ credentials: Credentials.hmac({ ...sandbox.credentials.hmac, secret: "wrong" }) }))
        )
        assert.isTrue(BitgetError.isApiErrorOfKind("Auth")(error))
        assert.strictEqual(error._tag === "BitgetApiError" ? error.code : error._tag, "40009")
        assert.deepStrictEqual(yield* sandbox.plans(apiKeyOf(sandbox, "hmac")), [])
      }))

    it.effect("the RSA key given as PKCS#1 PEM (BEGIN RSA PRIVATE KEY) signs as well as PKCS#8", () =>
      Effect.gen(function*() {
        const sandbox = yield* freshSandbox
        const pkcs1 = createPrivateKey(sandbox.credentials.rsa.privateKeyPem).export({ type: "pkcs1", format: "pem" })
          .toString()
        assert.include(pkcs1, "BEGIN RSA PRIVATE KEY")
        const result = yield* rates.pipe(
          withClient({ credentials: Credentials.rsa({ ...sandbox.credentials.rsa, privateKeyPem: pkcs1 }) })
        )
        assert.deepStrictEqual(result.map((r) => r.symbol), ["BTCUSDT"])
        assert.deepStrictEqual((yield* logOf()).map((e) => [e.apiKey, e.signature]), [[
          sandbox.credentials.rsa.apiKey,
          "valid"
        ]])
      }))

    it.effect("a signed operation without credentials is refused before anything is sent", () =>
      Effect.gen(function*() {
        yield* freshSandbox
        const error = yield* failureOf(rates.pipe(withClient({ key: "none" })))
        assert.instanceOf(error, BitgetError.BitgetRequestError)
        assert.deepStrictEqual(yield* logOf(), [])
      }))

    for (const offset of [45_000, -45_000]) {
      it.effect(`a server clock ${offset / 1000} s off: one 40008, a clock read, then success`, () =>
        Effect.gen(function*() {
          const sandbox = yield* freshSandbox
          yield* sandbox.setClockOffset(offset)
          const { first, learned, second } = yield* Effect.all({
            first: rates,
            second: FuturesHistory.ordersHistory({ productType: "USDT-FUTURES", limit: 5 }),
            learned: clientClockOffset
          }).pipe(withClient())
          assert.deepStrictEqual(first.map((r) => r.symbol), ["BTCUSDT"])
          assert.strictEqual(second.entrustedList.length, 5)
          assert.isTrue(Math.abs(learned - offset) < 2_000, `learned offset ${learned}`)
          assert.deepStrictEqual(describeLog(yield* logOf()), [
            "trade-rate 400 40008",
            "time 200 00000",
            "trade-rate 200 00000",
            "futures-history 200 00000"
          ], "re-synced once; the next call is signed with the exchange's time")
        }))
    }

    it.effect("the clock re-sync works with retries off (it is not a retry)", () =>
      Effect.gen(function*() {
        const sandbox = yield* freshSandbox
        yield* sandbox.setClockOffset(45_000)
        const result = yield* rates.pipe(withClient({ retry: { maxAttempts: 1 } }))
        assert.strictEqual(result.length, 1)
        assert.deepStrictEqual(describeLog(yield* logOf()), [
          "trade-rate 400 40008",
          "time 200 00000",
          "trade-rate 200 00000"
        ])
      }))

    it.effect("a POST (unsafe TP/SL) also recovers from a stale clock: a 40008 proves nothing was placed", () =>
      Effect.gen(function*() {
        const sandbox = yield* freshSandbox
        yield* sandbox.setClockOffset(-45_000)
        const placed = yield* PositionTpsl.placePositionTpsl({
          marginCoin: "USDT",
          productType: "USDT-FUTURES",
          symbol: "BTCUSDT",
          holdSide: "short",
          stopLossTriggerPrice: BigDecimal.fromStringUnsafe("130000")
        }).pipe(withClient())
        assert.strictEqual(placed.length, 1)
        assert.strictEqual((yield* sandbox.plans(apiKeyOf(sandbox, "hmac"))).length, 1, "placed exactly once")
        assert.deepStrictEqual(describeLog(yield* logOf()), [
          "place-pos-tpsl 400 40008",
          "time 200 00000",
          "place-pos-tpsl 200 00000"
        ])
      }))

    it.effect("syncClockOnStart: a stale clock never shows up as a 40008", () =>
      Effect.gen(function*() {
        const sandbox = yield* freshSandbox
        yield* sandbox.setClockOffset(45_000)
        yield* rates.pipe(withClient({ syncClockOnStart: true }))
        assert.deepStrictEqual(describeLog(yield* logOf()), ["time 200 00000", "trade-rate 200 00000"])
      }))
  })
})
