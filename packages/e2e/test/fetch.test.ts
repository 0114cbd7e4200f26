/**
 * `BitgetFetch.layer` (Node's own fetch, WebCrypto) against the sandbox over
 * loopback: all ten operations with the HMAC, RSA and market-maker keys, a
 * stream walked to its end, the exchange's 40009, and the transport's typed
 * failures (an oversized body, a timeout, a reset and a refused connection).
 */
import type { BitgetError } from "@bitget-effect/core"
import {
  BatchCancel,
  BitgetFetch,
  Credentials,
  FundNetFlow,
  FuturesHistory,
  OpenInterestLimit,
  P2pOrders,
  PositionTpsl,
  RpiOrderBook,
  ServerTime,
  Symbols,
  TaxRecords,
  TradeRates
} from "@bitget-effect/core"
import { Fault, Sandbox } from "@bitget-effect/sandbox"
import { assert, describe } from "@effect/vitest"
import { BigDecimal, DateTime, Effect, Stream } from "effect"
import { generateKeyPairSync } from "node:crypto"
import { createServer } from "node:net"
import type { ClientOptions } from "./support.js"
import { apiKeyOf, DAY, failureOf, freshSandbox, logOf, onSandbox, oracle, walkClient } from "./support.js"

/** Runs an effect on `BitgetFetch.layer` pointed at the sandbox in context, with a demo key (`"hmac"` by default). */
const withFetch = (options: ClientOptions = {}) => <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.flatMap(Sandbox.Sandbox, (sandbox) => {
    const { credentials, key = "hmac", ...rest } = options
    const chosen = credentials ??
      (key === "none"
        ? undefined
        : key === "rsa"
        ? Credentials.rsa(sandbox.credentials.rsa)
        : Credentials.hmac(sandbox.credentials[key]))
    return Effect.provide(
      effect,
      BitgetFetch.layer({ ...rest, baseUrl: sandbox.url, ...(chosen === undefined ? {} : { credentials: chosen }) })
    )
  })

/** A transport failure's reason and whether it may have been sent. */
const transport = (error: BitgetError.BitgetError) =>
  error._tag === "BitgetTransportError" ? [error.reason, error.sent] : [error._tag]

const sizes = { taxRecords: 600, taxDays: 60, taxBurst: 0, p2pOrders: 120, p2pDays: 60, futuresOrders: 150 }
const scale = 20

describe("BitgetFetch.layer against the sandbox", () => {
  onSandbox({ seed: 7, sizes, limitScale: scale })((it) => {
    it.effect(
      "all ten operations, public and signed with the HMAC, RSA and market-maker keys",
      () =>
        Effect.gen(function*() {
          const sandbox = yield* freshSandbox
          const dataset = oracle(sandbox).dataset
          const hmac = apiKeyOf(sandbox, "hmac")
          const now = DateTime.makeUnsafe(sandbox.anchor)

          const { flow, pairs, time } = yield* Effect.all({
            pairs: Symbols.symbols(),
            flow: FundNetFlow.fundNetFlow({ symbol: "BTCUSDT" }),
            time: ServerTime.serverTime
          }).pipe(withFetch({ key: "none" }))
          assert.strictEqual(pairs.length, sandbox.sizes.symbols)
          assert.strictEqual(flow.length, 24)
          assert.isBelow(Math.abs(DateTime.toEpochMillis(time.serverTime) - Date.now()), 5_000)

          const rates = yield* TradeRates.tradeRates({ businessType: "spot" }).pipe(withFetch())
          assert.strictEqual(rates.length, dataset.symbols.filter((s) => s.status !== "offline").length)
          const limit = yield* OpenInterestLimit.openInterestLimit({ symbol: "BTCUSDT", category: "USDT-FUTURES" })
            .pipe(
              withFetch({ key: "rsa" })
            )
          assert.strictEqual(limit.symbol, "BTCUSDT")
          const book = yield* RpiOrderBook.rpiOrderBook({ category: "SPOT", symbol: "BTCUSDT", limit: 20 }).pipe(
            withFetch({ key: "marketMaker" })
          )
          assert.deepStrictEqual([book.a.length, book.b.length], [20, 20])
          const p2p = yield* P2pOrders.p2pOrders({ limit: 40 }).pipe(withFetch({ key: "rsa" }))
          assert.deepStrictEqual(
            p2p.orderList.map((o) => o.orderId),
            dataset.p2pOrders(apiKeyOf(sandbox, "rsa")).slice(0, 40).map((o) => o.orderId)
          )
          const tax = yield* TaxRecords.spotRecords({
            startTime: DateTime.subtract(now, { days: 30 }),
            endTime: now,
            limit: 500
          }).pipe(withFetch())
          assert.deepStrictEqual(
            tax.map((r) => r.id),
            oracle(sandbox).taxIds("hmac", sandbox.anchor - 30 * DAY, sandbox.anchor).slice(0, 500)
          )
          const futures = yield* FuturesHistory.ordersHistory({ productType: "USDT-FUTURES", limit: 100 }).pipe(
            withFetch()
          )
          assert.deepStrictEqual(
            futures.entrustedList.map((o) => o.orderId),
            dataset.futuresOrders(hmac, "USDT-FUTURES").slice(0, 100).map((o) => o.orderId)
          )

          const open = (yield* sandbox.openOrders(hmac)).filter((o) => o.symbol === "BTCUSDT").slice(0, 2)
          const cancelled = yield* BatchCancel.batchCancelOrders({
            symbol: "BTCUSDT",
            orderList: open.map((o) => ({ orderId: o.orderId }))
          }).pipe(withFetch())
          assert.isTrue(cancelled.allCancelled)
          assert.strictEqual((yield* sandbox.openOrders(hmac)).length, sandbox.sizes.openOrders - 2)
          const placed = yield* PositionTpsl.placePositionTpsl({
            marginCoin: "USDT",
            productType: "USDT-FUTURES",
            symbol: "BTCUSDT",
            holdSide: "long",
            // BTC's mark stays within 95000 ± 17%: a long's take profit above it, its stop loss below
            stopSurplusTriggerPrice: BigDecimal.fromStringUnsafe("125000.5"),
            stopLossTriggerPrice: BigDecimal.fromStringUnsafe("60000")
          }).pipe(withFetch())
          assert.deepStrictEqual((yield* sandbox.plans(hmac)).map((p) => p.orderId), placed.map((o) => o.orderId))

          const signed = (yield* logOf()).filter((e) => e.apiKey !== undefined)
          assert.strictEqual(signed.length, 8)
          assert.deepStrictEqual(signed.map((e) => e.signature), Array(8).fill("valid"), "every signature verified")
        }),
      20_000
    )

    it.effect("walks TaxRecords.stream to its end: exactly the sandbox's records", () =>
      Effect.gen(function*() {
        const sandbox = yield* freshSandbox
        const start = sandbox.anchor - 50 * DAY
        const end = sandbox.anchor - DAY
        const walked = yield* Stream.runCollect(
          TaxRecords.stream({ startTime: DateTime.makeUnsafe(start), endTime: DateTime.makeUnsafe(end), pageSize: 50 })
        ).pipe(withFetch(walkClient("tax.spotRecords", scale)))
        const expected = oracle(sandbox).taxIds("hmac", start, end)
        assert.isAbove(expected.length, 100)
        assert.deepStrictEqual(walked.map((r) => r.id), expected)
      }), 20_000)

    it.effect("a wrong HMAC secret and a wrong RSA key are the exchange's 40009, typed", () =>
      Effect.gen(function*() {
        const sandbox = yield* freshSandbox
        const wrong = [
          Credentials.hmac({ ...sandbox.credentials.hmac, secret: "not-the-secret-0000000000000000000000000001" }),
          Credentials.rsa({
            ...sandbox.credentials.rsa,
            privateKeyPem: generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({
              type: "pkcs8",
              format: "pem"
            }).toString()
          })
        ]
        for (const credentials of wrong) {
          const error = yield* failureOf(
            TradeRates.tradeRates({ businessType: "spot" }).pipe(withFetch({ credentials }))
          )
          assert.deepStrictEqual(
            error._tag === "BitgetApiError" ? [error.code, error.kind] : [error._tag],
            ["40009", "Auth"],
            credentials.signingKey._tag
          )
        }
      }))

    it.effect("an oversized body and a timeout are typed failures, in bounded time", () =>
      Effect.gen(function*() {
        const sandbox = yield* freshSandbox
        const oversized = yield* failureOf(Symbols.symbols().pipe(withFetch({ key: "none", maxResponseBytes: 1_024 })))
        assert.strictEqual(oversized._tag, "BitgetDecodeError")
        assert.include(oversized.message, "the body is larger than the 1024 bytes allowed (maxResponseBytes)")

        yield* sandbox.inject("symbols", Fault.delay("3 seconds"))
        const started = Date.now()
        const timeout = yield* failureOf(
          Symbols.symbols().pipe(withFetch({ key: "none", timeout: "300 millis", retry: { maxAttempts: 1 } }))
        )
        assert.deepStrictEqual(transport(timeout), ["Timeout", true])
        assert.isBelow(Date.now() - started, 1_500)
      }))

    it.effect("a reset connection is Network, maybe sent; a refused one Connect, not sent", () =>
      Effect.gen(function*() {
        const sandbox = yield* freshSandbox
        yield* sandbox.inject("p2p-orders", Fault.connectionReset)
        const reset = yield* failureOf(P2pOrders.p2pOrders({ limit: 5 }).pipe(withFetch({ retry: { maxAttempts: 1 } })))
        assert.deepStrictEqual(transport(reset), ["Network", true])
        const closed = yield* Effect.promise(() =>
          new Promise<number>((resolve) => {
            const server = createServer().listen(0, "127.0.0.1", () => {
              const address = server.address()
              server.close(() => resolve(typeof address === "object" && address !== null ? address.port : 0))
            })
          })
        )
        const refused = yield* failureOf(
          Symbols.symbols().pipe(
            Effect.provide(BitgetFetch.layer({ baseUrl: `http://127.0.0.1:${closed}`, retry: { maxAttempts: 1 } }))
          )
        )
        assert.deepStrictEqual(transport(refused), ["Connect", false])
      }))
  })
})
