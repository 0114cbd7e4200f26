/**
 * Schema building blocks shared by every operation: exact decimals, millisecond
 * timestamps, optional values the exchange spells `""` or `null`, open enums
 * and numeric ids.
 *
 * @since 0.1.0
 */
import * as BigDecimal from "effect/BigDecimal"
import * as DateTime from "effect/DateTime"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Order from "effect/Order"
import * as Schema from "effect/Schema"
import * as SchemaGetter from "effect/SchemaGetter"
import * as SchemaIssue from "effect/SchemaIssue"
import * as DecimalText from "./internal/decimalText.js"
import type { FastDecodeBuild } from "./internal/decoder.js"
import { absent, bail, leaf, refuse, withFastDecode } from "./internal/decoder.js"
import { withoutLeadingZeros } from "./internal/ids.js"
import { timestampOf } from "./internal/timestampText.js"

/**
 * Formats a decimal in fixed-point notation (`0.00000001`, never `1e-8`).
 *
 * @example
 * ```ts
 * import { Schemas } from "@bitget-effect/core"
 * import { BigDecimal } from "effect"
 *
 * const tiny = BigDecimal.make(5n, 18)
 * assert.strictEqual(Schemas.formatDecimal(tiny), "0.000000000000000005")
 * assert.strictEqual(BigDecimal.format(tiny), "5e-18") // what the exchange would refuse
 * ```
 *
 * @since 0.1.0
 * @category schemas
 */
export const formatDecimal: (value: BigDecimal.BigDecimal) => string = DecimalText.formatDecimal

/**
 * The length of a decimal's fixed-point form (what `formatDecimal` would
 * write), computed without writing it: `1e999999999` has one of a billion
 * characters, which no string can hold.
 *
 * @example
 * ```ts
 * import { Schemas } from "@bitget-effect/core"
 * import { BigDecimal } from "effect"
 *
 * assert.strictEqual(Schemas.fixedPointLength(BigDecimal.fromStringUnsafe("-0.05")), 5)
 * assert.strictEqual(Schemas.fixedPointLength(BigDecimal.fromStringUnsafe("1e999999999")), 1_000_000_000)
 * ```
 *
 * @since 0.1.0
 * @category schemas
 */
export const fixedPointLength: (value: BigDecimal.BigDecimal) => number = DecimalText.fixedPointLength

/** The issue of a value a transformation refuses, with the reason. */
const invalid = (input: unknown, message: string): SchemaIssue.Issue =>
  new SchemaIssue.InvalidValue({ message }, Option.some(input))

/**
 * Formats a decimal in fixed point with as many digits after the point as its
 * scale, trailing zeros included: a decoded amount is written with exactly
 * the digits the exchange sent (`formatDecimal` drops trailing zeros). A
 * negative scale (`1e3`) is written as the integer.
 *
 * @example
 * ```ts
 * import { Schemas } from "@bitget-effect/core"
 * import { BigDecimal } from "effect"
 *
 * const balance = BigDecimal.fromStringUnsafe("25000.00000000")
 * assert.strictEqual(Schemas.formatDecimalWithScale(balance), "25000.00000000")
 * assert.strictEqual(Schemas.formatDecimal(balance), "25000")
 * assert.strictEqual(Schemas.formatDecimalWithScale(BigDecimal.fromStringUnsafe("-1e3")), "-1000")
 * ```
 *
 * @since 0.3.0
 * @category schemas
 */
export const formatDecimalWithScale: (value: BigDecimal.BigDecimal) => string = DecimalText.formatDecimalWithScale

/**
 * The JSON form of a decoded decimal (see `Json`): `formatDecimalWithScale`'s text,
 * read back with the scale it shows.
 */
const decimalJson = () =>
  Schema.link<BigDecimal.BigDecimal>()(Schema.String, {
    decode: SchemaGetter.transformEffect((input: string) => {
      const decimal = DecimalText.decimalOf(input)
      return typeof decimal === "string" ? Effect.fail(invalid(input, decimal)) : Effect.succeed(decimal)
    }),
    encode: SchemaGetter.transformEffect((value: BigDecimal.BigDecimal) => {
      // the scale and length are checked before the text is built (it would be as long as they say)
      const fits = value.scale <= DecimalText.maxFixedPointLength &&
        DecimalText.fixedPointLength(value) <= DecimalText.maxFixedPointLength
      const text = fits ? DecimalText.formatDecimalWithScale(value) : undefined
      return text === undefined || text.length > DecimalText.maxFixedPointLength
        ? Effect.fail(invalid(value, `must have at most ${DecimalText.maxFixedPointLength} characters in fixed point`))
        : Effect.succeed(text)
    })
  })

/**
 * An exact decimal carried as a JSON string (`"25000.0000"`); a JSON number is
 * accepted when decoding. Every digit is kept exactly, up to 1024 characters
 * of text; an exponent is accepted only when the fixed-point form stays
 * within 64 characters of the text (`1e-8`, not `1e999999999`). Encodes in
 * fixed point.
 *
 * @since 0.1.0
 * @category schemas
 */
export const Decimal: Schema.Codec<BigDecimal.BigDecimal, string | number> = withFastDecode(
  Schema.Union([Schema.String, Schema.Number]).pipe(Schema.decodeTo(Schema.BigDecimal, {
    decode: SchemaGetter.transformEffect((input: string | number) => {
      const decimal = DecimalText.decimalOf(input)
      return typeof decimal === "string" ? Effect.fail(invalid(input, decimal)) : Effect.succeed(decimal)
    }),
    encode: SchemaGetter.transformEffect((value: BigDecimal.BigDecimal) =>
      DecimalText.fixedPointLength(value) > DecimalText.maxFixedPointLength
        ? Effect.fail(invalid(value, `must have at most ${DecimalText.maxFixedPointLength} characters in fixed point`))
        : Effect.succeed(DecimalText.formatDecimal(value))
    )
  })),
  leaf((input) => {
    if (typeof input !== "string" && typeof input !== "number") return refuse(input)
    const decimal = DecimalText.decimalOf(input)
    return typeof decimal === "string" ? bail : decimal
  })
).annotate({ identifier: "Decimal", toCodecJson: decimalJson })

/**
 * The most digits the exchange takes in a request decimal, after the point
 * and before it.
 *
 * @since 0.1.0
 * @category schemas
 */
export const requestDigits = { fraction: 18, integer: 24 } as const

/**
 * A decimal for a request: at most `requestDigits` digits after and before
 * the point, so a value the exchange would refuse (or `1e999999999`, which
 * has no fixed-point form a string can hold) fails before anything is sent.
 *
 * @since 0.1.0
 * @category schemas
 */
export const RequestDecimal = Decimal.check(Schema.makeFilter((d) => {
  const { digits, scale } = DecimalText.parts(d)
  if (scale > requestDigits.fraction) return `must have at most ${requestDigits.fraction} digits after the point`
  return digits.length - scale <= requestDigits.integer ||
    `must have at most ${requestDigits.integer} digits before the point`
}, { identifier: "RequestDecimal" }))

/**
 * A request decimal that must be strictly positive (prices, sizes).
 *
 * @since 0.1.0
 * @category schemas
 */
export const PositiveDecimal = RequestDecimal.check(
  Schema.makeFilter((d) => BigDecimal.isPositive(d) || "must be greater than 0", { identifier: "PositiveDecimal" })
)

/**
 * A request decimal that must be zero or more.
 *
 * @since 0.1.0
 * @category schemas
 */
export const NonNegativeDecimal = RequestDecimal.check(
  Schema.makeFilter((d) => !BigDecimal.isNegative(d) || "must not be negative", { identifier: "NonNegativeDecimal" })
)

/**
 * A Unix-millisecond timestamp carried as a string (a JSON integer is accepted
 * when decoding), as a `DateTime.Utc`.
 *
 * @since 0.1.0
 * @category schemas
 */
export const Timestamp: Schema.Codec<DateTime.Utc, string | number> = withFastDecode(
  Schema.Union([Schema.String, Schema.Number]).pipe(Schema.decodeTo(Schema.DateTimeUtc, {
    decode: SchemaGetter.transformEffect((input: string | number) => {
      const time = timestampOf(input)
      return time === undefined
        ? Effect.fail(invalid(input, `Expected a millisecond timestamp, got ${JSON.stringify(input)}`))
        : Effect.succeed(time)
    }),
    encode: SchemaGetter.transform((value: DateTime.Utc) => String(DateTime.toEpochMillis(value)))
  })),
  leaf((input) => typeof input === "string" || typeof input === "number" ? timestampOf(input) ?? bail : refuse(input))
).annotate({ identifier: "Timestamp" })

/**
 * `true` for the ways the exchange spells "unset": missing, `null` or `""`.
 *
 * @since 0.1.0
 * @category schemas
 */
export const isAbsent = (value: unknown): value is undefined | null | "" =>
  value === undefined || value === null || value === ""

/** The JSON form of an `Option` (see `Json`): its value, or `null` for `None`. */
const optionJson = ([value]: readonly [Schema.Top]) =>
  Schema.link<Option.Option<unknown>>()(Schema.NullOr(value), {
    decode: SchemaGetter.transform(Option.fromNullOr),
    encode: SchemaGetter.transform(Option.getOrNull)
  })

/**
 * `Schema.Option` (as JSON, its value or `null`). It needs no fast decoder of
 * its own: `Maybe` and `OptionalObject`, its only users, give the node theirs.
 */
const OptionOf = <S extends Schema.Top>(value: S) => Schema.Option(value).annotate({ toCodecJson: optionJson })

/**
 * The fast decoder of an optional value with its decoding default: `None`
 * for a missing property and for what `isAbsent` accepts, else `Some` of
 * the inner value; with `refusesUnset`, bailing on a value that would spell
 * "unset" on the wire (which the `Option`'s own filter refuses).
 */
const fastOption = (schema: Schema.Top, refusesUnset: boolean): FastDecodeBuild => (compile) => {
  const inner = compile(schema.ast)
  if (inner === undefined) return undefined
  return (input) => {
    if (input === absent || isAbsent(input)) return Option.none()
    const value = inner(input)
    return value === bail || (refusesUnset && spellsUnset(value)) ? bail : Option.some(value)
  }
}

/**
 * A list the exchange may send as `null` or leave out, decoded as empty. Not a
 * union, so a decode failure names the field instead of quoting the whole list
 * (which may hold personal data).
 *
 * @since 0.1.0
 * @category schemas
 */
export const ListOrEmpty = <A, I>(item: Schema.Codec<A, I>) => {
  const list = Schema.Array(item)
  return withFastDecode(
    Schema.Unknown.pipe(
      Schema.decodeTo(list, {
        decode: SchemaGetter.transform((value) => (isAbsent(value) ? [] : value) as ReadonlyArray<I>),
        encode: SchemaGetter.passthroughSupertype()
      }),
      Schema.withDecodingDefault(Effect.succeed(null))
    ),
    (compile) => {
      const items = compile(list.ast)
      return items && ((input) => (input === absent || isAbsent(input) ? [] : items(input)))
    }
  )
}

/**
 * An object the exchange may send as `null` or `""` or leave out, as an
 * `Option`; like `ListOrEmpty`, a failure does not quote the object.
 *
 * @since 0.1.0
 * @category schemas
 */
export const OptionalObject = <A, I>(schema: Schema.Codec<A, I>) => {
  const decode = Schema.decodeUnknownEffect(schema)
  const encode = Schema.encodeEffect(schema)
  return withFastDecode(
    Schema.Unknown.pipe(
      Schema.decodeTo(OptionOf(Schema.toType(schema)), {
        decode: SchemaGetter.transformEffect((value: unknown) =>
          isAbsent(value)
            ? Effect.succeed(Option.none())
            : Effect.mapBothEager(decode(value), {
              onFailure: (error) => error.issue,
              onSuccess: Option.some
            })
        ),
        encode: SchemaGetter.transformEffect((value: Option.Option<A>) =>
          Option.isNone(value)
            ? Effect.succeed(null)
            : Effect.mapError(encode(value.value), (error) => error.issue)
        )
      }),
      Schema.withDecodingDefault(Effect.succeed(null))
    ),
    fastOption(schema, false)
  )
}

/**
 * A millisecond timestamp as a query parameter (always a string on the wire),
 * not before 1970.
 *
 * @since 0.1.0
 * @category schemas
 */
export const QueryTimestamp = Schema.String.pipe(Schema.decodeTo(Timestamp)).check(
  Schema.makeFilter((time) => DateTime.toEpochMillis(time) >= 0 || "must not be before 1970")
)

/** `true` for a value whose wire form is `""` (which reads back as unset): `""`, or an unknown enum value `""`. */
const spellsUnset = (value: unknown): boolean => value === "" || (value instanceof Unrecognized && value.value === "")

/**
 * A value that the exchange leaves out, or sends as `""` or `null`, when unset:
 * decoded as an `Option` (encoded back as `""`); `Some("")` is not a value
 * of it, since it would read back as `None`.
 *
 * @since 0.1.0
 * @category schemas
 */
export const Maybe = <A, I>(schema: Schema.Codec<A, I>) =>
  withFastDecode(
    Schema.NullOr(Schema.Union([Schema.Literal(""), schema])).pipe(
      Schema.decodeTo(
        OptionOf(Schema.toType(schema).check(Schema.makeFilter((value) => !spellsUnset(value)))),
        {
          decode: SchemaGetter.transform((value: A | "" | null) =>
            value === null || value === "" ? Option.none<A>() : Option.some(value)
          ),
          encode: SchemaGetter.transform(Option.getOrElse((): A | "" => ""))
        }
      ),
      Schema.withDecodingDefault(Effect.succeed(null))
    ),
    fastOption(schema, true)
  )

/**
 * Marks an enum value the library does not know yet (the exchange adds values
 * over time); the raw string is kept in `value`.
 *
 * @since 0.1.0
 * @category schemas
 */
export class Unrecognized extends Schema.TaggedClass<Unrecognized>()("Unrecognized", {
  value: Schema.String
}) {}

/** `Unrecognized` as an open enum's member: as JSON (see `Json`), the raw text. */
const UnrecognizedText = Schema.toType(Unrecognized).annotate({
  toCodecJson: () =>
    Schema.link<Unrecognized>()(Schema.String, {
      decode: SchemaGetter.transform((value: string) => new Unrecognized({ value }, { disableChecks: true })),
      encode: SchemaGetter.transform((value: Unrecognized) => value.value)
    })
})

/**
 * One of the literals of a list, as a union that keeps the name of the type
 * alias it defines (`type Side = Schemas.OneOf<typeof sides>`): declarations
 * and the API reference show that name where the union is used, not every literal.
 *
 * @since 0.2.0
 * @category schemas
 */
export type OneOf<L extends ReadonlyArray<string>> = Extract<L[number], string>

/**
 * The decoded type of an open enum: one of the known literals, or `Unrecognized`.
 *
 * @since 0.1.0
 * @category schemas
 */
export type OpenEnum<L extends string> = L | Unrecognized

/**
 * An open enum: known literals decode as themselves, anything else as
 * `Unrecognized`. With `caseInsensitive`, `"PAID"` decodes as the known `"Paid"`.
 *
 * @since 0.1.0
 * @category schemas
 */
export const OpenEnum = <const L extends ReadonlyArray<string>>(
  literals: L,
  options?: { readonly caseInsensitive?: boolean }
): Schema.Codec<OpenEnum<L[number]>, string> => {
  const caseInsensitive = options?.caseInsensitive === true
  const known = new Map<string, L[number]>(
    literals.map((literal) => [caseInsensitive ? literal.toLowerCase() : literal, literal])
  )
  const decode = (raw: string): OpenEnum<L[number]> =>
    known.get(caseInsensitive ? raw.toLowerCase() : raw) ?? new Unrecognized({ value: raw }, { disableChecks: true })
  return withFastDecode(
    Schema.String.pipe(Schema.decodeTo(Schema.Union([Schema.Literals(literals), UnrecognizedText]), {
      decode: SchemaGetter.transform(decode),
      encode: SchemaGetter.transform((value: OpenEnum<L[number]>) => (typeof value === "string" ? value : value.value))
    })),
    leaf((raw) => (typeof raw === "string" ? decode(raw) : refuse(raw)))
  )
}

/**
 * A closed enum of a request: one of `literals`, anything else refused before
 * sending with a message that names the choices (`expected`, by default the
 * literals) and the value given.
 *
 * @since 0.2.0
 * @category schemas
 */
export const ClosedEnum = <const L extends ReadonlyArray<string>>(
  identifier: string,
  literals: L,
  expected: string = literals.join(", ")
) => {
  const members = new Set<string>(literals)
  const isMember = (value: string): value is L[number] => members.has(value)
  return Schema.String.annotate({ identifier }).check(
    Schema.makeFilter(
      (value) => isMember(value) || `must be one of ${expected}, got ${JSON.stringify(value)}`,
      undefined,
      true
    )
  ).pipe(Schema.refine(isMember))
}

/**
 * `true` when an open enum value is one the library knows.
 *
 * @since 0.1.0
 * @category schemas
 */
export const isKnown = <L extends string>(value: OpenEnum<L>): value is L => typeof value === "string"

/**
 * The text of an open enum value as the exchange sent it (a known literal, or
 * the raw value the library did not recognise).
 *
 * @example
 * ```ts
 * import { Schemas, Symbols } from "@bitget-effect/core"
 * import { Schema } from "effect"
 *
 * const status = Schema.decodeSync(Symbols.SymbolStatus)
 * assert.strictEqual(Schemas.enumText(status("online")), "online")
 * assert.strictEqual(Schemas.enumText(status("delisted")), "delisted") // an `Unrecognized` value, kept
 * ```
 *
 * @since 0.1.0
 * @category schemas
 */
export const enumText = <L extends string>(
  value: OpenEnum<L>
): string => (typeof value === "string" ? value : value.value)

/**
 * A numeric id (orders, records): a string of decimal digits, since ids exceed
 * the range of JS numbers.
 *
 * @since 0.1.0
 * @category schemas
 */
export const NumericId = Schema.String.check(
  Schema.isPattern(/^\d{1,30}$/, { message: "must be a numeric id (digits only)", identifier: "NumericId" })
)

/**
 * Orders numeric ids by value, never lexically (`"9"` before `"10"`): by
 * length once leading zeros are dropped, then digit by digit. Total: text
 * that is not a number is ordered too, never thrown on.
 *
 * @since 0.1.0
 * @category schemas
 */
export const IdOrder: Order.Order<string> = Order.make((self, that) => {
  const a = withoutLeadingZeros(self)
  const b = withoutLeadingZeros(that)
  return a.length !== b.length ? (a.length < b.length ? -1 : 1) : a === b ? 0 : a < b ? -1 : 1
})

/**
 * A client order id as the exchange accepts it: `[0-9a-zA-Z-+_#]`, 1 to 49 characters.
 *
 * @since 0.1.0
 * @category schemas
 */
export const ClientOid = Schema.String.check(
  Schema.isPattern(/^[0-9a-zA-Z\-+_#]{1,49}$/, {
    message: "must be 1-49 characters of [0-9a-zA-Z-+_#]",
    identifier: "ClientOid"
  })
)

/**
 * The longest text a request field takes (symbols, coins, advert and order
 * numbers).
 *
 * @since 0.1.0
 * @category schemas
 */
export const maxTextLength = 64

/** A control character, or half of a surrogate pair without its other half (no URL or JSON can carry it). */
const unsendable = /[\p{Cc}\uD800-\uDFFF]/u

/**
 * `true` when a string can be sent as a query value or header: no control
 * character (CR and LF included) and no lone surrogate.
 *
 * @since 0.1.0
 * @category schemas
 */
export const isSendable = (text: string): boolean => !unsendable.test(text)

/**
 * Text for a request field (symbols, coins): sent trimmed, and refused when
 * blank, longer than `maxTextLength` or holding a character no request can
 * carry (see `isSendable`).
 *
 * @since 0.1.0
 * @category schemas
 */
export const NonBlank: Schema.Codec<string> = Schema.String.pipe(Schema.decodeTo(
  Schema.String.check(Schema.makeFilter((s) => {
    const text = s.trim()
    if (text.length === 0) return "must not be blank"
    if (text.length > maxTextLength) return `must be at most ${maxTextLength} characters`
    return isSendable(text) || "must not hold control characters or lone surrogates"
  }, { identifier: "NonBlank" })),
  { decode: SchemaGetter.passthrough(), encode: SchemaGetter.transform((s: string) => s.trim()) }
))

/**
 * An optional filter of a request (a symbol, a coin): left out, the request
 * covers everything; given, it is `NonBlank`. A blank filter is refused
 * rather than read as "all": it is a mistake more often than a wish for
 * everything.
 *
 * @since 0.1.0
 * @category schemas
 */
export const Filter = Schema.optional(NonBlank)

/**
 * An integer within bounds carried as a string query parameter (`limit`).
 *
 * @since 0.1.0
 * @category schemas
 */
export const IntString = (min: number, max: number) =>
  Schema.NumberFromString.check(
    Schema.makeFilter((n) =>
      (Number.isInteger(n) && n >= min && n <= max) || `must be an integer from ${min} to ${max}`
    )
  )

/**
 * A check for a request's time window: `startTime` not after `endTime`, and at
 * most `maxDays` between them when both are given.
 *
 * @since 0.1.0
 * @category schemas
 */
export const checkWindow = (maxDays: number) => {
  const maxMillis = Duration.toMillis(Duration.days(maxDays))
  return (
    value: { readonly startTime?: DateTime.Utc | undefined; readonly endTime?: DateTime.Utc | undefined }
  ): true | string => {
    const { endTime, startTime } = value
    if (startTime === undefined || endTime === undefined) return true
    const span = DateTime.toEpochMillis(endTime) - DateTime.toEpochMillis(startTime)
    if (span < 0) return "startTime must not be after endTime"
    return span <= maxMillis || `startTime to endTime must be at most ${maxDays} days`
  }
}

/**
 * Fills the missing end of a request's time range, so the range sent is one
 * the exchange accepts (it reads a missing end as "now", where a start far
 * back breaks its window): with only `startTime`, `endTime` is `now`; with
 * only `endTime`, `startTime` is `maxDays` before it (or `earliest`, when
 * that is later). `checkWindow` then holds the filled range to `maxDays`.
 *
 * @example
 * ```ts
 * import { Schemas } from "@bitget-effect/core"
 * import { DateTime } from "effect"
 *
 * const now = DateTime.makeUnsafe("2026-11-23T00:00:00Z")
 * const request: { startTime?: DateTime.Utc; endTime?: DateTime.Utc } = { endTime: now }
 * const filled = Schemas.completeRange(request, now, 90)
 * assert.strictEqual(DateTime.formatIso(filled.startTime!), "2026-08-25T00:00:00.000Z")
 * ```
 *
 * @since 0.1.0
 * @category schemas
 */
export const completeRange = <
  R extends { readonly startTime?: DateTime.Utc | undefined; readonly endTime?: DateTime.Utc | undefined }
>(request: R, now: DateTime.Utc, maxDays: number, earliest?: DateTime.Utc): R => {
  const { endTime, startTime } = request
  if (startTime !== undefined && endTime === undefined) return { ...request, endTime: now }
  if (startTime === undefined && endTime !== undefined) {
    const start = DateTime.subtract(endTime, { days: maxDays })
    return { ...request, startTime: earliest === undefined ? start : DateTime.max(start, earliest) }
  }
  return request
}
