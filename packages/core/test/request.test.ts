import { assert, describe, it } from "@effect/vitest"
import { Effect, Option, Result, Schema } from "effect"
import * as BitgetConfig from "../src/BitgetConfig.js"
import type { BitgetTransportError } from "../src/BitgetError.js"
import * as Request from "../src/client/request.js"
import * as Credentials from "../src/Credentials.js"
import * as Endpoint from "../src/Endpoint.js"
import { failure, HttpTransport } from "../src/HttpTransport.js"
import * as Symbols from "../src/Symbols.js"
import * as TaxRecords from "../src/TaxRecords.js"
import { credentials, exchange, hmacSecret, ok } from "./support.js"

/** The frames of a client with credentials (on demo trading) and of one without (built in each test). */
const signedFrame = () =>
  Request.frame(BitgetConfig.make({ baseUrl: "https://x.test", credentials, demoTrading: true }))
const anonymousFrame = () => Request.frame(BitgetConfig.make({ baseUrl: "https://x.test" }))

/** A GET of the caller's own, whose query is any strings (no schema check of its values). */
const rawGet = Endpoint.raw({
  method: "GET",
  path: "/api/v2/raw",
  auth: "public",
  rateLimit: { limit: 10, window: "1 second", scope: "ip" },
  idempotency: "idempotent"
})

describe("request building", () => {
  it.effect("a GET sends its query encoded and signs it raw, under the credential headers", () =>
    Effect.gen(function*() {
      const prepared = yield* Effect.fromResult(Request.prepare(Symbols.endpoint, { symbol: "BTC$USDT" }))
      const request = Request.outgoing(signedFrame(), Symbols.endpoint, prepared, credentials, 1_700_000_000_000)
      assert.strictEqual(request.url, "https://x.test/api/v2/spot/public/symbols?symbol=BTC%24USDT")
      assert.strictEqual(request.toSign?.prehash, "1700000000000GET/api/v2/spot/public/symbols?symbol=BTC$USDT")
      assert.strictEqual(request.body, undefined)
      assert.deepStrictEqual(Object.keys(request.headers).sort(), [
        "ACCESS-KEY",
        "ACCESS-PASSPHRASE",
        "ACCESS-TIMESTAMP",
        "Content-Type",
        "locale",
        "paptrading"
      ])
      assert.strictEqual(request.headers["ACCESS-TIMESTAMP"], "1700000000000")
    }))

  it.effect("a call without credentials carries no credential header and nothing to sign", () =>
    Effect.gen(function*() {
      const prepared = yield* Effect.fromResult(Request.prepare(Symbols.endpoint, {}))
      const request = Request.outgoing(anonymousFrame(), Symbols.endpoint, prepared, undefined, 0)
      assert.strictEqual(request.url, "https://x.test/api/v2/spot/public/symbols")
      assert.strictEqual(request.toSign, undefined)
      assert.deepStrictEqual(request.headers, { locale: "en-US" })
    }))

  it.effect("a signed call without input signs no query and no body", () =>
    Effect.gen(function*() {
      const request = Request.outgoing(signedFrame(), TaxRecords.endpoint, Request.empty, credentials, 5)
      assert.strictEqual(request.url, `https://x.test${TaxRecords.endpoint.path}`)
      assert.strictEqual(request.toSign?.prehash, `5GET${TaxRecords.endpoint.path}`)
      assert.strictEqual(request.headers["Content-Type"], "application/json")
    }))

  it("a POST sends its JSON body with its content type, with or without credentials", () => {
    const endpoint = { method: "POST", path: "/api/v2/p" } as const
    const prepared: Request.Prepared = { query: Request.empty.query, body: "{\"a\":\"1\"}" }
    const request = Request.outgoing(anonymousFrame(), endpoint, prepared, undefined, 0)
    assert.deepStrictEqual(request, {
      url: "https://x.test/api/v2/p",
      headers: { locale: "en-US", "Content-Type": "application/json" },
      body: "{\"a\":\"1\"}",
      toSign: undefined
    })
    const signedRequest = Request.outgoing(signedFrame(), endpoint, prepared, credentials, 7)
    assert.strictEqual(signedRequest.url, "https://x.test/api/v2/p")
    assert.strictEqual(signedRequest.toSign?.prehash, "7POST/api/v2/p{\"a\":\"1\"}")
  })

  it("a GET leaves out parameters its schema encodes as undefined", () => {
    const endpoint = Endpoint.get({
      ...Symbols.endpoint,
      request: Schema.Struct({ coin: Schema.optional(Schema.String), symbol: Schema.String })
    })
    const prepared = Request.prepare(endpoint, { coin: undefined, symbol: "BTCUSDT" })
    assert.deepStrictEqual(
      prepared,
      Result.succeed({ query: { signed: "symbol=BTCUSDT", sent: "symbol=BTCUSDT" }, body: "" })
    )
  })

  it("a GET parameter no request can carry is refused by name, though its schema allows it", () => {
    for (const value of ["a\r\nb", "\u0000", "\uD800"]) {
      const refused = Request.prepare(rawGet, { symbol: "BTCUSDT", note: value })
      assert.isTrue(Result.isFailure(refused), JSON.stringify(value))
      if (Result.isFailure(refused)) {
        assert.strictEqual(refused.failure.issue, "note: must not hold control characters or lone surrogates")
        assert.strictEqual(refused.failure.endpoint, "GET /api/v2/raw")
      }
    }
    assert.deepStrictEqual(
      Request.prepare(rawGet, { symbol: "BTCUSDT", note: "a b+c" }),
      Result.succeed({
        query: { signed: "note=a b+c&symbol=BTCUSDT", sent: "note=a%20b%2Bc&symbol=BTCUSDT" },
        body: ""
      })
    )
  })

  it("the frame counts calls against the API key, or no one without credentials", () => {
    assert.strictEqual(Request.frame(BitgetConfig.make({ credentials })).identity, "key-1")
    assert.strictEqual(Request.frame(BitgetConfig.make({})).identity, "")
  })

  it("every request carries the configured locale, demo-trading flag and channel code", () => {
    const frame = Request.frame(BitgetConfig.make({ locale: "zh-CN", demoTrading: true, channelApiCode: "chan-1" }))
    assert.deepStrictEqual(frame.headers, { locale: "zh-CN", paptrading: "1", "X-CHANNEL-API-CODE": "chan-1" })
    assert.deepStrictEqual(Request.frame(BitgetConfig.make({})).headers, { locale: "en-US" })
  })

  it("a POST's input is its JSON body, with no query", () => {
    const rawPost = Endpoint.raw({
      method: "POST",
      path: "/api/v2/raw",
      auth: "signed",
      rateLimit: { limit: 10, window: "1 second", scope: "uid" },
      idempotency: "idempotent"
    })
    assert.deepStrictEqual(
      Request.prepare(rawPost, { symbol: "BTC$USDT", size: "1" }),
      Result.succeed({ query: { signed: "", sent: "" }, body: "{\"symbol\":\"BTC$USDT\",\"size\":\"1\"}" })
    )
  })

  it("an input its schema refuses is refused, by field", () => {
    const refused = Request.prepare(Symbols.endpoint, { symbol: "  " })
    assert.isTrue(Result.isFailure(refused))
    if (Result.isFailure(refused)) {
      assert.strictEqual(refused.failure.reason, "Invalid")
      assert.include(refused.failure.issue, "symbol")
    }
  })

  it("a signed endpoint without credentials is refused; public ones never sign", () => {
    const refused = Request.credentialsFor(anonymousFrame(), TaxRecords.endpoint)
    assert.isTrue(Result.isFailure(refused) && refused.failure.reason === "NoCredentials")
    if (Result.isFailure(refused)) {
      assert.strictEqual(refused.failure.issue, "this operation is signed and needs credentials")
    }
    assert.deepStrictEqual(Request.credentialsFor(signedFrame(), Symbols.endpoint), Result.succeed(undefined))
    assert.deepStrictEqual(Request.credentialsFor(signedFrame(), TaxRecords.endpoint), Result.succeed(credentials))
  })

  it("a credential no header can carry is refused by name, without its value", () => {
    const broken = Request.frame(BitgetConfig.make({
      credentials: Credentials.hmac({ apiKey: "key\r\nX-Injected: 1", secret: "s", passphrase: "p" })
    }))
    const refused = Request.credentialsFor(broken, TaxRecords.endpoint)
    assert.isTrue(Result.isFailure(refused))
    if (Result.isFailure(refused)) {
      assert.strictEqual(
        refused.failure.issue,
        "the ACCESS-KEY header would hold a line break, a character no HTTP header can carry, " +
          "or more than 1024 characters"
      )
      assert.notInclude(refused.failure.message, "X-Injected")
    }
    assert.deepStrictEqual(Request.credentialsFor(broken, Symbols.endpoint), Result.succeed(undefined))
  })

  it("the frame's scrubber knows every secret of the credentials", () => {
    const text = signedFrame().secrets.scrub(`key-1 phrase-1 ${hmacSecret}`)
    assert.notInclude(text, "key-1")
    assert.notInclude(text, "phrase-1")
    assert.notInclude(text, "s3cr3t")
  })
})

describe("transport failures, by what was thrown", () => {
  const request: HttpTransport.Request = {
    endpoint: "GET /api/v2/test",
    method: "GET",
    url: "https://x.test/api/v2/test",
    headers: {
      "ACCESS-KEY": "key-1",
      "access-passphrase": "phrase-1",
      "ACCESS-SIGN": "c2lnbmF0dXJl+/=",
      locale: "en-US"
    },
    timeoutMillis: 1_000,
    maxBytes: 1_024
  }
  const coded = (code: string, message = code, name = "Error") => Object.assign(new Error(message), { code, name })
  const invalidUrl = Result.getFailure(Result.try(() => new URL("not a url")))
  const cases: ReadonlyArray<readonly [string, unknown, BitgetTransportError["reason"], boolean, string]> = [
    ["a refused connection", coded("ECONNREFUSED"), "Connect", false, " (ECONNREFUSED)"],
    ["a name that does not resolve", coded("ENOTFOUND"), "Connect", false, " (ENOTFOUND)"],
    ["a name server that failed", coded("EAI_AGAIN"), "Connect", false, " (EAI_AGAIN)"],
    ["undici's connect timeout", coded("UND_ERR_CONNECT_TIMEOUT"), "Connect", false, " (UND_ERR_CONNECT_TIMEOUT)"],
    [
      "a certificate refused",
      coded("UNABLE_TO_VERIFY_LEAF_SIGNATURE"),
      "Connect",
      false,
      " (UNABLE_TO_VERIFY_LEAF_SIGNATURE)"
    ],
    ["an invalid URL", Option.getOrThrow(invalidUrl), "Connect", false, " (ERR_INVALID_URL)"],
    ["a reset connection", coded("ECONNRESET"), "Network", true, " (ECONNRESET)"],
    ["a connection timed out", coded("ETIMEDOUT"), "Network", true, " (ETIMEDOUT)"],
    [
      "fetch failed over a reset",
      new TypeError("fetch failed", { cause: coded("ECONNRESET") }),
      "Network",
      true,
      " (ECONNRESET)"
    ],
    [
      "a body cut short (undici under fetch: terminated, other side closed)",
      new TypeError("terminated", { cause: coded("UND_ERR_SOCKET", "other side closed", "SocketError") }),
      "Network",
      true,
      " (UND_ERR_SOCKET)"
    ],
    [
      "an answer that is not HTTP (undici's parser error, which may have no code)",
      new TypeError("fetch failed", { cause: Object.assign(new Error("Expected HTTP/"), { name: "HTTPParserError" }) }),
      "Network",
      true,
      " (HTTPParserError)"
    ],
    [
      "a TypeError of a bug",
      new TypeError("Cannot read properties of undefined (reading 'write')"),
      "Unexpected",
      true,
      ": TypeError: Cannot read properties of undefined (reading 'write')"
    ],
    ["a RangeError", new RangeError("Invalid array length"), "Unexpected", true, ": RangeError: Invalid array length"],
    [
      "a code that proves nothing (undici refusing an argument)",
      coded("UND_ERR_INVALID_ARG", "Invalid URL protocol", "InvalidArgumentError"),
      "Unexpected",
      true,
      ": InvalidArgumentError: Invalid URL protocol"
    ],
    ["a thrown string", "oops", "Unexpected", true, ": a thrown string: oops"],
    ["a thrown object that is no error", { not: "an error" }, "Unexpected", true, ": a thrown object"]
  ]

  it("a network code (on the error or a cause) is Connect or Network; anything else is Unexpected", () => {
    for (const [name, thrown, reason, sent, description] of cases) {
      const error = failure(request, thrown)
      assert.strictEqual(error.reason, reason, name)
      assert.strictEqual(error.sent, sent, name)
      assert.strictEqual(error.description, `request transport failure${description}`, name)
    }
  })

  it.effect("an invalid base URL fails on the HTTP client before anything is sent: Connect, not sent", () => {
    const { layer, requests } = exchange(() => ok([]), { baseUrl: "not a url" })
    return Effect.gen(function*() {
      const error = yield* Effect.flip(Symbols.symbols())
      assert.isTrue(error._tag === "BitgetTransportError" && error.reason === "Connect" && !error.sent)
      assert.strictEqual(
        error.message,
        "GET /api/v2/spot/public/symbols transport failure (Connect): request URL failure (ERR_INVALID_URL)"
      )
      assert.strictEqual(requests.length, 0)
    }).pipe(Effect.provide(layer))
  })

  it("an Unexpected failure keeps no credential header's value, and a bounded text even of a looping cause", () => {
    const echo = new TypeError(
      `invalid headers ${JSON.stringify(request.headers)} ${encodeURIComponent(request.headers["ACCESS-SIGN"]!)}`
    )
    const error = failure(request, echo)
    for (const secret of ["key-1", "phrase-1", "c2lnbmF0dXJl", "c2lnbmF0dXJl%2B%2F%3D"]) {
      assert.notInclude(error.message, secret)
    }
    assert.include(error.message, "en-US")
    const looping = new Error("loop")
    Object.assign(looping, { cause: looping })
    assert.strictEqual(failure(request, looping).description, "request transport failure: Error: loop")
    const long = failure(request, new TypeError("x".repeat(1_000_000), { cause: new Error("y".repeat(1_000_000)) }))
    assert.isBelow(long.message.length, 500)
    assert.isTrue(long.description.endsWith("x…"))
  })
})
