/**
 * Decimals as text, exactly: the fixed-point forms written (normal, or with
 * the scale held), their length computed without writing them, and the
 * scanner that reads a decimal from the exchange's text or JSON number
 * within bounds. `Schemas` builds its decimal schemas on these.
 */
import * as BigDecimal from "effect/BigDecimal"
import * as Option from "effect/Option"

/** A decimal in normal form: its sign, its digits without the sign, and its scale. */
export const parts = (value: BigDecimal.BigDecimal) => {
  const { scale, value: unscaled } = BigDecimal.normalize(value)
  const negative = unscaled < 0n
  return { negative, digits: (negative ? -unscaled : unscaled).toString(), scale }
}

/** A decimal in fixed point, in normal form (`Schemas.formatDecimal`). */
export const formatDecimal = (value: BigDecimal.BigDecimal): string => {
  const { digits: abs, negative, scale } = parts(value)
  const sign = negative ? "-" : ""
  if (scale <= 0) return sign + abs + "0".repeat(-scale)
  const padded = abs.padStart(scale + 1, "0")
  return `${sign}${padded.slice(0, padded.length - scale)}.${padded.slice(padded.length - scale)}`
}

/** The length of `formatDecimal`'s text, without writing it (`Schemas.fixedPointLength`). */
export const fixedPointLength = (value: BigDecimal.BigDecimal): number => {
  const { digits, negative, scale } = parts(value)
  return (negative ? 1 : 0) + (scale <= 0 ? digits.length - scale : Math.max(digits.length, scale + 1) + 1)
}

/**
 * How much longer than its text a decoded decimal's fixed-point form may be:
 * room for exponents a server may write (`1e-8`), not for `1e999999999`.
 */
const maxExpansion = 64

/**
 * The longest decimal text decoded (far beyond any price or amount; parsing a
 * million digits would hold the event loop for a second).
 */
const maxDecimalText = 1024

/**
 * The longest fixed-point form a decimal encodes to; past it, encoding fails
 * instead of building a string of that size.
 */
export const maxFixedPointLength = 4096

/** The most digits a plain decimal has on either side of its point. */
const maxPlainDigits = 40

/** The most decimal digits a JS number always holds exactly (below 2^53). */
export const exactDigits = 15

/** The character codes a plain decimal or timestamp is read from. */
export const minus = 45
const point = 46
export const zero = 48
export const nine = 57

/**
 * The `BigInt`s of 0 to 1023, built once: small unscaled values (`0`,
 * `0.002`, `0.05`) are common, and a `bigint` is a value, so sharing one is
 * not observable.
 */
const smallBigInts: ReadonlyArray<bigint> = Array.from({ length: 1024 }, (_, i) => BigInt(i))

/**
 * A decimal from plain text (`-?digits(.digits)?`, at most 40 digits on
 * either side of the point, no `+`, exponent or spaces), read straight into
 * its unscaled value and scale as the digits are scanned (a `BigInt` of a
 * number for up to 15 digits, of the digit string beyond); `undefined` for
 * any other text.
 */
const plainDecimal = (text: string): BigDecimal.BigDecimal | undefined => {
  const length = text.length
  if (length > 2 * maxPlainDigits + 2) return undefined
  const start = text.charCodeAt(0) === minus ? 1 : 0
  let dot = -1
  let unscaled = 0
  for (let i = start; i < length; i++) {
    const code = text.charCodeAt(i)
    if (code >= zero && code <= nine) unscaled = unscaled * 10 + code - zero
    else if (code === point && dot === -1) dot = i
    else return undefined
  }
  const integer = (dot === -1 ? length : dot) - start
  const scale = dot === -1 ? 0 : length - dot - 1
  if (integer < 1 || integer > maxPlainDigits || (dot !== -1 && (scale < 1 || scale > maxPlainDigits))) {
    return undefined
  }
  const value = integer + scale > exactDigits
    ? BigInt(dot === -1 ? text : text.slice(0, dot) + text.slice(dot + 1))
    : (start === 0 && unscaled < smallBigInts.length ? smallBigInts[unscaled] : undefined) ??
      BigInt(start === 1 ? -unscaled : unscaled)
  return BigDecimal.make(value, scale)
}

/** A decimal from its text or JSON number, or why it is not one. */
export const decimalOf = (input: string | number): BigDecimal.BigDecimal | string => {
  const plain = typeof input === "string" ? plainDecimal(input) : undefined
  if (plain !== undefined) return plain
  const text = typeof input === "number" ? (Number.isFinite(input) ? input.toString() : "") : input.trim()
  if (text.length > maxDecimalText) return `Expected a decimal number of at most ${maxDecimalText} characters`
  const parsed = text === "" ? Option.none() : BigDecimal.fromString(text)
  if (Option.isNone(parsed)) return `Expected a decimal number, got ${JSON.stringify(input)}`
  return fixedPointLength(parsed.value) > text.length + maxExpansion
    ? "Expected a decimal number, got an exponent out of range"
    : parsed.value
}

/** A decimal in fixed point with as many digits after the point as its scale (`Schemas.formatDecimalWithScale`). */
export const formatDecimalWithScale = (value: BigDecimal.BigDecimal): string => {
  if (value.scale <= 0) return formatDecimal(value)
  const negative = value.value < 0n
  const padded = (negative ? -value.value : value.value).toString().padStart(value.scale + 1, "0")
  const point = padded.length - value.scale
  return `${negative ? "-" : ""}${padded.slice(0, point)}.${padded.slice(point)}`
}
