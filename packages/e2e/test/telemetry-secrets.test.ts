/**
 * No secret is reachable from telemetry (issue 30, point 6): every operation,
 * through the real client (undici, node:crypto) with an HMAC and an RSA key,
 * against the sandbox (successes, API errors, broken bodies, gateway pages,
 * resets, timeouts, retries, a refused timestamp and its resync) and against
 * a server that echoes every request header (the key, the passphrase and the
 * signature) in every spelling into its answers (messages, codes, data,
 * records that decode, gateway pages, headers).
 *
 * A tracer and a logger keep everything they are handed (span names, options,
 * attributes, events, links, every `end` and its exit; log messages, causes,
 * annotations and spans), and the metrics are read at the end. Each is
 * written out as `JSON.stringify` writes it (`toJSON` honoured), as a walk of
 * everything reachable (own and inherited keys, symbols, non-enumerable
 * properties, getters, map and set entries, `toString`) and as `util.inspect`
 * shows it (`showHidden`, no depth limit, with and without custom inspection).
 * The text is searched for each secret (API key, passphrase, HMAC secret, RSA
 * private key and each line of it, every signature sent) in spellings listed
 * here, independently of the library's scrubber.
 */
import {
  BatchCancel,
  BitgetClient,
  BitgetConfig,
  Credentials,
  FundNetFlow,
  FuturesHistory,
  HttpTransport,
  OpenInterestLimit,
  P2pOrders,
  PositionTpsl,
  RpiOrderBook,
  Symbols,
  TaxRecords,
  TradeRates
} from "@bitget-effect/core"
import { NodeSigner, UndiciTransport } from "@bitget-effect/platform-node"
import { Fault, Sandbox } from "@bitget-effect/sandbox"
import { assert, describe, it } from "@effect/vitest"
import {
  Arbitrary,
  BigDecimal,
  Cause,
  Context,
  DateTime,
  Effect,
  Exit,
  Layer,
  Logger,
  Metric,
  Option,
  Predicate,
  References,
  Schema,
  Stream,
  Tracer
} from "effect"
import { generateKeyPairSync } from "node:crypto"
import { createServer, type IncomingMessage } from "node:http"
import type { AddressInfo } from "node:net"
import * as util from "node:util"
import { spellings as echoSpellings } from "../../core/test/spellings.js"
import type { ByEndpoint } from "./support.js"
import { covered, descriptors, onSandbox } from "./support.js"

// ---------------------------------------------------------------------------
// Spellings of a secret (independent of the library's scrubber)
// ---------------------------------------------------------------------------

const utf8 = (text: string): Buffer => Buffer.from(text, "utf8")

/** `\uXXXX` for each character `escaped` picks, in lower or upper hex. */
const unicodeEscapes = (text: string, escaped: RegExp, upper: boolean): string =>
  text.replace(escaped, (char) => {
    const hex = char.charCodeAt(0).toString(16).padStart(4, "0")
    return `\\u${upper ? hex.toUpperCase() : hex}`
  })

/** The spellings of a secret a server echoes it in (the tests' own list, shared with the hostile servers). */
const echoed = (
  secret: string
): ReadonlyArray<string> => [...new Set(echoSpellings(secret).map(([, spelled]) => spelled))]

/**
 * Every spelling of a secret searched for: those a server echoes, and those a
 * logger or an exporter may write: `\uXXXX` of every character, base64,
 * base64url and hex of its UTF-8 bytes.
 */
const spellings = (secret: string): ReadonlyArray<string> => [
  ...new Set([
    ...echoed(secret),
    unicodeEscapes(secret, /[\s\S]/g, false),
    unicodeEscapes(secret, /[\s\S]/g, true),
    utf8(secret).toString("base64"),
    utf8(secret).toString("base64url"),
    utf8(secret).toString("hex")
  ])
]

/** The spellings of a signature (base64): its own, and its bytes in base64url and hex. */
const signatureForms = (signature: string): ReadonlyArray<string> => {
  const bytes = Buffer.from(signature, "base64")
  return [signature, bytes.toString("base64url"), bytes.toString("hex"), bytes.toString("hex").toUpperCase()]
}

/** The parts of a credential (`secret`: the HMAC secret or the RSA private key's PEM). */
interface Secrets {
  readonly apiKey: string
  readonly passphrase: string
  readonly secret: string
}

/** What must never show: each part of a credential, and each line of a private key. */
const secretParts = ({ apiKey, passphrase, secret }: Secrets): ReadonlyArray<readonly [string, string]> => [
  ["API key", apiKey],
  ["passphrase", passphrase],
  ["signing key", secret],
  ...secret.split(/\r?\n/).filter((line) => line.length >= 40).map((line) =>
    ["a line of the private key", line] as const
  )
]

// ---------------------------------------------------------------------------
// The search
// ---------------------------------------------------------------------------

/** Text with JSON escapes (`\uXXXX`, `\/`) and percent-escapes decoded, in which a spelled signature is plain. */
const decodedVariants = (text: string): ReadonlyArray<string> => [
  text,
  text.replace(/\\u([0-9a-fA-F]{4})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))).replaceAll(
    "\\/",
    "/"
  ),
  text.replace(/%([0-9a-fA-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
]

/** Runs of characters a spelled signature is made of. */
const signatureLike = /[A-Za-z0-9+/=_-]{40,}/g

/** A search for secrets: fixed needles, and signatures found among the runs of base64 or hex characters. */
interface Needles {
  readonly fixed: ReadonlyArray<readonly [label: string, needle: string]>
  readonly signatures: ReadonlySet<string>
  readonly lengths: ReadonlySet<number>
}

/** The needles of some credentials and of the signatures sent. */
const needlesOf = (credentials: ReadonlyArray<Secrets>, signatures: ReadonlySet<string>): Needles => {
  const fixed = credentials.flatMap(secretParts).flatMap(([label, secret]) =>
    spellings(secret).map((form, index) => [`${label} (spelling ${index})`, form] as const)
  )
  const forms = new Set([...signatures].flatMap(signatureForms))
  return { fixed, signatures: forms, lengths: new Set([...forms].map((form) => form.length)) }
}

/** Where a needle is in a text, with some text around it. */
const around = (text: string, needle: string): string => {
  const at = text.indexOf(needle)
  return JSON.stringify(text.slice(Math.max(0, at - 60), at + needle.length + 20))
}

/** The secrets a text holds, by label (a fixed needle with the text around it). */
const leaksIn = (text: string, needles: Needles): ReadonlyArray<string> => {
  const found = needles.fixed.filter(([, needle]) => text.includes(needle)).map(([label, needle]) =>
    `${label} in ${around(text, needle)}`
  )
  for (const variant of decodedVariants(text)) {
    for (const [run] of variant.matchAll(signatureLike)) {
      for (const length of needles.lengths) {
        for (let at = 0; at + length <= run.length; at++) {
          const signature = run.slice(at, at + length)
          if (needles.signatures.has(signature)) found.push(`a signature in ${around(variant, signature)}`)
        }
      }
    }
  }
  return [...new Set(found)]
}

// ---------------------------------------------------------------------------
// Writing everything out
// ---------------------------------------------------------------------------

/** The prototypes a walk stops at (theirs are the language's properties, not the value's). */
const builtins = new Set<unknown>([
  Object.prototype,
  Array.prototype,
  Function.prototype,
  Error.prototype,
  Map.prototype,
  Set.prototype,
  Date.prototype,
  RegExp.prototype,
  Promise.prototype
])

/** A property of a value (a getter is run), or what reading it threw. */
const read = (value: object, key: PropertyKey): unknown => {
  try {
    return Reflect.get(value, key)
  } catch (error) {
    return `<threw ${String(error)}>`
  }
}

/** `String(value)` where a value has a `toString` of its own making. */
const ownString = (value: object): string | undefined => {
  try {
    return Array.isArray(value) || value.toString === Object.prototype.toString ? undefined : String(value)
  } catch {
    return undefined
  }
}

/**
 * Everything reachable from a value as a JSON tree: every own and inherited
 * key (symbols and non-enumerable ones, getters run) up to the built-in
 * prototypes, map and set entries, bytes as text, functions by their own
 * properties; each object written once.
 */
const walk = (root: unknown): unknown => {
  const seen = new Set<object>()
  const visit = (value: unknown): unknown => {
    if (typeof value === "bigint" || typeof value === "symbol") return String(value)
    if ((typeof value !== "object" && typeof value !== "function") || value === null) return value
    if (seen.has(value)) return "<seen>"
    seen.add(value)
    if (ArrayBuffer.isView(value)) return Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString()
    const out: Record<string, unknown> = { "<string>": ownString(value) }
    if (value instanceof Map) out["<entries>"] = [...value].map(([key, item]) => [visit(key), visit(item)])
    if (value instanceof Set) out["<entries>"] = [...value].map(visit)
    const skipped = typeof value === "function" ? ["prototype", "caller", "arguments"] : []
    for (let at: object | null = value; at !== null && !builtins.has(at); at = Object.getPrototypeOf(at)) {
      for (const key of Reflect.ownKeys(at)) {
        const name = String(key)
        if (!Object.hasOwn(out, name) && !skipped.includes(name)) out[name] = visit(read(value, key))
      }
    }
    return out
  }
  return visit(root)
}

/** `JSON.stringify` as a JSON logger calls it (`toJSON` honoured), bigints as text and cycles cut. */
const stringify = (value: unknown): string => {
  const seen = new WeakSet<object>()
  try {
    return JSON.stringify(value, (_, item: unknown) => {
      if (typeof item === "bigint") return String(item)
      if (typeof item === "object" && item !== null) {
        if (seen.has(item)) return "<seen>"
        seen.add(item)
      }
      return item
    }) ?? "undefined"
  } catch (error) {
    return `<JSON.stringify threw ${String(error)}>`
  }
}

/** `util.inspect` at any depth, hidden properties shown, nothing cut; custom views (`inspect.custom`) or not. */
const inspect = (value: unknown, customInspect: boolean): string =>
  util.inspect(value, {
    depth: Infinity,
    showHidden: true,
    customInspect,
    maxArrayLength: Infinity,
    maxStringLength: Infinity,
    breakLength: Infinity
  })

/** A thing telemetry was handed, written out every way: where it was, and the texts. */
interface Written {
  readonly where: string
  readonly texts: ReadonlyArray<string>
}

/** How `writeOut` writes a thing out, in the order of its texts. */
const writers = [
  "JSON.stringify",
  "a walk of everything",
  "util.inspect",
  "util.inspect without custom views",
  "String"
]

/** A thing written out every way (`writers`). */
const writeOut = (where: string, value: unknown): Written => ({
  where,
  texts: [stringify(value), stringify(walk(value)), inspect(value, true), inspect(value, false), String(value)]
})

// ---------------------------------------------------------------------------
// A tracer and a logger that keep everything
// ---------------------------------------------------------------------------

/** A span that keeps every call made on it, `end` included (each of them, should there be several). */
class KeepingSpan extends Tracer.NativeSpan {
  readonly options: Parameters<Tracer.Tracer["span"]>[0]
  readonly ends: Array<{ readonly endTime: bigint; readonly exit: Exit.Exit<unknown, unknown> }> = []
  readonly added: Array<ReadonlyArray<Tracer.SpanLink>> = []
  constructor(options: Parameters<Tracer.Tracer["span"]>[0]) {
    super(options)
    this.options = options
  }
  override end(endTime: bigint, exit: Exit.Exit<unknown, unknown>): void {
    this.ends.push({ endTime, exit })
    super.end(endTime, exit)
  }
  override addLinks(links: ReadonlyArray<Tracer.SpanLink>): void {
    this.added.push(links)
    super.addLinks(links)
  }
}

/** What a span was handed, its relatives by name only (they are written out on their own). */
const spanRecord = (span: KeepingSpan) => {
  const name = (other: Tracer.AnySpan) => other._tag === "Span" ? `<span ${other.name}>` : `<external ${other.spanId}>`
  const links = (list: ReadonlyArray<Tracer.SpanLink>) =>
    list.map((link) => ({ span: name(link.span), attributes: link.attributes }))
  return {
    name: span.name,
    kind: span.kind,
    root: span.options.root,
    sampled: span.sampled,
    parent: Option.map(span.parent, name),
    annotations: span.annotations,
    links: links(span.links),
    added: span.added.map(links),
    attributes: span.attributes,
    events: span.events,
    ends: span.ends
  }
}

/** A log line as a logger is handed it, with the fiber's log annotations and spans. */
interface LogRecord {
  readonly message: unknown
  readonly level: string
  readonly cause: Cause.Cause<unknown>
  readonly annotations: unknown
  readonly spans: unknown
  readonly span: string | undefined
}

/** A tracer that keeps every span it starts in `spans`. */
const keepingTracer = (spans: Array<KeepingSpan>): Tracer.Tracer =>
  Tracer.make({
    span: (options) => {
      const span = new KeepingSpan(options)
      spans.push(span)
      return span
    }
  })

/** A logger that keeps every line in `logs`, with the fiber's log annotations, log spans and current span. */
const keepingLogger = (logs: Array<LogRecord>) =>
  Logger.make(({ cause, fiber, logLevel, message }) => {
    const current = Context.getOrUndefined(fiber.context, Tracer.ParentSpan)
    logs.push({
      message,
      level: logLevel,
      cause,
      annotations: fiber.getRef(References.CurrentLogAnnotations),
      spans: fiber.getRef(References.CurrentLogSpans),
      span: current?._tag === "Span" ? current.name : undefined
    })
  })

/** How a call ended: `success`, or its failure's tag. */
const outcomeOf = (exit: Exit.Exit<unknown, unknown>): string =>
  Exit.isSuccess(exit) ? "success" : Option.match(Cause.findErrorOption(exit.cause), {
    onNone: () => (Cause.hasInterruptsOnly(exit.cause) ? "interrupted" : "defect"),
    onSome: (error) => (Predicate.hasProperty(error, "_tag") ? String(error._tag) : "untagged")
  })

/** What telemetry kept, how to run calls under its tracer and logger, and how they ended. */
const makeObserver = () => {
  const spans: Array<KeepingSpan> = []
  const logs: Array<LogRecord> = []
  const outcomes = new Map<string, number>()
  const tracer = keepingTracer(spans)
  const loggers = Logger.layer([keepingLogger(logs), Logger.tracerLogger])
  const observed = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
    effect.pipe(
      Effect.withTracer(tracer),
      Effect.provideService(References.MinimumLogLevel, "All"),
      Effect.provide(loggers)
    )
  const tally = (exit: Exit.Exit<unknown, unknown>) =>
    Effect.sync(() => {
      const outcome = outcomeOf(exit)
      outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1)
    })
  /** Runs each call once, in order, after `before`; the exits. */
  const runEach = <R = never>(
    calls: ReadonlyArray<Call>,
    before: Effect.Effect<void, never, R> = Effect.void
  ): Effect.Effect<Array<Exit.Exit<unknown, unknown>>, never, R | BitgetClient.BitgetClient> =>
    Effect.forEach(calls, (call) => Effect.andThen(before, Effect.exit(call)).pipe(Effect.tap(tally)))
  /** Everything kept, written out; the metrics as they are now. */
  const written = Effect.map(Metric.snapshot, (metrics): ReadonlyArray<Written> => [
    ...spans.map((span) => writeOut(`span ${span.name}`, spanRecord(span))),
    ...logs.map((log) => writeOut(`log ${log.level} in ${log.span ?? "no span"}`, log)),
    writeOut("metrics", metrics)
  ])
  return { spans, logs, outcomes, observed, runEach, written }
}

type Observer = ReturnType<typeof makeObserver>

/** Asserts no secret of the credentials, and no signature sent, shows anywhere telemetry was handed something. */
const assertNoLeak = (
  written: ReadonlyArray<Written>,
  credentials: ReadonlyArray<Secrets>,
  signatures: ReadonlySet<string>
) => {
  const needles = needlesOf(credentials, signatures)
  const leaks = written.flatMap(({ texts, where }) =>
    texts.flatMap((text, form) => {
      const found = leaksIn(text, needles)
      return found.length === 0 ? [] : [`${where} (${writers[form]}): ${found.join(", ")}`]
    })
  )
  assert.isAbove(signatures.size, 0, "no signature was sent")
  assert.deepStrictEqual([...new Set(leaks)].slice(0, 20), [], "secrets reachable from telemetry")
}

// ---------------------------------------------------------------------------
// The client, and the calls
// ---------------------------------------------------------------------------

/** Undici, keeping each signature a request carries. */
const signatureKeeping = (signatures: Set<string>): Layer.Layer<HttpTransport.HttpTransport> =>
  Layer.effect(
    HttpTransport.HttpTransport,
    Effect.map(HttpTransport.HttpTransport, (inner) =>
      HttpTransport.HttpTransport.of({
        send: (request) => {
          const signature = request.headers["ACCESS-SIGN"]
          if (signature !== undefined) signatures.add(signature)
          return inner.send(request)
        }
      }))
  ).pipe(Layer.provide(UndiciTransport.layer()))

/** The real client on `baseUrl`: two attempts, short deadline and backoff, no client-side limiter. */
const client = (
  baseUrl: string,
  credentials: Credentials.Credentials,
  signatures: Set<string>
): Layer.Layer<BitgetClient.BitgetClient> =>
  BitgetClient.layerTransport.pipe(
    Layer.provide(Layer.mergeAll(
      NodeSigner.layer,
      signatureKeeping(signatures),
      BitgetConfig.layer({
        baseUrl,
        credentials,
        timeout: "300 millis",
        retry: { maxAttempts: 2, baseDelay: "10 millis" },
        rateLimit: { enabled: false }
      })
    ))
  )

/** The client's credentials for a key. */
const credentialsOf = (key: Secrets & { readonly rsa: boolean }): Credentials.Credentials =>
  key.rsa
    ? Credentials.rsa({ apiKey: key.apiKey, passphrase: key.passphrase, privateKeyPem: key.secret })
    : Credentials.hmac(key)

type Call = Effect.Effect<unknown, unknown, BitgetClient.BitgetClient>

/** Runs a call over the last day. */
const lastDay = <A, E, R>(
  run: (window: { startTime: DateTime.Utc; endTime: DateTime.Utc }) => Effect.Effect<A, E, R>
) => Effect.flatMap(DateTime.now, (endTime) => run({ startTime: DateTime.subtract(endTime, { days: 1 }), endTime }))

/** The calls of every endpoint (the ten operations and the clock's sync), by endpoint. */
const callsByEndpoint: ByEndpoint<ReadonlyArray<Call>> = {
  "spot.symbols": [Symbols.symbols({ symbol: "BTCUSDT" })],
  "spot.fundNetFlow": [FundNetFlow.fundNetFlow({ symbol: "BTCUSDT" })],
  "common.allTradeRate": [TradeRates.tradeRates({ businessType: "mix", symbol: "BTCUSDT" })],
  "account.openInterestLimit": [
    OpenInterestLimit.openInterestLimit({ symbol: "BTCUSDT", category: "USDT-FUTURES" })
  ],
  "market.rpiOrderBook": [RpiOrderBook.rpiOrderBook({ category: "SPOT", symbol: "BTCUSDT", limit: 5 })],
  "spot.batchCancelOrders": [
    BatchCancel.batchCancelOrders({ symbol: "BTCUSDT", orderList: [{ orderId: "1001" }, { orderId: "1002" }] }),
    BatchCancel.cancelOrders([{ symbol: "BTCUSDT", clientOid: "a-1" }, { symbol: "ETHUSDT", clientOid: "b-2" }])
  ],
  "mix.placePositionTpsl": [
    PositionTpsl.placePositionTpsl({
      marginCoin: "USDT",
      productType: "USDT-FUTURES",
      symbol: "BTCUSDT",
      holdSide: "long",
      stopLossTriggerPrice: BigDecimal.fromStringUnsafe("100.5")
    })
  ],
  // each paged endpoint also as its stream, whose pages have spans of their own
  "p2p.orderList": [
    lastDay((window) => P2pOrders.p2pOrders({ ...window, limit: 10 })),
    lastDay((window) => Stream.runDrain(Stream.take(P2pOrders.stream({ ...window, pageSize: 10 }), 25)))
  ],
  "tax.spotRecords": [
    lastDay((window) => TaxRecords.spotRecords({ ...window, limit: 10 })),
    lastDay((window) => Stream.runDrain(Stream.take(TaxRecords.stream({ ...window, pageSize: 10 }), 25)))
  ],
  "mix.ordersHistory": [
    FuturesHistory.ordersHistory({ productType: "USDT-FUTURES", limit: 10 }),
    lastDay((window) =>
      Stream.runDrain(Stream.take(FuturesHistory.stream({ ...window, productType: "USDT-FUTURES", pageSize: 10 }), 25))
    )
  ],
  "public.time": [Effect.flatMap(BitgetClient.BitgetClient, (service) => service.syncClock)]
}

// ---------------------------------------------------------------------------
// A server that echoes the credentials
// ---------------------------------------------------------------------------

/** Where the echo server puts the request's credential headers. */
const placements = [
  "msg",
  "msg-200",
  "code",
  "data",
  "data-fields",
  "non-json",
  "html",
  "not-envelope",
  "headers",
  "truncated"
] as const

type Placement = (typeof placements)[number]

/** An API envelope's text. */
const envelope = (code: unknown, msg: string, data: unknown) =>
  JSON.stringify({ code, msg, requestTime: Date.now(), data })

/** A valid `data` for each path, generated from the endpoint's response schema. */
const validData: ReadonlyMap<string, () => unknown> = new Map(descriptors.map((endpoint) => {
  const arbitrary = Arbitrary.schema(endpoint.response)
  const encode = Schema.encodeUnknownSync(endpoint.response)
  let seed = 1
  return [endpoint.path, () => {
    const [value] = Effect.runSync(Arbitrary.sampleEffect(arbitrary, { seed: seed++, count: 1 }))
    return value === undefined ? null : encode(value)
  }]
}))

/** A copy of a JSON value whose text leaves (not numbers) are replaced, in turn, by the given texts. */
const replaceTexts = (value: unknown, texts: ReadonlyArray<string>): unknown => {
  let next = 0
  const go = (item: unknown): unknown => {
    if (typeof item === "string") return /^-?\d/.test(item) ? item : texts[next++ % texts.length]
    if (Array.isArray(item)) return item.map(go)
    if (typeof item === "object" && item !== null) {
      return Object.fromEntries(Object.entries(item).map(([key, inner]) => [key, go(inner)]))
    }
    return item
  }
  return go(value)
}

/** An answer of the echo server. */
interface Answer {
  readonly status: number
  readonly headers: Record<string, string>
  readonly body: string
}

const json = { "content-type": "application/json" }

/** Where the echo server puts the credentials, and which of their spellings (an index, taken modulo their number). */
interface EchoState {
  placement: Placement
  spelling: number
}

/**
 * The answer that puts the request's credential headers (key, passphrase,
 * signature) at the state's placement: `name=value` in one spelling (so that
 * no cap on a quoted text cuts it off), or every spelling in turn in place of
 * the text fields of a valid answer.
 */
const echoAnswer = ({ placement, spelling }: EchoState, request: IncomingMessage, path: string): Answer => {
  const credential = Object.entries(request.headers).flatMap(([name, value]) =>
    typeof value === "string" && name.startsWith("access-") && name !== "access-timestamp"
      ? [[name, value] as const]
      : []
  )
  const spelled = credential.flatMap(([, value]) => echoed(value))
  const text = credential.map(([name, value]) => {
    const forms = echoed(value)
    return `${name}=${forms[spelling % forms.length]}`
  }).join("; ")
  switch (placement) {
    case "msg":
      return { status: 400, headers: json, body: envelope("40009", text, null) }
    case "msg-200":
      return { status: 200, headers: json, body: envelope("40012", `bad: ${text}`, null) }
    case "code":
      return { status: 200, headers: json, body: envelope(credential[0]?.[1] ?? "40009", "error", null) }
    case "data":
      return { status: 200, headers: json, body: envelope("00000", "success", Object.fromEntries(credential)) }
    case "data-fields":
      return {
        status: 200,
        headers: json,
        body: envelope("00000", "success", replaceTexts(validData.get(path)?.() ?? null, [...spelled, "x"]))
      }
    case "non-json":
      return { status: 502, headers: { "content-type": "text/plain" }, body: `denied: ${text}` }
    case "html":
      return { status: 503, headers: { "content-type": "text/html" }, body: `<html><pre>${text}</pre></html>` }
    case "not-envelope":
      return { status: 200, headers: json, body: JSON.stringify({ error: text, detail: spelled }) }
    case "headers":
      return {
        status: 429,
        headers: {
          ...json,
          ...Object.fromEntries(credential.map(([name, value]) => [`x-echo-${name}`, value])),
          "retry-after": "0"
        },
        body: envelope("429", `slow down ${text}`, null)
      }
    case "truncated": {
      const body = envelope("40009", text, null)
      return { status: 400, headers: json, body: body.slice(0, Math.floor(body.length * 0.8)) }
    }
  }
}

/** A running echo server: its URL, what it echoes where (set before each call), and how to stop it. */
interface Echo {
  readonly url: string
  readonly state: EchoState
  readonly close: () => Promise<void>
}

/** Starts the echo server on 127.0.0.1; the clock's endpoint answers the time. */
const startEcho = (): Promise<Echo> => {
  const state: EchoState = { placement: placements[0], spelling: 0 }
  const server = createServer((request, response) => {
    request.resume()
    request.on("end", () => {
      const path = (request.url ?? "/").split("?")[0] ?? "/"
      const answer: Answer = path === "/api/v2/public/time"
        ? { status: 200, headers: json, body: envelope("00000", "success", { serverTime: String(Date.now()) }) }
        : echoAnswer(state, request, path)
      response.writeHead(answer.status, { ...answer.headers, "content-length": Buffer.byteLength(answer.body) })
      response.end(answer.body)
    })
  })
  const close = () => {
    server.closeAllConnections()
    return new Promise<void>((done) => server.close(() => done()))
  }
  return new Promise((resolve) =>
    server.listen(
      0,
      "127.0.0.1",
      () => resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, state, close })
    )
  )
}

/** The echo server, for the scope. */
const echoServer = Effect.acquireRelease(Effect.promise(startEcho), (echo) => Effect.promise(echo.close))

// ---------------------------------------------------------------------------
// The tests
// ---------------------------------------------------------------------------

/** Credentials whose parts spell differently JSON-escaped, URL-encoded and form-encoded. */
const echoKeys = (): ReadonlyArray<Secrets & { readonly rsa: boolean }> => {
  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 })
  return [
    {
      rsa: false,
      apiKey: "bg_echo KEY/7f+3a\"&=~\\9c2e",
      passphrase: "echo PASS\"/phrase+ & <x>",
      secret: "echo-SECRET \"0d9e\"\\ é ✓ 4321"
    },
    {
      rsa: true,
      apiKey: "bg_echo RSA/key+\"1\"&x=y",
      passphrase: "rsa PASS/phrase+ \"2\"",
      secret: privateKey.export({ type: "pkcs8", format: "pem" }).toString()
    }
  ]
}

/**
 * The faults a call meets once on the sandbox, then is retried past (or fails
 * with); the slow ones (a 429 waits a whole window before its retry, a delay
 * a whole deadline) only for the calls named in `slowFaultsFor`.
 */
const faultsWith = (echoed: string): ReadonlyArray<readonly [Fault.Fault, slow: boolean]> => [
  [Fault.httpError(503), false],
  [Fault.connectionReset, false],
  [Fault.truncatedJson, false],
  [Fault.invalidJson, false],
  [Fault.errorCode("40009", echoed), false],
  [Fault.tooManyRequests, true],
  [Fault.delay("450 millis"), true]
]

/** The endpoints whose calls meet the slow faults: a public, a signed, an optionally signed and an unsafe one. */
const slowFaultsFor = new Set(["spot.symbols", "p2p.orderList", "market.rpiOrderBook", "mix.placePositionTpsl"])

/** Every spelling of each part of some credentials, one after the other: what a server may echo. */
const echoOf = (keys: ReadonlyArray<Secrets>): string =>
  keys.flatMap((key) => [key.apiKey, key.passphrase, key.secret].flatMap((part) => echoed(part)))
    .join(" | ")

/** Asserts what the runs met: every kind of outcome, retries, a resync, spans ended both ways. */
const assertCovered = (observer: Observer, kinds: ReadonlyArray<string>) => {
  for (const kind of kinds) assert.isAbove(observer.outcomes.get(kind) ?? 0, 0, `no call ended with ${kind}`)
  const messages = observer.logs.map((log) => String(log.message))
  assert.isTrue(messages.some((message) => message.includes("retry: ")), "no retry was logged")
  const attempts = observer.spans.filter((span) => span.kind === "client")
  assert.isTrue(attempts.some((span) => span.ends.some((end) => Exit.isSuccess(end.exit))), "no attempt succeeded")
  assert.isTrue(attempts.some((span) => span.ends.some((end) => Exit.isFailure(end.exit))), "no attempt failed")
}

describe("no secret reaches a span, a log or a metric", () => {
  const table = covered(callsByEndpoint)
  const calls = table.flatMap(([, list]) => list)
  const slowCalls = table.flatMap(([endpoint, list]) => (slowFaultsFor.has(endpoint.name) ? list : []))

  onSandbox({ seed: 30, limits: false })((it) => {
    it.effect(
      "the sandbox, with HMAC and RSA keys: answers, faults, retries and a refused timestamp",
      () =>
        Effect.gen(function*() {
          const sandbox = yield* Sandbox.Sandbox
          yield* sandbox.reset
          const observer = makeObserver()
          const signatures = new Set<string>()
          const keys = [
            { ...sandbox.credentials.hmac, rsa: false },
            { ...sandbox.credentials.rsa, secret: sandbox.credentials.rsa.privateKeyPem, rsa: true }
          ]
          for (const key of keys) {
            const runs = Effect.gen(function*() {
              yield* observer.runEach(calls)
              for (const [fault, slow] of faultsWith(echoOf([key]))) {
                yield* observer.runEach(slow ? slowCalls : calls, sandbox.inject("*", fault, { times: 1 }))
                yield* sandbox.clearFaults()
              }
              yield* sandbox.setClockOffset(10 * 60_000)
              yield* observer.runEach(calls)
              yield* sandbox.setClockOffset(0)
            })
            yield* observer.observed(runs).pipe(Effect.provide(client(sandbox.url, credentialsOf(key), signatures)))
          }
          assertCovered(observer, ["success", "BitgetApiError", "BitgetDecodeError", "BitgetTransportError"])
          assert.isTrue(observer.logs.some((log) => String(log.message).startsWith("clock: synced")), "no resync")
          assertNoLeak(yield* observer.written, keys, signatures)
        }),
      240_000
    )
  })

  it.live(
    "a server that echoes the credentials and signature everywhere, with HMAC and RSA keys",
    () =>
      Effect.gen(function*() {
        const echo = yield* echoServer
        const observer = makeObserver()
        const signatures = new Set<string>()
        const keys = echoKeys()
        const carried: Array<unknown> = []
        for (const key of keys) {
          const runs = Effect.forEach(placements, (placement) =>
            Effect.flatMap(
              observer.runEach(
                calls,
                Effect.sync(() => {
                  // a call in each spelling in turn: across the placements, each spelling meets each placement
                  echo.state.placement = placement
                  echo.state.spelling++
                })
              ),
              (exits) => Effect.sync(() => exits.forEach((exit) => Exit.isSuccess(exit) && carried.push(exit.value)))
            ))
          yield* observer.observed(runs).pipe(Effect.provide(client(echo.url, credentialsOf(key), signatures)))
        }
        assertCovered(observer, ["success", "BitgetApiError", "BitgetDecodeError", "BitgetHttpError"])
        // the echoed values reached the caller: the answers did carry secrets the spans must not
        assert.isNotEmpty(
          leaksIn(inspect(carried, true), needlesOf(keys, signatures)),
          "no decoded value holds a secret"
        )
        assertNoLeak(yield* observer.written, keys, signatures)
      }),
    240_000
  )
})
