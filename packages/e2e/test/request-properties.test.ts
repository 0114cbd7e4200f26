/**
 * Request validators under arbitrary input, through the real client
 * (`BitgetNode.layer`) against the sandbox: strings with lone surrogates,
 * control characters, CR/LF, blanks and 100k characters; decimals with huge
 * and tiny exponents, zero and negatives; time windows with a missing end,
 * reversed, before 1970, 100 days back, in the future or at the ends of
 * time; enum values that are not; counts out of range; batches of the
 * sandbox's own open orders and of unknown ones; TP/SL triggers on either
 * side of the moving mark price.
 *
 * Every input is judged first by an oracle written here from the exchange's
 * rules (the spec and docs/sandbox.md: bounds, windows, enums, required
 * fields, decimal formats; not the library's validators), which says what the
 * call must come to:
 *
 * - refused: a `BitgetRequestError` before anything is sent (the sandbox's
 *   request log stays empty), its issue naming a field the rules find wrong
 *   and none they find fine;
 * - accepted: sent, answered `00000` by the sandbox, and a success (a batch
 *   whose every order fails may also be answered `43001`, which the client
 *   reads as that);
 * - answered: sent, its parameters accepted, and answered with the code the
 *   rules give for the data (`40034` no such symbol, `40837` no position, a
 *   TP/SL trigger on the wrong side of the mark price, `40006` an unknown key);
 * - on a boundary only the clocks decide (a window of exactly 90 days from
 *   "now", a trigger at the mark): refused or accepted.
 *
 * Never a defect, an interruption or a hang, and a sent request carries the
 * given values as given. Each property counts its outcomes, prints them, and
 * asserts that at least 30 % of its runs reach the sandbox and succeed (the
 * generators draw valid inputs about half the time) and that hostile inputs
 * are refused in a share of them.
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
import type { Account, RequestLog } from "@bitget-effect/sandbox"
import { Dataset, DemoKey, Sandbox } from "@bitget-effect/sandbox"
import type { Vitest } from "@effect/vitest"
import { assert, describe } from "@effect/vitest"
import { Arbitrary, BigDecimal, Cause, DateTime, Effect, Exit, Option, Schema, Stream } from "effect"
import type { ByEndpoint, ClientOptions } from "./support.js"
import { covered, DAY, onSandbox, withClient } from "./support.js"

const seed = Number(process.env.PROPERTY_SEED ?? 20_250_612)
const runs = Number(process.env.PROPERTY_RUNS ?? 120)

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

/** The API key the signed calls use (the client's default demo key). */
const apiKey = DemoKey.hmac.apiKey

// ---------------------------------------------------------------------------
// The oracle's vocabulary: what one input must come to
// ---------------------------------------------------------------------------

/** A rule an input breaks: the fields a refusal may name for it, and why. */
interface Problem {
  readonly fields: ReadonlyArray<string>
  readonly why: string
}

/** What the rules say a call must come to. */
type Expected =
  /** A `BitgetRequestError` before anything is sent, its issue naming one of the problems' fields. */
  | { readonly _tag: "Refused"; readonly problems: ReadonlyArray<Problem> }
  /**
   * Sent, every answer one of `codes` (`00000`, or `43001` for a batch none of whose orders exists), and a
   * success, which `check` (when given) finds as the rules say (`undefined`) or not (why).
   */
  | {
    readonly _tag: "Accepted"
    readonly codes: ReadonlyArray<string>
    readonly check?: (value: unknown) => string | undefined
  }
  /** Sent, its parameters accepted, and answered with one of `codes` about the data or the key. */
  | { readonly _tag: "Answered"; readonly codes: ReadonlyArray<string>; readonly why: string }
  /** On a boundary the clocks decide: refused, accepted, or answered with one of `codes`. */
  | { readonly _tag: "Boundary"; readonly codes: ReadonlyArray<string>; readonly why: string }

const refused = (problems: ReadonlyArray<Problem>): Expected => ({ _tag: "Refused", problems })
const accepted = (check?: (value: unknown) => string | undefined): Expected =>
  check === undefined ? { _tag: "Accepted", codes: ["00000"] } : { _tag: "Accepted", codes: ["00000"], check }
const answered = (codes: ReadonlyArray<string>, why: string): Expected => ({ _tag: "Answered", codes, why })
const boundary = (why: string, codes: ReadonlyArray<string> = []): Expected => ({ _tag: "Boundary", codes, why })

/** The expectation, in words. */
const describeExpected = (expected: Expected): string => {
  switch (expected._tag) {
    case "Refused":
      return `refused before sending (${expected.problems.map((p) => `${p.fields.join("/")}: ${p.why}`).join("; ")})`
    case "Accepted":
      return `accepted, answered ${expected.codes.join(" or ")}`
    case "Answered":
      return `answered ${expected.codes.join(" or ")} (${expected.why})`
    case "Boundary":
      return `either way (${expected.why})`
  }
}

/** A problem, or none: `undefined` when `ok`. */
const unless = (ok: boolean, fields: ReadonlyArray<string>, why: string): Problem | undefined =>
  ok ? undefined : { fields, why }

/** The problems found, in order. */
const problemsOf = (...found: ReadonlyArray<Problem | undefined>): ReadonlyArray<Problem> =>
  found.filter((problem): problem is Problem => problem !== undefined)

// ---------------------------------------------------------------------------
// The rules of single fields, from the spec (written here, not taken from the library)
// ---------------------------------------------------------------------------

/** The longest text field (symbols, coins, advert and order numbers) a request takes, trimmed. */
const maxText = 64

/**
 * A text field (symbol, coin, filter): sent trimmed of whitespace, so it must
 * not be blank, hold more than 64 characters, a control character (C0, DEL,
 * C1) or half a surrogate pair; absent is fine.
 */
const textRule = (field: string, value: string | undefined): Problem | undefined => {
  if (value === undefined) return undefined
  const trimmed = value.trim()
  if (trimmed.length === 0) return { fields: [field], why: "blank" }
  if (trimmed.length > maxText) return { fields: [field], why: `longer than ${maxText}` }
  for (let i = 0; i < trimmed.length; i++) {
    const unit = trimmed.charCodeAt(i)
    if (unit < 0x20 || (unit >= 0x7f && unit <= 0x9f)) return { fields: [field], why: "a control character" }
    const high = unit >= 0xd800 && unit <= 0xdbff
    const next = trimmed.charCodeAt(i + 1)
    if (high && next >= 0xdc00 && next <= 0xdfff) i++
    else if (unit >= 0xd800 && unit <= 0xdfff) return { fields: [field], why: "a lone surrogate" }
  }
  return undefined
}

/** An enum field: exactly one of the spec's values (the client takes no other spelling); absent is fine. */
const enumRule = (field: string, value: string | undefined, allowed: ReadonlyArray<string>): Problem | undefined =>
  value === undefined ? undefined : unless(allowed.includes(value), [field], `not one of ${allowed.join(", ")}`)

/** A count (`limit`, a page size): an integer from `min` to `max`; absent is fine. */
const countRule = (
  fields: ReadonlyArray<string>,
  value: number | undefined,
  min: number,
  max: number
): Problem | undefined =>
  value === undefined
    ? undefined
    : unless(Number.isInteger(value) && value >= min && value <= max, fields, `not an integer from ${min} to ${max}`)

/** A numeric id (`orderId`, `idLessThan`): 1 to 30 ASCII digits. */
const isNumericId = (value: string): boolean =>
  value.length >= 1 && value.length <= 30 && [...value].every((char) => char >= "0" && char <= "9")

const numericIdRule = (field: string, value: string | undefined): Problem | undefined =>
  value === undefined ? undefined : unless(isNumericId(value), [field], "not 1 to 30 digits")

/** A client order id: 1 to 49 characters of `0-9a-zA-Z-+_#`. */
const clientOidRule = (field: string, value: string | undefined): Problem | undefined =>
  value === undefined
    ? undefined
    : unless(/^[0-9a-zA-Z+_#-]{1,49}$/.test(value), [field], "not 1 to 49 characters of 0-9a-zA-Z-+_#")

/** The digits of a decimal in fixed point, trailing zeros of the fraction dropped. */
const fixedPointDigits = (value: BigDecimal.BigDecimal): { readonly integer: number; readonly fraction: number } => {
  let unscaled = value.value < 0n ? -value.value : value.value
  let scale = value.scale
  while (unscaled !== 0n && unscaled % 10n === 0n) {
    unscaled /= 10n
    scale -= 1
  }
  const digits = unscaled === 0n ? 0 : unscaled.toString().length
  return scale <= 0
    ? { integer: digits - scale, fraction: 0 }
    : { integer: Math.max(0, digits - scale), fraction: scale }
}

/**
 * A decimal of a request (a price, a size): at most 24 digits before the
 * point and 18 after, which the exchange takes; `positive` ones greater than
 * zero, the others not negative; absent is fine.
 */
const decimalRule = (
  field: string,
  value: BigDecimal.BigDecimal | undefined,
  sign: "positive" | "nonNegative"
): Problem | undefined => {
  if (value === undefined) return undefined
  const { fraction, integer } = fixedPointDigits(value)
  if (fraction > 18) return { fields: [field], why: "more than 18 digits after the point" }
  if (integer > 24) return { fields: [field], why: "more than 24 digits before the point" }
  return sign === "positive"
    ? unless(value.value > 0n, [field], "not greater than 0")
    : unless(value.value >= 0n, [field], "negative")
}

/** A header value: printable ASCII or tabs (no line break, nothing an HTTP header cannot carry), at most 1024. */
const headerRule = (header: string, value: string): Problem | undefined => {
  const carriable = [...value].every((char) => char === "\t" || (char >= " " && char <= "~"))
  return unless(carriable && value.length <= 1024, [header], "no HTTP header can carry it")
}

/** How close to a boundary the clocks may move a time between the oracle's reading and the client's (ms). */
const clockSlack = 5_000

/** Whether a time is within the clocks' slack of a boundary. */
const near = (millis: number, edge: number): boolean => Math.abs(millis - edge) <= clockSlack

// ---------------------------------------------------------------------------
// The verdict on one call
// ---------------------------------------------------------------------------

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

/** How a call ended, as the properties count it. */
type Outcome = "refused" | "succeeded" | "answered" | "boundary"

/** What a call came to: its value, or its typed failure. */
type Ending<A> = { readonly _tag: "Success"; readonly value: A } | {
  readonly _tag: "Failure"
  readonly error: BitgetError.BitgetError
}

/** The fields an issue names (`symbol: must not be blank; orderList.0.orderId: …` names `symbol` and `orderList`). */
const namedFields = (issue: string): ReadonlyArray<string> =>
  issue.split("; ").flatMap((part) => {
    const named = /^([A-Za-z][\w-]*)(?:\.\w+)*: /.exec(part)
    return named === null ? [] : [named[1] as string]
  })

/**
 * `undefined` when the call was refused before sending, its issue naming one
 * of `fields` and no field the rules find fine; else what it came to.
 */
const notRefused = <A>(
  ending: Ending<A>,
  entries: ReadonlyArray<RequestLog.Entry>,
  fields: ReadonlyArray<string>
): string | undefined => {
  if (ending._tag === "Success") return `a success after ${entries.length} requests`
  const { error } = ending
  if (error._tag !== "BitgetRequestError") return `${error._tag}: ${error.message.slice(0, 300)}`
  if (entries.length > 0) return `a BitgetRequestError, yet sent: ${describeEntries(entries)}`
  if (fields.length === 0) return undefined
  const fine = namedFields(error.issue).filter((field) => !fields.includes(field))
  if (fine.length > 0) {
    return `refused for ${fine.join(", ")} too, which the rules find fine: ${error.issue.slice(0, 300)}`
  }
  return fields.some((field) => error.issue.includes(field))
    ? undefined
    : `refused for another reason: ${error.issue.slice(0, 300)}`
}

/** `undefined` when the call was sent, answered with `codes` only, and succeeded as `check` wants; else why not. */
const notAccepted = <A>(
  ending: Ending<A>,
  entries: ReadonlyArray<RequestLog.Entry>,
  codes: ReadonlyArray<string>,
  check?: (value: unknown) => string | undefined
): string | undefined => {
  if (ending._tag === "Failure") {
    return `${ending.error._tag}: ${ending.error.message.slice(0, 300)} (${describeEntries(entries) || "nothing sent"})`
  }
  if (entries.length === 0) return "a success without reaching the sandbox"
  const other = entries.find((entry) => entry.code === undefined || !codes.includes(entry.code))
  if (other !== undefined) return `a success, yet answered ${describeEntries([other])}`
  return check?.(ending.value)
}

/** `undefined` when the call was sent and failed with one of `codes`, which the sandbox answered; else why not. */
const notAnswered = <A>(
  ending: Ending<A>,
  entries: ReadonlyArray<RequestLog.Entry>,
  codes: ReadonlyArray<string>
): string | undefined => {
  if (ending._tag === "Success") return `a success (${describeEntries(entries)})`
  const { error } = ending
  if (error._tag !== "BitgetApiError" || !codes.includes(error.code)) {
    return `${error._tag}: ${error.message.slice(0, 300)} (${describeEntries(entries) || "nothing sent"})`
  }
  const last = entries.at(-1)
  return last !== undefined && last.code === error.code
    ? undefined
    : `not the sandbox's answer: ${describeEntries(entries)}`
}

/** The outcome the expectation and the ending make, or why they disagree. */
const judged = <A>(
  expected: Expected,
  ending: Ending<A>,
  entries: ReadonlyArray<RequestLog.Entry>
): { readonly outcome: Outcome } | { readonly mismatch: string } => {
  const verdict = (outcome: Outcome, mismatch: string | undefined) =>
    mismatch === undefined ? { outcome } : { mismatch }
  switch (expected._tag) {
    case "Refused":
      return verdict("refused", notRefused(ending, entries, expected.problems.flatMap((problem) => problem.fields)))
    case "Accepted": {
      const ok = entries.every((entry) => entry.code === "00000")
      return verdict(ok ? "succeeded" : "answered", notAccepted(ending, entries, expected.codes, expected.check))
    }
    case "Answered":
      return verdict("answered", notAnswered(ending, entries, expected.codes))
    case "Boundary": {
      const either = [
        notRefused(ending, entries, []),
        notAccepted(ending, entries, ["00000"]),
        notAnswered(ending, entries, expected.codes)
      ]
      return verdict("boundary", either.includes(undefined) ? undefined : either.join("; "))
    }
  }
}

/**
 * Runs one call with a fresh client on an emptied request log and asserts it
 * comes to what the oracle expects, carries the given values as given
 * (`sent`), and is never a defect, interruption or hang; how it ended.
 */
const judge = <A>(
  label: string,
  input: unknown,
  expected: Expected,
  call: Effect.Effect<A, BitgetError.BitgetError, BitgetClient.BitgetClient>,
  options: ClientOptions = client,
  sent: Sent = []
): Effect.Effect<Outcome, never, Sandbox.Sandbox> =>
  Effect.gen(function*() {
    const sandbox = yield* Sandbox.Sandbox
    yield* sandbox.clearRequests
    const exit = yield* call.pipe(withClient(options), Effect.timeoutOption(hangAfter), Effect.exit)
    const entries = yield* sandbox.requests
    const what = `${label} ${show(input)}; expected ${describeExpected(expected)}`
    const altered = alteredParameter(entries, sent)
    if (altered !== undefined) {
      return assert.fail(`sent a request other than the one given (${altered}): ${describeEntries(entries)}; ${what}`)
    }
    if (Exit.isSuccess(exit) && Option.isNone(exit.value)) {
      return assert.fail(`hang: no outcome within ${hangAfter} (${entries.length} requests sent) for ${what}`)
    }
    if (Exit.isFailure(exit)) {
      if (Cause.hasDies(exit.cause)) {
        return assert.fail(`defect for ${what}:\n${Cause.pretty(exit.cause).slice(0, 1_500)}`)
      }
      if (Cause.hasInterruptsOnly(exit.cause)) return assert.fail(`interrupted: ${what}`)
    }
    const ending: Ending<A> | undefined = Exit.isSuccess(exit)
      ? Option.match(exit.value, { onNone: () => undefined, onSome: (value) => ({ _tag: "Success", value }) })
      : Option.match(Cause.findErrorOption(exit.cause), {
        onNone: () => undefined,
        onSome: (error) => ({ _tag: "Failure", error })
      })
    if (ending === undefined) return assert.fail(`no typed failure for ${what}`)
    const result = judged(expected, ending, entries)
    return "outcome" in result ? result.outcome : assert.fail(`${result.mismatch}; for ${what}`)
  })

// ---------------------------------------------------------------------------
// Properties that count their outcomes
// ---------------------------------------------------------------------------

/** The test API of a block, on its sandbox. */
type SandboxIt = Vitest.MethodsNonLive<Sandbox.Sandbox>

/** The least shares of a property's runs that must succeed (sent, answered `00000`) and be refused. */
interface Shares {
  readonly succeeded: number
  readonly refused: number
}

/** Most properties: at least 30 % of runs succeed, at least 10 % are refused. */
const defaultShares: Shares = { succeeded: 0.3, refused: 0.1 }

/**
 * A seeded property over `arbitrary` (a bound on shrinking: each candidate is
 * an HTTP call, so a failure is reported shrunk well within the timeout),
 * whose runs are judged by `run`; then its outcomes, counted and printed,
 * must meet `shares`.
 */
const property = <A>(
  it: SandboxIt,
  name: string,
  arbitrary: Arbitrary.Arbitrary<A>,
  run: (input: A) => Effect.Effect<Outcome, never, Sandbox.Sandbox>,
  options: { readonly runs?: number; readonly shares?: Shares } = {}
) =>
  it.effect(
    name,
    () =>
      Effect.gen(function*() {
        const counts = new Map<Outcome, number>()
        const result = yield* Arbitrary.checkEffect(
          arbitrary,
          (input) =>
            run(input).pipe(
              Effect.map((outcome) => {
                counts.set(outcome, (counts.get(outcome) ?? 0) + 1)
                return true
              }),
              Effect.catchCause((cause) =>
                Cause.hasInterrupts(cause) ? Effect.failCause(cause) : Effect.fail(Cause.pretty(cause))
              )
            ),
          { seed, runs: options.runs ?? runs, maxShrinks: 100 }
        )
        const failure = Arbitrary.formatCheckFailure(result)
        if (failure !== undefined) return assert.fail(failure)
        const total = [...counts.values()].reduce((sum, n) => sum + n, 0)
        const count = (outcome: Outcome) => counts.get(outcome) ?? 0
        const shares = options.shares ?? defaultShares
        console.log(
          `${name}: ${total} runs, ${count("succeeded")} sent and answered 00000, ${count("refused")} refused ` +
            `before sending, ${count("answered")} answered with a code about the data, ${count("boundary")} on a ` +
            "clock boundary"
        )
        assert.isAtLeast(count("succeeded"), Math.ceil(total * shares.succeeded), `${name}: runs that succeeded`)
        assert.isAtLeast(count("refused"), Math.ceil(total * shares.refused), `${name}: runs refused before sending`)
      }),
    timeout
  )

/** A single case judged by the oracle, which must come to `outcome`. */
const example = (
  it: SandboxIt,
  name: string,
  outcome: Outcome,
  run: Effect.Effect<Outcome, never, Sandbox.Sandbox>
) => it.effect(name, () => Effect.map(run, (actual) => assert.strictEqual(actual, outcome, name)), timeout)

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
  "S".repeat(64),
  "S".repeat(65),
  ` ${"S".repeat(64)} `,
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
        "12345678901234567890123456789",
        "0.000000000000000001",
        "0.0000000000000000001",
        "123456789012345678901234",
        "1234567890123456789012345"
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

/** An instant's time at `now`, ms. */
const millisAt = (at: Instant, now: number): number => at._tag === "At" ? at.millis : now - at.days * DAY - at.millis

/** A time range with either end possibly missing. */
type Range = { readonly startTime?: DateTime.Utc; readonly endTime?: DateTime.Utc }

/** A request whose range is given as `Instant`s. */
type Timed = { readonly startTime?: Instant; readonly endTime?: Instant }

/** A request with its instants resolved: each end present (or absent) as it was given. */
type Resolved<A extends Timed> = { readonly [K in keyof A]: K extends keyof Timed ? DateTime.Utc : A[K] }

/** The request with its instants resolved at `now`. */
const withTimes = <A extends Timed>(request: A, now: number): Resolved<A> => {
  const { endTime, startTime, ...rest } = request
  // the spreads keep each end exactly where the request has one, which the type cannot follow
  return {
    ...rest,
    ...(startTime === undefined ? {} : { startTime: resolve(startTime, now) }),
    ...(endTime === undefined ? {} : { endTime: resolve(endTime, now) })
  } as Resolved<A>
}

/** The ends of a request's range at `now`, ms. */
const endsAt = (request: Timed, now: number) => ({
  start: request.startTime === undefined ? undefined : millisAt(request.startTime, now),
  end: request.endTime === undefined ? undefined : millisAt(request.endTime, now)
})

/** Drawn half the time from `valid` (inputs the rules accept, mostly), else from `any` (mostly hostile). */
const validOrAny = <A>(valid: Arbitrary.Arbitrary<A>, any: Arbitrary.Arbitrary<A>): Arbitrary.Arbitrary<A> =>
  oneof({ weight: 1, arbitrary: valid }, { weight: 1, arbitrary: any })

/** An instant some days and milliseconds back (ahead, for negative days). */
const daysBack = (days: number, millis: number): Instant => ({ _tag: "Ago", days, millis })

/** Both ends of a window, the start at most `back` days back, the end under `span` days after it (perhaps ahead). */
const spanning = (
  back: number,
  span: number
): Arbitrary.Arbitrary<{ readonly startTime: Instant; readonly endTime: Instant }> =>
  Arbitrary.map(
    Arbitrary.all([integer(0, back), integer(0, span - 1), integer(0, DAY - 1)]),
    ([days, spanDays, millis]) => ({ startTime: daysBack(days, millis), endTime: daysBack(days - spanDays, millis) })
  )

/**
 * Both ends of a window `days` days apart give or take a millisecond or a
 * day (the bound itself, to the millisecond), the start up to `back` days
 * back (the end often ahead).
 */
const edgeWindow = (
  days: number,
  back: number
): Arbitrary.Arbitrary<{ readonly startTime: Instant; readonly endTime: Instant }> =>
  Arbitrary.map(
    Arbitrary.all([integer(0, back), constantFrom(-DAY, -1, 0, 1, DAY), integer(0, DAY - 1)]),
    ([start, extra, millis]) => ({
      startTime: daysBack(start, millis + extra),
      endTime: daysBack(start - days, millis)
    })
  )

/**
 * A window the rules accept mostly, relative to now: both ends (under `span`
 * days apart, the start at most `back` days back), both at the bound (give or
 * take a millisecond or a day: half of these are refused), only the start
 * (under `span` days back), only the end (within 60 days back, or ahead), or
 * neither.
 */
const validWindow = (options: { readonly span: number; readonly back: number }): Arbitrary.Arbitrary<Timed> =>
  oneof<Timed>(
    { weight: 3, arbitrary: spanning(options.back, options.span) },
    { weight: 1, arbitrary: edgeWindow(options.span, options.back) },
    {
      weight: 1,
      arbitrary: Arbitrary.map(
        Arbitrary.all([integer(0, options.span - 1), integer(0, DAY - 1)]),
        ([days, millis]) => ({ startTime: daysBack(days, millis) })
      )
    },
    {
      weight: 1,
      arbitrary: Arbitrary.map(Arbitrary.all([integer(-3, 60), integer(0, DAY - 1)]), ([days, millis]) => ({
        endTime: daysBack(days, millis)
      }))
    },
    { weight: 1, arbitrary: Arbitrary.Constant({}) }
  )

/** A request's fields drawn by `fields`, its range by `window`. */
const windowed = <A extends object, W extends Timed>(
  fields: Arbitrary.Arbitrary<A>,
  window: Arbitrary.Arbitrary<W>
): Arbitrary.Arbitrary<A & W> =>
  Arbitrary.map(Arbitrary.all([fields, window]), ([drawn, range]) => ({ ...drawn, ...range }))

// ---------------------------------------------------------------------------
// Windows, as the spec bounds them
// ---------------------------------------------------------------------------

/** What the rules of a window say: problems that refuse it, and boundaries only the clocks decide. */
interface WindowJudgement {
  readonly problems: ReadonlyArray<Problem>
  readonly boundaries: ReadonlyArray<string>
}

/** The fields a refused window names. */
const windowFields = ["startTime", "endTime", "range"]

/** A window judgement from checks: `true` (fine), a problem (why), or a boundary (`{ near: why }`). */
const windowOf = (...checks: ReadonlyArray<true | string | { readonly near: string }>): WindowJudgement => ({
  problems: checks.flatMap((check) => typeof check === "string" ? [{ fields: windowFields, why: check }] : []),
  boundaries: checks.flatMap((check) => typeof check === "object" ? [check.near] : [])
})

/** `value` must be at most `limit`, a bound the clocks move: a boundary within the slack. */
const atMost = (value: number, limit: number, why: string): true | string | { readonly near: string } =>
  near(value, limit) ? { near: why } : value <= limit || why

/**
 * A window of at most `days` days (`start` not after `end`), neither end
 * before 1970; a missing end is now (so a lone start must be within `days`
 * of now), a missing start `days` before the end (never too long).
 */
const spanWindow = (start: number | undefined, end: number | undefined, now: number, days: number): WindowJudgement => {
  const before1970 = [
    start === undefined || start >= 0 || "startTime before 1970",
    end === undefined || end >= 0 || "endTime before 1970"
  ] as const
  if (start !== undefined && end !== undefined) {
    return windowOf(
      ...before1970,
      start <= end || "startTime after endTime",
      end - start <= days * DAY || `more than ${days} days`
    )
  }
  if (start !== undefined) {
    // the end is now
    return windowOf(
      ...before1970,
      atMost(start, now, "startTime after now"),
      atMost(now - start, days * DAY, "over 90 days")
    )
  }
  return windowOf(...before1970)
}

/** The exchange keeps 90 days of futures history; a window's start may be a minute into it when filled. */
const futuresHorizon = (now: number) => now - 90 * DAY

/**
 * A futures history window: its first time (the start, or the end) not
 * before the horizon; at most 90 days, in order; a missing end is now, a
 * missing start 90 days before the end but not before a minute after the
 * horizon.
 */
const futuresWindow = (start: number | undefined, end: number | undefined, now: number): WindowJudgement => {
  const horizon = futuresHorizon(now)
  const first = start ?? end
  const kept = first === undefined ? true : atMost(horizon, first, "before the 90 days kept")
  if (start !== undefined && end !== undefined) {
    return windowOf(kept, start <= end || "startTime after endTime", end - start <= 90 * DAY || "more than 90 days")
  }
  if (start !== undefined) return windowOf(kept, atMost(start, now, "startTime after now"))
  if (end !== undefined) return windowOf(kept, atMost(horizon + 60_000, end, "endTime in the horizon's first minute"))
  return windowOf()
}

/**
 * A stream's range: in order, not before 1970, not starting after the
 * exchange's clock and a minute, not ending before `oldest` (a history's
 * horizon and a minute); a missing end is now.
 */
const streamRange = (start: number, end: number | undefined, now: number, oldest?: number): WindowJudgement => {
  const last = end ?? now
  return windowOf(
    end === undefined ? atMost(start, now, "startTime after now") : start <= end || "startTime after endTime",
    start >= 0 || "before 1970",
    oldest === undefined ? true : atMost(oldest, last, "ends before the history kept"),
    atMost(start, now + 60_000, "starts after the exchange's clock")
  )
}

/**
 * The verdict of the field problems and a window: refused for any problem
 * (naming a boundary's fields too: the clocks may refuse it first), on a
 * boundary, or what the exchange makes of the input (`otherwise`).
 */
const decide = (
  fields: ReadonlyArray<Problem | undefined>,
  window: WindowJudgement,
  otherwise: () => Expected
): Expected => {
  const problems = [...problemsOf(...fields), ...window.problems]
  if (problems.length > 0) {
    return refused([...problems, ...window.boundaries.map((why) => ({ fields: windowFields, why }))])
  }
  if (window.boundaries.length > 0) {
    return boundary(window.boundaries.join("; "), ["00001", "70008", "40704", "40705", "40017"])
  }
  return otherwise()
}

// ---------------------------------------------------------------------------
// The sandbox's data, as the rules need it (symbols, open orders, positions, marks)
// ---------------------------------------------------------------------------

/** The instruments a sandbox holds (its seeded data model, read once per sandbox). */
interface Universe {
  /** Spot symbols, upper case. */
  readonly spot: ReadonlySet<string>
  /** Spot symbols with trade rates (not offline), upper case. */
  readonly rated: ReadonlySet<string>
  /** Whether a futures contract of a category exists (any case). */
  readonly future: (category: Account.ProductType, symbol: string) => boolean
}

const universes = new Map<string, Universe>()

const universeOf = (sandbox: Sandbox.Sandbox.Service): Universe => {
  const known = universes.get(sandbox.url)
  if (known !== undefined) return known
  const dataset = Dataset.make(sandbox)
  const names = (records: ReadonlyArray<Dataset.SymbolRecord>) =>
    new Set(records.map((record) => (record.symbol ?? "").toUpperCase()))
  const universe: Universe = {
    spot: names(dataset.symbols),
    rated: names(dataset.symbols.filter((record) => record.status !== "offline")),
    future: (category, symbol) => dataset.openInterestLimit(category, symbol) !== undefined
  }
  universes.set(sandbox.url, universe)
  return universe
}

/** The futures categories of the spec. */
const futuresCategories: ReadonlyArray<Account.ProductType> = ["USDT-FUTURES", "COIN-FUTURES", "USDC-FUTURES"]

/** The category, when it is one of the spec's (exactly). */
const categoryOf = (value: string): Account.ProductType | undefined => futuresCategories.find((c) => c === value)

/** Two symbols (or coins) the exchange takes as the same: any case. */
const same = (a: string, b: string): boolean => a.toUpperCase() === b.toUpperCase()

/** Placeholders for the sandbox's seeded open orders (`@order:3`, `@oid:3/1`, `@symbol:3`), resolved when a run starts. */
const openPlaceholder = /^(0?)@(order|oid|symbol|symbol-lower):(\d+)(?:\/(\d+))?$/

/**
 * A text with a placeholder resolved against the open orders: open order `k`
 * (its id, client id, symbol or lower-case symbol), or with `/j` the `j`-th
 * open order of order `k`'s symbol; a leading `0` is kept before an order id
 * (`0@order:3`); other text as it is.
 */
const resolveOpen = (text: string, orders: ReadonlyArray<Account.SpotOrder>): string => {
  const match = openPlaceholder.exec(text)
  const anchor = match === null ? undefined : orders[Number(match[3]) % orders.length]
  if (match === null || anchor === undefined) return text
  const group = orders.filter((order) => order.symbol === anchor.symbol)
  const order = match[4] === undefined ? anchor : group[Number(match[4]) % group.length] ?? anchor
  switch (match[2]) {
    case "order":
      return `${match[1]}${order.orderId}`
    case "oid":
      return order.clientOid
    case "symbol":
      return order.symbol
    default:
      return order.symbol.toLowerCase()
  }
}

/** Placeholders for the position a TP/SL request aims at (`@position.symbol`, `@position.symbol-lower`). */
const positionPlaceholder = /^@position\.(symbol|marginCoin|productType|holdSide)(-lower)?$/

const resolvePosition = (text: string, position: Account.Position): string => {
  const match = positionPlaceholder.exec(text)
  if (match === null) return text
  const value = position[match[1] as "symbol" | "marginCoin" | "productType" | "holdSide"]
  return match[2] === undefined ? value : value.toLowerCase()
}

/** The mark prices of the contracts of some positions, by `productType:symbol`. */
const marksOf = (sandbox: Sandbox.Sandbox.Service, positions: ReadonlyArray<Account.Position>) =>
  Effect.map(
    Effect.forEach(positions, (position) =>
      Effect.map(sandbox.markPrice(position.productType, position.symbol), (mark) =>
        [`${position.productType}:${position.symbol}`, Option.getOrThrow(mark)] as const)),
    (entries) =>
      new Map(entries.map(([key, mark]) => [key, BigDecimal.fromStringUnsafe(mark)]))
  )

// ---------------------------------------------------------------------------
// The rules of each operation: the oracle
// ---------------------------------------------------------------------------

/** A symbol the spot universe holds (the exchange compares in any case): accepted, else `40034`. */
const spotLookup = (universe: Universe, symbol: string): Expected =>
  universe.spot.has(symbol.trim().toUpperCase()) ? accepted() : answered(["40034"], "no such spot symbol")

/** Symbols and fund net flow: a text symbol, then a spot symbol the exchange has. */
const symbolExpected = (universe: Universe, symbol: string): Expected => {
  const problems = problemsOf(textRule("symbol", symbol))
  return problems.length > 0 ? refused(problems) : spotLookup(universe, symbol)
}

/** The RPI book's categories. */
const rpiCategoryNames = ["SPOT", "USDT-FUTURES", "COIN-FUTURES", "USDC-FUTURES"]

interface RpiDraw {
  readonly category: string
  readonly symbol: string
  readonly limit?: number | undefined
}

const rpiExpected = (universe: Universe, request: RpiDraw): Expected => {
  const problems = problemsOf(
    enumRule("category", request.category, rpiCategoryNames),
    textRule("symbol", request.symbol),
    countRule(["limit"], request.limit, 1, 200)
  )
  if (problems.length > 0) return refused(problems)
  const category = categoryOf(request.category)
  if (category === undefined) return spotLookup(universe, request.symbol)
  return universe.future(category, request.symbol.trim()) ? accepted() : answered(["40034"], "no such contract")
}

interface TradeRatesDraw {
  readonly businessType: string
  readonly symbol?: string | undefined
}

const tradeRatesExpected = (universe: Universe, request: TradeRatesDraw): Expected => {
  const problems = problemsOf(
    enumRule("businessType", request.businessType, ["mix", "spot", "margin"]),
    textRule("symbol", request.symbol)
  )
  if (problems.length > 0) return refused(problems)
  if (request.symbol === undefined) return accepted()
  const symbol = request.symbol.trim()
  const found = request.businessType === "mix"
    ? futuresCategories.some((category) => universe.future(category, symbol))
    : universe.rated.has(symbol.toUpperCase())
  return found ? accepted() : answered(["40034"], `no ${request.businessType} symbol ${symbol}`)
}

interface OpenInterestDraw {
  readonly symbol: string
  readonly category: string
}

const openInterestExpected = (universe: Universe, request: OpenInterestDraw): Expected => {
  const problems = problemsOf(
    textRule("symbol", request.symbol),
    enumRule("category", request.category, futuresCategories)
  )
  if (problems.length > 0) return refused(problems)
  const category = categoryOf(request.category)
  return category !== undefined && universe.future(category, request.symbol.trim())
    ? accepted()
    : answered(["40034"], "no such contract")
}

/** The kind of id an order of a batch is named by. */
const idKind = (ref: BatchCancel.OrderRef): "orderId" | "clientOid" =>
  ref.orderId !== undefined ? "orderId" : "clientOid"

/** An order's key for duplicates: an order id by its value (leading zeros dropped), a client id as it is. */
const refKey = (ref: BatchCancel.OrderRef): string =>
  ref.orderId !== undefined && isNumericId(ref.orderId)
    ? `orderId:${BigInt(ref.orderId)}`
    : `${idKind(ref)}:${ref.orderId ?? ref.clientOid}`

/**
 * A batch cancel: 1 to 50 orders, each named by an order id or a client id
 * (not both), all by the same kind, none twice; in single mode (the default)
 * the batch's symbol, which an order's own symbol must repeat; in multiple
 * mode a symbol on every order. Then the exchange cancels the open orders it
 * finds under the symbol and fails the rest: accepted with exactly those
 * cancelled, or, when none is found, `43001` for the whole batch.
 */
const batchExpected = (request: BatchCancel.BatchCancelRequest, orders: ReadonlyArray<Account.SpotOrder>): Expected => {
  const { batchMode, orderList, symbol } = request
  const single = batchMode !== "multiple"
  const first = orderList[0]
  const keys = orderList.map(refKey)
  const problems = problemsOf(
    textRule("symbol", symbol),
    enumRule("batchMode", batchMode, ["single", "multiple"]),
    unless(orderList.length >= 1, ["orderList"], "no order"),
    unless(orderList.length <= 50, ["orderList"], "more than 50 orders"),
    ...orderList.flatMap((ref) => [
      textRule("orderList", ref.symbol),
      numericIdRule("orderList", ref.orderId),
      clientOidRule("orderList", ref.clientOid),
      unless((ref.orderId === undefined) !== (ref.clientOid === undefined), ["orderList"], "not exactly one id"),
      unless(first === undefined || idKind(ref) === idKind(first), ["orderList"], "ids of both kinds"),
      single
        ? unless(ref.symbol === undefined || ref.symbol === symbol, ["orderList", "symbol"], "another symbol")
        : unless(ref.symbol !== undefined, ["orderList", "symbol"], "no symbol in multiple mode")
    ]),
    unless(new Set(keys).size === keys.length, ["orderList"], "an order twice"),
    unless(!single || symbol !== undefined, ["symbol"], "no symbol in single mode")
  )
  if (problems.length > 0) return refused(problems)
  const open = new Map(orders.map((order) => [order.orderId, order]))
  const cancelled: Array<string> = []
  for (const ref of orderList) {
    const wanted = ((single ? symbol : ref.symbol) ?? "").trim()
    const found = ref.orderId !== undefined
      ? open.get(ref.orderId)
      : [...open.values()].find((order) => order.clientOid === ref.clientOid)
    if (found !== undefined && same(found.symbol, wanted)) {
      open.delete(found.orderId)
      cancelled.push(found.orderId)
    }
  }
  const check = (value: unknown): string | undefined => {
    const result = value as BatchCancel.BatchCancelResult
    const succeeded = result.succeeded.map((order) => order.orderId).sort()
    return JSON.stringify(succeeded) !== JSON.stringify([...cancelled].sort())
      ? `cancelled ${JSON.stringify(succeeded)}, the open orders named are ${JSON.stringify(cancelled)}`
      : result.failed.length !== orderList.length - cancelled.length || result.unconfirmed.length > 0
      ? `${result.failed.length} failed and ${result.unconfirmed.length} unconfirmed of ${orderList.length}`
      : undefined
  }
  return { _tag: "Accepted", codes: cancelled.length === 0 ? ["00000", "43001"] : ["00000"], check }
}

/** The product types of TP/SL, in both spellings the spec allows. */
const tpslProductTypes = [
  "usdt-futures",
  "coin-futures",
  "usdc-futures",
  "susdt-futures",
  "scoin-futures",
  "susdc-futures"
]
  .flatMap((type) => [type, type.toUpperCase()])

/** The two legs of a TP/SL request and their fields. */
const tpslLegs = [
  {
    kind: "profit",
    trigger: "stopSurplusTriggerPrice",
    size: "stopSurplusSize",
    triggerType: "stopSurplusTriggerType",
    execute: "stopSurplusExecutePrice",
    clientOid: "stopSurplusClientOid",
    whole: "pos_profit",
    duplicate: "43030"
  },
  {
    kind: "loss",
    trigger: "stopLossTriggerPrice",
    size: "stopLossSize",
    triggerType: "stopLossTriggerType",
    execute: "stopLossExecutePrice",
    clientOid: "stopLossClientOid",
    whole: "pos_loss",
    duplicate: "43031"
  }
] as const

/** Whether a position is long (`long`, or `buy` one way). */
const isLong = (holdSide: string): boolean => holdSide === "long" || holdSide === "buy"

/** Whether a leg's trigger must be above the mark: a long's take-profit, a short's stop-loss. */
const triggersAbove = (kind: "profit" | "loss", holdSide: string): boolean => (kind === "profit") === isLong(holdSide)

/** The refusal of a trigger on the wrong side of the mark, by side and leg. */
const wrongSideCode = (kind: "profit" | "loss", holdSide: string): string =>
  isLong(holdSide) ? (kind === "profit" ? "40915" : "40917") : (kind === "profit" ? "45061" : "45122")

/** Whether a price is within 0.2 % of the mark (which moves: the clocks decide). */
const nearMark = (price: BigDecimal.BigDecimal, mark: BigDecimal.BigDecimal): boolean =>
  BigDecimal.isLessThanOrEqualTo(
    BigDecimal.abs(BigDecimal.subtract(price, mark)),
    BigDecimal.multiply(mark, BigDecimal.fromStringUnsafe("0.002"))
  )

/** The codes a TP/SL request answers about its position. */
const tpslCodes = ["40915", "40917", "45061", "45122", "43023", "43030", "43031", "40890"]

/**
 * Place-pos-tpsl: text margin coin and symbol, a product type of the spec
 * (lower or upper case), a hold side; each leg's trigger, size and execute
 * price decimals of at most 24 + 18 digits (trigger and size positive), its
 * trigger type and client id valid; a trigger at least, and no leg field
 * without its trigger. Then the exchange finds the position (`40837`), checks
 * each leg against the mark (the side, `43023` a size over the position's,
 * `43030`/`43031` a second whole-position plan) and the partial plans (20 a
 * contract, `40890`); accepted with one plan per leg.
 */
const tpslExpected = (
  request: PositionTpsl.PositionTpslRequest,
  positions: ReadonlyArray<Account.Position>,
  plans: ReadonlyArray<Account.PlanOrder>,
  marks: ReadonlyMap<string, BigDecimal.BigDecimal>
): Expected => {
  const legs = tpslLegs.filter((leg) => request[leg.trigger] !== undefined)
  const problems = problemsOf(
    textRule("marginCoin", request.marginCoin),
    textRule("symbol", request.symbol),
    enumRule("productType", request.productType, tpslProductTypes),
    enumRule("holdSide", request.holdSide, ["long", "short", "buy", "sell"]),
    enumRule("stpMode", request.stpMode, ["none", "cancel_taker", "cancel_maker", "cancel_both"]),
    unless(legs.length > 0, ["stopSurplusTriggerPrice", "stopLossTriggerPrice"], "neither trigger"),
    ...tpslLegs.flatMap((leg) => [
      decimalRule(leg.trigger, request[leg.trigger], "positive"),
      decimalRule(leg.size, request[leg.size], "positive"),
      enumRule(leg.triggerType, request[leg.triggerType], ["fill_price", "mark_price"]),
      decimalRule(leg.execute, request[leg.execute], "nonNegative"),
      clientOidRule(leg.clientOid, request[leg.clientOid]),
      ...[leg.size, leg.triggerType, leg.execute, leg.clientOid].map((field) =>
        unless(request[leg.trigger] !== undefined || request[field] === undefined, [field], `without ${leg.trigger}`)
      )
    ])
  )
  if (problems.length > 0) return refused(problems)
  const type = request.productType.toUpperCase()
  const position = positions.find((p) =>
    p.productType === type && same(p.symbol, request.symbol.trim()) && p.holdSide === request.holdSide &&
    same(p.marginCoin, request.marginCoin.trim())
  )
  if (position === undefined) return answered(["40837"], "no such position")
  const mark = marks.get(`${position.productType}:${position.symbol}`)
  if (mark === undefined) return assert.fail(`no mark price of ${position.symbol}`)
  const size = BigDecimal.fromStringUnsafe(position.size)
  const onPosition = (plan: Account.PlanOrder) =>
    plan.productType === position.productType && plan.symbol === position.symbol
  for (const leg of legs) {
    const trigger = request[leg.trigger] as BigDecimal.BigDecimal
    if (nearMark(trigger, mark)) {
      return boundary(`a ${leg.kind} trigger at the mark ${BigDecimal.format(mark)}`, tpslCodes)
    }
    const above = triggersAbove(leg.kind, position.holdSide)
    if (above ? !BigDecimal.isGreaterThan(trigger, mark) : !BigDecimal.isLessThan(trigger, mark)) {
      return answered([wrongSideCode(leg.kind, position.holdSide)], `${leg.kind} trigger on the wrong side of the mark`)
    }
    const legSize = request[leg.size]
    if (legSize !== undefined && BigDecimal.isGreaterThan(legSize, size)) {
      return answered(["43023"], "a size over the position's")
    }
    if (
      legSize === undefined &&
      plans.some((plan) => plan.planType === leg.whole && onPosition(plan) && plan.holdSide === position.holdSide)
    ) return answered([leg.duplicate], `a second whole-position ${leg.kind} plan`)
  }
  const partial =
    plans.filter((plan) => onPosition(plan) && (plan.planType === "profit_plan" || plan.planType === "loss_plan"))
      .length
  const adding = legs.filter((leg) => request[leg.size] !== undefined).length
  if (adding > 0 && partial + adding > 20) return answered(["40890"], "over 20 partial plans")
  return accepted((value) => {
    const placed = value as ReadonlyArray<PositionTpsl.PositionTpslOrder>
    return placed.length === legs.length ? undefined : `${placed.length} plans placed for ${legs.length} legs`
  })
}

/** The P2P order statuses of the spec (the filter takes exactly these spellings). */
const p2pStatusNames = ["pending_pay", "Paid", "Appeal", "Completed", "cancelled"]

interface P2pDraw extends Timed {
  readonly idLessThan?: string | undefined
  readonly limit?: number | undefined
  readonly status?: string | undefined
  readonly advNo?: string | undefined
  readonly side?: string | undefined
  readonly coin?: string | undefined
  readonly language?: string | undefined
  readonly fiat?: string | undefined
  readonly orderNo?: string | undefined
}

/** The P2P order list: its filters, then a window of at most 90 days (a missing end is now). */
const p2pExpected = (request: P2pDraw, now: number): Expected => {
  const { end, start } = endsAt(request, now)
  return decide(
    [
      numericIdRule("idLessThan", request.idLessThan),
      countRule(["limit"], request.limit, 1, 100),
      enumRule("status", request.status, p2pStatusNames),
      textRule("advNo", request.advNo),
      enumRule("side", request.side, ["buy", "sell"]),
      textRule("coin", request.coin),
      enumRule("language", request.language, ["zh-CN", "en-US"]),
      textRule("fiat", request.fiat),
      textRule("orderNo", request.orderNo)
    ],
    spanWindow(start, end, now, 90),
    () => accepted()
  )
}

interface TaxDraw {
  readonly startTime: Instant
  readonly endTime: Instant
  readonly coin?: string | undefined
  readonly limit?: number | undefined
  readonly idLessThan?: string | undefined
}

/** Spot tax records: both ends, at most 30 days apart. */
const taxExpected = (request: TaxDraw, now: number): Expected => {
  const { end, start } = endsAt(request, now)
  return decide(
    [
      textRule("coin", request.coin),
      countRule(["limit"], request.limit, 1, 500),
      numericIdRule("idLessThan", request.idLessThan)
    ],
    spanWindow(start, end, now, 30),
    () => accepted()
  )
}

/** The `orderSource` filters of the futures history. */
const orderSourceNames = [
  "normal",
  "market",
  "profit_market",
  "loss_market",
  "Trader_delegate",
  "trader_profit",
  "trader_loss",
  "reverse",
  "trader_reverse",
  "profit_limit",
  "loss_limit",
  "liquidation",
  "delivery_close_long",
  "delivery_close_short",
  "pos_profit_limit",
  "pos_profit_market",
  "pos_loss_limit",
  "pos_loss_market"
]

interface FuturesDraw extends Timed {
  readonly productType: string
  readonly orderId?: string | undefined
  readonly clientOid?: string | undefined
  readonly symbol?: string | undefined
  readonly idLessThan?: string | undefined
  readonly orderSource?: string | undefined
  readonly limit?: number | undefined
}

/** The futures history: its filters, then a window within the 90 days kept. */
const futuresExpected = (request: FuturesDraw, now: number): Expected => {
  const { end, start } = endsAt(request, now)
  return decide(
    [
      enumRule("productType", request.productType, futuresCategories),
      numericIdRule("orderId", request.orderId),
      clientOidRule("clientOid", request.clientOid),
      textRule("symbol", request.symbol),
      numericIdRule("idLessThan", request.idLessThan),
      enumRule("orderSource", request.orderSource, orderSourceNames),
      countRule(["limit"], request.limit, 1, 100)
    ],
    futuresWindow(start, end, now),
    () => accepted()
  )
}

/** A stream's page size: the `limit` of each page. */
const pageSizeRule = (value: number | undefined, max: number) => countRule(["limit", "pageSize"], value, 1, max)

interface TaxStreamDraw {
  readonly startTime: Instant
  readonly endTime: Instant
  readonly coin?: string | undefined
  readonly pageSize?: number | undefined
  readonly order?: "newestFirst" | "oldestFirst" | undefined
}

interface P2pStreamDraw {
  readonly startTime: Instant
  readonly endTime?: Instant
  readonly coin?: string | undefined
  readonly status?: string | undefined
  readonly pageSize?: number | undefined
  readonly order?: "newestFirst" | "oldestFirst" | undefined
}

interface FuturesStreamDraw extends Timed {
  readonly productType: string
  readonly symbol?: string | undefined
  readonly orderSource?: string | undefined
  readonly pageSize?: number | undefined
  readonly order?: "newestFirst" | "oldestFirst" | undefined
}

const taxStreamExpected = (request: TaxStreamDraw, now: number): Expected => {
  const { end, start } = endsAt(request, now)
  return decide(
    [textRule("coin", request.coin), pageSizeRule(request.pageSize, 500)],
    streamRange(start ?? 0, end, now),
    () => accepted()
  )
}

const p2pStreamExpected = (request: P2pStreamDraw, now: number): Expected => {
  const { end, start } = endsAt(request, now)
  return decide(
    [
      textRule("coin", request.coin),
      enumRule("status", request.status, p2pStatusNames),
      pageSizeRule(request.pageSize, 100)
    ],
    streamRange(start ?? 0, end, now),
    () => accepted()
  )
}

const futuresStreamExpected = (request: FuturesStreamDraw, now: number): Expected => {
  const { end, start } = endsAt(request, now)
  const oldest = futuresHorizon(now) + 60_000
  return decide(
    [
      enumRule("productType", request.productType, futuresCategories),
      textRule("symbol", request.symbol),
      enumRule("orderSource", request.orderSource, orderSourceNames),
      pageSizeRule(request.pageSize, 100)
    ],
    start === undefined
      ? windowOf(end === undefined ? true : atMost(oldest, end, "ends before the history kept"))
      : streamRange(start, end, now, oldest),
    () => accepted()
  )
}

/** The credentials' headers, then the key and passphrase the sandbox knows (headers arrive trimmed of spaces and tabs). */
const credentialsExpected = (given: { readonly apiKey: string; readonly passphrase: string }): Expected => {
  const problems = problemsOf(headerRule("ACCESS-KEY", given.apiKey), headerRule("ACCESS-PASSPHRASE", given.passphrase))
  if (problems.length > 0) return refused(problems)
  const key = given.apiKey.replace(/^[ \t]+|[ \t]+$/g, "")
  const passphrase = given.passphrase.replace(/^[ \t]+|[ \t]+$/g, "")
  if (key === "") return answered(["40001"], "no key")
  if (passphrase === "") return answered(["40011"], "no passphrase")
  if (key !== DemoKey.hmac.apiKey) return answered(["40006"], "an unknown key")
  if (passphrase !== DemoKey.hmac.passphrase) return answered(["40012"], "a wrong passphrase")
  return accepted()
}

// ---------------------------------------------------------------------------
// Draws that a run resolves against the sandbox (its open orders, positions and mark prices)
// ---------------------------------------------------------------------------

/** A copy of a record with every string field passed through `f` (placeholders resolved). */
const mapStrings = <A extends object>(value: A, f: (text: string) => string): A =>
  Object.fromEntries(Object.entries(value).map(([key, item]) => [key, typeof item === "string" ? f(item) : item])) as A

/** A copy of a record without its `undefined` fields (a request is what its own fields say). */
const definedOnly = <A extends object>(value: A): A =>
  Object.fromEntries(Object.entries(value).filter(([, item]) => item !== undefined)) as A

/** A batch with its placeholders resolved against the open orders. */
const resolveBatch = (
  request: BatchCancel.BatchCancelRequest,
  orders: ReadonlyArray<Account.SpotOrder>
): BatchCancel.BatchCancelRequest => {
  const resolve = (text: string) => resolveOpen(text, orders)
  return { ...mapStrings(request, resolve), orderList: request.orderList.map((ref) => mapStrings(ref, resolve)) }
}

/** A placeholder of an open order's field (`@order:k`), for any of the 60 seeded orders. */
const openRef = (what: "order" | "oid" | "symbol") => Arbitrary.map(integer(0, 59), (k) => `@${what}:${k}`)

/**
 * A batch of the sandbox's seeded open orders: in single mode (given or by
 * default) up to five orders of one symbol, the symbol repeated on each or
 * not; in multiple mode up to five orders of any symbols, each with its own;
 * named by order ids or by client ids, in either case of the symbol, up to
 * two unknown (valid) ids after them, and now and then the first order again
 * (as it is, or an order id with a leading zero: refused, the same order
 * twice).
 */
const seededBatch: Arbitrary.Arbitrary<BatchCancel.BatchCancelRequest> = Arbitrary.map(
  Arbitrary.all({
    mode: constantFrom("default", "single", "multiple"),
    by: constantFrom("order" as const, "oid" as const),
    anchor: integer(0, 59),
    picks: integer(1, 5),
    unknown: integer(0, 2),
    itemSymbols: constantFrom(false, true),
    lower: constantFrom(false, true),
    twice: oneof(
      { weight: 8, arbitrary: Arbitrary.Constant("no") },
      { weight: 1, arbitrary: Arbitrary.Constant("same") },
      { weight: 1, arbitrary: Arbitrary.Constant("zero-padded") }
    )
  }),
  ({ anchor, by, itemSymbols, lower, mode, picks, twice, unknown }): BatchCancel.BatchCancelRequest => {
    const named = (id: string): BatchCancel.OrderRef => (by === "order" ? { orderId: id } : { clientOid: id })
    const symbolOf = (k: number) => `@${lower ? "symbol-lower" : "symbol"}:${k}`
    const unknowns = Array.from({ length: unknown }, (_, j) => named(by === "order" ? `${9_000_000 + j}` : `gone-${j}`))
    if (mode === "multiple") {
      const ks = Array.from({ length: picks }, (_, j) => anchor + 7 * j)
      return {
        batchMode: "multiple",
        orderList: [
          ...ks.map((k) => ({ ...named(`@${by}:${k}`), symbol: symbolOf(k) })),
          ...unknowns.map((ref) => ({ ...ref, symbol: "BTCUSDT" }))
        ]
      }
    }
    const symbol = symbolOf(anchor)
    // the first order named again, as it is or (an order id) with a leading zero: the same order twice
    const again = twice === "no" ? [] : [named(`${twice === "same" || by === "oid" ? "" : "0"}@${by}:${anchor}/0`)]
    const refs = [...Array.from({ length: picks }, (_, j) => named(`@${by}:${anchor}/${j}`)), ...unknowns, ...again]
    return {
      ...(mode === "single" ? { batchMode: "single" as const } : {}),
      symbol,
      orderList: refs.map((ref) => (itemSymbols ? { ...ref, symbol } : ref))
    }
  }
)

/** A trigger or execute price as drawn: a decimal, or a distance from the mark on the leg's right or wrong side. */
type Price = BigDecimal.BigDecimal | { readonly _tag: "Mark"; readonly side: "right" | "wrong"; readonly away: string }

/** A plan size as drawn: a decimal, or a share of the position's size. */
type Size = BigDecimal.BigDecimal | { readonly _tag: "Share"; readonly share: string }

/** A TP/SL request as drawn: which position it aims at (for the mark), its fields, placeholders of the position's. */
interface TpslDraw {
  readonly position: number
  readonly marginCoin: string
  readonly productType: string
  readonly symbol: string
  readonly holdSide: string
  readonly stopSurplusTriggerPrice?: Price
  readonly stopSurplusSize?: Size
  readonly stopSurplusTriggerType?: string
  readonly stopSurplusExecutePrice?: Price
  readonly stopSurplusClientOid?: string
  readonly stopLossTriggerPrice?: Price
  readonly stopLossSize?: Size
  readonly stopLossTriggerType?: string
  readonly stopLossExecutePrice?: Price
  readonly stopLossClientOid?: string
  readonly stpMode?: string
}

/** A drawn TP/SL request made concrete for a position and the mark of its contract. */
const resolveTpsl = (
  draw: TpslDraw,
  position: Account.Position,
  mark: BigDecimal.BigDecimal
): PositionTpsl.PositionTpslRequest => {
  const one = BigDecimal.fromStringUnsafe("1")
  const price = (value: Price | undefined, kind: "profit" | "loss") => {
    if (value === undefined || BigDecimal.isBigDecimal(value)) return value
    const away = BigDecimal.fromStringUnsafe(value.away)
    const above = triggersAbove(kind, position.holdSide) === (value.side === "right")
    return BigDecimal.multiply(mark, above ? BigDecimal.sum(one, away) : BigDecimal.subtract(one, away))
  }
  const size = (value: Size | undefined) =>
    value === undefined || BigDecimal.isBigDecimal(value)
      ? value
      : BigDecimal.multiply(BigDecimal.fromStringUnsafe(position.size), BigDecimal.fromStringUnsafe(value.share))
  const text = (value: string | undefined) => value === undefined ? undefined : resolvePosition(value, position)
  // typed as the request, which the drawn values are not always: the point is to pass them where types would refuse
  return definedOnly({
    marginCoin: text(draw.marginCoin),
    productType: text(draw.productType),
    symbol: text(draw.symbol),
    holdSide: text(draw.holdSide),
    stopSurplusTriggerPrice: price(draw.stopSurplusTriggerPrice, "profit"),
    stopSurplusSize: size(draw.stopSurplusSize),
    stopSurplusTriggerType: draw.stopSurplusTriggerType,
    stopSurplusExecutePrice: price(draw.stopSurplusExecutePrice, "profit"),
    stopSurplusClientOid: draw.stopSurplusClientOid,
    stopLossTriggerPrice: price(draw.stopLossTriggerPrice, "loss"),
    stopLossSize: size(draw.stopLossSize),
    stopLossTriggerType: draw.stopLossTriggerType,
    stopLossExecutePrice: price(draw.stopLossExecutePrice, "loss"),
    stopLossClientOid: draw.stopLossClientOid,
    stpMode: draw.stpMode
  }) as unknown as PositionTpsl.PositionTpslRequest
}

/** A mark distance on a side. */
const markPrice = (side: Arbitrary.Arbitrary<"right" | "wrong">, away: Arbitrary.Arbitrary<string>) =>
  Arbitrary.map(Arbitrary.all({ side, away }), ({ away, side }): Price => ({ _tag: "Mark", side, away }))

/** A trigger the exchange takes: 1 % to 30 % from the mark, on the leg's side. */
const rightPrice = markPrice(Arbitrary.Constant("right" as const), constantFrom("0.01", "0.02", "0.05", "0.1", "0.3"))

/** Any price: a decimal of the hostile kinds, or one on either side of the mark (at it, a hair from it, far past it). */
const anyPrice: Arbitrary.Arbitrary<Price> = oneof<Price>(
  { weight: 2, arbitrary: decimal },
  {
    weight: 2,
    arbitrary: markPrice(
      constantFrom("right" as const, "wrong" as const),
      constantFrom("0", "0.0005", "0.01", "0.1", "0.5", "0.99", "2")
    )
  }
)

const shareOf = (shares: Arbitrary.Arbitrary<string>) =>
  Arbitrary.map(shares, (share): Size => ({ _tag: "Share", share }))

const anySize: Arbitrary.Arbitrary<Size> = oneof<Size>(
  { weight: 2, arbitrary: decimal },
  { weight: 1, arbitrary: shareOf(constantFrom("0.1", "1", "1.5", "10")) }
)

/** The placeholder of a position's field, in its case or lower case. */
const ofPosition = (field: "symbol" | "marginCoin" | "productType" | "holdSide", lower = true) =>
  lower
    ? constantFrom(`@position.${field}`, `@position.${field}-lower`)
    : Arbitrary.Constant(`@position.${field}`)

const validOids = constantFrom("tp-1", "sl_2", "a#b+c", "X".repeat(49))

/** The fields of a TP/SL leg that need its trigger. */
const legCompanions = (leg: (typeof tpslLegs)[number]): ReadonlyArray<string> => [
  leg.size,
  leg.triggerType,
  leg.execute,
  leg.clientOid
]

/** A drawn TP/SL request the exchange takes: a trigger at least, and no leg field without its trigger. */
const coherent = (draw: TpslDraw): TpslDraw => {
  const dropped = tpslLegs.flatMap((leg) => draw[leg.trigger] === undefined ? legCompanions(leg) : [])
  const kept = Object.fromEntries(Object.entries(draw).filter(([key]) => !dropped.includes(key))) as TpslDraw
  return kept.stopSurplusTriggerPrice === undefined && kept.stopLossTriggerPrice === undefined
    ? { ...kept, stopLossTriggerPrice: { _tag: "Mark", side: "right", away: "0.05" } }
    : kept
}

/** TP/SL requests on the key's own positions, each leg's trigger on its side of the mark, sizes within the position. */
const tpslValid: Arbitrary.Arbitrary<TpslDraw> = Arbitrary.map(
  record(
    {
      position: integer(0, 4),
      marginCoin: ofPosition("marginCoin"),
      productType: ofPosition("productType"),
      symbol: ofPosition("symbol"),
      holdSide: ofPosition("holdSide", false),
      stopSurplusTriggerPrice: rightPrice,
      stopSurplusSize: shareOf(constantFrom("0.1", "0.25", "0.5", "1")),
      stopSurplusTriggerType: constantFrom("fill_price", "mark_price"),
      stopSurplusExecutePrice: rightPrice,
      stopSurplusClientOid: validOids,
      stopLossTriggerPrice: rightPrice,
      stopLossSize: shareOf(constantFrom("0.1", "0.25", "0.5", "1")),
      stopLossTriggerType: constantFrom("fill_price", "mark_price"),
      stopLossExecutePrice: rightPrice,
      stopLossClientOid: validOids,
      stpMode: constantFrom("none", "cancel_taker", "cancel_maker", "cancel_both")
    },
    ["position", "marginCoin", "productType", "symbol", "holdSide"]
  ),
  coherent
)

/** Any of a few values, or the position's own field (three times in four). */
const mostlyPosition = (
  field: "symbol" | "marginCoin" | "productType" | "holdSide",
  others: ReadonlyArray<string>
) =>
  oneof({ weight: 3, arbitrary: ofPosition(field, field !== "holdSide") }, {
    weight: 1,
    arbitrary: constantFrom(...others)
  })

/**
 * TP/SL requests of valid fields aimed here and there: mostly at the key's
 * own positions, now and then at another one, a demo product type or an
 * unknown symbol (`40837`); triggers mostly on their side of the mark, now and
 * then on the wrong one; sizes up to one and a half of the position's
 * (`43023`).
 */
const tpslNear: Arbitrary.Arbitrary<TpslDraw> = Arbitrary.map(
  record(
    {
      position: integer(0, 4),
      marginCoin: mostlyPosition("marginCoin", ["USDT", "BTC", "usdc"]),
      productType: mostlyPosition("productType", ["USDT-FUTURES", "coin-futures", "SUSDT-FUTURES"]),
      symbol: mostlyPosition("symbol", ["BTCUSDT", "ethusdt", "BTCUSD", "ETHPERP", "NOSUCHUSDT"]),
      holdSide: mostlyPosition("holdSide", ["long", "short", "buy", "sell"]),
      stopSurplusTriggerPrice: markPrice(
        constantFrom("right" as const, "right" as const, "wrong" as const),
        constantFrom("0.01", "0.1", "0.5")
      ),
      stopSurplusSize: shareOf(constantFrom("0.5", "1", "1.5")),
      stopSurplusClientOid: validOids,
      stopLossTriggerPrice: markPrice(
        constantFrom("right" as const, "right" as const, "wrong" as const),
        constantFrom("0.01", "0.1", "0.5")
      ),
      stopLossSize: shareOf(constantFrom("0.5", "1", "1.5")),
      stopLossClientOid: validOids
    },
    ["position", "marginCoin", "productType", "symbol", "holdSide"]
  ),
  coherent
)

/** A text field or a placeholder of the position's. */
const orPosition = (field: "symbol" | "marginCoin" | "productType" | "holdSide", any: Arbitrary.Arbitrary<string>) =>
  oneof({ weight: 3, arbitrary: any }, { weight: 1, arbitrary: ofPosition(field) })

const tpslProductTypesDrawn = ["USDT-FUTURES", "COIN-FUTURES", "USDC-FUTURES", "usdt-futures", "susdt-futures"] as const

/** TP/SL requests of any fields: hostile strings, decimals and enums, and the position's own fields now and then. */
const tpslAny: Arbitrary.Arbitrary<TpslDraw> = record(
  {
    position: integer(0, 4),
    marginCoin: orPosition("marginCoin", text(coins)),
    productType: orPosition("productType", enumText(tpslProductTypesDrawn)),
    symbol: orPosition("symbol", text(futuresSymbols)),
    holdSide: orPosition("holdSide", enumText(PositionTpsl.HoldSide.literals)),
    stopSurplusTriggerPrice: anyPrice,
    stopSurplusSize: anySize,
    stopSurplusTriggerType: enumText(PositionTpsl.TriggerType.literals),
    stopSurplusExecutePrice: anyPrice,
    stopSurplusClientOid: clientOid,
    stopLossTriggerPrice: anyPrice,
    stopLossSize: anySize,
    stopLossTriggerType: enumText(PositionTpsl.TriggerType.literals),
    stopLossExecutePrice: anyPrice,
    stopLossClientOid: clientOid,
    stpMode: enumText(PositionTpsl.StpMode.literals)
  },
  ["position", "marginCoin", "productType", "symbol", "holdSide"]
)

/**
 * Judges a drawn TP/SL request on the seeded account (reset first: no plans,
 * the seeded positions): resolved against the position it aims at and the
 * mark price of its contract, read just before the call.
 */
const tpslRun = (label: string, draw: TpslDraw) =>
  Effect.gen(function*() {
    const sandbox = yield* Sandbox.Sandbox
    yield* sandbox.reset
    const positions = yield* sandbox.positions(apiKey)
    const plans = yield* sandbox.plans(apiKey)
    const marks = yield* marksOf(sandbox, positions)
    const aimed = positions[draw.position % positions.length]
    const mark = aimed === undefined ? undefined : marks.get(`${aimed.productType}:${aimed.symbol}`)
    if (aimed === undefined || mark === undefined) return assert.fail("the sandbox holds no position")
    const request = resolveTpsl(draw, aimed, mark)
    return yield* judge(
      label,
      { request, mark: BigDecimal.format(mark) },
      tpslExpected(request, positions, plans, marks),
      PositionTpsl.placePositionTpsl(request)
    )
  })

/** Judges a drawn batch on the seeded account (reset first: its 60 open orders), resolved against its open orders. */
const batchRun = (draw: BatchCancel.BatchCancelRequest) =>
  Effect.gen(function*() {
    const sandbox = yield* Sandbox.Sandbox
    yield* sandbox.reset
    const orders = yield* sandbox.openOrders(apiKey)
    const request = resolveBatch(draw, orders)
    return yield* judge(
      "batchCancelOrders",
      request,
      batchExpected(request, orders),
      BatchCancel.batchCancelOrders(request)
    )
  })

/** The clock now, ms (the oracle and the request's instants read it once). */
const nowMillis = Effect.sync(() => Date.now())

/** Judges a request with instants: resolved at now, the oracle's verdict at the same now. */
const judgeAt = <A extends Timed, B>(
  label: string,
  request: A,
  expected: (request: A, now: number) => Expected,
  call: (resolved: Resolved<A>) => Effect.Effect<B, BitgetError.BitgetError, BitgetClient.BitgetClient>,
  sent: Sent = []
) =>
  Effect.flatMap(nowMillis, (now) => {
    const resolved = withTimes(request, now)
    return judge(label, { ...request, resolved }, expected(request, now), call(resolved), client, sent)
  })

/** Judges a call whose oracle reads the sandbox's instruments. */
const judgeOn = <B>(
  label: string,
  input: unknown,
  expected: (universe: Universe) => Expected,
  call: Effect.Effect<B, BitgetError.BitgetError, BitgetClient.BitgetClient>,
  options: ClientOptions = client,
  sent: Sent = []
) =>
  Effect.flatMap(
    Sandbox.Sandbox,
    (sandbox) => judge(label, input, expected(universeOf(sandbox)), call, options, sent)
  )

// ---------------------------------------------------------------------------
// The properties of each endpoint
// ---------------------------------------------------------------------------

/** The blocks, each on a sandbox of its own seed. */
type Block = "marketData" | "trading" | "history" | "streams"

/** The properties of an endpoint, each set registered in the block it runs in. */
type Properties = { readonly [B in Block]?: (it: SandboxIt) => void }

/** Spot symbols the sandbox holds, in the spellings a caller may use (any case, padded). */
const validSpot = constantFrom(
  "BTCUSDT",
  "ETHUSDT",
  "btcusdt",
  "BTC$USDT",
  "币安人生USDT",
  " SOLUSDT ",
  "ETHBTC",
  "pepeusdt"
)

/** A range with one end missing is completed by the operation (P2P and futures history alike). */
const rangeProperties = (
  it: SandboxIt,
  name: string,
  route: string,
  valid: Arbitrary.Arbitrary<Timed>,
  expected: (range: Timed, now: number) => Expected,
  call: (range: Range) => Effect.Effect<unknown, BitgetError.BitgetError, BitgetClient.BitgetClient>
) => {
  property(
    it,
    `${name}: a window alone (either end missing) is refused before sending, or answered 00000, as the rules say`,
    validOrAny(valid, record({ startTime: instant, endTime: instant }, [])),
    (range) => judgeAt(route, range, expected, call)
  )

  example(
    it,
    `${name}: a start 100 days back and no end is refused before sending`,
    "refused",
    judgeAt(route, { startTime: { _tag: "Ago", days: 100, millis: 0 } }, expected, call)
  )
}

const firstThree = <A, E, R>(stream: Stream.Stream<A, E, R>) => Stream.runCollect(Stream.take(stream, 3))
const order = constantFrom("newestFirst" as const, "oldestFirst" as const)

/**
 * A range starting about the exchange's clock, which a stream may start up
 * to a minute past: 30 s back, or 30 s, 2 min or an hour ahead (those two
 * refused), ending two hours ahead.
 */
const clockEdge = Arbitrary.map(
  constantFrom(30_000, -30_000, -120_000, -3_600_000),
  (millis) => ({ startTime: daysBack(0, millis), endTime: daysBack(0, -7_200_000) })
)

/**
 * Ranges about the futures history's horizon (90 days back; a missing start
 * is filled a minute past it): a start an hour inside or outside it, an end
 * 30 s or 2 min past it (the first refused, the second taken).
 */
const horizonEdge = constantFrom<Timed>(
  { startTime: daysBack(90, -3_600_000) },
  { startTime: daysBack(90, 3_600_000) },
  { startTime: daysBack(90, -3_600_000), endTime: daysBack(0, 0) },
  { endTime: daysBack(90, -30_000) },
  { endTime: daysBack(90, -120_000) }
)

/** The windows of the futures history: mostly ones the rules accept, some about the horizon. */
const futuresWindows = oneof<Timed>(
  { weight: 5, arbitrary: validWindow({ span: 90, back: 89 }) },
  { weight: 1, arbitrary: horizonEdge }
)

/** A stream's range: both ends (the start up to `back` days back), only the start, or about the clock's edge. */
const streamWindow = (back: number): Arbitrary.Arbitrary<{ readonly startTime: Instant; readonly endTime?: Instant }> =>
  oneof(
    { weight: 4, arbitrary: spanning(back, back) },
    { weight: 1, arbitrary: Arbitrary.map(spanning(back, 1), ({ startTime }) => ({ startTime })) },
    { weight: 1, arbitrary: clockEdge }
  )

/** The properties of each endpoint, by name; an endpoint core exports and this table lacks fails the suite. */
const byEndpoint: ByEndpoint<Properties> = {
  "spot.symbols": {
    marketData: (it) => {
      const symbols = (symbol: string) =>
        judgeOn(
          "symbols",
          { symbol },
          (universe) => symbolExpected(universe, symbol),
          Symbols.symbols({ symbol }),
          { ...client, key: "none" },
          [["symbol", symbol]]
        )

      property(
        it,
        "Symbols: a symbol is refused before sending, or answered as the exchange's symbols say",
        validOrAny(validSpot, text(spotSymbols)),
        symbols
      )

      example(it, "Symbols: a blank symbol is refused before sending", "refused", symbols(" "))
    }
  },
  "spot.fundNetFlow": {
    marketData: (it) => {
      const fundNetFlow = (symbol: string) =>
        judgeOn(
          "fundNetFlow",
          { symbol },
          (universe) => symbolExpected(universe, symbol),
          FundNetFlow.fundNetFlow({ symbol }),
          { ...client, key: "none" },
          [["symbol", symbol]]
        )

      property(
        it,
        "FundNetFlow: a symbol is refused before sending, or answered as the exchange's symbols say",
        validOrAny(validSpot, text(spotSymbols)),
        fundNetFlow
      )

      example(
        it,
        "FundNetFlow: a lone surrogate as the symbol is refused before sending",
        "refused",
        fundNetFlow("\uD800")
      )
    }
  },
  "market.rpiOrderBook": {
    marketData: (it) => {
      const pairs = [
        ["SPOT", "BTCUSDT"],
        ["SPOT", "btc$usdt"],
        ["SPOT", " ETHUSDT"],
        ["USDT-FUTURES", "BTCUSDT"],
        ["USDT-FUTURES", "solusdt"],
        ["COIN-FUTURES", "BTCUSD"],
        ["COIN-FUTURES", "ethusd"],
        ["USDC-FUTURES", "ETHPERP"],
        ["USDC-FUTURES", "BTCPERP"]
      ] as const
      const valid: Arbitrary.Arbitrary<RpiOrderBook.RpiOrderBookRequest> = Arbitrary.map(
        record({ pair: constantFrom<(typeof pairs)[number]>(...pairs), limit: integer(1, RpiOrderBook.maxLimit) }, [
          "pair"
        ]),
        ({ pair: [category, symbol], ...rest }) => ({ category, symbol, ...rest })
      )
      const any = record(
        {
          category: enumText(RpiOrderBook.rpiCategories),
          symbol: text(spotSymbols),
          limit: count(1, RpiOrderBook.maxLimit)
        },
        ["category", "symbol"]
      )
      property(
        it,
        "RpiOrderBook: a category, symbol and limit are refused before sending, or answered as the rules say",
        validOrAny(valid, any),
        (request) =>
          judgeOn(
            "rpiOrderBook",
            request,
            (universe) => rpiExpected(universe, request),
            RpiOrderBook.rpiOrderBook(request),
            client,
            asGiven(request, "symbol", "category")
          )
      )
    }
  },
  "common.allTradeRate": {
    marketData: (it) => {
      const pairs = [
        ["spot", "BTCUSDT"],
        ["margin", "ethusdt"],
        ["spot", " BTC$USDT"],
        ["mix", "BTCUSDT"],
        ["mix", "ETHPERP"],
        ["mix", "btcusd"],
        ["spot", undefined],
        ["mix", undefined]
      ] as const
      const valid: Arbitrary.Arbitrary<TradeRates.TradeRatesRequest> = Arbitrary.map(
        constantFrom<(typeof pairs)[number]>(...pairs),
        ([businessType, symbol]) => (symbol === undefined ? { businessType } : { businessType, symbol })
      )
      const any = record({ businessType: enumText(TradeRates.businessTypes), symbol: text(spotSymbols) }, [
        "businessType"
      ])
      property(
        it,
        "TradeRates: a business type and symbol are refused before sending, or answered as the rules say",
        validOrAny(valid, any),
        (request) =>
          judgeOn(
            "tradeRates",
            request,
            (universe) => tradeRatesExpected(universe, request),
            TradeRates.tradeRates(request),
            client,
            asGiven(request, "symbol", "businessType")
          )
      )
    }
  },
  "account.openInterestLimit": {
    marketData: (it) => {
      const pairs = [
        ["BTCUSDT", "USDT-FUTURES"],
        ["ethusdt", "USDT-FUTURES"],
        [" SOLUSDT", "USDT-FUTURES"],
        ["BTCUSD", "COIN-FUTURES"],
        ["ETHPERP", "USDC-FUTURES"]
      ] as const
      const valid: Arbitrary.Arbitrary<OpenInterestLimit.OpenInterestLimitRequest> = Arbitrary.map(
        constantFrom<(typeof pairs)[number]>(...pairs),
        ([symbol, category]) => ({ symbol, category })
      )
      const any = Arbitrary.all({
        symbol: text(futuresSymbols),
        category: enumText(OpenInterestLimit.futuresCategories)
      })
      property(
        it,
        "OpenInterestLimit: a symbol and category are refused before sending, or answered as the rules say",
        validOrAny(valid, any),
        (request) =>
          judgeOn(
            "openInterestLimit",
            request,
            (universe) => openInterestExpected(universe, request),
            OpenInterestLimit.openInterestLimit(request),
            client,
            asGiven(request, "symbol", "category")
          )
      )
    }
  },
  // takes no parameters: nothing to vary
  "public.time": {},
  "spot.batchCancelOrders": {
    trading: (it) => {
      const orderRef = record(
        {
          symbol: oneof({ weight: 3, arbitrary: text(spotSymbols) }, { weight: 1, arbitrary: openRef("symbol") }),
          orderId: oneof({ weight: 3, arbitrary: numericId }, { weight: 2, arbitrary: openRef("order") }),
          clientOid: oneof({ weight: 3, arbitrary: clientOid }, { weight: 1, arbitrary: openRef("oid") })
        },
        []
      )
      const any = record(
        {
          symbol: oneof({ weight: 3, arbitrary: text(spotSymbols) }, { weight: 1, arbitrary: openRef("symbol") }),
          batchMode: enumText(BatchCancel.BatchMode.literals),
          orderList: oneof(
            { weight: 4, arbitrary: arrayOf(orderRef, 1, 4) },
            { weight: 1, arbitrary: arrayOf(orderRef, 0, 60) }
          )
        },
        ["orderList"]
      )

      property(
        it,
        "BatchCancel: a batch (the sandbox's open orders, unknown ids, 0 to 60 orders, any ids, symbols and mode) " +
          "is refused before sending, or cancels exactly the open orders it names",
        oneof({ weight: 3, arbitrary: seededBatch }, { weight: 2, arbitrary: any }),
        batchRun
      )
    }
  },
  "mix.placePositionTpsl": {
    trading: (it) => {
      property(
        it,
        "PositionTpsl: prices, sizes, strings and enums are refused before sending, or answered as the position " +
          "and the mark price say",
        oneof(
          { weight: 2, arbitrary: tpslValid },
          { weight: 1, arbitrary: tpslNear },
          { weight: 2, arbitrary: tpslAny }
        ),
        (draw) => tpslRun("placePositionTpsl", draw)
      )

      /** Decimals at the bounds of the digits the exchange takes: 18 after the point, 24 before it, and one more. */
      const boundDecimal = Arbitrary.map(
        constantFrom(
          "0.000000000000000001",
          "0.0000000000000000001",
          "12345.123456789012345678",
          "1".repeat(24),
          "1".repeat(25)
        ),
        BigDecimal.fromStringUnsafe
      )

      /** A stop-loss at `price` for the long BTCUSDT position (the first seeded one). */
      const stopLoss = (price: Price): TpslDraw => ({
        position: 0,
        marginCoin: "USDT",
        productType: "USDT-FUTURES",
        symbol: "BTCUSDT",
        holdSide: "long",
        stopLossTriggerPrice: price
      })

      property(
        it,
        "PositionTpsl: a single trigger price is refused before sending, or answered as the mark price says",
        oneof<Price>(
          { weight: 1, arbitrary: decimal },
          { weight: 1, arbitrary: boundDecimal },
          { weight: 2, arbitrary: rightPrice },
          { weight: 1, arbitrary: anyPrice }
        ),
        (price) => tpslRun("placePositionTpsl", stopLoss(price)),
        { runs: 60 }
      )

      example(
        it,
        "PositionTpsl: a trigger price of 1e999999999 is refused before sending",
        "refused",
        tpslRun("placePositionTpsl", stopLoss(BigDecimal.fromStringUnsafe("1e999999999")))
      )
    }
  },
  "p2p.orderList": {
    history: (it) => {
      const valid: Arbitrary.Arbitrary<P2pDraw & Omit<P2pOrders.P2pOrdersRequest, "startTime" | "endTime">> = windowed(
        record(
          {
            idLessThan: stringOf(constantFrom(..."0123456789"), 1, 19),
            limit: integer(1, P2pOrders.maxLimit),
            status: constantFrom(...P2pOrders.P2pStatusFilter.literals),
            advNo: Arbitrary.Constant("1234567890123456789"),
            side: constantFrom("buy" as const, "sell" as const),
            coin: constantFrom("USDT", "BTC", "usdt"),
            language: constantFrom("zh-CN" as const, "en-US" as const),
            fiat: constantFrom("USD", "EUR"),
            orderNo: Arbitrary.Constant("4121000000000000000")
          },
          []
        ),
        validWindow({ span: 90, back: 120 })
      )
      const any = record(
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
      )
      property(
        it,
        "P2pOrders: a window, filters, cursor and limit are refused before sending, or answered 00000, as the " +
          "rules say",
        validOrAny(valid, any),
        (request) =>
          judgeAt(
            "p2pOrders",
            request,
            p2pExpected,
            (resolved) => P2pOrders.p2pOrders(resolved),
            asGiven(request, "coin", "fiat", "advNo", "orderNo", "idLessThan", "status")
          )
      )

      rangeProperties(
        it,
        "P2pOrders",
        "p2pOrders",
        validWindow({ span: 90, back: 120 }),
        p2pExpected,
        (range) => P2pOrders.p2pOrders(range)
      )
    },
    streams: (it) => {
      const valid = windowed(
        record({
          coin: constantFrom("USDT", "BTC"),
          status: constantFrom(...P2pOrders.P2pStatusFilter.literals),
          pageSize: integer(1, P2pOrders.maxLimit),
          order
        }, []),
        streamWindow(200)
      )
      const any = record(
        {
          startTime: streamInstant,
          endTime: streamInstant,
          coin: text(coins),
          status: enumText(P2pOrders.P2pStatusFilter.literals),
          pageSize: count(1, P2pOrders.maxLimit),
          order
        },
        ["startTime"]
      )
      property(
        it,
        "P2pOrders.stream: a range, filters, page size and order are refused before sending, or answered 00000, " +
          "as the rules say",
        validOrAny(valid, any),
        (request) =>
          judgeAt(
            "P2pOrders.stream",
            request,
            p2pStreamExpected,
            (resolved) => Effect.suspend(() => firstThree(P2pOrders.stream(resolved)))
          ),
        { runs: 60 }
      )
    }
  },
  "tax.spotRecords": {
    history: (it) => {
      const valid = windowed(
        record(
          {
            coin: constantFrom("USDT", "BTC", "usdt"),
            limit: integer(1, TaxRecords.maxLimit),
            idLessThan: stringOf(constantFrom(..."0123456789"), 1, 19)
          },
          []
        ),
        oneof(
          { weight: 3, arbitrary: spanning(120, 30) },
          { weight: 1, arbitrary: edgeWindow(30, 120) }
        )
      )
      const any = record(
        {
          startTime: instant,
          endTime: instant,
          coin: text(coins),
          limit: count(1, TaxRecords.maxLimit),
          idLessThan: numericId
        },
        ["startTime", "endTime"]
      )
      property(
        it,
        "TaxRecords: a window, coin, cursor and limit are refused before sending, or answered 00000, as the " +
          "rules say",
        validOrAny(valid, any),
        (request) =>
          judgeAt(
            "spotRecords",
            request,
            taxExpected,
            (resolved) => TaxRecords.spotRecords(resolved),
            asGiven(request, "coin", "idLessThan")
          )
      )
    },
    streams: (it) => {
      const valid = windowed(
        record({ coin: constantFrom("USDT", "BTC"), pageSize: integer(1, TaxRecords.maxLimit), order }, []),
        oneof({ weight: 5, arbitrary: spanning(200, 200) }, { weight: 1, arbitrary: clockEdge })
      )
      const any = record(
        {
          startTime: streamInstant,
          endTime: streamInstant,
          coin: text(coins),
          pageSize: count(1, TaxRecords.maxLimit),
          order
        },
        ["startTime", "endTime"]
      )
      property(
        it,
        "TaxRecords.stream: a range, coin, page size and order are refused before sending, or answered 00000, " +
          "as the rules say",
        validOrAny(valid, any),
        (request) =>
          judgeAt(
            "TaxRecords.stream",
            request,
            taxStreamExpected,
            (resolved) => Effect.suspend(() => firstThree(TaxRecords.stream(resolved)))
          ),
        { runs: 60 }
      )
    }
  },
  "mix.ordersHistory": {
    history: (it) => {
      const valid = windowed(
        record(
          {
            productType: constantFrom(...FuturesHistory.productTypes),
            orderId: stringOf(constantFrom(..."0123456789"), 1, 19),
            clientOid: validOids,
            symbol: constantFrom("BTCUSDT", "ethusdt", "BTCUSD", "NOSUCHUSDT"),
            idLessThan: stringOf(constantFrom(..."0123456789"), 1, 19),
            orderSource: constantFrom(...FuturesHistory.orderSourceFilters),
            limit: integer(1, FuturesHistory.maxLimit)
          },
          ["productType"]
        ),
        futuresWindows
      )
      const any = record(
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
      )
      property(
        it,
        "FuturesHistory: a product type, filters, ids, window and limit are refused before sending, or answered " +
          "00000, as the rules say",
        validOrAny(valid, any),
        (request) =>
          judgeAt("ordersHistory", request, futuresExpected, (resolved) => FuturesHistory.ordersHistory(resolved), [
            ...asGiven(request, "symbol", "orderId"),
            ["clientOid", request.orderId === undefined ? request.clientOid : undefined],
            ...asGiven(request, "idLessThan", "orderSource")
          ])
      )

      rangeProperties(
        it,
        "FuturesHistory",
        "ordersHistory",
        futuresWindows,
        (range, now) => futuresExpected({ productType: "USDT-FUTURES", ...range }, now),
        (range) => FuturesHistory.ordersHistory({ productType: "USDT-FUTURES", ...range })
      )
    },
    streams: (it) => {
      const valid = windowed(
        record(
          {
            productType: constantFrom(...FuturesHistory.productTypes),
            symbol: constantFrom("BTCUSDT", "ETHUSDT", "ethperp"),
            orderSource: constantFrom(...FuturesHistory.orderSourceFilters),
            pageSize: integer(1, FuturesHistory.maxLimit),
            order
          },
          ["productType"]
        ),
        oneof<Timed>({ weight: 5, arbitrary: futuresWindows }, { weight: 1, arbitrary: clockEdge })
      )
      const any = record(
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
      )
      property(
        it,
        "FuturesHistory.stream: a range, filters, page size and order are refused before sending, or answered " +
          "00000, as the rules say",
        validOrAny(valid, any),
        (request) =>
          judgeAt(
            "FuturesHistory.stream",
            request,
            futuresStreamExpected,
            (resolved) => Effect.suspend(() => firstThree(FuturesHistory.stream(resolved)))
          ),
        { runs: 60 }
      )
    }
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
    "a stream over 30,000 years is refused within 500 ms, without a window list up front",
    () =>
      Effect.gen(function*() {
        for (const make of ["TaxRecords", "P2pOrders"] as const) {
          const now = Date.now()
          const range = { startTime: { _tag: "At", millis: now - 1e15 }, endTime: { _tag: "At", millis: now } } as const
          const resolved = withTimes(range, now)
          const stream: Stream.Stream<unknown, BitgetError.BitgetError, BitgetClient.BitgetClient> =
            make === "TaxRecords"
              ? TaxRecords.stream(resolved)
              : P2pOrders.stream(resolved)
          const expected = make === "TaxRecords" ? taxStreamExpected(range, now) : p2pStreamExpected(range, now)
          const started = Date.now()
          const outcome = yield* judge(`${make}.stream`, range, expected, firstThree(stream))
          const took = Date.now() - started
          assert.strictEqual(outcome, "refused")
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
      judgeOn(
        "symbols with channelApiCode",
        { channelApiCode: code },
        (universe) => {
          const problems = problemsOf(headerRule("X-CHANNEL-API-CODE", code))
          return problems.length > 0 ? refused(problems) : spotLookup(universe, "BTCUSDT")
        },
        Symbols.symbols({ symbol: "BTCUSDT" }),
        { ...retrying, key: "none", channelApiCode: code }
      )

    property(
      it,
      "a channel API code is refused before sending, or sent as a header the sandbox reads",
      text(["broker-1"]),
      channelApiCode,
      { runs: 80 }
    )

    example(it, "a channel API code with CR/LF is refused before sending", "refused", channelApiCode("broker\r\n1"))

    const credentials = (given: { readonly apiKey: string; readonly passphrase: string }) =>
      judge(
        "tradeRates with credentials",
        given,
        credentialsExpected(given),
        TradeRates.tradeRates({ businessType: "spot" }),
        { ...retrying, credentials: Credentials.hmac({ ...given, secret: DemoKey.hmac.secret }) }
      )

    /**
     * A header value: the demo key's (also padded with a space and a tab, which HTTP strips), any text, or the
     * longest a header takes and one more.
     */
    const header = (valid: string) =>
      oneof(
        { weight: 8, arbitrary: constantFrom(valid, ` ${valid}\t`) },
        { weight: 4, arbitrary: text([valid]) },
        { weight: 1, arbitrary: constantFrom("k".repeat(1024), "k".repeat(1025)) }
      )

    property(
      it,
      "an API key and passphrase are refused before sending, or sent and answered as the sandbox's keys say",
      Arbitrary.all({ apiKey: header(DemoKey.hmac.apiKey), passphrase: header(DemoKey.hmac.passphrase) }),
      credentials,
      { runs: 80 }
    )

    example(
      it,
      "an API key with CR/LF and a header after it is refused before sending",
      "refused",
      credentials({ apiKey: `${DemoKey.hmac.apiKey}\r\nX-Injected: 1`, passphrase: DemoKey.hmac.passphrase })
    )
  })
})
