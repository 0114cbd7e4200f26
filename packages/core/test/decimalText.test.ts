/**
 * Decimals as text, exactly: the fixed-point form `formatDecimal` writes and
 * the length `fixedPointLength` computes without writing it, the limits of
 * what `Decimal` decodes (text length, exponents) and encodes, and the
 * request decimals' digit limits and signs. Every value compared as a
 * `BigDecimal` (never a float).
 */
import { assert, describe, it } from "@effect/vitest"
import { Arbitrary, BigDecimal, Equal, Option, Result, Schema } from "effect"
import { compiled } from "../src/internal/decoder.js"
import { bail } from "../src/internal/fastDecode.js"
import * as Schemas from "../src/Schemas.js"
import { integer, textOf } from "./arbitraries.js"

const dec = BigDecimal.fromStringUnsafe

const decodeDecimal = Schema.decodeUnknownResult(Schemas.Decimal)
const fastDecimal = compiled(Schemas.Decimal)

/** The decimal `input` decodes to (the fast decoder agreeing), or the message of the failure. */
const decoded = (input: unknown): BigDecimal.BigDecimal | string => {
  const result = decodeDecimal(input)
  const quick = fastDecimal?.(input)
  if (Result.isFailure(result)) {
    assert.strictEqual(quick, bail, `the fast decoder accepted ${String(input)}`)
    return result.failure.message
  }
  assert.isTrue(Equal.equals(quick, result.success), `the fast decoder differs on ${String(input)}`)
  return result.success
}

/** Asserts `input` decodes to the decimal `expected` (exactly: value and scale as `BigDecimal` compares them). */
const assertDecodes = (input: unknown, expected: BigDecimal.BigDecimal) => {
  const value = decoded(input)
  assert.isTrue(
    typeof value !== "string" && Equal.equals(value, expected),
    `${JSON.stringify(input)}: ${typeof value === "string" ? value : BigDecimal.format(value)}`
  )
}

/** Asserts `input` is refused, with a message that includes `message`. */
const assertRefused = (input: unknown, message: string) => {
  const value = decoded(input)
  assert.isString(value, `${String(input)} was decoded`)
  assert.include(value, message, String(input))
}

/** The message a schema's encoding fails with, or its encoded value. */
const encoded = <A, I>(schema: Schema.Codec<A, I>, value: A): I | string =>
  Result.match(Schema.encodeUnknownResult(schema)(value), {
    onFailure: (error) => `failure: ${error.message}`,
    onSuccess: (wire) => wire
  })

describe("formatDecimal", () => {
  it("writes fixed point, never an exponent, in normal form", () => {
    for (
      const [value, text] of [
        [BigDecimal.make(0n, 0), "0"],
        [BigDecimal.make(0n, 5), "0"],
        [BigDecimal.make(0n, -3), "0"],
        [BigDecimal.make(7n, 0), "7"],
        [BigDecimal.make(-7n, 0), "-7"],
        [BigDecimal.make(5n, -3), "5000"],
        [BigDecimal.make(-12n, -2), "-1200"],
        [BigDecimal.make(15n, 1), "1.5"],
        [BigDecimal.make(-15n, 1), "-1.5"],
        [BigDecimal.make(1500n, 3), "1.5"],
        [BigDecimal.make(5n, 2), "0.05"],
        [BigDecimal.make(-5n, 2), "-0.05"],
        [BigDecimal.make(12_345n, 2), "123.45"],
        [BigDecimal.make(-12_345n, 5), "-0.12345"],
        [BigDecimal.make(5n, 18), "0.000000000000000005"],
        [BigDecimal.make(9_007_199_254_740_993n, 8), "90071992.54740993"]
      ] as const
    ) {
      assert.strictEqual(Schemas.formatDecimal(value), text, text)
      assert.isTrue(Equal.equals(dec(text), value), `${text} reads back as the value`)
    }
  })

  it.prop(
    "reads back as the value, as long as fixedPointLength says",
    [integer(-1e12, 1e12), integer(-30, 30)],
    ([unscaled, scale]) => {
      const value = BigDecimal.make(BigInt(unscaled), scale)
      const text = Schemas.formatDecimal(value)
      assert.match(text, /^-?\d+(\.\d*[1-9])?$/, text)
      assert.isTrue(Equal.equals(dec(text), value), text)
      assert.strictEqual(Schemas.fixedPointLength(value), text.length, text)
    },
    { arbitrary: { seed: 20_251_127, runs: 200 } }
  )
})

describe("formatDecimalWithScale", () => {
  it("writes as many digits after the point as the scale, trailing zeros included; a negative scale as the integer", () => {
    for (
      const [value, text] of [
        [BigDecimal.make(0n, 0), "0"],
        [BigDecimal.make(0n, 3), "0.000"],
        [BigDecimal.make(0n, -3), "0"],
        [BigDecimal.make(-7n, 0), "-7"],
        [BigDecimal.make(5n, -3), "5000"],
        [BigDecimal.make(-12n, -2), "-1200"],
        [BigDecimal.make(10n, 2), "0.10"],
        [BigDecimal.make(-10n, 2), "-0.10"],
        [BigDecimal.make(1500n, 3), "1.500"],
        [BigDecimal.make(-5n, 2), "-0.05"],
        [BigDecimal.make(2_500_000_000_000n, 8), "25000.00000000"],
        [BigDecimal.make(-12_345n, 5), "-0.12345"]
      ] as const
    ) {
      assert.strictEqual(Schemas.formatDecimalWithScale(value), text, text)
    }
  })

  it.prop(
    "reads back as the same value with the same scale (a positive one), and drops only trailing zeros to formatDecimal",
    [integer(-1e12, 1e12), integer(0, 30)],
    ([unscaled, scale]) => {
      const value = BigDecimal.make(BigInt(unscaled), scale)
      const text = Schemas.formatDecimalWithScale(value)
      const back = decoded(text)
      assert.isObject(back, text)
      assert.strictEqual((back as BigDecimal.BigDecimal).scale, scale, text)
      assert.strictEqual((back as BigDecimal.BigDecimal).value, value.value, text)
      assert.strictEqual(
        text.includes(".") ? text.replace(/\.?0+$/, "") : text,
        Schemas.formatDecimal(value),
        text
      )
    },
    { arbitrary: { seed: 20_261_127, runs: 200 } }
  )
})

describe("fixedPointLength", () => {
  it("counts the sign, the digits, the point and the zeros an exponent stands for", () => {
    for (
      const [text, length] of [
        ["0", 1],
        ["-0.05", 5],
        ["0.05", 4],
        ["12.5", 4],
        ["-12.5", 5],
        ["123", 3],
        ["-123", 4],
        ["1e3", 4],
        ["-1e3", 5],
        ["1e-3", 5],
        ["123.456", 7],
        ["1e999999999", 1_000_000_000],
        ["-1e-999999999", 1_000_000_002]
      ] as const
    ) {
      assert.strictEqual(Schemas.fixedPointLength(dec(text)), length, text)
    }
  })
})

describe("Decimal", () => {
  it("reads text with spaces around it, an exponent, or a sign as BigDecimal does", () => {
    assertDecodes(" 1.5 ", dec("1.5"))
    assertDecodes("1.50\n", BigDecimal.make(150n, 2))
    assertDecodes("1e-8", BigDecimal.make(1n, 8))
    assertDecodes("-2.5E3", BigDecimal.make(-25n, -2))
    assertDecodes("+3", dec("3"))
    assertDecodes(".5", dec("0.5"))
    assertDecodes("-0", dec("0"))
  })

  it("keeps a plain decimal's scale, trailing zeros included", () => {
    for (
      const [text, unscaled, scale] of [
        ["0", 0n, 0],
        ["0.000", 0n, 3],
        ["25000.0000", 250_000_000n, 4],
        ["-0.10", -10n, 2],
        ["1023", 1023n, 0],
        ["1024", 1024n, 0],
        ["-1023", -1023n, 0],
        ["0.001", 1n, 3],
        ["-0.001", -1n, 3]
      ] as const
    ) {
      const value = decoded(text)
      assert.isTrue(typeof value !== "string" && value.value === unscaled && value.scale === scale, text)
    }
  })

  it("reads a JSON number as its shortest text; refuses one that is not finite", () => {
    assertDecodes(0.1, dec("0.1"))
    assertDecodes(-25_000, dec("-25000"))
    assertDecodes(1e-7, dec("0.0000001"))
    assertDecodes(1e21, BigDecimal.make(1n, -21))
    // "1.5e+300" has 8 characters, its fixed point 301
    assertRefused(1.5e300, "Expected a decimal number, got an exponent out of range")
    for (const number of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) {
      assertRefused(number, "Expected a decimal number, got null")
    }
  })

  it("refuses what is not a decimal, blank text included, naming it", () => {
    for (const text of ["", " ", "\t\n", "abc", "1.2.3", "1,5", "--1", "-", ".", "1e", "0x10", "Infinity"]) {
      assertRefused(text, `Expected a decimal number, got ${JSON.stringify(text)}`)
    }
    for (const input of [null, true, {}, [], 10n]) assert.strictEqual(typeof decoded(input), "string")
  })

  it("plain digits: reads 40 on either side of the point, and more through BigDecimal", () => {
    const forty = "9".repeat(40)
    const fortyOne = "1".repeat(41)
    for (
      const text of [
        forty,
        `-${forty}`,
        `0.${forty}`,
        `${forty}.${forty}`,
        `-${forty}.${forty}`,
        fortyOne,
        `0.${fortyOne}`,
        `${forty}.${fortyOne}`,
        `-${fortyOne}.${forty}`,
        `${"0".repeat(45)}1.5`
      ]
    ) {
      const [whole, fraction = ""] = text.replace("-", "").split(".")
      const expected = BigDecimal.make(BigInt(text.replace(".", "")), fraction.length)
      assertDecodes(text, expected)
      assert.isTrue((whole?.length ?? 0) > 0)
    }
  })

  it("takes text of up to 1024 characters", () => {
    const longest = `0.${"1".repeat(1022)}`
    assertDecodes(longest, BigDecimal.make(BigInt("1".repeat(1022)), 1022))
    assertDecodes(`  ${"1".repeat(1024)}  `, BigDecimal.make(BigInt("1".repeat(1024)), 0))
    assertRefused(`0.${"1".repeat(1023)}`, "Expected a decimal number of at most 1024 characters")
    assertRefused("1".repeat(1025), "Expected a decimal number of at most 1024 characters")
  })

  it("takes an exponent only while the fixed-point form stays within 64 characters of the text", () => {
    // "1e67" is 4 characters, its fixed point 68
    assertDecodes("1e67", BigDecimal.make(1n, -67))
    assertRefused("1e68", "Expected a decimal number, got an exponent out of range")
    // "1e-66" is 5 characters, its fixed point "0.000…1" 68: 69 is the most
    assertDecodes("1e-67", BigDecimal.make(1n, 67))
    assertRefused("1e-68", "got an exponent out of range")
    assertDecodes("-1e67", BigDecimal.make(-1n, -67))
    assertRefused("-1e68", "got an exponent out of range")
    assertRefused("1e999999999", "got an exponent out of range")
  })

  it("encodes in fixed point, and refuses a value of over 4096 characters so written", () => {
    assert.strictEqual(encoded(Schemas.Decimal, BigDecimal.make(5n, 18)), "0.000000000000000005")
    assert.strictEqual(encoded(Schemas.Decimal, BigDecimal.make(-25n, -2)), "-2500")
    assert.strictEqual(encoded(Schemas.Decimal, BigDecimal.make(1n, -4095)), `1${"0".repeat(4095)}`)
    assert.strictEqual(
      encoded(Schemas.Decimal, BigDecimal.make(1n, -4096)),
      "failure: must have at most 4096 characters in fixed point"
    )
    assert.strictEqual(
      encoded(Schemas.Decimal, BigDecimal.make(-1n, -4095)),
      "failure: must have at most 4096 characters in fixed point"
    )
  })
})

describe("request decimals", () => {
  const request = (schema: Schema.Codec<BigDecimal.BigDecimal, string | number>, value: BigDecimal.BigDecimal) =>
    encoded(schema, value)

  it("take at most 18 digits after the point and 24 before it", () => {
    assert.deepStrictEqual(Schemas.requestDigits, { fraction: 18, integer: 24 })
    const ok: ReadonlyArray<readonly [BigDecimal.BigDecimal, string]> = [
      [BigDecimal.make(1n, 18), "0.000000000000000001"],
      [BigDecimal.make(10n ** 24n - 1n, 0), "9".repeat(24)],
      [BigDecimal.make(-(10n ** 42n - 1n), 18), `-${"9".repeat(24)}.${"9".repeat(18)}`],
      [BigDecimal.make(1n, -23), `1${"0".repeat(23)}`],
      [BigDecimal.make(1000n, 21), "0.000000000000000001"]
    ]
    for (const [value, text] of ok) assert.strictEqual(request(Schemas.RequestDecimal, value), text, text)
    for (
      const [value, message] of [
        [BigDecimal.make(1n, 19), "must have at most 18 digits after the point"],
        [BigDecimal.make(-1n, 19), "must have at most 18 digits after the point"],
        [BigDecimal.make(10n ** 24n, 0), "must have at most 24 digits before the point"],
        [BigDecimal.make(1n, -24), "must have at most 24 digits before the point"],
        [BigDecimal.make(1n, -999_999_999), "must have at most 24 digits before the point"]
      ] as const
    ) {
      const failure = request(Schemas.RequestDecimal, value)
      assert.isTrue(typeof failure === "string" && failure.includes(message), `${String(failure)} ${message}`)
    }
    // decoding holds a request's text to the same limits
    assert.isTrue(Result.isFailure(Schema.decodeUnknownResult(Schemas.RequestDecimal)("0.0000000000000000001")))
    assert.isTrue(Result.isSuccess(Schema.decodeUnknownResult(Schemas.RequestDecimal)("0.000000000000000001")))
  })

  it("PositiveDecimal takes more than zero; NonNegativeDecimal zero too; neither a negative", () => {
    const tiny = BigDecimal.make(1n, 18)
    const zero = BigDecimal.make(0n, 0)
    const minus = BigDecimal.make(-1n, 18)
    assert.strictEqual(request(Schemas.PositiveDecimal, tiny), "0.000000000000000001")
    assert.include(String(request(Schemas.PositiveDecimal, zero)), "must be greater than 0")
    assert.include(String(request(Schemas.PositiveDecimal, minus)), "must be greater than 0")
    assert.strictEqual(request(Schemas.NonNegativeDecimal, tiny), "0.000000000000000001")
    assert.strictEqual(request(Schemas.NonNegativeDecimal, zero), "0")
    assert.include(String(request(Schemas.NonNegativeDecimal, minus)), "must not be negative")
    // and both hold the digit limits of RequestDecimal
    assert.include(String(request(Schemas.PositiveDecimal, BigDecimal.make(1n, 19))), "18 digits after the point")
    assert.include(String(request(Schemas.NonNegativeDecimal, BigDecimal.make(1n, -24))), "24 digits before")
  })
})

describe("Decimal decoding of digit runs", () => {
  it.prop(
    "reads any run of digits with a point anywhere as BigDecimal reads it",
    [textOf("0123456789", 1, 50), integer(0, 50), Arbitrary.schema(Schema.Boolean)],
    ([digits, at, negative]) => {
      const cut = Math.min(at, digits.length)
      const text = `${negative ? "-" : ""}${cut === 0 ? digits : `${digits.slice(0, cut)}.${digits.slice(cut) || "0"}`}`
      const parsed = BigDecimal.fromString(text)
      assert.isTrue(Option.isSome(parsed), text)
      assertDecodes(text, Option.getOrThrow(parsed))
    },
    { arbitrary: { seed: 20_251_127, runs: 200 } }
  )
})
