import { assert, describe, it } from "@effect/vitest"
import { DateTime, Duration, Effect, Fiber, Layer, Option, Schema, Tracer } from "effect"
import { HttpClient, HttpClientError } from "effect/http"
import { TestClock } from "effect/testing"
import * as BitgetClient from "../src/BitgetClient.js"
import * as BitgetConfig from "../src/BitgetConfig.js"
import * as Credentials from "../src/Credentials.js"
import * as Endpoint from "../src/Endpoint.js"
import {
  assertSigned,
  baseUrl,
  credentials,
  exchange,
  expectedSignature,
  fail,
  hmacSecret,
  ok,
  syncSigner
} from "./support.js"

const Echo = Schema.Struct({ value: Schema.String })

const signedGet = Endpoint.get({
  name: "test.signedGet",
  path: "/api/v2/test/get",
  auth: "signed",
  rateLimit: { limit: 10, window: "1 second", scope: "uid" },
  idempotency: "idempotent",
  request: Schema.Struct({
    symbol: Schema.String,
    coin: Schema.optional(Schema.String),
    limit: Schema.optional(Schema.String)
  }),
  response: Echo
})

const signedPost = Endpoint.post({
  name: "test.signedPost",
  path: "/api/v2/test/post",
  auth: "signed",
  rateLimit: { limit: 10, window: "1 second", scope: "uid" },
  idempotency: "unsafe",
  request: Schema.Struct({ symbol: Schema.String, size: Schema.String }),
  response: Echo
})

const publicGet = Endpoint.get({
  name: "test.publicGet",
  path: "/api/v2/test/public",
  auth: "public",
  rateLimit: { limit: 20, window: "1 second", scope: "ip" },
  idempotency: "idempotent",
  request: Schema.Struct({}),
  response: Echo
})

const answer = ok({ value: "fine" })

describe("signing", () => {
  it.effect("signs the decoded query in sorted order and sends it percent-encoded", () => {
    const { layer, requests } = exchange(() => answer)
    return Effect.gen(function*() {
      yield* TestClock.setTime(1_700_000_000_123)
      yield* BitgetClient.execute(signedGet, { symbol: "BTC$USDT", coin: "比特币 x" })
      const request = requests[0]!
      assert.strictEqual(request.url.search, "?coin=%E6%AF%94%E7%89%B9%E5%B8%81%20x&symbol=BTC%24USDT")
      assert.strictEqual(request.headers["access-timestamp"], "1700000000123")
      assertSigned(request, "coin=比特币 x&symbol=BTC$USDT")
      // a client that signed the encoded form would have produced another signature
      assert.notStrictEqual(
        request.headers["access-sign"],
        expectedSignature(request, "coin=%E6%AF%94%E7%89%B9%E5%B8%81%20x&symbol=BTC%24USDT")
      )
    }).pipe(Effect.provide(layer))
  })

  it.effect("leaves absent parameters out entirely", () => {
    const { layer, requests } = exchange(() => answer)
    return Effect.gen(function*() {
      yield* BitgetClient.execute(signedGet, { symbol: "BTCUSDT", limit: undefined })
      assert.strictEqual(requests[0]!.url.search, "?symbol=BTCUSDT")
      assertSigned(requests[0]!, "symbol=BTCUSDT")
    }).pipe(Effect.provide(layer))
  })

  it.effect("signs the exact JSON bytes it sends as the POST body", () => {
    const { layer, requests } = exchange(() => answer)
    return Effect.gen(function*() {
      yield* BitgetClient.execute(signedPost, { symbol: "ETHUSDT", size: "0.00000001" })
      const request = requests[0]!
      assert.strictEqual(request.method, "POST")
      assert.strictEqual(request.body, "{\"symbol\":\"ETHUSDT\",\"size\":\"0.00000001\"}")
      assert.strictEqual(request.url.search, "")
      assertSigned(request, "")
    }).pipe(Effect.provide(layer))
  })

  it.effect("signs every call afresh with the current time", () => {
    const { layer, requests } = exchange(() => answer)
    return Effect.gen(function*() {
      yield* BitgetClient.execute(signedGet, { symbol: "BTCUSDT" })
      yield* TestClock.adjust("1500 millis")
      yield* BitgetClient.execute(signedGet, { symbol: "BTCUSDT" })
      assert.strictEqual(
        Number(requests[1]!.headers["access-timestamp"]) - Number(requests[0]!.headers["access-timestamp"]),
        1500
      )
      assert.notStrictEqual(requests[0]!.headers["access-sign"], requests[1]!.headers["access-sign"])
    }).pipe(Effect.provide(layer))
  })

  it.effect("signs with an RSA key when configured with one", () => {
    return Effect.gen(function*() {
      const { generateKeyPairSync, verify } = yield* Effect.promise(() => import("node:crypto"))
      const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 })
      const pem = privateKey.export({ type: "pkcs1", format: "pem" }).toString()
      const { layer, requests } = exchange(() => answer, {
        credentials: Credentials.rsa({ apiKey: "key-1", passphrase: "phrase-1", privateKeyPem: pem })
      })
      yield* BitgetClient.execute(signedGet, { symbol: "BTC$USDT" }).pipe(Effect.provide(layer))
      const request = requests[0]!
      const prehash = `${request.headers["access-timestamp"]}GET/api/v2/test/get?symbol=BTC$USDT`
      assert.isTrue(
        verify("sha256", Buffer.from(prehash), publicKey, Buffer.from(request.headers["access-sign"]!, "base64"))
      )
    })
  })
})

describe("headers", () => {
  it.effect("sends only what is configured: no channel code, no demo header, no trace propagation", () => {
    const { layer, requests } = exchange(() => answer)
    return Effect.gen(function*() {
      yield* BitgetClient.execute(signedGet, { symbol: "BTCUSDT" }).pipe(Effect.withSpan("caller"))
      const names = Object.keys(requests[0]!.headers).sort()
      assert.deepStrictEqual(names, [
        "access-key",
        "access-passphrase",
        "access-sign",
        "access-timestamp",
        "content-type",
        "locale"
      ])
    }).pipe(Effect.provide(layer))
  })

  it.effect("adds paptrading, the channel code and the locale when configured", () => {
    const { layer, requests } = exchange(() => answer, {
      credentials,
      demoTrading: true,
      channelApiCode: "abc123",
      locale: "zh-CN"
    })
    return Effect.gen(function*() {
      yield* BitgetClient.execute(publicGet, {})
      const headers = requests[0]!.headers
      assert.strictEqual(headers["paptrading"], "1")
      assert.strictEqual(headers["x-channel-api-code"], "abc123")
      assert.strictEqual(headers["locale"], "zh-CN")
      assert.isUndefined(headers["access-key"])
    }).pipe(Effect.provide(layer))
  })
})

describe("credentials", () => {
  it.effect("refuses a signed call without credentials before sending anything", () => {
    const { layer, requests } = exchange(() => answer, {})
    return Effect.gen(function*() {
      const error = yield* Effect.flip(BitgetClient.execute(signedGet, { symbol: "BTCUSDT" }))
      assert.strictEqual(error._tag, "BitgetRequestError")
      assert.include(error.message, "needs credentials")
      assert.strictEqual(requests.length, 0)
      const value = yield* BitgetClient.execute(publicGet, {})
      assert.deepStrictEqual(value, { value: "fine" })
    }).pipe(Effect.provide(layer))
  })

  it.effect("rejects invalid input before sending anything", () => {
    const { layer, requests } = exchange(() => answer)
    return Effect.gen(function*() {
      const error = yield* Effect.flip(
        BitgetClient.execute(signedGet, { symbol: 42 } as unknown as { symbol: string })
      )
      assert.strictEqual(error._tag, "BitgetRequestError")
      assert.include(error.message, "symbol")
      assert.strictEqual(requests.length, 0)
    }).pipe(Effect.provide(layer))
  })
})

describe("errors", () => {
  const failure = (reply: Parameters<typeof exchange>[0]) => {
    const { layer } = exchange(reply)
    return Effect.flip(BitgetClient.execute(signedGet, { symbol: "BTCUSDT" })).pipe(Effect.provide(layer))
  }

  it.effect("maps a 400 40009 envelope to an auth failure with its details", () =>
    Effect.gen(function*() {
      const error = yield* failure(() => fail(400, "40009", "sign signature error"))
      assert.strictEqual(error._tag, "BitgetApiError")
      if (error._tag !== "BitgetApiError") return
      assert.strictEqual(error.code, "40009")
      assert.strictEqual(error.kind, "Auth")
      assert.strictEqual(error.status, 400)
      assert.strictEqual(error.endpoint, "GET /api/v2/test/get")
      assert.deepStrictEqual(Option.map(error.requestTime, DateTime.toEpochMillis), Option.some(1_700_000_000_000))
      assert.strictEqual(
        error.message,
        "GET /api/v2/test/get failed with code 40009 (Auth, HTTP 400): sign signature error"
      )
    }))

  it.effect("classifies 40008 as clock skew and accepts requestTime as a string", () =>
    Effect.gen(function*() {
      const error = yield* failure(() => ({
        status: 400,
        body:
          "{\"code\":\"40008\",\"msg\":\"Request timestamp expired\",\"requestTime\":\"1700000000000\",\"data\":null}"
      }))
      assert.strictEqual(error._tag === "BitgetApiError" && error.kind, "ClockSkew")
      assert.isTrue(error._tag === "BitgetApiError" && Option.isSome(error.requestTime))
    }))

  it.effect("maps 429 to a rate-limit failure, with or without an envelope, honouring Retry-After", () =>
    Effect.gen(function*() {
      const withBody = yield* failure(() => ({ status: 429, body: "{\"code\":\"429\",\"msg\":\"Too Many Requests\"}" }))
      assert.strictEqual(withBody._tag === "BitgetApiError" && withBody.kind, "RateLimited")
      const bare = yield* failure(() => ({ status: 429, body: "", headers: { "retry-after": "2" } }))
      assert.strictEqual(bare._tag, "BitgetApiError")
      if (bare._tag !== "BitgetApiError") return
      assert.strictEqual(bare.code, "429")
      assert.deepStrictEqual(bare.retryAfter, Option.some(Duration.seconds(2)))
    }))

  it.effect("maps a 500 with an HTML body to an HTTP failure with a short excerpt", () =>
    Effect.gen(function*() {
      const html = `<html><body><h1>500 Internal Server Error</h1>${"x".repeat(1000)}</body></html>`
      const error = yield* failure(() => ({ status: 500, body: html, headers: { "content-type": "text/html" } }))
      assert.strictEqual(error._tag, "BitgetHttpError")
      if (error._tag !== "BitgetHttpError") return
      assert.strictEqual(error.status, 500)
      assert.isTrue(error.excerpt.startsWith("<html><body><h1>500 Internal Server Error</h1>"))
      assert.isAtMost(error.excerpt.length, 241)
    }))

  it.effect("treats a non-00000 code on HTTP 200 as a failure", () =>
    Effect.gen(function*() {
      const error = yield* failure(() => fail(200, "40015", "System is abnormal"))
      assert.strictEqual(error._tag === "BitgetApiError" && error.kind, "Maintenance")
      assert.strictEqual(error._tag === "BitgetApiError" && error.status, 200)
    }))

  it.effect("keeps an unknown code verbatim", () =>
    Effect.gen(function*() {
      const error = yield* failure(() => fail(400, "99999", "Something new"))
      assert.strictEqual(error._tag === "BitgetApiError" && error.code, "99999")
      assert.strictEqual(error._tag === "BitgetApiError" && error.kind, "Unknown")
    }))

  it.effect("maps invalid JSON on HTTP 200 to a decode failure", () =>
    Effect.gen(function*() {
      const error = yield* failure(() => ({ body: "{\"code\":\"00000\",\"data\":{\"val" }))
      assert.strictEqual(error._tag, "BitgetDecodeError")
      assert.include(error.message, "not valid JSON")
    }))

  it.effect("maps a data shape mismatch to a decode failure with a masked excerpt", () =>
    Effect.gen(function*() {
      const error = yield* failure(() => ok({ value: 7, buyerRealName: "Jane Roe" }))
      assert.strictEqual(error._tag, "BitgetDecodeError")
      if (error._tag !== "BitgetDecodeError") return
      assert.include(error.issue, "value")
      assert.notInclude(error.excerpt, "Jane Roe")
      assert.include(error.excerpt, "<redacted>")
    }))

  const transport = (
    error: (request: Parameters<Parameters<typeof HttpClient.make>[0]>[0]) => HttpClientError.HttpClientError
  ) =>
    BitgetClient.layer.pipe(
      Layer.provide(Layer.mergeAll(
        Layer.succeed(HttpClient.HttpClient, HttpClient.make((request) => Effect.fail(error(request)))),
        syncSigner,
        BitgetConfig.layer({ baseUrl, credentials, retry: { maxAttempts: 1 } })
      ))
    )

  it.effect("maps a refused connection to a transport failure that was not sent", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(BitgetClient.execute(signedGet, { symbol: "BTCUSDT" })).pipe(
        Effect.provide(transport((request) =>
          new HttpClientError.HttpClientError({
            reason: new HttpClientError.TransportError({
              request,
              cause: Object.assign(new Error("connect"), { code: "ECONNREFUSED" })
            })
          })
        ))
      )
      assert.strictEqual(error._tag, "BitgetTransportError")
      assert.isTrue(error._tag === "BitgetTransportError" && !error.sent && error.reason === "Connect")
      assert.notInclude(JSON.stringify(error), "phrase-1")
      assert.notInclude(JSON.stringify(error), "access-sign")
    }))

  it.effect("times out a request that gets no answer", () =>
    Effect.gen(function*() {
      const layer = BitgetClient.layer.pipe(
        Layer.provide(Layer.mergeAll(
          Layer.succeed(HttpClient.HttpClient, HttpClient.make(() => Effect.never)),
          syncSigner,
          BitgetConfig.layer({ baseUrl, credentials, timeout: "5 seconds", retry: { maxAttempts: 1 } })
        ))
      )
      const fiber = yield* Effect.forkChild(
        Effect.flip(BitgetClient.execute(publicGet, {})).pipe(Effect.provide(layer))
      )
      yield* TestClock.adjust("5 seconds")
      const error = yield* Fiber.join(fiber)
      assert.strictEqual(error._tag, "BitgetTransportError")
      assert.isTrue(error._tag === "BitgetTransportError" && error.reason === "Timeout" && error.sent)
    }))
})

describe("secrets", () => {
  const secretValues = [hmacSecret, "phrase-1"]

  it("never show in the configuration's string or JSON forms", () => {
    const config = BitgetConfig.make({ credentials })
    for (const text of [String(config.credentials), JSON.stringify(config), `${JSON.stringify(credentials)}`]) {
      for (const secret of secretValues) assert.notInclude(text, secret)
    }
  })

  it.effect("never show in errors or in span attributes", () => {
    const spans: Array<Record<string, unknown>> = []
    const { layer, requests } = exchange(() => fail(400, "40009", "sign signature error"))
    return Effect.gen(function*() {
      const tracer = yield* Effect.tracer
      const recording = Layer.succeed(Tracer.Tracer, {
        ...tracer,
        span: (options) => {
          const span = tracer.span(options)
          const attributes: Record<string, unknown> = {}
          spans.push(attributes)
          return Object.assign(Object.create(span), {
            attribute: (key: string, value: unknown) => {
              attributes[key] = value
              span.attribute(key, value)
            }
          })
        }
      })
      const error = yield* Effect.flip(BitgetClient.execute(signedGet, { symbol: "BTCUSDT" })).pipe(
        Effect.provide(Layer.merge(layer, recording))
      )
      const signature = requests[0]!.headers["access-sign"]!
      const spanText = JSON.stringify(
        spans.map((s) => Object.fromEntries(Object.entries(s).map(([k, v]) => [k, String(v)])))
      )
      const texts = [error.message, JSON.stringify(error), String(error), spanText]
      for (const text of texts) {
        for (const secret of [...secretValues, signature]) {
          assert.notInclude(text, secret)
        }
      }
      // the attempt's span names the request and its answer, without the query and without any header
      const http = spans.find((s) => s["http.response.status_code"] !== undefined)
      assert.strictEqual(http?.["http.response.status_code"], 400)
      assert.match(String(http?.["url.full"]), /\/api\/v2\/test\/get$/)
      assert.notInclude(spanText, "BTCUSDT")
      assert.deepStrictEqual(spans.flatMap((s) => Object.keys(s)).filter((k) => k.includes("header")), [])
    })
  })
})
