/**
 * Schema building blocks shared by every operation: exact decimals, millisecond
 * timestamps, optional values the exchange spells `""` or `null`, open enums
 * and numeric ids. Decimals, timestamps and enums have modules of their own
 * (`DecimalSchemas`, `TimestampSchemas`, `EnumSchemas`), re-exported here
 * under the same names: `Schemas.Decimal` is `DecimalSchemas.Decimal`.
 *
 * @since 0.1.0
 */
import * as DateTime from "effect/DateTime"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Order from "effect/Order"
import * as Schema from "effect/Schema"
import * as SchemaGetter from "effect/SchemaGetter"
import { Unrecognized } from "./EnumSchemas.js"
import type { FastDecodeBuild } from "./internal/fastDecode.js"
import { absent, bail, withFastDecode } from "./internal/fastDecode.js"
import { withoutLeadingZeros } from "./internal/ids.js"

/**
 * Exact decimals and their fixed-point text: every export of `DecimalSchemas`.
 *
 * @since 0.1.0
 * @category schemas
 */
export * from "./DecimalSchemas.js"

/**
 * Millisecond timestamps: every export of `TimestampSchemas`.
 *
 * @since 0.1.0
 * @category schemas
 */
export * from "./TimestampSchemas.js"

/**
 * Open and closed enums: every export (values and types) of `EnumSchemas`.
 *
 * @since 0.1.0
 * @category schemas
 */
export * from "./EnumSchemas.js"

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
