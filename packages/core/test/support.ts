/**
 * Test support: a client over an injected `HttpClient` that answers from a
 * function and records every request it was given.
 */
import { assert } from "@effect/vitest"
import { Duration, Effect, Layer, Redacted } from "effect"
import { HttpClient, HttpClientResponse } from "effect/http"
import { TestClock } from "effect/testing"
import { createHmac } from "node:crypto"
import * as BitgetClient from "../src/BitgetClient.js"
import * as BitgetConfig from "../src/BitgetConfig.js"
import * as Credentials from "../src/Credentials.js"
import { Signer } from "../src/Signer.js"
import * as WebCryptoSigner from "../src/WebCryptoSigner.js"

/** A request as it reached the HTTP layer. */
export interface Recorded {
  readonly method: string
  readonly url: URL
  readonly headers: Readonly<Record<string, string>>
  readonly body: string
}

/** What the fake exchange answers. */
export interface Reply {
  readonly status?: number
  readonly body: string
  readonly headers?: Readonly<Record<string, string>>
}

export const baseUrl = "https://api.example.test"

/** A day, in milliseconds. */
export const day = 86_400_000

/** The HMAC secret of the test credentials. */
export const hmacSecret = "s3cr3t-hmac-key"

export const credentials = Credentials.hmac({ apiKey: "key-1", secret: hmacSecret, passphrase: "phrase-1" })

/** A success envelope around `data`. */
export const ok = (data: unknown): Reply => ({
  body: JSON.stringify({ code: "00000", msg: "success", requestTime: 1_700_000_000_000, data })
})

/** An error envelope. */
export const fail = (status: number, code: string, msg: string): Reply => ({
  status,
  body: JSON.stringify({ code, msg, requestTime: 1_700_000_000_000, data: null })
})

const decoder = new TextDecoder()

/**
 * A signer that answers HMAC synchronously (so `TestClock` adjustments never
 * race a pending promise); RSA keys go to the WebCrypto signer.
 */
export const syncSigner = Layer.succeed(
  Signer,
  Signer.of({
    sign: (key, prehash) =>
      key._tag === "Hmac"
        ? Effect.sync(() => createHmac("sha256", Redacted.value(key.secret)).update(prehash).digest("base64"))
        : WebCryptoSigner.make.sign(key, prehash)
  })
)

/**
 * Lets the fibers a test started run on until each waits (for the clock, or
 * for another fiber) before the test moves the `TestClock`. Effect 4's
 * `TestClock.adjust` yields once before it moves the clock (Effect 3 waited for
 * the test's fibers to suspend), while a call takes several hops to send,
 * read its answer and settle its rate-limit slots (in a detached fiber): a
 * clock moved before that settles them late. The bound is far more hops than
 * any call here takes.
 */
export const quiesce: Effect.Effect<void> = Effect.gen(function*() {
  for (let hop = 0; hop < 100; hop++) yield* Effect.yieldNow
})

/**
 * Moves the `TestClock` on by `duration` a `step` at a time, letting the fibers
 * run on after each step (see `quiesce`). Effect 4's `TestClock.adjust` waits
 * for a fiber it wakes only while that fiber runs on Effect's scheduler, not
 * while it awaits a promise (reading an answer's body): one long adjustment
 * passes the wake-ups that such a fiber schedules once its answer is read.
 */
export const advance = (duration: Duration.Input, step: Duration.Input = "10 millis"): Effect.Effect<void> =>
  Effect.gen(function*() {
    const total = Duration.toMillis(Duration.fromInputUnsafe(duration))
    const each = Duration.toMillis(Duration.fromInputUnsafe(step))
    for (let moved = 0; moved < total; moved += each) {
      yield* TestClock.adjust(Math.min(each, total - moved))
      yield* quiesce
    }
  })

/**
 * A client layer whose HTTP answers come from `respond`; `requests` lists what
 * was sent, in order, and `sentAt` the clock time each was sent at. Retries
 * and rate limiting are off unless `options` set them. With a `latency`, each
 * answer arrives that long after its request was sent (on the clock, so a test
 * moves the `TestClock` past it: see `advance`).
 */
export const exchange = (
  respond: (request: Recorded) => Reply,
  options: BitgetConfig.BitgetOptionsInput = { credentials },
  latency?: Duration.Input
) => {
  const requests: Array<Recorded> = []
  const sentAt: Array<number> = []
  const http = HttpClient.make((request, url) => {
    const answer = Effect.clockWith((clock) =>
      Effect.sync(() => {
        const body = request.body._tag === "Uint8Array" ? decoder.decode(request.body.body) : ""
        const recorded: Recorded = { method: request.method, url, headers: { ...request.headers }, body }
        requests.push(recorded)
        sentAt.push(clock.currentTimeMillisUnsafe())
        const reply = respond(recorded)
        return HttpClientResponse.fromWeb(
          request,
          new Response(reply.body, { status: reply.status ?? 200, headers: reply.headers ?? {} })
        )
      })
    )
    return latency === undefined ? answer : Effect.tap(answer, () => Effect.sleep(latency))
  })
  const layer = BitgetClient.layer.pipe(
    Layer.provide(
      Layer.mergeAll(
        Layer.succeed(HttpClient.HttpClient, http),
        syncSigner,
        BitgetConfig.layer({ baseUrl, retry: { maxAttempts: 1 }, rateLimit: { enabled: false }, ...options })
      )
    )
  )
  return { layer, requests, sentAt }
}

/**
 * The HMAC signature the exchange expects for a recorded request, computed
 * independently of the library from the raw (decoded) query it should have signed.
 */
export const expectedSignature = (request: Recorded, signedQuery: string): string =>
  createHmac("sha256", hmacSecret)
    .update(
      `${request.headers["access-timestamp"]}${request.method}${request.url.pathname}${
        signedQuery === "" ? "" : `?${signedQuery}`
      }${request.body}`
    )
    .digest("base64")

/** Asserts the four credential headers of a signed request and its signature. */
export const assertSigned = (request: Recorded, signedQuery: string): void => {
  assert.strictEqual(request.headers["access-key"], "key-1")
  assert.strictEqual(request.headers["access-passphrase"], "phrase-1")
  assert.match(request.headers["access-timestamp"] ?? "", /^\d+$/)
  assert.strictEqual(request.headers["content-type"], "application/json")
  assert.strictEqual(request.headers["access-sign"], expectedSignature(request, signedQuery))
}

/** A spot pair as the exchange sends it (the 2026-09-25 live shape, with the order value caps). */
export const spotPair = {
  symbol: "BTCUSDT",
  baseCoin: "BTC",
  quoteCoin: "USDT",
  minTradeAmount: "0",
  maxTradeAmount: "10000000000",
  takerFeeRate: "0.002",
  makerFeeRate: "0.002",
  pricePrecision: "2",
  quantityPrecision: "4",
  quotePrecision: "6",
  status: "online",
  minTradeUSDT: "5",
  buyLimitPriceRatio: "0.05",
  sellLimitPriceRatio: "0.05",
  areaSymbol: "no",
  orderQuantity: "200",
  openTime: "1532454360000",
  offTime: "",
  maxLimitOrderValue: "1000000",
  maxMarketOrderValue: "250000.5"
}

/** A futures order as the exchange writes it, of the given id and time (every other field fixed). */
export const futuresOrder = (r: { readonly id: string; readonly ts: number }) => ({
  symbol: "BTCUSDT",
  size: "1",
  orderId: r.id,
  clientOid: "",
  baseVolume: "1",
  fee: "0",
  price: "",
  priceAvg: "",
  status: "filled",
  side: "buy",
  force: "gtc",
  totalProfits: "0",
  posSide: "net",
  marginCoin: "USDT",
  quoteVolume: "1",
  leverage: "10",
  marginMode: "crossed",
  enterPointSource: "api",
  tradeSide: "open",
  posMode: "one_way_mode",
  orderType: "market",
  orderSource: "market",
  cTime: String(r.ts),
  uTime: String(r.ts),
  presetStopSurplusPrice: "",
  presetStopLossPrice: "",
  posAvg: ""
})
