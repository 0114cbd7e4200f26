/**
 * Request validators under arbitrary input, through the real client
 * (`BitgetNode.layer`) against the sandbox: strings with lone surrogates,
 * control characters, CR/LF, blanks and 100k characters; decimals with huge
 * and tiny exponents, zero and negatives; time windows with a missing end,
 * reversed, before 1970, 100 days back, in the future or at the ends of
 * time; enum values that are not; counts out of range.
 *
 * For every input the call must end in one of two ways:
 *
 * - a `BitgetRequestError` before anything is sent (the sandbox's request log
 *   stays empty), or
 * - a request the sandbox accepts: it reaches the sandbox and is not refused
 *   for its parameters (the exchange's 400 parameter codes: blank, format,
 *   range, window). An answer about the data (`40034` no such symbol, `43001`
 *   no such order, `43023` no such position) or the key is fine.
 *
 * Never a defect, an interruption or a hang, nor a failure of another kind
 * while nothing reached the sandbox.
 *
 * Seeded (`PROPERTY_SEED` overrides the seed, `PROPERTY_RUNS` the run count).
 */
import type { BitgetClient, BitgetError } from "@bitget-effect/core"
import {
  BatchCancel,
  Credentials,
  FundNetFlow,
  FuturesHistory,
  OpenInterestLimit,
  P2pOrders,
  PositionTpsl,
  RpiOrderBook,
  Symbols,
  TaxRecords,
  TradeRates
} from "@bitget-effect/core"
import type { RequestLog } from "@bitget-effect/sandbox"
import { Sandbox } from "@bitget-effect/sandbox"
import { assert, describe } from "@effect/vitest"
import { BigDecimal, Cause, Chunk, DateTime, Effect, Exit, FastCheck as fc, Option, Stream } from "effect"
import type { ClientOptions } from "./support.js"
import { DAY, onSandbox, withClient } from "./support.js"

const seed = Number(process.env.PROPERTY_SEED ?? 20_250_612)
const runs = Number(process.env.PROPERTY_RUNS ?? 120)

/** fast-check parameters: the fixed seed, a run count, and a bound on shrinking time. */
const params = (numRuns = runs) => ({ seed, numRuns, interruptAfterTimeLimit: 15_000 })

/** Test timeout of one property (ms): a failing property shrinks, one HTTP call per try. */
const timeout = 90_000

/** One attempt, no client-side limiter: a refusal is the sandbox's first answer. */
const client: ClientOptions = { retry: { maxAttempts: 1 }, timeout: "2 seconds", rateLimit: { enabled: false } }

/**
 * The longest a call may take before it counts as a hang. A first page over loopback takes milliseconds, but a
 * stream from 1970 over a sandbox with no records walks ~680 empty 30-day windows, a request each: seconds on
 * a busy 2-core machine.
 */
const hangAfter = "20 seconds"

/** The sandbox of every block: no frequency limits, the RPI book open to every key, small data sets. */
const sandboxOptions = (seedValue: number): Sandbox.Options => ({
  seed: seedValue,
  limits: false,
  rpiOpen: true,
  sizes: { p2pOrders: 400, p2pDays: 120, taxRecords: 400, taxDays: 120, taxBurst: 0, futuresOrders: 400 }
})

// ---------------------------------------------------------------------------
// The verdict on one call
// ---------------------------------------------------------------------------

/**
 * Codes by which the exchange refuses a request's parameters: a missing or
 * blank value (40019), a bad format or enum value (40020), a rule across
 * parameters or an unreadable body (40017), a value out of range (40053), a
 * time window too long or too old (00001, 70008, 40705, 40704), a batch too
 * large (40912) or an order without an id (40924).
 */
const parameterCodes = new Set([
  "40017",
  "40019",
  "40020",
  "40053",
  "00001",
  "70008",
  "40704",
  "40705",
  "40912",
  "40924"
])

/** A readable, bounded description of an input (decimals and instants spelled out, long strings cut). */
const show = (value: unknown, depth = 0): string => {
  if (depth > 4) return "…"
  if (typeof value === "string") {
    const text = JSON.stringify(value.length > 80 ? value.slice(0, 80) : value)
    return value.length > 80 ? `${text}…(${value.length} chars)` : text
  }
  if (BigDecimal.isBigDecimal(value)) return `BigDecimal(${value.value}e${-value.scale})`
  if (DateTime.isDateTime(value)) return `DateTime(${DateTime.toEpochMillis(value)})`
  if (Array.isArray(value)) {
    const items = value.slice(0, 6).map((item) => show(item, depth + 1))
    return `[${items.join(", ")}${value.length > 6 ? `, … (${value.length} items)` : ""}]`
  }
  if (typeof value === "object" && value !== null) {
    return `{ ${Object.entries(value).map(([key, item]) => `${key}: ${show(item, depth + 1)}`).join(", ")} }`
  }
  return String(value)
}

const describeEntries = (entries: ReadonlyArray<RequestLog.Entry>): string =>
  entries.map((entry) =>
    `${entry.method} ${entry.path}?${entry.query.slice(0, 300)} -> ${entry.status ?? "reset"} ${entry.code ?? "-"}`
  )
    .join("; ")

/**
 * Query parameters a sent request must carry as given: a given value is never
 * dropped or altered (trimming surrounding whitespace is the one change allowed).
 */
type Sent = ReadonlyArray<readonly [name: string, value: string | undefined]>

/** Some text fields of a request, by name, as it must send them (`Sent`). */
const asGiven = <K extends string>(
  request: { readonly [P in K]?: string | undefined },
  ...names: ReadonlyArray<K>
): Sent => names.map((name) => [name, request[name]])

/** The first given parameter a logged request does not carry as given. */
const alteredParameter = (entries: ReadonlyArray<RequestLog.Entry>, sent: Sent): string | undefined => {
  for (const entry of entries) {
    const query = new URLSearchParams(entry.query)
    for (const [name, value] of sent) {
      const actual = query.get(name)
      if (value !== undefined && actual !== value && actual !== value.trim()) {
        return `${name} given as ${show(value)}, sent as ${show(actual ?? "<absent>")}`
      }
    }
  }
  return undefined
}

/**
 * Runs one call with a fresh client on an emptied request log and asserts the
 * outcome: a `BitgetRequestError` with nothing sent, or a request the sandbox
 * did not refuse for its parameters and that carries the given values
 * (`sent`) as given; never a defect, interruption or hang.
 */
const verdict = <A>(
  label: string,
  input: unknown,
  call: Effect.Effect<A, BitgetError.BitgetError, BitgetClient.BitgetClient>,
  options: ClientOptions = client,
  sent: Sent = []
) =>
  Effect.gen(function*() {
    const sandbox = yield* Sandbox.Sandbox
    yield* sandbox.clearRequests
    const exit = yield* call.pipe(withClient(options), Effect.timeoutOption(hangAfter), Effect.exit)
    const entries = yield* sandbox.requests
    const what = `${label} ${show(input)}`
    const altered = alteredParameter(entries, sent)
    if (altered !== undefined) {
      return assert.fail(`sent a request other than the one given (${altered}): ${describeEntries(entries)}; ${what}`)
    }
    if (Exit.isSuccess(exit)) {
      if (Option.isNone(exit.value)) {
        return assert.fail(`hang: no outcome within ${hangAfter} (${entries.length} requests sent) for ${what}`)
      }
      // a stream over a range with nothing to ask (wholly in the future, say) may end without a request
      if (!label.endsWith(".stream")) {
        assert.isAbove(entries.length, 0, `succeeded without reaching the sandbox: ${what}`)
      }
      return
    }
    const cause = exit.cause
    if (Cause.isDie(cause)) {
      return assert.fail(`defect for ${what}:\n${Cause.pretty(cause).slice(0, 1_500)}`)
    }
    if (Cause.isInterruptedOnly(cause)) return assert.fail(`interrupted: ${what}`)
    const failure = Cause.failureOption(cause)
    if (Option.isNone(failure)) {
      return assert.fail(`no typed failure for ${what}:\n${Cause.pretty(cause).slice(0, 800)}`)
    }
    const error = failure.value
    if (error._tag === "BitgetRequestError") {
      assert.strictEqual(entries.length, 0, `refused with BitgetRequestError, yet sent: ${describeEntries(entries)}`)
      return
    }
    if (entries.length === 0) {
      return assert.fail(
        `not refused as a BitgetRequestError, yet nothing reached the sandbox: ${error._tag}: ` +
          `${error.message.slice(0, 300)}; input ${what}`
      )
    }
    const refused = entries.filter((entry) => entry.code !== undefined && parameterCodes.has(entry.code))
    if (refused.length > 0) {
      return assert.fail(
        `sent, and refused by the sandbox for its parameters: ${error.message.slice(0, 300)}; ` +
          `request ${describeEntries(refused)}; input ${what}`
      )
    }
    if (error._tag === "BitgetDecodeError" || error._tag === "BitgetHttpError") {
      return assert.fail(`the sandbox's answer was not read: ${error.message.slice(0, 300)}; input ${what}`)
    }
  })

// ---------------------------------------------------------------------------
// Arbitraries
// ---------------------------------------------------------------------------

/** Strings no request should carry, or should carry encoded: blanks, controls, surrogates, URL syntax, floods. */
const specialStrings: ReadonlyArray<string> = [
  "",
  " ",
  "\t",
  "\u3000",
  "\u00a0",
  "\u200b",
  "\ufeff",
  "\u0085",
  "\r\n",
  "BTC\r\nUSDT",
  "BTCUSDT\r\nX-Injected: 1",
  "\uD800",
  "BTC\uD800USDT",
  "\uDFFF",
  "\uDBFF\uDFFF",
  "\u0000",
  "BTCUSDT\u0000",
  "\u007f",
  "%",
  "%zz",
  "%00",
  "a&b=c",
  "=",
  "+",
  "#",
  "?",
  "/",
  "BTC USDT",
  " BTCUSDT ",
  "x".repeat(2_000),
  "X".repeat(100_000)
]

const blankUnit = fc.constantFrom(" ", "\t", "\n", "\r", "\u00a0", "\u3000", "\u200b", "\u0085", "\ufeff", "\u2028")

/** Arbitrary text, weighted towards values the sandbox knows and towards hostile ones. */
const text = (valid: ReadonlyArray<string>): fc.Arbitrary<string> =>
  fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...valid) },
    { weight: 3, arbitrary: fc.constantFrom(...specialStrings) },
    { weight: 2, arbitrary: fc.string({ maxLength: 16 }) },
    { weight: 2, arbitrary: fc.string({ unit: "binary", maxLength: 16 }) },
    { weight: 1, arbitrary: fc.string({ unit: blankUnit, minLength: 1, maxLength: 6 }) }
  )

const spotSymbols = ["BTCUSDT", "ETHUSDT", "btcusdt", "BTC$USDT", "币安人生USDT", "SOLUSDT"]
const futuresSymbols = ["BTCUSDT", "ETHUSDT", "BTCUSD", "ETHPERP"]
const coins = ["USDT", "BTC", "ETH", "usdt"]

/** Numeric ids: digits of every length, near misses, and arbitrary text. */
const numericId = fc.oneof(
  { weight: 3, arbitrary: fc.stringMatching(/^\d{1,30}$/) },
  { weight: 1, arbitrary: fc.constantFrom("0", "-1", "1".repeat(31), "１２３", "12 ", "1e5", "0x10", "") },
  { weight: 1, arbitrary: text(["1121000000000000000"]) }
)

/** Client order ids: the allowed alphabet, near misses, and arbitrary text. */
const clientOid = fc.oneof(
  { weight: 3, arbitrary: fc.stringMatching(/^[0-9a-zA-Z\-+_#]{1,49}$/) },
  { weight: 1, arbitrary: fc.constantFrom("a".repeat(50), "grid 1", "grid/1", "ü", "") },
  { weight: 1, arbitrary: text(["sbx-000-0001"]) }
)

/** An enum field: its values, their near misses, and arbitrary text. */
const enumText = <L extends string>(values: ReadonlyArray<L>): fc.Arbitrary<L> =>
  fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...values) },
    {
      weight: 2,
      arbitrary: fc.constantFrom(...values).map((value) => value.toUpperCase()) as fc.Arbitrary<L>
    },
    { weight: 2, arbitrary: text([...values, ` ${values[0]}`, `${values[0]}\r\n`]) as fc.Arbitrary<L> }
  )

/** A count: in range, at and past the bounds, fractional, negative, non-finite. */
const count = (min: number, max: number) =>
  fc.oneof(
    { weight: 3, arbitrary: fc.integer({ min, max }) },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        min - 1,
        max + 1,
        0,
        -1,
        1.5,
        Number.NaN,
        Number.POSITIVE_INFINITY,
        Number.NEGATIVE_INFINITY,
        2 ** 53,
        1e21,
        -0
      )
    },
    { weight: 1, arbitrary: fc.integer() }
  )

/** Decimals: ordinary, zero and negative, and exponents no string can spell out. */
const decimal: fc.Arbitrary<BigDecimal.BigDecimal> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.tuple(fc.bigInt({ min: -(10n ** 12n), max: 10n ** 12n }), fc.integer({ min: -6, max: 12 }))
      .map(([value, scale]) => BigDecimal.make(value, scale))
  },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      "1e999999999",
      "-1e999999999",
      "1e-999999999",
      "5e1000000",
      "5e-1000000",
      "1e30",
      "1e-30",
      "0",
      "-0",
      "-1",
      "0.00000001",
      "72000",
      "5000.5",
      "12345678901234567890123456789"
    ).map((spelled) => BigDecimal.unsafeFromString(spelled))
  }
)

/** An instant relative to now (resolved when the call runs), or an absolute one at the edges of time. */
type Instant = { readonly _tag: "Ago"; readonly days: number; readonly millis: number } | {
  readonly _tag: "At"
  readonly millis: number
}

const instant: fc.Arbitrary<Instant> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      _tag: fc.constant("Ago" as const),
      days: fc.integer({ min: -5, max: 120 }),
      millis: fc.integer({ min: 0, max: DAY - 1 })
    })
  },
  {
    weight: 1,
    arbitrary: fc.record({
      _tag: fc.constant("Ago" as const),
      days: fc.constantFrom(0, 29, 30, 31, 89, 90, 91, 100, 365),
      millis: fc.constant(0)
    })
  },
  {
    weight: 1,
    arbitrary: fc.record({
      _tag: fc.constant("At" as const),
      millis: fc.constantFrom(-8_640_000_000_000_000, -1, 0, 1, 253_402_300_800_000, 8_640_000_000_000_000)
    })
  },
  {
    weight: 1,
    arbitrary: fc.record({
      _tag: fc.constant("At" as const),
      millis: fc.integer({ min: -8_640_000_000_000_000, max: 8_640_000_000_000_000 })
    })
  }
)

/** Instants for streams: no absolute ones past ±1e13 ms (a stream over the whole DateTime range has its own test). */
const streamInstant: fc.Arbitrary<Instant> = fc.oneof(
  { weight: 5, arbitrary: instant.filter((at) => at._tag === "Ago") },
  {
    weight: 1,
    arbitrary: fc.record({
      _tag: fc.constant("At" as const),
      millis: fc.constantFrom(-1, 0, 1, 1_500_000_000_000, 253_402_300_800_000)
    })
  }
)

const resolve = (at: Instant, now: number): DateTime.Utc =>
  DateTime.unsafeMake(at._tag === "At" ? at.millis : now - at.days * DAY - at.millis)

/** A time range with either end possibly missing. */
type Range = { readonly startTime?: DateTime.Utc; readonly endTime?: DateTime.Utc }

/** A request whose range is given as `Instant`s. */
type Timed = { readonly startTime?: Instant; readonly endTime?: Instant }

/** A request with its instants resolved: each end present (or absent) as it was given. */
type Resolved<A extends Timed> = { readonly [K in keyof A]: K extends keyof Timed ? DateTime.Utc : A[K] }

/** The request with its instants resolved against the clock when the call runs. */
const withTimes = <A extends Timed>(request: A): Effect.Effect<Resolved<A>> =>
  Effect.sync(() => {
    const now = Date.now()
    const { endTime, startTime, ...rest } = request
    // the spreads keep each end exactly where the request has one, which the type cannot follow
    return {
      ...rest,
      ...(startTime === undefined ? {} : { startTime: resolve(startTime, now) }),
      ...(endTime === undefined ? {} : { endTime: resolve(endTime, now) })
    } as Resolved<A>
  })

/** `verdict` (default client) on a request with instants, resolved when the call runs; shown with its resolution. */
const verdictAt = <A extends Timed, B>(
  label: string,
  request: A,
  call: (resolved: Resolved<A>) => Effect.Effect<B, BitgetError.BitgetError, BitgetClient.BitgetClient>,
  sent: Sent = []
) =>
  Effect.flatMap(
    withTimes(request),
    (resolved) => verdict(label, { ...request, resolved }, call(resolved), client, sent)
  )

// ---------------------------------------------------------------------------
// The properties, one sandbox per block
// ---------------------------------------------------------------------------

describe("request validators: market data", () => {
  onSandbox(sandboxOptions(101))((it) => {
    it.effect.prop(
      "Symbols: any symbol is refused before sending or accepted",
      [text(spotSymbols)],
      ([symbol]) =>
        verdict("symbols", { symbol }, Symbols.symbols({ symbol }), { ...client, key: "none" }, [["symbol", symbol]]),
      { timeout, fastCheck: { ...params(), examples: [[" "]] } }
    )

    it.effect.prop(
      "FundNetFlow: any symbol is refused before sending or accepted",
      [text(spotSymbols)],
      ([symbol]) =>
        verdict("fundNetFlow", { symbol }, FundNetFlow.fundNetFlow({ symbol }), { ...client, key: "none" }, [[
          "symbol",
          symbol
        ]]),
      { timeout, fastCheck: { ...params(), examples: [["\uD800"]] } }
    )

    it.effect.prop(
      "RpiOrderBook: any category, symbol and limit are refused before sending or accepted",
      [fc.record(
        { category: enumText(RpiOrderBook.rpiCategories), symbol: text(spotSymbols), limit: count(1, 200) },
        { requiredKeys: ["category", "symbol"] }
      )],
      ([request]) =>
        verdict(
          "rpiOrderBook",
          request,
          RpiOrderBook.rpiOrderBook(request),
          client,
          asGiven(request, "symbol", "category")
        ),
      { timeout, fastCheck: params() }
    )

    it.effect.prop(
      "TradeRates: any business type and symbol are refused before sending or accepted",
      [fc.record(
        { businessType: enumText(TradeRates.BusinessType.literals), symbol: text(spotSymbols) },
        { requiredKeys: ["businessType"] }
      )],
      ([request]) =>
        verdict(
          "tradeRates",
          request,
          TradeRates.tradeRates(request),
          client,
          asGiven(request, "symbol", "businessType")
        ),
      { timeout, fastCheck: params() }
    )

    it.effect.prop(
      "OpenInterestLimit: any symbol and category are refused before sending or accepted",
      [fc.record({ symbol: text(futuresSymbols), category: enumText(OpenInterestLimit.futuresCategories) })],
      ([request]) =>
        verdict(
          "openInterestLimit",
          request,
          OpenInterestLimit.openInterestLimit(request),
          client,
          asGiven(request, "symbol", "category")
        ),
      { timeout, fastCheck: params() }
    )
  })
})

describe("request validators: trading", () => {
  onSandbox(sandboxOptions(102))((it) => {
    const orderRef = fc.record(
      { symbol: text(spotSymbols), orderId: numericId, clientOid },
      { requiredKeys: [] }
    )

    it.effect.prop(
      "BatchCancel: any batch (0 to 60 orders, any ids, symbols and mode) is refused before sending or accepted",
      [fc.record(
        {
          symbol: text(spotSymbols),
          batchMode: enumText(BatchCancel.BatchMode.literals),
          orderList: fc.oneof(
            { weight: 4, arbitrary: fc.array(orderRef, { minLength: 1, maxLength: 4 }) },
            { weight: 1, arbitrary: fc.array(orderRef, { minLength: 0, maxLength: 60 }) }
          )
        },
        { requiredKeys: ["orderList"] }
      )],
      ([request]) => verdict("batchCancelOrders", request, BatchCancel.batchCancelOrders(request)),
      { timeout, fastCheck: params() }
    )

    const productTypes = [
      "USDT-FUTURES",
      "COIN-FUTURES",
      "USDC-FUTURES",
      "usdt-futures",
      "susdt-futures"
    ] as const

    it.effect.prop(
      "PositionTpsl: any prices, sizes, strings and enums are refused before sending or accepted",
      [fc.record(
        {
          marginCoin: text(coins),
          productType: enumText(productTypes),
          symbol: text(futuresSymbols),
          holdSide: enumText(PositionTpsl.HoldSide.literals),
          stopSurplusTriggerPrice: decimal,
          stopSurplusSize: decimal,
          stopSurplusTriggerType: enumText(PositionTpsl.TriggerType.literals),
          stopSurplusExecutePrice: decimal,
          stopSurplusClientOid: clientOid,
          stopLossTriggerPrice: decimal,
          stopLossSize: decimal,
          stopLossTriggerType: enumText(PositionTpsl.TriggerType.literals),
          stopLossExecutePrice: decimal,
          stopLossClientOid: clientOid,
          stpMode: enumText(PositionTpsl.StpMode.literals)
        },
        { requiredKeys: ["marginCoin", "productType", "symbol", "holdSide"] }
      )],
      ([request]) => verdict("placePositionTpsl", request, PositionTpsl.placePositionTpsl(request)),
      { timeout, fastCheck: params() }
    )

    it.effect.prop(
      "PositionTpsl: any single trigger price is refused before sending or accepted",
      [decimal],
      ([price]) => {
        const request = {
          marginCoin: "USDT",
          productType: "USDT-FUTURES",
          symbol: "BTCUSDT",
          holdSide: "long",
          stopLossTriggerPrice: price
        } as const
        return verdict("placePositionTpsl", request, PositionTpsl.placePositionTpsl(request))
      },
      { timeout, fastCheck: { ...params(60), examples: [[BigDecimal.unsafeFromString("1e999999999")]] } }
    )
  })
})

describe("request validators: history", () => {
  onSandbox(sandboxOptions(103))((it) => {
    it.effect.prop(
      "P2pOrders: any window, filters, cursor and limit are refused before sending or accepted",
      [fc.record(
        {
          startTime: instant,
          endTime: instant,
          idLessThan: numericId,
          limit: count(1, 100),
          status: enumText(P2pOrders.P2pStatusFilter.literals),
          advNo: text(["1234567890123456789"]),
          side: enumText(["buy", "sell"] as const),
          coin: text(coins),
          language: enumText(["zh-CN", "en-US"] as const),
          fiat: text(["USD", "EUR"]),
          orderNo: text(["4121000000000000000"])
        },
        { requiredKeys: [] }
      )],
      ([request]) =>
        verdictAt(
          "p2pOrders",
          request,
          (resolved) => P2pOrders.p2pOrders(resolved),
          asGiven(request, "coin", "fiat", "advNo", "orderNo", "idLessThan", "status")
        ),
      { timeout, fastCheck: params() }
    )

    it.effect.prop(
      "TaxRecords: any window, coin, cursor and limit are refused before sending or accepted",
      [fc.record(
        { startTime: instant, endTime: instant, coin: text(coins), limit: count(1, 500), idLessThan: numericId },
        { requiredKeys: ["startTime", "endTime"] }
      )],
      ([request]) =>
        verdictAt(
          "spotRecords",
          request,
          (resolved) => TaxRecords.spotRecords(resolved),
          asGiven(request, "coin", "idLessThan")
        ),
      { timeout, fastCheck: params() }
    )

    it.effect.prop(
      "FuturesHistory: any product type, filters, ids, window and limit are refused before sending or accepted",
      [fc.record(
        {
          productType: enumText(FuturesHistory.productTypes),
          orderId: numericId,
          clientOid,
          symbol: text(futuresSymbols),
          idLessThan: numericId,
          orderSource: enumText(FuturesHistory.orderSourceFilters),
          startTime: instant,
          endTime: instant,
          limit: count(1, 100)
        },
        { requiredKeys: ["productType"] }
      )],
      ([request]) =>
        verdictAt("ordersHistory", request, (resolved) => FuturesHistory.ordersHistory(resolved), [
          ...asGiven(request, "symbol", "orderId"),
          ["clientOid", request.orderId === undefined ? request.clientOid : undefined],
          ...asGiven(request, "idLessThan", "orderSource")
        ]),
      { timeout, fastCheck: params() }
    )

    // a range with one end missing is completed by the operation (P2P and futures history alike)
    const rangeCalls: ReadonlyArray<
      readonly [
        string,
        string,
        (range: Range) => Effect.Effect<unknown, BitgetError.BitgetError, BitgetClient.BitgetClient>
      ]
    > = [
      ["P2pOrders", "p2pOrders", (range) => P2pOrders.p2pOrders(range)],
      [
        "FuturesHistory",
        "ordersHistory",
        (range) => FuturesHistory.ordersHistory({ productType: "USDT-FUTURES", ...range })
      ]
    ]
    for (const [name, route, call] of rangeCalls) {
      it.effect.prop(
        `${name}: any window alone (either end missing) is refused before sending or accepted`,
        [fc.record({ startTime: instant, endTime: instant }, { requiredKeys: [] })],
        ([request]) => verdictAt(route, request, call),
        { timeout, fastCheck: { ...params(), examples: [[{ startTime: { _tag: "Ago", days: 100, millis: 0 } }]] } }
      )
    }
  })
})

describe("request validators: streams (up to three elements)", () => {
  onSandbox(sandboxOptions(104))((it) => {
    const firstThree = <A, E, R>(stream: Stream.Stream<A, E, R>) =>
      Effect.map(Stream.runCollect(Stream.take(stream, 3)), Chunk.toReadonlyArray)
    const order = fc.constantFrom("newestFirst" as const, "oldestFirst" as const)

    it.effect.prop(
      "TaxRecords.stream: any range, coin, page size and order are refused before sending or accepted",
      [fc.record(
        { startTime: streamInstant, endTime: streamInstant, coin: text(coins), pageSize: count(1, 500), order },
        { requiredKeys: ["startTime", "endTime"] }
      )],
      ([request]) =>
        verdictAt(
          "TaxRecords.stream",
          request,
          (resolved) => Effect.suspend(() => firstThree(TaxRecords.stream(resolved)))
        ),
      { timeout, fastCheck: params(60) }
    )

    it.effect.prop(
      "P2pOrders.stream: any range, filters, page size and order are refused before sending or accepted",
      [fc.record(
        {
          startTime: streamInstant,
          endTime: streamInstant,
          coin: text(coins),
          status: enumText(P2pOrders.P2pStatusFilter.literals),
          pageSize: count(1, 100),
          order
        },
        { requiredKeys: ["startTime"] }
      )],
      ([request]) =>
        verdictAt(
          "P2pOrders.stream",
          request,
          (resolved) => Effect.suspend(() => firstThree(P2pOrders.stream(resolved)))
        ),
      { timeout, fastCheck: params(60) }
    )

    it.effect.prop(
      "FuturesHistory.stream: any range, filters, page size and order are refused before sending or accepted",
      [fc.record(
        {
          productType: enumText(FuturesHistory.productTypes),
          symbol: text(futuresSymbols),
          orderSource: enumText(FuturesHistory.orderSourceFilters),
          startTime: streamInstant,
          endTime: streamInstant,
          pageSize: count(1, 100),
          order
        },
        { requiredKeys: ["productType"] }
      )],
      ([request]) =>
        verdictAt(
          "FuturesHistory.stream",
          request,
          (resolved) => Effect.suspend(() => firstThree(FuturesHistory.stream(resolved)))
        ),
      { timeout, fastCheck: params(60) }
    )

    it.effect(
      "a stream over 30,000 years answers (or is refused) within 500 ms, without a window list up front",
      () =>
        Effect.gen(function*() {
          for (const make of ["TaxRecords", "P2pOrders"] as const) {
            const end = DateTime.unsafeMake(Date.now())
            const start = DateTime.subtract(end, { millis: 1e15 })
            const started = Date.now()
            const stream: Stream.Stream<unknown, BitgetError.BitgetError, BitgetClient.BitgetClient> =
              make === "TaxRecords"
                ? TaxRecords.stream({ startTime: start, endTime: end })
                : P2pOrders.stream({ startTime: start, endTime: end })
            yield* verdict(`${make}.stream`, { startTime: start, endTime: end }, firstThree(stream))
            const took = Date.now() - started
            assert.isBelow(took, 500, `${make}.stream over 1e15 ms took ${took} ms to its first page`)
          }
        }),
      timeout
    )
  })
})

describe("request validators: credentials and header values", () => {
  onSandbox(sandboxOptions(105))((it) => {
    /** Retries on, so a refusal that is retried as a network failure shows as such. */
    const retrying: ClientOptions = { ...client, retry: { maxAttempts: 3, baseDelay: "5 millis", jitter: false } }

    it.effect.prop(
      "a channel API code is refused before sending or sent as a header the sandbox reads",
      [text(["broker-1"])],
      ([channelApiCode]) =>
        verdict(
          "symbols with channelApiCode",
          { channelApiCode },
          Symbols.symbols({ symbol: "BTCUSDT" }),
          { ...retrying, key: "none", channelApiCode }
        ),
      { timeout, fastCheck: { ...params(80), examples: [["broker\r\n1"]] } }
    )

    it.effect.prop(
      "an API key and passphrase are refused before sending or sent as headers the sandbox reads",
      [fc.record({ apiKey: text(["bg_fuzz_key"]), passphrase: text(["sandbox-passphrase"]) })],
      ([credentials]) =>
        verdict(
          "tradeRates with credentials",
          credentials,
          TradeRates.tradeRates({ businessType: "spot" }),
          { ...retrying, credentials: Credentials.hmac({ ...credentials, secret: "fuzz-secret" }) }
        ),
      {
        timeout,
        fastCheck: {
          ...params(80),
          examples: [[{ apiKey: "bg_fuzz_key\r\nX-Injected: 1", passphrase: "sandbox-passphrase" }]]
        }
      }
    )
  })
})
