/**
 * Exact decimals: the schemas of every price, size, rate and amount
 * (`BigDecimal`, carried as JSON strings), the request decimals the exchange
 * accepts, and the formatters that write a decimal in fixed point. `Schemas`
 * re-exports each of them under the same name.
 *
 * @since 0.3.0
 */
import * as BigDecimal from "effect/BigDecimal"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import * as SchemaGetter from "effect/SchemaGetter"
import * as SchemaIssue from "effect/SchemaIssue"
import * as DecimalText from "./internal/decimalText.js"
import { bail, leaf, refuse, withFastDecode } from "./internal/fastDecode.js"

/**
 * Formats a decimal in fixed-point notation (`0.00000001`, never `1e-8`).
 *
 * @example
 * ```ts
 * import { DecimalSchemas } from "@bitget-effect/core"
 * import { BigDecimal } from "effect"
 *
 * const tiny = BigDecimal.make(5n, 18)
 * assert.strictEqual(DecimalSchemas.formatDecimal(tiny), "0.000000000000000005")
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
 * import { DecimalSchemas } from "@bitget-effect/core"
 * import { BigDecimal } from "effect"
 *
 * assert.strictEqual(DecimalSchemas.fixedPointLength(BigDecimal.fromStringUnsafe("-0.05")), 5)
 * assert.strictEqual(DecimalSchemas.fixedPointLength(BigDecimal.fromStringUnsafe("1e999999999")), 1_000_000_000)
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
 * import { DecimalSchemas } from "@bitget-effect/core"
 * import { BigDecimal } from "effect"
 *
 * const balance = BigDecimal.fromStringUnsafe("25000.00000000")
 * assert.strictEqual(DecimalSchemas.formatDecimalWithScale(balance), "25000.00000000")
 * assert.strictEqual(DecimalSchemas.formatDecimal(balance), "25000")
 * assert.strictEqual(DecimalSchemas.formatDecimalWithScale(BigDecimal.fromStringUnsafe("-1e3")), "-1000")
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
