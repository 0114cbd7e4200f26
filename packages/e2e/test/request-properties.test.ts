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
 *   no such order, `40837` no such position, a TP/SL trigger on the wrong side
 *   of the mark price, a plan that already exists) or the key is fine.
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
import type { Vitest } from "@effect/vitest"
import { assert, describe } from "@effect/vitest"
import { Arbitrary, BigDecimal, Cause, DateTime, Effect, Exit, Option, Schema, Stream } from "effect"
import type { ByEndpoint, ClientOptions } from "./support.js"
import { covered, DAY, onSandbox, withClient } from "./support.js"

const seed = Number(process.env.PROPERTY_SEED ?? 20_250_612)
const runs = Number(process.env.PROPERTY_RUNS ?? 120)

/** Test timeout of one property (ms): a failing property shrinks, one HTTP call per try. */
const timeout = 90_000

/**
 * The options of one property: its timeout, the fixed seed, a run count, and a bound on shrinking (candidates
 * tried, one HTTP call each, so that a failure is reported shrunk well within the timeout).
 */
const params = (count = runs) => ({ timeout, arbitrary: { seed, runs: count, maxShrinks: 100 } })

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
    if (Cause.hasDies(cause)) {
      return assert.fail(`defect for ${what}:\n${Cause.pretty(cause).slice(0, 1_500)}`)
    }
    if (Cause.hasInterruptsOnly(cause)) return assert.fail(`interrupted: ${what}`)
    const failure = Cause.findErrorOption(cause)
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
// Arbitraries (Effect's `Arbitrary`, built to draw as fast-check's `oneof`, `constantFrom`, `string` and `record` did)
// ---------------------------------------------------------------------------

/** Integers from `minimum` to `maximum`, inclusive (edge values drawn more often early in a run). */
const integer = (minimum: number, maximum: number): Arbitrary.Arbitrary<number> =>
  Arbitrary.schema(Schema.Int.check(Schema.isBetween({ minimum, maximum })))

/** An index below `length`, each equally likely (a union's members are drawn without an edge bias). */
const uniformIndex = (length: number): Arbitrary.Arbitrary<number> =>
  Arbitrary.schema(Schema.Literals(Array.from({ length }, (_, index) => index)))

/** One of the values, each equally likely. */
const constantFrom = <A>(...values: ReadonlyArray<A>): Arbitrary.Arbitrary<A> =>
  Arbitrary.map(uniformIndex(values.length), (index) => values[index] as A)

/** One of the arbitraries, each chosen in proportion to its weight. */
const oneof = <A>(
  ...entries: ReadonlyArray<{ readonly weight: number; readonly arbitrary: Arbitrary.Arbitrary<A> }>
): Arbitrary.Arbitrary<A> => {
  const slots = entries.flatMap((entry) => Array.from({ length: entry.weight }, () => entry.arbitrary))
  return Arbitrary.flatMap(uniformIndex(slots.length), (slot) => slots[slot] as Arbitrary.Arbitrary<A>)
}

/**
 * Arrays of `minLength` to `maxLength` items (`Arbitrary.array` alone grows no longer than the run's size, 10 by
 * default; fast-check's `array` with a `maxLength` went up to it).
 */
const arrayOf = <A>(
  item: Arbitrary.Arbitrary<A>,
  minLength: number,
  maxLength: number
): Arbitrary.Arbitrary<Array<A>> =>
  Arbitrary.flatMap(
    integer(minLength, maxLength),
    (length) => Arbitrary.array(item, { minLength: length, maxLength: length })
  )

/** Strings of `minLength` to `maxLength` units. */
const stringOf = (
  unit: Arbitrary.Arbitrary<string>,
  minLength: number,
  maxLength: number
): Arbitrary.Arbitrary<string> => Arbitrary.map(arrayOf(unit, minLength, maxLength), (units) => units.join(""))

/** Printable ASCII characters (fast-check's default string unit). */
const printable = Arbitrary.map(integer(0x20, 0x7e), (code) => String.fromCharCode(code))

/** Any Unicode code point but a surrogate half (fast-check's `unit: "binary"`). */
const codePoint = Arbitrary.map(
  integer(0, 0x10ffff - 0x800),
  (code) => String.fromCodePoint(code < 0xd800 ? code : code + 0x800)
)

/** The value of an arbitrary. */
type ValueOf<T> = T extends Arbitrary.Arbitrary<infer A> ? A : never

/**
 * Records of the model's fields: the `required` ones always present, each other one absent one time in six (as
 * fast-check's `record` with `requiredKeys`), absent meaning no key at all.
 */
const record = <Model extends Record<string, Arbitrary.Arbitrary<unknown>>, Required extends keyof Model = never>(
  model: Model,
  required: ReadonlyArray<Required>
): Arbitrary.Arbitrary<
  & { readonly [K in Required]: ValueOf<Model[K]> }
  & { readonly [K in Exclude<keyof Model, Required>]?: ValueOf<Model[K]> }
> => {
  const fields = Object.entries(model).map(([key, arbitrary]) =>
    required.some((name) => name === key)
      ? Arbitrary.map(arbitrary, (value) => [[key, value] as const])
      : oneof<ReadonlyArray<readonly [string, unknown]>>(
        { weight: 1, arbitrary: Arbitrary.Constant([]) },
        { weight: 5, arbitrary: Arbitrary.map(arbitrary, (value) => [[key, value] as const]) }
      )
  )
  // `Object.fromEntries` forgets which keys it was given; they are the model's, each present unless optional and absent
  return Arbitrary.map(Arbitrary.all(fields), (entries) => Object.fromEntries(entries.flat())) as Arbitrary.Arbitrary<
    & { readonly [K in Required]: ValueOf<Model[K]> }
    & { readonly [K in Exclude<keyof Model, Required>]?: ValueOf<Model[K]> }
  >
}

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

const blankUnit = constantFrom(" ", "\t", "\n", "\r", "\u00a0", "\u3000", "\u200b", "\u0085", "\ufeff", "\u2028")

/** Arbitrary text, weighted towards values the sandbox knows and towards hostile ones. */
const text = (valid: ReadonlyArray<string>): Arbitrary.Arbitrary<string> =>
  oneof(
    { weight: 4, arbitrary: constantFrom(...valid) },
    { weight: 3, arbitrary: constantFrom(...specialStrings) },
    { weight: 2, arbitrary: stringOf(printable, 0, 16) },
    { weight: 2, arbitrary: stringOf(codePoint, 0, 16) },
    { weight: 1, arbitrary: stringOf(blankUnit, 1, 6) }
  )

const spotSymbols = ["BTCUSDT", "ETHUSDT", "btcusdt", "BTC$USDT", "币安人生USDT", "SOLUSDT"]
const futuresSymbols = ["BTCUSDT", "ETHUSDT", "BTCUSD", "ETHPERP"]
const coins = ["USDT", "BTC", "ETH", "usdt"]

/** Numeric ids: digits of every length, near misses, and arbitrary text. */
const numericId = oneof(
  { weight: 3, arbitrary: stringOf(constantFrom(..."0123456789"), 1, 30) },
  { weight: 1, arbitrary: constantFrom("0", "-1", "1".repeat(31), "１２３", "12 ", "1e5", "0x10", "") },
  { weight: 1, arbitrary: text(["1121000000000000000"]) }
)

/** Client order ids: the allowed alphabet, near misses, and arbitrary text. */
const clientOid = oneof(
  {
    weight: 3,
    arbitrary: stringOf(constantFrom(..."0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-+_#"), 1, 49)
  },
  { weight: 1, arbitrary: constantFrom("a".repeat(50), "grid 1", "grid/1", "ü", "") },
  { weight: 1, arbitrary: text(["sbx-000-0001"]) }
)

/**
 * An enum field: its values, their near misses, and arbitrary text (typed as the enum, which they are not: the
 * point is to pass them where the type would refuse them).
 */
const enumText = <L extends string>(values: ReadonlyArray<L>): Arbitrary.Arbitrary<L> =>
  oneof(
    { weight: 3, arbitrary: constantFrom(...values) },
    { weight: 2, arbitrary: Arbitrary.map(constantFrom(...values), (value) => value.toUpperCase() as L) },
    { weight: 2, arbitrary: text([...values, ` ${values[0]}`, `${values[0]}\r\n`]) as Arbitrary.Arbitrary<L> }
  )

/** A count: in range, at and past the bounds, fractional, negative, non-finite. */
const count = (min: number, max: number) =>
  oneof(
    { weight: 3, arbitrary: integer(min, max) },
    {
      weight: 2,
      arbitrary: constantFrom(
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
    { weight: 1, arbitrary: integer(-0x8000_0000, 0x7fff_ffff) }
  )

/** Decimals: ordinary, zero and negative, and exponents no string can spell out. */
const decimal: Arbitrary.Arbitrary<BigDecimal.BigDecimal> = oneof(
  {
    weight: 4,
    arbitrary: Arbitrary.map(
      Arbitrary.all([
        Arbitrary.schema(Schema.BigInt.check(Schema.isBetweenBigInt({ minimum: -(10n ** 12n), maximum: 10n ** 12n }))),
        integer(-6, 12)
      ]),
      ([value, scale]) => BigDecimal.make(value, scale)
    )
  },
  {
    weight: 2,
    arbitrary: Arbitrary.map(
      constantFrom(
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
      ),
      (spelled) => BigDecimal.fromStringUnsafe(spelled)
    )
  }
)

/** An instant relative to now (resolved when the call runs), or an absolute one at the edges of time. */
type Instant = { readonly _tag: "Ago"; readonly days: number; readonly millis: number } | {
  readonly _tag: "At"
  readonly millis: number
}

/** An instant some days (and milliseconds) back, or ahead. */
const ago: Arbitrary.Arbitrary<Instant> = oneof<Instant>(
  {
    weight: 4,
    arbitrary: Arbitrary.all({
      _tag: Arbitrary.Constant("Ago"),
      days: integer(-5, 120),
      millis: integer(0, DAY - 1)
    })
  },
  {
    weight: 1,
    arbitrary: Arbitrary.all({
      _tag: Arbitrary.Constant("Ago"),
      days: constantFrom(0, 29, 30, 31, 89, 90, 91, 100, 365),
      millis: Arbitrary.Constant(0)
    })
  }
)

const instant: Arbitrary.Arbitrary<Instant> = oneof<Instant>(
  { weight: 5, arbitrary: ago },
  {
    weight: 1,
    arbitrary: Arbitrary.all({
      _tag: Arbitrary.Constant("At"),
      millis: constantFrom(-8_640_000_000_000_000, -1, 0, 1, 253_402_300_800_000, 8_640_000_000_000_000)
    })
  },
  {
    weight: 1,
    arbitrary: Arbitrary.all({
      _tag: Arbitrary.Constant("At"),
      millis: integer(-8_640_000_000_000_000, 8_640_000_000_000_000)
    })
  }
)

/** Instants for streams: no absolute ones past ±1e13 ms (a stream over the whole DateTime range has its own test). */
const streamInstant: Arbitrary.Arbitrary<Instant> = oneof<Instant>(
  { weight: 5, arbitrary: ago },
  {
    weight: 1,
    arbitrary: Arbitrary.all({
      _tag: Arbitrary.Constant("At"),
      millis: constantFrom(-1, 0, 1, 1_500_000_000_000, 253_402_300_800_000)
    })
  }
)

const resolve = (at: Instant, now: number): DateTime.Utc =>
  DateTime.makeUnsafe(at._tag === "At" ? at.millis : now - at.days * DAY - at.millis)

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
// The properties of each endpoint (a property's examples, which fast-check ran first, are tests of their own)
// ---------------------------------------------------------------------------

/** The test API of a block, on its sandbox. */
type SandboxIt = Vitest.MethodsNonLive<Sandbox.Sandbox>

/** The blocks, each on a sandbox of its own seed. */
type Block = "marketData" | "trading" | "history" | "streams"

/** The properties of an endpoint, each set registered in the block it runs in. */
type Properties = { readonly [B in Block]?: (it: SandboxIt) => void }

/** A range with one end missing is completed by the operation (P2P and futures history alike). */
const rangeProperties = (
  it: SandboxIt,
  name: string,
  route: string,
  call: (range: Range) => Effect.Effect<unknown, BitgetError.BitgetError, BitgetClient.BitgetClient>
) => {
  it.effect.prop(
    `${name}: any window alone (either end missing) is refused before sending or accepted`,
    [record({ startTime: instant, endTime: instant }, [])],
    ([request]) => verdictAt(route, request, call),
    params()
  )

  it.effect(
    `${name}: a start 100 days back and no end is refused before sending or accepted`,
    () => verdictAt(route, { startTime: { _tag: "Ago", days: 100, millis: 0 } }, call),
    timeout
  )
}

const firstThree = <A, E, R>(stream: Stream.Stream<A, E, R>) => Stream.runCollect(Stream.take(stream, 3))
const order = constantFrom("newestFirst" as const, "oldestFirst" as const)

/** The properties of each endpoint, by name; an endpoint core exports and this table lacks fails the suite. */
const byEndpoint: ByEndpoint<Properties> = {
  "spot.symbols": {
    marketData: (it) => {
      const symbols = (symbol: string) =>
        verdict("symbols", { symbol }, Symbols.symbols({ symbol }), { ...client, key: "none" }, [["symbol", symbol]])

      it.effect.prop(
        "Symbols: any symbol is refused before sending or accepted",
        [text(spotSymbols)],
        ([symbol]) => symbols(symbol),
        params()
      )

      it.effect("Symbols: a blank symbol is refused before sending or accepted", () => symbols(" "), timeout)
    }
  },
  "spot.fundNetFlow": {
    marketData: (it) => {
      const fundNetFlow = (symbol: string) =>
        verdict("fundNetFlow", { symbol }, FundNetFlow.fundNetFlow({ symbol }), { ...client, key: "none" }, [[
          "symbol",
          symbol
        ]])

      it.effect.prop(
        "FundNetFlow: any symbol is refused before sending or accepted",
        [text(spotSymbols)],
        ([symbol]) => fundNetFlow(symbol),
        params()
      )

      it.effect(
        "FundNetFlow: a lone surrogate as the symbol is refused before sending or accepted",
        () => fundNetFlow("\uD800"),
        timeout
      )
    }
  },
  "market.rpiOrderBook": {
    marketData: (it) =>
      it.effect.prop(
        "RpiOrderBook: any category, symbol and limit are refused before sending or accepted",
        [record(
          {
            category: enumText(RpiOrderBook.rpiCategories),
            symbol: text(spotSymbols),
            limit: count(1, RpiOrderBook.maxLimit)
          },
          ["category", "symbol"]
        )],
        ([request]) =>
          verdict(
            "rpiOrderBook",
            request,
            RpiOrderBook.rpiOrderBook(request),
            client,
            asGiven(request, "symbol", "category")
          ),
        params()
      )
  },
  "common.allTradeRate": {
    marketData: (it) =>
      it.effect.prop(
        "TradeRates: any business type and symbol are refused before sending or accepted",
        [record(
          { businessType: enumText(TradeRates.businessTypes), symbol: text(spotSymbols) },
          ["businessType"]
        )],
        ([request]) =>
          verdict(
            "tradeRates",
            request,
            TradeRates.tradeRates(request),
            client,
            asGiven(request, "symbol", "businessType")
          ),
        params()
      )
  },
  "account.openInterestLimit": {
    marketData: (it) =>
      it.effect.prop(
        "OpenInterestLimit: any symbol and category are refused before sending or accepted",
        [Arbitrary.all({ symbol: text(futuresSymbols), category: enumText(OpenInterestLimit.futuresCategories) })],
        ([request]) =>
          verdict(
            "openInterestLimit",
            request,
            OpenInterestLimit.openInterestLimit(request),
            client,
            asGiven(request, "symbol", "category")
          ),
        params()
      )
  },
  // takes no parameters: nothing to vary
  "public.time": {},
  "spot.batchCancelOrders": {
    trading: (it) => {
      const orderRef = record({ symbol: text(spotSymbols), orderId: numericId, clientOid }, [])

      it.effect.prop(
        "BatchCancel: any batch (0 to 60 orders, any ids, symbols and mode) is refused before sending or accepted",
        [record(
          {
            symbol: text(spotSymbols),
            batchMode: enumText(BatchCancel.BatchMode.literals),
            orderList: oneof(
              { weight: 4, arbitrary: arrayOf(orderRef, 1, 4) },
              { weight: 1, arbitrary: arrayOf(orderRef, 0, 60) }
            )
          },
          ["orderList"]
        )],
        ([request]) => verdict("batchCancelOrders", request, BatchCancel.batchCancelOrders(request)),
        params()
      )
    }
  },
  "mix.placePositionTpsl": {
    trading: (it) => {
      const productTypes = [
        "USDT-FUTURES",
        "COIN-FUTURES",
        "USDC-FUTURES",
        "usdt-futures",
        "susdt-futures"
      ] as const

      it.effect.prop(
        "PositionTpsl: any prices, sizes, strings and enums are refused before sending or accepted",
        [record(
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
          ["marginCoin", "productType", "symbol", "holdSide"]
        )],
        ([request]) => verdict("placePositionTpsl", request, PositionTpsl.placePositionTpsl(request)),
        params()
      )

      const triggerPrice = (price: BigDecimal.BigDecimal) => {
        const request = {
          marginCoin: "USDT",
          productType: "USDT-FUTURES",
          symbol: "BTCUSDT",
          holdSide: "long",
          stopLossTriggerPrice: price
        } as const
        return verdict("placePositionTpsl", request, PositionTpsl.placePositionTpsl(request))
      }

      it.effect.prop(
        "PositionTpsl: any single trigger price is refused before sending or accepted",
        [decimal],
        ([price]) => triggerPrice(price),
        params(60)
      )

      it.effect(
        "PositionTpsl: a trigger price of 1e999999999 is refused before sending or accepted",
        () => triggerPrice(BigDecimal.fromStringUnsafe("1e999999999")),
        timeout
      )
    }
  },
  "p2p.orderList": {
    history: (it) => {
      it.effect.prop(
        "P2pOrders: any window, filters, cursor and limit are refused before sending or accepted",
        [record(
          {
            startTime: instant,
            endTime: instant,
            idLessThan: numericId,
            limit: count(1, P2pOrders.maxLimit),
            status: enumText(P2pOrders.P2pStatusFilter.literals),
            advNo: text(["1234567890123456789"]),
            side: enumText(["buy", "sell"] as const),
            coin: text(coins),
            language: enumText(["zh-CN", "en-US"] as const),
            fiat: text(["USD", "EUR"]),
            orderNo: text(["4121000000000000000"])
          },
          []
        )],
        ([request]) =>
          verdictAt(
            "p2pOrders",
            request,
            (resolved) => P2pOrders.p2pOrders(resolved),
            asGiven(request, "coin", "fiat", "advNo", "orderNo", "idLessThan", "status")
          ),
        params()
      )

      rangeProperties(it, "P2pOrders", "p2pOrders", (range) => P2pOrders.p2pOrders(range))
    },
    streams: (it) =>
      it.effect.prop(
        "P2pOrders.stream: any range, filters, page size and order are refused before sending or accepted",
        [record(
          {
            startTime: streamInstant,
            endTime: streamInstant,
            coin: text(coins),
            status: enumText(P2pOrders.P2pStatusFilter.literals),
            pageSize: count(1, P2pOrders.maxLimit),
            order
          },
          ["startTime"]
        )],
        ([request]) =>
          verdictAt(
            "P2pOrders.stream",
            request,
            (resolved) => Effect.suspend(() => firstThree(P2pOrders.stream(resolved)))
          ),
        params(60)
      )
  },
  "tax.spotRecords": {
    history: (it) =>
      it.effect.prop(
        "TaxRecords: any window, coin, cursor and limit are refused before sending or accepted",
        [record(
          {
            startTime: instant,
            endTime: instant,
            coin: text(coins),
            limit: count(1, TaxRecords.maxLimit),
            idLessThan: numericId
          },
          ["startTime", "endTime"]
        )],
        ([request]) =>
          verdictAt(
            "spotRecords",
            request,
            (resolved) => TaxRecords.spotRecords(resolved),
            asGiven(request, "coin", "idLessThan")
          ),
        params()
      ),
    streams: (it) =>
      it.effect.prop(
        "TaxRecords.stream: any range, coin, page size and order are refused before sending or accepted",
        [record(
          {
            startTime: streamInstant,
            endTime: streamInstant,
            coin: text(coins),
            pageSize: count(1, TaxRecords.maxLimit),
            order
          },
          ["startTime", "endTime"]
        )],
        ([request]) =>
          verdictAt(
            "TaxRecords.stream",
            request,
            (resolved) => Effect.suspend(() => firstThree(TaxRecords.stream(resolved)))
          ),
        params(60)
      )
  },
  "mix.ordersHistory": {
    history: (it) => {
      it.effect.prop(
        "FuturesHistory: any product type, filters, ids, window and limit are refused before sending or accepted",
        [record(
          {
            productType: enumText(FuturesHistory.productTypes),
            orderId: numericId,
            clientOid,
            symbol: text(futuresSymbols),
            idLessThan: numericId,
            orderSource: enumText(FuturesHistory.orderSourceFilters),
            startTime: instant,
            endTime: instant,
            limit: count(1, FuturesHistory.maxLimit)
          },
          ["productType"]
        )],
        ([request]) =>
          verdictAt("ordersHistory", request, (resolved) => FuturesHistory.ordersHistory(resolved), [
            ...asGiven(request, "symbol", "orderId"),
            ["clientOid", request.orderId === undefined ? request.clientOid : undefined],
            ...asGiven(request, "idLessThan", "orderSource")
          ]),
        params()
      )

      rangeProperties(
        it,
        "FuturesHistory",
        "ordersHistory",
        (range) => FuturesHistory.ordersHistory({ productType: "USDT-FUTURES", ...range })
      )
    },
    streams: (it) =>
      it.effect.prop(
        "FuturesHistory.stream: any range, filters, page size and order are refused before sending or accepted",
        [record(
          {
            productType: enumText(FuturesHistory.productTypes),
            symbol: text(futuresSymbols),
            orderSource: enumText(FuturesHistory.orderSourceFilters),
            startTime: streamInstant,
            endTime: streamInstant,
            pageSize: count(1, FuturesHistory.maxLimit),
            order
          },
          ["productType"]
        )],
        ([request]) =>
          verdictAt(
            "FuturesHistory.stream",
            request,
            (resolved) => Effect.suspend(() => firstThree(FuturesHistory.stream(resolved)))
          ),
        params(60)
      )
  }
}

const endpoints = covered(byEndpoint)

/** A block of tests on a sandbox of its own: every endpoint's properties of the block, then `more`. */
const block = (title: string, seed: number, name: Block, more: (it: SandboxIt) => void = () => {}) =>
  describe(title, () => {
    onSandbox(sandboxOptions(seed))((it) => {
      for (const [, properties] of endpoints) properties[name]?.(it)
      more(it)
    })
  })

block("request validators: market data", 101, "marketData")
block("request validators: trading", 102, "trading")
block("request validators: history", 103, "history")
block("request validators: streams (up to three elements)", 104, "streams", (it) =>
  it.effect(
    "a stream over 30,000 years answers (or is refused) within 500 ms, without a window list up front",
    () =>
      Effect.gen(function*() {
        for (const make of ["TaxRecords", "P2pOrders"] as const) {
          const end = DateTime.makeUnsafe(Date.now())
          const start = DateTime.subtract(end, { milliseconds: 1e15 })
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
  ))

describe("request validators: credentials and header values", () => {
  onSandbox(sandboxOptions(105))((it) => {
    /** Retries on, so a refusal that is retried as a network failure shows as such. */
    const retrying: ClientOptions = { ...client, retry: { maxAttempts: 3, baseDelay: "5 millis", jitter: false } }

    const channelApiCode = (code: string) =>
      verdict(
        "symbols with channelApiCode",
        { channelApiCode: code },
        Symbols.symbols({ symbol: "BTCUSDT" }),
        { ...retrying, key: "none", channelApiCode: code }
      )

    it.effect.prop(
      "a channel API code is refused before sending or sent as a header the sandbox reads",
      [text(["broker-1"])],
      ([code]) => channelApiCode(code),
      params(80)
    )

    it.effect(
      "a channel API code with CR/LF is refused before sending or sent as a header the sandbox reads",
      () => channelApiCode("broker\r\n1"),
      timeout
    )

    const credentials = (given: { readonly apiKey: string; readonly passphrase: string }) =>
      verdict(
        "tradeRates with credentials",
        given,
        TradeRates.tradeRates({ businessType: "spot" }),
        { ...retrying, credentials: Credentials.hmac({ ...given, secret: "fuzz-secret" }) }
      )

    it.effect.prop(
      "an API key and passphrase are refused before sending or sent as headers the sandbox reads",
      [Arbitrary.all({ apiKey: text(["bg_fuzz_key"]), passphrase: text(["sandbox-passphrase"]) })],
      ([given]) => credentials(given),
      params(80)
    )

    it.effect(
      "an API key with CR/LF and a header after it is refused before sending or sent as a header the sandbox reads",
      () => credentials({ apiKey: "bg_fuzz_key\r\nX-Injected: 1", passphrase: "sandbox-passphrase" }),
      timeout
    )
  })
})
