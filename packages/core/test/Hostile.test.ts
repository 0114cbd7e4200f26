/**
 * Careless input and hostile answers (issue 10): each finding reproduced on
 * an injected HTTP layer. Every bad input is a typed request error before
 * anything is sent; every hostile answer a typed failure that quotes no
 * secret and costs bounded work.
 */
import { assert, describe, it } from "@effect/vitest"
import { BigDecimal, Cause, DateTime, Effect, Exit, Formatter, Layer, Logger, Option, Tracer } from "effect"
import { HttpClient, HttpClientError, HttpClientRequest, HttpClientResponse } from "effect/http"
import { TestClock } from "effect/testing"
import { inspect } from "node:util"
import * as BitgetClient from "../src/BitgetClient.js"
import * as BitgetConfig from "../src/BitgetConfig.js"
import { BitgetDecodeError, BitgetRequestError, BitgetTransportError } from "../src/BitgetError.js"
import * as Credentials from "../src/Credentials.js"
import * as P2pOrders from "../src/P2pOrders.js"
import * as PositionTpsl from "../src/PositionTpsl.js"
import * as Schemas from "../src/Schemas.js"
import * as Symbols from "../src/Symbols.js"
import * as TradeRates from "../src/TradeRates.js"
import { secretSpellings, spellingCount, spellings } from "./spellings.js"
import { baseUrl, credentials, day, exchange, hmacSecret, ok, syncSigner } from "./support.js"

const tpsl = (price: string): PositionTpsl.PositionTpslRequest => ({
  productType: "USDT-FUTURES",
  symbol: "BTCUSDT",
  marginCoin: "USDT",
  holdSide: "long",
  stopSurplusTriggerPrice: BigDecimal.fromStringUnsafe(price)
})

describe("careless input is refused before sending", () => {
  it.effect("a lone surrogate in a query value (finding 1)", () => {
    const { layer, requests } = exchange(() => ok([]))
    return Effect.gen(function*() {
      const error = yield* Effect.flip(Symbols.symbols({ symbol: "BTC\uD800" }))
      assert.instanceOf(error, BitgetRequestError)
      assert.match(error.issue, /symbol: .*lone surrogates/)
      assert.strictEqual(requests.length, 0)
    }).pipe(Effect.provide(layer))
  })

  it.effect("decimals with huge or tiny exponents, or more digits than the exchange takes (finding 2)", () => {
    const { layer, requests } = exchange(() => ok([]))
    return Effect.gen(function*() {
      const cases: ReadonlyArray<readonly [string, RegExp]> = [
        ["1e999999999", /at most 24 digits before the point/],
        ["1e-999999999", /at most 18 digits after the point/],
        ["0.0000000000000000001", /at most 18 digits after the point/],
        ["-5", /must be greater than 0/]
      ]
      for (const [price, issue] of cases) {
        const error = yield* Effect.flip(PositionTpsl.placePositionTpsl(tpsl(price)))
        assert.instanceOf(error, BitgetRequestError)
        assert.match(error.issue, issue)
      }
      assert.strictEqual(requests.length, 0)
      // the widest values still allowed are sent in fixed point
      yield* PositionTpsl.placePositionTpsl(tpsl("123456789012345678901234.000000000000000001"))
      assert.include(requests[0]!.body, "\"stopSurplusTriggerPrice\":\"123456789012345678901234.000000000000000001\"")
    }).pipe(Effect.provide(layer))
  })

  it.effect("blank, untrimmed, over-long and control-character strings (finding 10)", () => {
    const { layer, requests } = exchange(() => ok([]))
    return Effect.gen(function*() {
      for (const symbol of ["", "   ", "A".repeat(65), "BTC\nUSDT", "BTC\u0000"]) {
        const error = yield* Effect.flip(Symbols.symbols({ symbol }))
        assert.instanceOf(error, BitgetRequestError, JSON.stringify(symbol))
      }
      assert.strictEqual(requests.length, 0)
      yield* Symbols.symbols({ symbol: "  BTCUSDT\t" })
      assert.strictEqual(requests[0]!.url.search, "?symbol=BTCUSDT")
    }).pipe(Effect.provide(layer))
  })

  it.effect("a credential with a line break: refused, not retried as a network failure (finding 10)", () => {
    const broken = Credentials.hmac({ apiKey: "key-1", secret: hmacSecret, passphrase: "phrase\r\nX-Evil: 1" })
    const { layer, requests } = exchange(() => ok([]), { credentials: broken, retry: { maxAttempts: 4 } })
    return Effect.gen(function*() {
      const error = yield* Effect.flip(P2pOrders.p2pOrders())
      assert.instanceOf(error, BitgetRequestError)
      assert.match(error.message, /ACCESS-PASSPHRASE header would hold a line break/)
      assert.notInclude(error.message, "phrase")
      assert.strictEqual(requests.length, 0)
      // public calls do not send the credentials, so they still go
      yield* Symbols.symbols()
      assert.strictEqual(requests.length, 1)
    }).pipe(Effect.provide(layer))
  })

  it.effect("a credential too long for a header is refused before sending", () => {
    const long = Credentials.hmac({ apiKey: "key-1", secret: hmacSecret, passphrase: "p".repeat(100_000) })
    const { layer, requests } = exchange(() => ok([]), { credentials: long })
    return Effect.gen(function*() {
      const error = yield* Effect.flip(P2pOrders.p2pOrders())
      assert.instanceOf(error, BitgetRequestError)
      assert.match(error.message, /ACCESS-PASSPHRASE header would hold .*more than 1024 characters/)
      assert.strictEqual(requests.length, 0)
    }).pipe(Effect.provide(layer))
  })

  it.effect("a P2P range with only its start: completed to now, or refused when that exceeds 90 days (finding 11)", () => {
    const { layer, requests } = exchange(() => ok({ orderList: [], minOrderId: "" }))
    return Effect.gen(function*() {
      const now = 1_700_000_000_000
      yield* TestClock.setTime(now)
      const error = yield* Effect.flip(P2pOrders.p2pOrders({ startTime: DateTime.makeUnsafe(now - 100 * day) }))
      assert.instanceOf(error, BitgetRequestError)
      assert.match(error.issue, /at most 90 days/)
      assert.strictEqual(requests.length, 0)
      yield* P2pOrders.p2pOrders({ startTime: DateTime.makeUnsafe(now - 10 * day) })
      assert.strictEqual(requests[0]!.url.searchParams.get("endTime"), String(now))
      yield* P2pOrders.p2pOrders({ endTime: DateTime.makeUnsafe(now) })
      assert.strictEqual(requests[1]!.url.searchParams.get("startTime"), String(now - 90 * day))
    }).pipe(Effect.provide(layer))
  })
})

describe("a request is what its own properties say (issue 30, point 7)", () => {
  const stopLossTriggerPrice = BigDecimal.fromStringUnsafe("25000")

  /** A TP/SL request whose own fields are those of `own`, inheriting `inherited`. */
  const inheriting = (inherited: object, own: object): PositionTpsl.PositionTpslRequest =>
    Object.assign(Object.create(inherited), own)

  it.effect("an inherited stopLossTriggerPrice is not sent", () => {
    const { layer, requests } = exchange(() => ok([]))
    return Effect.gen(function*() {
      yield* PositionTpsl.placePositionTpsl(inheriting({ stopLossTriggerPrice }, tpsl("70000")))
      assert.strictEqual(requests.length, 1)
      assert.include(requests[0]!.body, "\"stopSurplusTriggerPrice\":\"70000\"")
      assert.notInclude(requests[0]!.body, "stopLoss")
      // a stop-loss it only inherits is none: without a trigger of its own, the request is refused unsent
      const { stopSurplusTriggerPrice: _, ...bare } = tpsl("70000")
      const error = yield* Effect.flip(PositionTpsl.placePositionTpsl(inheriting({ stopLossTriggerPrice }, bare)))
      assert.instanceOf(error, BitgetRequestError)
      assert.strictEqual(requests.length, 1)
    }).pipe(Effect.provide(layer))
  })
})

describe("hostile answers end in bounded, typed failures", () => {
  it.effect("an answer nested 100,000 arrays deep (finding 3)", () => {
    const depth = 100_000
    const data = `${"[".repeat(depth)}${"]".repeat(depth)}`
    const { layer } = exchange(() => ({ body: `{"code":"00000","msg":"success","data":[${data}]}` }))
    return Effect.gen(function*() {
      const error = yield* Effect.flip(Symbols.symbols())
      assert.instanceOf(error, BitgetDecodeError)
      // one problem, at the record, quoting nothing of the value (Effect 3's message showed a preview, `actual [[[…]]]`;
      // Schema 4 reports no input values)
      assert.match(error.issue, /^0: Expected [^,;]+$/)
      assert.notInclude(error.issue, "[[")
      assert.isBelow(error.message.length, 1200)
    }).pipe(Effect.provide(layer))
  })

  it.effect("an answer with 200,000 members in one record", () => {
    const record = `{${Array.from({ length: 200_000 }, (_, i) => `"k${i}":${i}`).join(",")}}`
    const { layer } = exchange(() => ({ body: `{"code":"00000","msg":"success","data":[${record}]}` }))
    return Effect.gen(function*() {
      const error = yield* Effect.flip(Symbols.symbols())
      assert.instanceOf(error, BitgetDecodeError)
      assert.isBelow(error.message.length, 1200)
    }).pipe(Effect.provide(layer))
  })

  it.effect("a decimal with a huge exponent in an answer; any number of digits decodes exactly (finding 2)", () => {
    const rate = (makerFeeRate: string) => ({
      symbol: "BTCUSDT",
      businessType: "spot",
      makerFeeRate,
      takerFeeRate: "0"
    })
    const digits = `0.${"1234567890".repeat(30)}1`
    const answers = [ok([rate("1e999999999")]), ok([rate(digits)])]
    const { layer } = exchange(() => answers.shift()!)
    return Effect.gen(function*() {
      const error = yield* Effect.flip(TradeRates.tradeRates({ businessType: "spot" }))
      assert.instanceOf(error, BitgetDecodeError)
      assert.match(error.issue, /exponent out of range/)
      const [exact] = yield* TradeRates.tradeRates({ businessType: "spot" })
      assert.strictEqual(Schemas.formatDecimal(exact!.makerFeeRate), digits)
    }).pipe(Effect.provide(layer))
  })

  it.effect("a decimal of a million digits is refused without parsing it", () => {
    const rate = { symbol: "BTCUSDT", businessType: "spot", makerFeeRate: "1".repeat(1_000_000), takerFeeRate: "0" }
    const { layer } = exchange(() => ok([rate]))
    return Effect.gen(function*() {
      const error = yield* Effect.flip(TradeRates.tradeRates({ businessType: "spot" }))
      assert.instanceOf(error, BitgetDecodeError)
      assert.match(error.issue, /at most 1024 characters/)
    }).pipe(Effect.provide(layer))
  })

  // the backtracking mask took ~30 s on this body (quadratic in its length), so the test's time limit fails it
  it.effect("excerpts are masked in linear time: 256 KB of `sign` after a quote (finding 4)", () => {
    const body = `"${"sign".repeat(65_536)}`
    const { layer } = exchange(() => ({ status: 502, body }))
    return Effect.gen(function*() {
      const error = yield* Effect.flip(Symbols.symbols())
      assert.strictEqual(error._tag, "BitgetHttpError")
      assert.isAtMost(error.message.length, 400)
    }).pipe(Effect.provide(layer))
  }, 10_000)

  it.effect("a body larger than the cap is not read past it (finding 7)", () => {
    let pulled = 0
    const endless = () =>
      new ReadableStream<Uint8Array>({
        pull: (controller) => {
          pulled += 65_536
          controller.enqueue(new Uint8Array(65_536).fill(0x61))
        }
      })
    const http = HttpClient.make((request) =>
      Effect.succeed(HttpClientResponse.fromWeb(request, new Response(endless(), { status: 200 })))
    )
    const layer = clientOver(http, { maxResponseBytes: 1_000_000 })
    return Effect.gen(function*() {
      const error = yield* Effect.flip(Symbols.symbols())
      assert.instanceOf(error, BitgetDecodeError)
      assert.match(error.issue, /larger than the 1000000 bytes allowed/)
      assert.isBelow(pulled, 2_000_000)
    }).pipe(Effect.provide(layer))
  })

  it.live("a body dripped a byte at a time is held to the call's deadline", () => {
    let timer: ReturnType<typeof setInterval> | undefined
    const drip = () =>
      new ReadableStream<Uint8Array>({
        start: (controller) => {
          timer = setInterval(() => controller.enqueue(new Uint8Array([0x20])), 20)
        },
        cancel: () => clearInterval(timer)
      })
    const http = HttpClient.make((request) =>
      Effect.succeed(HttpClientResponse.fromWeb(request, new Response(drip(), { status: 200 })))
    )
    return Effect.gen(function*() {
      const error = yield* Effect.flip(Symbols.symbols())
      assert.strictEqual(error._tag, "BitgetTransportError")
      assert.strictEqual(error._tag === "BitgetTransportError" && error.reason, "Timeout")
    }).pipe(
      Effect.provide(clientOver(http, { timeout: "300 millis" })),
      Effect.ensuring(Effect.sync(() => clearInterval(timer)))
    )
  })

  it.effect("a declared content-length over the cap fails before reading", () => {
    const { layer } = exchange(() => ({ body: "{}", headers: { "content-length": "99999999999" } }), {
      credentials,
      maxResponseBytes: 1024
    })
    return Effect.gen(function*() {
      const error = yield* Effect.flip(Symbols.symbols())
      assert.instanceOf(error, BitgetDecodeError)
      assert.match(error.issue, /larger than the 1024 bytes allowed/)
    }).pipe(Effect.provide(layer))
  })
})

/** The client over a given HTTP layer, retries and limits off. */
const clientOver = (http: HttpClient.HttpClient, options: BitgetConfig.BitgetOptionsInput = {}) =>
  BitgetClient.layer.pipe(
    Layer.provide(
      Layer.mergeAll(
        Layer.succeed(HttpClient.HttpClient, http),
        syncSigner,
        BitgetConfig.layer({
          baseUrl,
          credentials,
          retry: { maxAttempts: 1 },
          rateLimit: { enabled: false },
          ...options
        })
      )
    )
  )

describe("secrets a server echoes never leave (findings 5 and 6)", () => {
  // a space and a `(` make the `+` and form spellings differ from the URL ones and from each other
  const passphrase = "pass/phrase+\"quoted\" &more (ok!)"
  const apiKey = "bg_echoed_api_key_123"
  const leaky = Credentials.hmac({ apiKey, secret: hmacSecret, passphrase })

  it("the spellings are distinct, so that each one dropped by the scrubber shows", () => {
    assert.strictEqual(new Set(spellings(passphrase).map(([, spelled]) => spelled)).size, 11)
  })

  /**
   * Every request header as `name=value` in spelling `k` of its value, the
   * credentials first (so no cap on a quoted text cuts them off); `seen` gets
   * each value.
   */
  const echo = (request: HttpClientRequest.HttpClientRequest, k: number, seen: Array<string>) =>
    Object.entries(request.headers).sort(([a], [b]) =>
      Number(b.startsWith("access-")) - Number(a.startsWith("access-"))
    )
      .map(([name, value]) => {
        seen.push(value)
        const forms = secretSpellings(value)
        return `${name}=${(forms[k % forms.length] as readonly [string, string])[1]}`
      })

  /** A tracer over `tracer` that records each span's name, attributes, events and exit in `spans`. */
  const recording = (tracer: Tracer.Tracer, spans: Array<Record<string, unknown>>): Tracer.Tracer => ({
    ...tracer,
    span: (options) => {
      const span = tracer.span(options)
      const attributes: Record<string, unknown> = {}
      const events: Array<unknown> = []
      const record: Record<string, unknown> = { name: options.name, attributes, events }
      spans.push(record)
      return Object.assign(Object.create(span), {
        attribute: (key: string, value: unknown) => {
          attributes[key] = value
          span.attribute(key, value)
        },
        event: (name: string, time: bigint, eventAttributes?: Record<string, unknown>) => {
          events.push({ name, eventAttributes })
          span.event(name, time, eventAttributes)
        },
        end: (time: bigint, exit: Exit.Exit<unknown, unknown>) => {
          record.exit = exit
          span.end(time, exit)
        }
      })
    }
  })

  /**
   * Makes a signed call over `http` and asserts that no spelling of a secret
   * (the key, passphrase, HMAC secret, or a signature: the values over 40
   * characters that `seen` got; each in every spelling of `secretSpellings`)
   * is in any text the failure shows: message, JSON, inspect, causes, logs,
   * span attributes, events and exits; and that the message shows where each
   * credential was echoed (`<redacted>` once each at least), so that a
   * spelling left in would have shown.
   */
  const assertNoSecretShows = (http: HttpClient.HttpClient, seen: ReadonlyArray<string>, k: number) => {
    const texts: Array<string> = []
    const spans: Array<Record<string, unknown>> = []
    // the message as a console logger would print it, and as a JSON logger would; the tracer logger stays, as it
    // puts log lines on spans as events
    const logs = Logger.layer([
      Logger.make(({ cause, message }) =>
        texts.push(`${Formatter.format(message)} ${Formatter.formatJson(message)} ${Cause.pretty(cause)}`)
      ),
      Logger.tracerLogger
    ])
    return Effect.gen(function*() {
      const tracer = yield* Effect.tracer
      const exit = yield* Effect.exit(P2pOrders.p2pOrders()).pipe(
        Effect.withSpan("caller"),
        Effect.provide(
          Layer.mergeAll(
            clientOver(http, { credentials: leaky }),
            Layer.succeed(Tracer.Tracer, recording(tracer, spans))
          )
        )
      )
      assert.isTrue(Exit.isFailure(exit))
      const error = Option.getOrThrow(Cause.findErrorOption((exit as Exit.Failure<unknown, Error>).cause))
      yield* Effect.logError("the call failed", error)
      texts.push(
        error.message,
        String(error),
        JSON.stringify(error),
        inspect(error, { depth: 10 }),
        Cause.pretty((exit as Exit.Failure<unknown, unknown>).cause),
        inspect(spans, { depth: 12 }),
        JSON.stringify(spans, (_, value) => (typeof value === "bigint" ? String(value) : value))
      )
      assert.include(seen, apiKey)
      assert.isTrue(texts.some((text) => text.includes("the call failed")), "the log line was not recorded")
      const secrets = [apiKey, passphrase, hmacSecret, ...seen.filter((value) => value.length > 40)]
      for (const secret of secrets) {
        for (const [name, spelled] of secretSpellings(secret)) {
          for (const text of texts) {
            if (text.includes(spelled)) {
              assert.fail(`echo ${k}: a secret shows ${name}: ${JSON.stringify(spelled)} in ${text.slice(0, 400)}`)
            }
          }
        }
      }
      assert.isAtLeast(
        error.message.split("<redacted>").length - 1,
        3,
        `echo ${k}: the key, the passphrase and the signature were echoed into the message, each scrubbed`
      )
      assert.deepStrictEqual(spans.map((span) => span.name), [
        "caller",
        "bitget p2p.orderList",
        "GET /api/v2/p2p/orderList"
      ])
      return error
    }).pipe(Effect.provide(logs))
  }

  /** The echoes `0` to `spellingCount - 1`: each spelling of every secret in turn. */
  const echoes = Array.from({ length: spellingCount }, (_, k) => k)

  it.effect("in messages, JSON, inspect, causes, logs, span attributes, events and exits", () => {
    const seen: Array<string> = []
    // an exchange that echoes every request header, in spelling `k`, into its status line, body, msg and headers
    const http = (k: number) =>
      HttpClient.make((request) =>
        Effect.sync(() => {
          const echoed = echo(request, k, seen)
          const msg = `bad request ${echoed.join(" ")}`
          const body = `{"code":"40009","msg":${JSON.stringify(msg)},"data":${JSON.stringify(echoed)},"raw":"${
            echoed.join(";")
          }"}`
          return HttpClientResponse.fromWeb(
            request,
            new Response(body, {
              status: 400,
              headers: { "x-echo": encodeURIComponent(echoed.join(";")) }
            })
          )
        })
      )
    return Effect.forEach(echoes, (k) => assertNoSecretShows(http(k), seen, k), { discard: true })
  })

  it.effect("nor when an HTTP layer throws an error that quotes the request: Unexpected, its text kept", () => {
    const seen: Array<string> = []
    // what fetch throws for a header it refuses quotes the value; this one quotes every header in spelling `k`
    const http = (k: number) =>
      HttpClient.make((request) =>
        Effect.fail(
          new HttpClientError.HttpClientError({
            reason: new HttpClientError.TransportError({
              request,
              cause: new TypeError(`Headers.append: invalid header value ${echo(request, k, seen).join(" ")}`)
            })
          })
        )
      )
    return Effect.forEach(echoes, (k) =>
      Effect.gen(function*() {
        const error = yield* assertNoSecretShows(http(k), seen, k)
        assert.isTrue(error instanceof BitgetTransportError && error.reason === "Unexpected")
        assert.include(
          error.message,
          "transport failure (Unexpected): request transport failure: TypeError: Headers.append"
        )
        assert.isAtMost(error.message.length, 500)
      }), { discard: true })
  })
})
