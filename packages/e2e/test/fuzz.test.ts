/**
 * A seeded fuzz run: thousands of calls of every operation and the three
 * streams, through the real client (`BitgetNode.layer`), against a hostile
 * server (`hostile.ts`) that answers each request with a random valid answer,
 * error, broken body, slow drip, reset, oversized body or echo of the
 * request's credentials.
 *
 * Every call ends as a success or a typed failure (a `BitgetError`), never a
 * defect, an interruption or a hang (a hard bound per call well above its
 * deadline, and a wall-clock bound for a blocked event loop). Nothing the
 * program can see (the error's message, `String`, JSON and `util.inspect`
 * forms, `Cause.pretty`, every log line, every span with its attributes,
 * events and exit) holds the API key, the passphrase, the secret or any
 * signature the server received, in any spelling the server echoes them in
 * (`Hostile.secretSpellings`: raw, JSON-escaped, `\uXXXX`, URL- and
 * form-encoded, a signature also unpadded), and every spelling is echoed at
 * least once. An oversized answer is not read past the configured cap, and
 * no connection is left open once the client is released.
 *
 * The run must exercise what it checks: a minimum count of successes and of
 * each typed failure (`minimumsFor`, printed with the counts), and every
 * call answered only with valid answers is a success.
 *
 * `FUZZ_SEED` (default 20250613), `FUZZ_CALLS` (default 3000), `FUZZ_ONLY`
 * (comma-separated call indices: replay only those calls, meeting the same
 * answers), `FUZZ_CONCURRENCY` (calls in flight, default 16), `FUZZ_REPORT` (a
 * path: the full report as JSON). A hang among concurrent calls is replayed
 * alone before it counts; a stall of the event loop over 500 ms is pinned on
 * the call that stalls it alone (twice) and counts as that call's hang.
 */
import {
  BatchCancel,
  BitgetClient,
  BitgetError,
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
import { BitgetNode } from "@bitget-effect/platform-node"
import { assert, describe, it } from "@effect/vitest"
import {
  Arbitrary,
  BigDecimal,
  Cause,
  type Context,
  DateTime,
  Effect,
  Exit,
  Layer,
  Logger,
  Option,
  References,
  Schema,
  Stream,
  Tracer
} from "effect"
import { writeFileSync } from "node:fs"
import * as util from "node:util"
import * as v8 from "node:v8"
import * as vm from "node:vm"
import * as Hostile from "./hostile.js"
import type { ByEndpoint } from "./support.js"
import { covered, descriptors } from "./support.js"

const seed = Number(process.env.FUZZ_SEED ?? 20_250_613)
const calls = Number(process.env.FUZZ_CALLS ?? 3_000)
const only = process.env.FUZZ_ONLY?.split(",").filter((part) => part.trim() !== "").map(Number)

/**
 * Credentials whose every part is distinctive, with characters that spell
 * differently in each of the server's spellings (`Hostile.spellings`): a
 * quote and a backslash (JSON), a slash (`\/`, `%2F`), a space (`+`) and
 * `(` `)` (form encoding).
 */
const secrets = {
  apiKey: "bg_fuzzKEY/7f3a+9c2e",
  passphrase: "fuzz\"PASS/phrase+9Q (x)",
  secret: "fuzz-SECRET-\"0d9e8f7a6b5c\\4321"
} as const

/** The client's deadline per attempt. */
const deadline = 300
/** A single call's whole budget (two attempts, backoff, a clock sync and its retry); a stream's is larger. */
const budget = { call: 1_500, stream: 4_000 }
/** Past its budget by this much a call is a hang, whether its timer fired or the event loop was blocked. */
const grace = 1_000
/** A stall of the event loop this long is a hang of every call in flight; the call causing it is found by replay. */
const blockedAfter = 500
/** The most calls replayed alone in search of what stalled the event loop. */
const maxSuspects = 15
/** Calls in flight at once (hangs are replayed alone before they count). */
const concurrency = Number(process.env.FUZZ_CONCURRENCY ?? 16)

/** The body cap configured for the run (the oversized answers are 16 MB). */
const maxResponseBytes = 1024 * 1024

// ---------------------------------------------------------------------------
// Valid answers: generated from the response schema of every endpoint core exports
// ---------------------------------------------------------------------------

const generator = <A, I>(schema: Schema.Codec<A, I>) => {
  const arbitrary = Arbitrary.schema(schema)
  const encode = Schema.encodeSync(schema)
  return (generatorSeed: number): unknown => {
    const [value] = Effect.runSync(Arbitrary.sampleEffect(arbitrary, { seed: generatorSeed | 0, count: 1 }))
    return value === undefined ? null : encode(value)
  }
}

/** A valid `data` for each path: the real clock for server time (the client resyncs on it), else a generated one. */
const validByPath: ReadonlyMap<string, (seed: number) => unknown> = new Map(
  descriptors.map((endpoint) => [
    endpoint.path,
    endpoint.path === ServerTime.endpoint.path
      ? () => ({ serverTime: String(Date.now()) })
      : generator(endpoint.response)
  ])
)

const validData = (path: string, dataSeed: number): unknown => {
  try {
    return validByPath.get(path)?.(dataSeed) ?? null
  } catch {
    return null
  }
}

// ---------------------------------------------------------------------------
// The operations, each tagged with its call index (`FZ<i>`) so the server can tell calls apart
// ---------------------------------------------------------------------------

type Run = Effect.Effect<unknown, unknown, BitgetClient.BitgetClient>

interface Operation {
  readonly name: string
  readonly stream: boolean
  readonly run: (i: number) => Run
}

const days = (n: number) => Effect.map(DateTime.now, (now) => DateTime.subtract(now, { days: n }))

/** A few elements of a stream: with pages of two, three pages. */
const firstFew = <A, E, R>(stream: Stream.Stream<A, E, R>) =>
  Effect.map(Stream.runCollect(Stream.take(stream, 5)), (items) => items.length)

/** The calls of each endpoint, by name, in the order the run draws from; an endpoint missing here fails the suite. */
const callsByEndpoint: ByEndpoint<ReadonlyArray<Operation>> = {
  "spot.symbols": [{ name: "symbols", stream: false, run: (i) => Symbols.symbols({ symbol: `FZ${i}USDT` }) }],
  "spot.fundNetFlow": [
    { name: "fundNetFlow", stream: false, run: (i) => FundNetFlow.fundNetFlow({ symbol: `FZ${i}USDT` }) }
  ],
  "common.allTradeRate": [{
    name: "tradeRates",
    stream: false,
    run: (i) => TradeRates.tradeRates({ businessType: "spot", symbol: `FZ${i}USDT` })
  }],
  "account.openInterestLimit": [{
    name: "openInterestLimit",
    stream: false,
    run: (i) => OpenInterestLimit.openInterestLimit({ symbol: `FZ${i}USDT`, category: "USDT-FUTURES" })
  }],
  "market.rpiOrderBook": [{
    name: "rpiOrderBook",
    stream: false,
    run: (i) => RpiOrderBook.rpiOrderBook({ category: "SPOT", symbol: `FZ${i}USDT`, limit: 5 })
  }],
  "spot.batchCancelOrders": [
    {
      name: "batchCancelOrders",
      stream: false,
      run: (i) =>
        BatchCancel.batchCancelOrders({ symbol: `FZ${i}USDT`, orderList: [{ orderId: "1001" }, { orderId: "1002" }] })
    },
    {
      name: "cancelOrders",
      stream: false,
      run: (i) =>
        BatchCancel.cancelOrders([
          { symbol: `FZ${i}USDT`, clientOid: `fz-${i}-a` },
          { symbol: `FZ${i}USDT`, clientOid: `fz-${i}-b` }
        ])
    }
  ],
  "mix.placePositionTpsl": [{
    name: "placePositionTpsl",
    stream: false,
    run: (i) =>
      PositionTpsl.placePositionTpsl({
        marginCoin: "USDT",
        productType: "USDT-FUTURES",
        symbol: `FZ${i}USDT`,
        holdSide: "long",
        stopLossTriggerPrice: BigDecimal.fromStringUnsafe("100.5")
      })
  }],
  "p2p.orderList": [{
    name: "p2pOrders",
    stream: false,
    run: (i) =>
      Effect.flatMap(
        Effect.all([days(1), days(0)]),
        ([startTime, endTime]) => P2pOrders.p2pOrders({ coin: `FZ${i}`, startTime, endTime, limit: 10 })
      )
  }],
  "tax.spotRecords": [{
    name: "spotRecords",
    stream: false,
    run: (i) =>
      Effect.flatMap(
        Effect.all([days(1), days(0)]),
        ([startTime, endTime]) => TaxRecords.spotRecords({ coin: `FZ${i}`, startTime, endTime, limit: 10 })
      )
  }],
  "mix.ordersHistory": [{
    name: "ordersHistory",
    stream: false,
    run: (i) => FuturesHistory.ordersHistory({ productType: "USDT-FUTURES", symbol: `FZ${i}USDT`, limit: 10 })
  }],
  // none of its own: every call's clock resync asks it, and the hostile server answers it as it answers the rest
  "public.time": []
}

/** The streams, drawn after the calls. */
const streams: ReadonlyArray<Operation> = [
  {
    name: "TaxRecords.stream",
    stream: true,
    run: (i) =>
      Effect.flatMap(
        Effect.all([days(40), days(0)]),
        ([startTime, endTime]) => firstFew(TaxRecords.stream({ coin: `FZ${i}`, startTime, endTime, pageSize: 2 }))
      )
  },
  {
    name: "P2pOrders.stream",
    stream: true,
    run: (i) =>
      Effect.flatMap(days(100), (startTime) => firstFew(P2pOrders.stream({ coin: `FZ${i}`, startTime, pageSize: 2 })))
  },
  {
    name: "FuturesHistory.stream",
    stream: true,
    run: (i) => firstFew(FuturesHistory.stream({ productType: "USDT-FUTURES", symbol: `FZ${i}USDT`, pageSize: 2 }))
  }
]

// ---------------------------------------------------------------------------
// What the program can see: a test logger and a test tracer
// ---------------------------------------------------------------------------

/** One thing the program could see, attributed to a call (-1: none). */
interface Sighting {
  readonly call: number
  readonly where: string
  readonly text: string
}

const inspect = (value: unknown) =>
  util.inspect(value, { depth: 10, maxStringLength: 20_000, maxArrayLength: 50, breakLength: Infinity })

const callOf = (value: unknown): number => (typeof value === "number" ? value : -1)

const sightings: Array<Sighting> = []

const testLogger = Logger.make(({ cause, fiber, logLevel, message }) => {
  const annotations = fiber.getRef(References.CurrentLogAnnotations)
  sightings.push({
    call: callOf(annotations["fuzz.call"]),
    where: `log ${logLevel}`,
    text: `${inspect(message)} ${cause.reasons.length === 0 ? "" : Cause.pretty(cause)} ${inspect(annotations)}`
  })
})

/** The call a span belongs to: the `fuzz.call` attribute of it or an ancestor. */
const spanCall = (span: Tracer.AnySpan): number => {
  let current: Tracer.AnySpan | undefined = span
  while (current !== undefined) {
    if (current._tag === "Span") {
      const call = current.attributes.get("fuzz.call")
      if (call !== undefined) return callOf(call)
    }
    current = current._tag === "Span" ? Option.getOrUndefined(current.parent) : undefined
  }
  return -1
}

/** What a tracer is given to start a span. */
type SpanOptions = Parameters<Tracer.Tracer["span"]>[0]

class RecordingSpan implements Tracer.Span {
  readonly _tag = "Span"
  readonly name: string
  readonly spanId: string
  readonly traceId: string
  readonly parent: Option.Option<Tracer.AnySpan>
  readonly annotations: Context.Context<never>
  readonly sampled: boolean
  readonly kind: Tracer.SpanKind
  status: Tracer.SpanStatus
  readonly attributes = new Map<string, unknown>()
  readonly events: Array<string> = []
  readonly links: Array<Tracer.SpanLink>
  constructor(options: SpanOptions) {
    this.name = options.name
    this.parent = options.parent
    this.annotations = options.annotations
    this.sampled = options.sampled
    this.kind = options.kind
    this.status = { _tag: "Started", startTime: options.startTime }
    this.traceId = Option.match(options.parent, { onNone: () => "fuzz", onSome: (span) => span.traceId })
    this.spanId = Math.random().toString(16).slice(2)
    this.links = [...options.links]
  }
  end(endTime: bigint, exit: Exit.Exit<unknown, unknown>): void {
    this.status = { _tag: "Ended", startTime: this.status.startTime, endTime, exit }
    const ended = Exit.isSuccess(exit) ? "success" : `${Cause.pretty(exit.cause)}\n${inspect(exit)}`
    sightings.push({
      call: spanCall(this),
      where: `span ${this.name}`,
      text: `${this.name} ${inspect(Object.fromEntries(this.attributes))} ${this.events.join(" ")} ${ended}`
    })
  }
  attribute(key: string, value: unknown): void {
    this.attributes.set(key, value)
  }
  event(name: string, _startTime: bigint, attributes?: Record<string, unknown>): void {
    this.events.push(`${name} ${inspect(attributes ?? {})}`)
  }
  addLinks(links: ReadonlyArray<Tracer.SpanLink>): void {
    this.links.push(...links)
  }
}

const testTracer = Tracer.make({ span: (options) => new RecordingSpan(options) })

// ---------------------------------------------------------------------------
// Leak detection
// ---------------------------------------------------------------------------

/** Every spelling of every part of the credentials, by name (the server's own list, `Hostile.secretSpellings`). */
const staticNeedles: ReadonlyArray<readonly [string, string]> = Object.entries(secrets).flatMap(([name, value]) =>
  Hostile.secretSpellings(value).map(([spelling, spelled]) => [`${name} (${spelling})`, spelled] as const)
)

/** Runs of base64 characters as long as a signature without its padding (HMAC-SHA256: 43, then `=`). */
const base64Run = /[A-Za-z0-9+/]{43,}/g

/**
 * The text read three ways, so that a signature in any spelling is plain in
 * one of them: as it is, with JSON escapes undone (`\uXXXX` in either case,
 * `\/`), and with percent-escapes undone (either case of hex; `+` stays, a
 * signature has no space).
 */
const decodings = (text: string): ReadonlyArray<readonly [string, string]> => [
  ["raw", text],
  [
    "JSON-escaped",
    text.replace(/\\u([0-9a-fA-F]{4})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))).replaceAll(
      "\\/",
      "/"
    )
  ],
  ["URL-encoded", text.replace(/%([0-9a-fA-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))]
]

/**
 * The secrets a text holds, by name and spelling; any signature the server
 * received counts, with its padding or without, in any spelling.
 */
const leaksIn = (text: string, signatures: ReadonlySet<string>): ReadonlyArray<string> => {
  const found = new Set<string>()
  for (const [name, needle] of staticNeedles) if (text.includes(needle)) found.add(name)
  for (const [spelling, decoded] of decodings(text)) {
    for (const [run] of decoded.matchAll(base64Run)) {
      for (let at = 0; at + 43 <= run.length; at++) {
        if (signatures.has(`${run.slice(at, at + 43)}=`)) found.add(`signature (${spelling})`)
      }
    }
  }
  return [...found]
}

const stringify = (value: unknown): string => {
  try {
    return JSON.stringify(value) ?? "undefined"
  } catch (error) {
    return `<JSON.stringify threw: ${error instanceof Error ? error.message : String(error)}>`
  }
}

/** Every form of a failure a program could print. */
const failureTexts = (cause: Cause.Cause<unknown>): ReadonlyArray<readonly [string, string]> => {
  const texts: Array<readonly [string, string]> = [["Cause.pretty", Cause.pretty(cause)]]
  const error = Cause.squash(cause)
  if (error instanceof Error) texts.push(["message", error.message])
  texts.push(["String", String(error)], ["JSON", stringify(error)], ["util.inspect", inspect(error)])
  return texts
}

// ---------------------------------------------------------------------------
// The run
// ---------------------------------------------------------------------------

type Outcome = "success" | "typed" | "defect" | "interruption" | "hang" | "untyped"

interface Result {
  readonly index: number
  readonly operation: string
  readonly outcome: Outcome
  readonly detail: string
  readonly took: number
  /** The event loop stalled (over 300 ms) while the call ran: a hang may be another call's. */
  readonly stalled: boolean
  readonly began: number
  readonly ended: number
}

interface Leak {
  readonly index: number
  readonly operation: string
  readonly where: string
  readonly secrets: ReadonlyArray<string>
  readonly excerpt: string
}

/** `global.gc`, exposed for this process if it is not already. */
const collectGarbage = (): (() => void) | undefined => {
  try {
    v8.setFlagsFromString("--expose-gc")
    const gc: unknown = vm.runInNewContext("gc")
    return typeof gc === "function" ? () => gc() : undefined
  } catch {
    return undefined
  }
}

const excerptAround = (text: string, secretsFound: ReadonlyArray<string>): string => {
  const needle = staticNeedles.find(([name]) => secretsFound.includes(name))?.[1]
  const at = needle === undefined ? text.search(base64Run) : text.indexOf(needle)
  const from = Math.max(0, at - 120)
  return text.slice(from, from + 300).replace(/\s+/g, " ")
}

/** The answers of the hostile server that are valid: a call answered only with them must succeed. */
const validKinds: ReadonlySet<string> = new Set(["valid", "valid-delayed", "time"])

/**
 * The least number of calls (of `n`) that must end in each outcome: a success
 * (its answer decoded), and each typed failure the server's answers call for
 * (an error code, an HTTP error, an answer that does not decode, a broken
 * connection): about half the shares of the default run (for successes, 40 %
 * of its 52 %), so that a run that stopped exercising one fails.
 */
const minimumsFor = (n: number): ReadonlyArray<readonly [outcome: string, least: number]> =>
  ([
    ["success", 0.4],
    ["BitgetApiError", 0.07],
    ["BitgetHttpError", 0.05],
    ["BitgetDecodeError", 0.1],
    ["BitgetTransportError", 0.005]
  ] as const).map(([outcome, share]) => [outcome, Math.max(1, Math.floor(n * share))] as const)

describe("fuzz", () => {
  /** Every operation the run draws from: each endpoint's calls (the list from core's descriptors), then the streams. */
  const operations: ReadonlyArray<Operation> = [...covered(callsByEndpoint).flatMap(([, calls]) => calls), ...streams]
  const operationByName = new Map(operations.map((operation) => [operation.name, operation]))

  it.live(
    `${calls} seeded calls against a hostile server: no defect, hang or leak (seed ${seed})`,
    () =>
      Effect.gen(function*() {
        const gc = collectGarbage()
        const server = yield* Effect.acquireRelease(
          Effect.promise(() => Hostile.start({ seed, validData })),
          (running) => Effect.promise(() => running.close())
        )
        gc?.()
        const heapBefore = process.memoryUsage().heapUsed
        const started = Date.now()

        const clientLayer = BitgetNode.layer({
          baseUrl: server.url,
          credentials: Credentials.hmac(secrets),
          timeout: `${deadline} millis`,
          retry: { maxAttempts: 2, baseDelay: "10 millis", maxDelay: "50 millis", maxElapsed: "2 seconds" },
          rateLimit: { enabled: false },
          maxResponseBytes
        })
        const observed = Layer.mergeAll(
          Logger.layer([testLogger]),
          Layer.succeed(References.MinimumLogLevel, "All"),
          Layer.succeed(Tracer.Tracer, testTracer)
        )

        const results: Array<Result> = []
        const leaks: Array<Leak> = []
        const operationOf = new Map<number, string>()
        const answersOf = (index: number) =>
          server.seen.filter((request) => request.call === index).map((request) => `${request.path} ${request.kind}`)
            .join(" | ")

        let checking = 0
        const checkSightings = () => {
          const t0 = Date.now()
          for (const sighting of sightings.splice(0)) {
            const found = leaksIn(sighting.text, server.signatures)
            if (found.length > 0) {
              leaks.push({
                index: sighting.call,
                operation: operationOf.get(sighting.call) ?? "-",
                where: sighting.where,
                secrets: found,
                excerpt: excerptAround(sighting.text, found)
              })
            }
          }
          checking += Date.now() - t0
        }

        // the event loop's stalls over a second, with the calls in flight, for the report
        const inFlight = new Set<number>()
        const stalls: Array<string> = []
        const stallWindows: Array<readonly [from: number, to: number, millis: number]> = []
        let longestStall = 0
        /** The longest stall since it was last reset (a replay alone resets it). */
        let recentStall = 0
        let lastTick = Date.now()
        const ticker = setInterval(() => {
          const now = Date.now()
          const stall = now - lastTick - 20
          longestStall = Math.max(longestStall, stall)
          recentStall = Math.max(recentStall, stall)
          if (stall > 300) stallWindows.push([lastTick, now, stall])
          if (stall > 1_000) stalls.push(`${stall} ms with calls ${[...inFlight].join(",")} in flight`)
          lastTick = now
        }, 20)
        yield* Effect.addFinalizer(() => Effect.sync(() => clearInterval(ticker)))

        /** Runs call `index` once and classifies its exit; leaks are collected unless `quiet`. */
        const runOne = (index: number, quiet = false) =>
          Effect.gen(function*() {
            inFlight.add(index)
            yield* Effect.addFinalizer(() => Effect.sync(() => inFlight.delete(index)))
            const rng = new Hostile.Rng(Hostile.mix(seed, index, 0xd))
            const operation = rng.pick(operations)
            operationOf.set(index, operation.name)
            const limit = operation.stream ? budget.stream : budget.call
            const began = Date.now()
            const exit = yield* operation.run(index).pipe(
              Effect.timeoutOption(limit + grace),
              Effect.withSpan("fuzz.call", { attributes: { "fuzz.call": index, "fuzz.operation": operation.name } }),
              Effect.annotateLogs("fuzz.call", index),
              Effect.exit
            )
            const ended = Date.now()
            const took = ended - began
            const stalled = stallWindows.some(([from, to]) => from < ended && to > began)
            const result = (outcome: Outcome, detail: string): Result => ({
              index,
              operation: operation.name,
              outcome,
              detail,
              took,
              stalled,
              began,
              ended
            })
            const classified = ((): Result => {
              if (Exit.isSuccess(exit)) {
                if (Option.isNone(exit.value)) return result("hang", `no outcome within ${limit + grace} ms`)
                if (took > limit + grace) {
                  return result("hang", `answered after ${took} ms (the event loop was blocked)`)
                }
                return result("success", "")
              }
              if (Cause.hasDies(exit.cause)) {
                const defect = Cause.squash(exit.cause)
                return result(
                  "defect",
                  defect instanceof Error
                    ? `${defect.name}: ${defect.message.slice(0, 200)} ${
                      (defect.stack ?? "").split("\n").slice(1, 4).map((line) => line.trim()).join(" < ")
                    }`
                    : inspect(defect).slice(0, 300)
                )
              }
              if (Cause.hasInterruptsOnly(exit.cause)) {
                return result("interruption", Cause.pretty(exit.cause).slice(0, 300))
              }
              const error = Option.getOrUndefined(Cause.findErrorOption(exit.cause))
              if (took > limit + grace) {
                return result(
                  "hang",
                  `failed after ${took} ms (the event loop was blocked): ${String(error).slice(0, 200)}`
                )
              }
              return BitgetError.isBitgetError(error)
                ? result("typed", error._tag)
                : result("untyped", inspect(error).slice(0, 300))
            })()
            const t1 = Date.now()
            if (Exit.isFailure(exit) && !quiet) {
              for (const [where, text] of failureTexts(exit.cause)) {
                const found = leaksIn(text, server.signatures)
                if (found.length > 0) {
                  leaks.push({
                    index,
                    operation: operation.name,
                    where: `error ${where}`,
                    secrets: found,
                    excerpt: excerptAround(text, found)
                  })
                }
              }
            }
            checking += Date.now() - t1
            if (quiet) sightings.splice(0)
            else checkSightings()
            return classified
          }).pipe(Effect.scoped)

        const indices = only ?? Array.from({ length: calls }, (_, index) => index)
        const replayed: Array<string> = []
        let concurrentMillis = 0
        yield* Effect.gen(function*() {
          const first = yield* Effect.forEach(indices, (index) => runOne(index), { concurrency })
          concurrentMillis = Date.now() - started

          // Replays alone (the same answers: the server forgets the call's attempts), with the longest stall meanwhile.
          const alone = new Map<number, { readonly result: Result; readonly stall: number }>()
          const replayAlone = (index: number) =>
            Effect.gen(function*() {
              const known = alone.get(index)
              if (known !== undefined) return known
              const entry = yield* replayFresh(index)
              alone.set(index, entry)
              return entry
            })
          /** Replays a call alone: its result, the longest stall meanwhile, less the server's own work for it. */
          const replayFresh = (index: number) =>
            Effect.gen(function*() {
              server.replay(index)
              recentStall = 0
              const serverBefore = server.serverMillis.get(index) ?? 0
              const result = yield* runOne(index, true)
              const serverWork = (server.serverMillis.get(index) ?? 0) - serverBefore
              return { result, stall: Math.round(recentStall - serverWork) }
            })

          // A stall of the event loop is some call's synchronous work: replay the calls in flight alone (those whose
          // answers were the heaviest first) until one stalls the loop by itself; that call hung everything else.
          const heaviness = (index: number) => {
            const answers = answersOf(index)
            return /regex-bomb|digit-flood/.test(answers)
              ? 0
              : /oversized/.test(answers)
              ? 1
              : /data:(deep|long|huge)/.test(answers)
              ? 2
              : 3
          }
          const culprits = new Map<number, number>()
          let suspectsTried = 0
          const overlaps = (result: Result, from: number, to: number) => result.began < to && result.ended > from
          for (const [from, to] of stallWindows.filter(([, , millis]) => millis > blockedAfter)) {
            if (first.some((result) => culprits.has(result.index) && overlaps(result, from, to))) continue
            // a call whose timer fired was waiting, not computing: not a suspect
            const suspects = first.filter((result) =>
              overlaps(result, from, to) && !(result.outcome === "hang" && result.detail.startsWith("no outcome"))
            ).sort((a, b) => heaviness(a.index) - heaviness(b.index))
            for (const suspect of suspects.slice(0, 3)) {
              if (suspectsTried++ >= maxSuspects) break
              const { stall } = yield* replayAlone(suspect.index)
              if (stall <= blockedAfter) continue
              // once more, to tell the call's own work from a pause that happened to fall in its replay
              const again = yield* replayFresh(suspect.index)
              if (again.stall > blockedAfter) {
                culprits.set(suspect.index, Math.min(stall, again.stall))
                break
              }
            }
          }

          // hangs while the event loop stalled may be another call's doing: they count if they hang again without the
          // crowd (replayed together: they wait on timers, they do not compute)
          const waiting = first.filter((outcome) =>
            outcome.outcome === "hang" && outcome.stalled && !culprits.has(outcome.index) && !alone.has(outcome.index)
          )
          yield* Effect.forEach(waiting, (outcome) => replayAlone(outcome.index), { concurrency: "unbounded" })
          for (const outcome of first) {
            const blocked = culprits.get(outcome.index)
            if (blocked !== undefined) {
              results.push({
                ...outcome,
                outcome: "hang",
                detail:
                  `blocked the event loop for ${blocked} ms by itself (replayed alone, twice; the server's own work excluded); ${outcome.outcome} ${outcome.detail}`
              })
            } else if (outcome.outcome === "hang" && outcome.stalled) {
              const { result: again } = yield* replayAlone(outcome.index)
              replayed.push(`${outcome.index}: ${outcome.took} ms, alone ${again.took} ms (${again.outcome})`)
              results.push(
                again.outcome === "hang" ? again : { ...again, detail: `${again.detail} (hung only among others)` }
              )
            } else {
              results.push(outcome)
            }
          }
        }).pipe(Effect.provide(Layer.merge(clientLayer, observed)))
        checkSightings()

        // the client is released: every connection it opened must close
        let open = server.openConnections()
        for (let waited = 0; open > 0 && waited < 3_000; waited += 50) {
          yield* Effect.sleep("50 millis")
          open = server.openConnections()
        }
        gc?.()
        const heapGrowth = process.memoryUsage().heapUsed - heapBefore
        const elapsed = Date.now() - started

        // the report
        const count = (outcome: Outcome) => results.filter((result) => result.outcome === outcome).length
        const typedByTag = new Map<string, number>()
        results.filter((result) => result.outcome === "typed").forEach((result) =>
          typedByTag.set(result.detail, (typedByTag.get(result.detail) ?? 0) + 1)
        )
        const families = new Map<string, number>()
        for (const [kind, n] of server.kinds) {
          const family = kind.split(/[:/]/)[0] as string
          families.set(family, (families.get(family) ?? 0) + n)
        }
        const leakCalls = new Set(leaks.map((leak) => leak.index))
        // the calls whose every answer was a valid one: each must succeed (its answers decoded), unless it ran past
        // its deadline while the event loop stalled (a machine this busy times out a valid answer)
        const answeredValid = results.filter((result) => {
          const kinds = server.seen.filter((request) => request.call === result.index).map((request) => request.kind)
          return !operationByName.get(result.operation)?.stream && kinds.length > 0 &&
            kinds.every((kind) => validKinds.has(kind)) && !(result.stalled && result.took >= deadline)
        })
        const validNotDecoded = answeredValid.filter((result) => result.outcome !== "success")
        // each spelling of the credentials the server echoed, by name
        const echoedSpellings = new Map<string, number>()
        for (const [kind, n] of server.kinds) {
          const echoed = /^echo:[^/]+\/(.+)$/.exec(kind)
          if (echoed !== null) {
            echoedSpellings.set(echoed[1] as string, (echoedSpellings.get(echoed[1] as string) ?? 0) + n)
          }
        }
        const minimums = only === undefined ? minimumsFor(indices.length) : []
        const outcomeCount = (name: string) => name === "success" ? count("success") : (typedByTag.get(name) ?? 0)
        const summary = [
          `fuzz seed=${seed} calls=${indices.length} requests=${server.seen.length} took=${elapsed}ms (concurrent ${concurrentMillis}ms, replays ${
            elapsed - concurrentMillis
          }ms)`,
          `successes=${count("success")} typed=${count("typed")} (${
            [...typedByTag].map(([k, n]) => `${k}:${n}`).join(" ")
          })`,
          `defects=${count("defect")} hangs=${count("hang")} interruptions=${count("interruption")} untyped=${
            count("untyped")
          } leaks=${leaks.length} (in ${leakCalls.size} calls)`,
          `oversized answers=${server.oversized.sent} read past the cap=${server.oversized.readToEnd} open connections after=${open} heap growth=${
            Math.round(heapGrowth / 1e6)
          }MB${gc === undefined ? " (no gc)" : ""}`,
          `longest event-loop stall=${longestStall}ms; stalls over 1 s: ${stalls.slice(0, 10).join("; ") || "none"}`,
          `hangs replayed alone: ${replayed.join("; ") || "none"}`,
          `leak checks took ${checking} ms; slowest calls: ${
            [...results].sort((a, b) => b.took - a.took).slice(0, 8).map((r) =>
              `${r.index}:${r.operation}:${r.took}ms[${
                answersOf(r.index).replace(/\/api\/v\d\/[^ ]+ /g, "").slice(0, 120)
              }]`
            ).join(", ")
          }`,
          `answers: ${[...families].sort((a, b) => b[1] - a[1]).map(([k, n]) => `${k}:${n}`).join(" ")}`,
          `calls answered only validly=${answeredValid.length} of which not a success=${validNotDecoded.length}`,
          `minimums: ${
            minimums.map(([name, least]) => `${name} ${outcomeCount(name)} >= ${least}`).join(", ") ||
            "none (FUZZ_ONLY)"
          }`,
          `echoed spellings: ${
            Array.from({ length: Hostile.spellingCount }, (_, k) => Hostile.spellingName(k)).map((name) =>
              `${name}:${echoedSpellings.get(name) ?? 0}`
            ).join(" ")
          }`
        ]
        const examples = (outcome: Outcome) =>
          results.filter((result) => result.outcome === outcome).slice(0, 12).map((result) =>
            `  [${outcome}] seed=${seed} call=${result.index} ${result.operation} (${result.took} ms): ${result.detail}\n` +
            `      answers: ${answersOf(result.index).slice(0, 400)}`
          )
        const leakExamples = (() => {
          const byWhere = new Map<string, Leak>()
          for (const leak of leaks) {
            const key = `${leak.where} ${leak.secrets.join(",")}`
            if (!byWhere.has(key)) byWhere.set(key, leak)
          }
          return [...byWhere.values()].slice(0, 20).map((leak) =>
            `  [leak] seed=${seed} call=${leak.index} ${leak.operation} in ${leak.where}: ${
              leak.secrets.join(", ")
            }\n` +
            `      answers: ${answersOf(leak.index).slice(0, 300)}\n      excerpt: ${leak.excerpt}`
          )
        })()
        console.log(
          [
            ...summary,
            ...examples("defect"),
            ...examples("hang"),
            ...examples("interruption"),
            ...examples("untyped"),
            ...leakExamples
          ].join("\n")
        )
        const reportPath = process.env.FUZZ_REPORT
        if (reportPath !== undefined && reportPath !== "") {
          writeFileSync(
            reportPath,
            JSON.stringify(
              {
                seed,
                summary,
                results: results.filter((result) => result.outcome !== "success" && result.outcome !== "typed").map((
                  result
                ) => ({ ...result, answers: answersOf(result.index) })),
                leaks: leaks.map((leak) => ({ ...leak, answers: answersOf(leak.index) })),
                kinds: Object.fromEntries(server.kinds)
              },
              null,
              2
            )
          )
        }

        for (const [name, least] of minimums) {
          assert.isAtLeast(outcomeCount(name), least, `calls ending as ${name} (see the report above)`)
        }
        if (only === undefined) {
          assert.isAtLeast(answeredValid.length, Math.floor(indices.length * 0.2), "calls answered only validly")
          for (let k = 0; k < Hostile.spellingCount; k++) {
            const name = Hostile.spellingName(k)
            assert.isAtLeast(echoedSpellings.get(name) ?? 0, 1, `echoes of the credentials spelled ${name}`)
          }
        }
        assert.deepStrictEqual(
          validNotDecoded.slice(0, 5).map((result) =>
            `${result.index}:${result.operation} ${result.outcome} ${result.detail} (${result.took} ms)`
          ),
          [],
          "calls answered only validly that did not succeed"
        )
        assert.strictEqual(count("defect"), 0, "defects (see the report above)")
        assert.strictEqual(count("hang"), 0, "hangs (see the report above)")
        assert.strictEqual(count("interruption"), 0, "interruptions")
        assert.strictEqual(count("untyped"), 0, "failures outside the BitgetError family")
        assert.strictEqual(leaks.length, 0, "secrets or signatures visible to the program (see the report above)")
        assert.strictEqual(server.oversized.readToEnd, 0, "oversized answers read past the body cap")
        assert.strictEqual(open, 0, "connections left open after the client was released")
        if (gc !== undefined) assert.isBelow(heapGrowth, 256 * 1024 * 1024, "heap growth over the run")
      }),
    { timeout: 180_000 }
  )
})
