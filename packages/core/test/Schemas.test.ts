/**
 * The values the decimal and timestamp schemas build, held to what Effect
 * builds: a plain decimal is read straight into its digits and scale (the
 * `BigDecimal` of those digits, as `BigDecimal.make` builds it), any other
 * text as `BigDecimal.fromString` reads it; a timestamp is the `DateTime.Utc`
 * that `DateTime.makeUnsafe` builds, down to its prototype and the attributes
 * of its own properties. The compiled fast decoders give the same values.
 */
import { assert, describe, it } from "@effect/vitest"
import { Arbitrary, BigDecimal, DateTime, Equal, Option, Result, Schema } from "effect"
import { bail, compiled } from "../src/internal/decoder.js"
import * as Schemas from "../src/Schemas.js"
import { integer } from "./arbitraries.js"

/** `true` or `false`. */
const boolean: Arbitrary.Arbitrary<boolean> = Arbitrary.schema(Schema.Boolean)

/** Text of `minLength` to `maxLength` characters, each one of `alphabet`. */
const textOf = (alphabet: string, minLength: number, maxLength: number): Arbitrary.Arbitrary<string> =>
  Arbitrary.map(
    Arbitrary.array(integer(0, alphabet.length - 1), { minLength, maxLength }),
    (indexes) => indexes.map((i) => alphabet[i]).join("")
  )

/** Runs of digits: up to 45, so past the 15 a number holds exactly and past the 40 of a plain decimal. */
const digits = textOf("0123456789", 1, 45)

/** The options of one property: a fixed seed (`PROPERTY_SEED` overrides it) and a run count. */
const params = { timeout: 60_000, arbitrary: { seed: Number(process.env.PROPERTY_SEED ?? 20_251_125), runs: 500 } }

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
  it.prop(
    "reads a plain decimal exactly into its digits and scale",
    [boolean, digits, boolean, digits],
    ([negative, whole, pointed, fraction]) => {
      const text = `${negative ? "-" : ""}${whole}${pointed ? `.${fraction}` : ""}`
      const scale = pointed ? fraction.length : 0
      if (whole.length > 40 || scale > 40) {
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
    },
    params
  )

  it.prop(
    "reads any other text as BigDecimal.fromString does, or refuses it",
    [textOf("0123456789.-+eE x", 0, 24)],
    ([text]) => {
      const value = decoded(decodeDecimal, fastDecimal, text)
      if (Option.isNone(value)) return
      const parsed = BigDecimal.fromString(text.trim())
      assert.isTrue(Option.isSome(parsed) && Equal.equals(value.value, parsed.value), text)
    },
    params
  )

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
