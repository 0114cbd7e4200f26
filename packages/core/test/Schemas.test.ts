/**
 * The values the decimal and timestamp schemas build, held to what Effect
 * builds: a plain decimal is read straight into its digits and scale (the
 * `BigDecimal` of those digits, as `BigDecimal.make` builds it), any other
 * text as `BigDecimal.fromString` reads it; a timestamp is the `DateTime.Utc`
 * that `DateTime.makeUnsafe` builds, down to its prototype and the attributes
 * of its own properties. The compiled fast decoders give the same values.
 */
import { assert, describe, it } from "@effect/vitest"
import { Arbitrary, BigDecimal, DateTime, Effect, Equal, Option, Result, Schema } from "effect"
import { compiled } from "../src/internal/decoder.js"
import { bail } from "../src/internal/fastDecode.js"
import * as Schemas from "../src/Schemas.js"
import { checkCounting, integer, oneOf, textOf } from "./arbitraries.js"

/** `true` or `false`. */
const boolean: Arbitrary.Arbitrary<boolean> = Arbitrary.schema(Schema.Boolean)

/** Runs of digits: up to 45, so past the 15 a number holds exactly and past the 40 of a plain decimal. */
const digits = textOf("0123456789", 1, 45)

/** The options of one property: a fixed seed (`PROPERTY_SEED` overrides it) and a run count. */
const params = {
  timeout: 60_000,
  arbitrary: { seed: Number(process.env.PROPERTY_SEED ?? 20_251_125), runs: Number(process.env.PROPERTY_RUNS ?? 500) }
}

/** The least share of a property's runs that must reach each of its branches. */
const atLeast = (share: number) => Math.ceil(share * params.arbitrary.runs)

/** A decimal's text, with the count of its digits before the point and after it. */
interface DecimalText {
  readonly text: string
  readonly whole: number
  readonly scale: number
}

/** A decimal of any digits on either side (up to 45), with or without a point. */
const anyDecimal: Arbitrary.Arbitrary<DecimalText> = Arbitrary.map(
  Arbitrary.all([boolean, digits, boolean, digits]),
  ([negative, whole, pointed, fraction]) => ({
    text: `${negative ? "-" : ""}${whole}${pointed ? `.${fraction}` : ""}`,
    whole: whole.length,
    scale: pointed ? fraction.length : 0
  })
)

/** A decimal of 14 to 18 digits in all, around the 15 a number always holds exactly, the point anywhere or nowhere. */
const nearExactDigits: Arbitrary.Arbitrary<DecimalText> = Arbitrary.flatMap(
  Arbitrary.all([boolean, integer(14, 18)]),
  ([negative, total]) =>
    Arbitrary.map(Arbitrary.all([textOf("0123456789", total, total), integer(0, total - 1)]), ([run, scale]) => {
      const whole = run.slice(0, total - scale)
      return {
        text: `${negative ? "-" : ""}${whole}${scale === 0 ? "" : `.${run.slice(whole.length)}`}`,
        whole: whole.length,
        scale
      }
    })
)

/** Decimals of any length, and as many again around the digits a number holds. */
const decimalText = oneOf(anyDecimal, nearExactDigits)

/** Digits on either side of the point past the 40 of a plain decimal. */
const isLong = ({ scale, whole }: DecimalText) => whole > 40 || scale > 40

/** The digits of a plain decimal (at most 40 on either side), 0 for a longer one. */
const plainDigits = (decimal: DecimalText) => isLong(decimal) ? 0 : decimal.whole + decimal.scale

/** The types of the values `BigInt` is called with while `run` runs. */
const bigIntArguments = (run: () => void): ReadonlyArray<string> => {
  const original = globalThis.BigInt
  const seen: Array<string> = []
  globalThis.BigInt = new Proxy(original, {
    apply: (target, self, args: Array<unknown>) => {
      seen.push(typeof args[0])
      return Reflect.apply(target, self, args)
    }
  })
  try {
    run()
  } finally {
    globalThis.BigInt = original
  }
  return seen
}

const decodeDecimal = Schema.decodeUnknownResult(Schemas.Decimal)
const fastDecimal = compiled(Schemas.Decimal)
const decodeTimestamp = Schema.decodeUnknownResult(Schemas.Timestamp)
const fastTimestamp = compiled(Schemas.Timestamp)

/** The value Schema decodes, after asserting the fast decoder gives the same one, or gives up where Schema fails. */
const decoded = <A>(
  decode: (input: unknown) => Result.Result<A, Schema.SchemaError>,
  fast: ((input: unknown) => unknown) | undefined,
  input: unknown
): Option.Option<A> => {
  const result = decode(input)
  const quick = fast?.(input)
  if (Result.isFailure(result)) {
    assert.strictEqual(quick, bail, `the fast decoder accepted ${JSON.stringify(input)}`)
    return Option.none()
  }
  assert.isTrue(Equal.equals(quick, result.success), `the fast decoder differs on ${JSON.stringify(input)}`)
  return Option.some(result.success)
}

/** The own properties of a value as descriptors, in order (values compared with `Object.is`). */
const ownProperties = (value: object) =>
  Reflect.ownKeys(value).map((key) => {
    const { value: inner, ...attributes } = Reflect.getOwnPropertyDescriptor(value, key) ?? {}
    return { key, attributes, inner }
  })

/**
 * Asserts two values have the same prototype and own properties, with the
 * same attributes, in the same order, and (unless `values` is false) the
 * same values.
 */
const assertSameShape = (actual: object, expected: object, what: string, values = true) => {
  assert.strictEqual(Object.getPrototypeOf(actual), Object.getPrototypeOf(expected), `${what}: prototype`)
  const found = ownProperties(actual)
  const wanted = ownProperties(expected)
  assert.deepStrictEqual(found.map((p) => [p.key, p.attributes]), wanted.map((p) => [p.key, p.attributes]), what)
  if (values) found.forEach((p, i) => assert.isTrue(Object.is(p.inner, wanted[i]?.inner), `${what}: ${String(p.key)}`))
}

describe("Decimal", () => {
  it.effect("reads a plain decimal exactly into its digits and scale", () =>
    Effect.gen(function*() {
      const counts = yield* checkCounting(decimalText, {
        "at most 15 digits": (decimal) => plainDigits(decimal) > 0 && plainDigits(decimal) <= 15,
        "16 or 17 digits": (decimal) => plainDigits(decimal) === 16 || plainDigits(decimal) === 17,
        "over 15 digits": (decimal) => plainDigits(decimal) > 15,
        "over 17 digits": (decimal) => plainDigits(decimal) > 17,
        "over 40 digits on a side": isLong
      }, ({ scale, text, whole }) => {
        if (whole > 40 || scale > 40) {
          // not plain: read as BigDecimal.fromString reads it
          const value = decoded(decodeDecimal, fastDecimal, text)
          const parsed = BigDecimal.fromString(text)
          assert.isTrue(Option.isSome(value) && Option.isSome(parsed) && Equal.equals(value.value, parsed.value), text)
          return
        }
        // shapes first: comparing decimals caches their normal form on them
        const expected = BigDecimal.make(BigInt(text.replace(".", "")), scale)
        assertSameShape(Result.getOrThrow(decodeDecimal(text)), expected, text)
        assertSameShape(fastDecimal?.(text) ?? {}, expected, `${text} (fast)`)
        const value = decoded(decodeDecimal, fastDecimal, text)
        assert.isTrue(Option.isSome(value) && Equal.equals(value.value, BigDecimal.fromStringUnsafe(text)), text)
      }, params.arbitrary)
      // each branch is reached by a fair share of the runs (the digits reach their 45)
      assert.isAtLeast(counts["at most 15 digits"], atLeast(0.1), "decimals of at most 15 digits")
      assert.isAtLeast(counts["16 or 17 digits"], atLeast(0.1), "decimals of 16 or 17 digits")
      assert.isAtLeast(counts["over 15 digits"], atLeast(0.3), "decimals of over 15 digits")
      assert.isAtLeast(counts["over 17 digits"], atLeast(0.2), "decimals of over 17 digits")
      assert.isAtLeast(counts["over 40 digits on a side"], atLeast(0.05), "decimals of over 40 digits on a side")
    }), params.timeout)

  it("reads 16 and 17 digits exactly, past what a number holds", () => {
    for (
      const [text, unscaled, scale] of [
        ["9007199254740993", 9_007_199_254_740_993n, 0],
        ["-9007199254740993", -9_007_199_254_740_993n, 0],
        ["99999999.99999999", 9_999_999_999_999_999n, 8],
        ["0.12345678901234567", 12_345_678_901_234_567n, 17],
        ["12345678901234567", 12_345_678_901_234_567n, 0],
        ["-1234567890123456.7", -12_345_678_901_234_567n, 1]
      ] as const
    ) {
      const expected = BigDecimal.make(unscaled, scale)
      assertSameShape(Result.getOrThrow(decodeDecimal(text)), expected, text)
      assertSameShape(fastDecimal?.(text) ?? {}, expected, `${text} (fast)`)
    }
  })

  it("reads up to 15 digits through a number, and longer runs through their text", () => {
    const decode = (text: string) => () => {
      decodeDecimal(text)
      fastDecimal?.(text)
    }
    // 15 digits: the digits are summed into a number as they are scanned, which holds them exactly
    for (const text of ["123456789012345", "-12345.6789012345", "999999999999999", "-0.00000000000001"]) {
      assert.deepStrictEqual(bigIntArguments(decode(text)), ["number", "number"], text)
    }
    // 16 digits: past what a number always holds, the digit string is read
    for (const text of ["1234567890123456", "-0.123456789012345", "9007199254740993"]) {
      assert.deepStrictEqual(bigIntArguments(decode(text)), ["string", "string"], text)
    }
  })

  it.effect("reads any other text as BigDecimal.fromString does, or refuses it", () =>
    Effect.gen(function*() {
      const counts = yield* checkCounting(textOf("0123456789.-+eE x", 0, 24), {
        "read as a decimal": (text) => Option.isSome(decoded(decodeDecimal, fastDecimal, text)),
        "over 10 characters": (text) => text.length > 10,
        "over 20 characters": (text) => text.length > 20
      }, (text) => {
        const value = decoded(decodeDecimal, fastDecimal, text)
        if (Option.isNone(value)) return
        const parsed = BigDecimal.fromString(text.trim())
        assert.isTrue(Option.isSome(parsed) && Equal.equals(value.value, parsed.value), text)
      }, params.arbitrary)
      assert.isAtLeast(counts["read as a decimal"], atLeast(0.02), "texts read as a decimal")
      assert.isAtLeast(counts["over 10 characters"], atLeast(0.3), "texts of over 10 characters")
      assert.isAtLeast(counts["over 20 characters"], atLeast(0.1), "texts of over 20 characters")
    }), params.timeout)

  it("reads a JSON number as its shortest text", () => {
    const value = decoded(decodeDecimal, fastDecimal, 0.1)
    assert.isTrue(Option.isSome(value) && Equal.equals(value.value, BigDecimal.fromStringUnsafe("0.1")))
    assert.isTrue(Option.isNone(decoded(decodeDecimal, fastDecimal, Number.NaN)))
  })
})

describe("Timestamp", () => {
  it.prop(
    "is the DateTime that DateTime.makeUnsafe builds, from text or a JSON integer",
    [integer(-8.64e15, 8.64e15), integer(0, 3)],
    ([millis, zeros]) => {
      const expected = DateTime.makeUnsafe(millis)
      const text = `${millis < 0 ? "-" : ""}${"0".repeat(zeros)}${Math.abs(millis)}`
      for (const input of [text, millis]) {
        assertSameShape(Result.getOrThrow(decodeTimestamp(input)), expected, String(input))
        assertSameShape(fastTimestamp?.(input) ?? {}, expected, `${input} (fast)`)
        const value = decoded(decodeTimestamp, fastTimestamp, input)
        assert.isTrue(Option.isSome(value) && Equal.equals(value.value, expected), String(input))
      }
    },
    params
  )

  it("reads -0 as 1970, trims spaces, and refuses what is not an integer of a Date's range", () => {
    assertSameShape(Result.getOrThrow(decodeTimestamp("-0")), DateTime.makeUnsafe(0), "-0")
    assertSameShape(fastTimestamp?.("-0") ?? {}, DateTime.makeUnsafe(0), "-0 (fast)")
    const trimmed = decoded(decodeTimestamp, fastTimestamp, " 1700000000123 ")
    assert.isTrue(Option.isSome(trimmed) && Equal.equals(trimmed.value, DateTime.makeUnsafe(1_700_000_000_123)))
    for (const refused of ["", "-", "+5", "1e3", "12.0", "0x1F", "8640000000000001", "9007199254740993", 1.5]) {
      assert.isTrue(Option.isNone(decoded(decodeTimestamp, fastTimestamp, refused)), String(refused))
    }
  })

  it("builds a DateTime that Effect's DateTime functions read and cache as their own", () => {
    const value = Result.getOrThrow(decodeTimestamp("1700000000123"))
    const expected = DateTime.makeUnsafe(1_700_000_000_123)
    assert.deepStrictEqual(DateTime.toParts(value), DateTime.toParts(expected))
    assertSameShape(value, expected, "after toParts", false)
    assert.deepStrictEqual(Object.keys(value), ["epochMilliseconds"])
  })
})
