/**
 * The plain JSON forms the schemas of `Schemas` give their decoded values
 * (Schema's `toCodecJson` of their type side, which `Json` builds on): a
 * decimal as fixed-point text with every digit it holds, trailing zeros
 * included; `None` as `null`; an unknown enum value as its text. Decimals
 * compared exactly (value and scale), never as floats.
 */
import { assert, beforeAll, describe, it, vi } from "@effect/vitest"
import { BigDecimal, Option, Result, Schema } from "effect"
import type * as SchemasModule from "../src/Schemas.js"

/**
 * The module, loaded afresh for this file: Schema derives a JSON codec once
 * per schema and keeps it, so the schemas are built here, not shared.
 */
let Schemas: typeof SchemasModule

beforeAll(async () => {
  vi.resetModules()
  Schemas = await import("../src/Schemas.js")
})

/** The JSON codec of a schema's type side. */
const json = <A, I>(schema: Schema.Codec<A, I>) => Schema.toCodecJson(Schema.toType(schema))

/** What `schema`'s JSON codec encodes `value` to, or `failure: message`. */
const toJson = <A, I>(schema: Schema.Codec<A, I>, value: A): unknown =>
  Result.match(Schema.encodeUnknownResult(json(schema))(value), {
    onFailure: (error) => `failure: ${error.message}`,
    onSuccess: (encoded) => encoded
  })

/** What `schema`'s JSON codec decodes `input` to, or `failure: message`. */
const fromJson = <A, I>(schema: Schema.Codec<A, I>, input: unknown): A | string =>
  Result.match(Schema.decodeUnknownResult(json(schema))(input), {
    onFailure: (error) => `failure: ${error.message}`,
    onSuccess: (value) => value
  })

describe("Decimal as JSON", () => {
  it("is fixed-point text with as many digits after the point as its scale", () => {
    for (
      const [unscaled, scale, text] of [
        [10n, 2, "0.10"],
        [0n, 3, "0.000"],
        [0n, 0, "0"],
        [-5n, 3, "-0.005"],
        [-15n, 1, "-1.5"],
        [250_000_000n, 4, "25000.0000"],
        [12_345n, 2, "123.45"],
        [7n, 0, "7"],
        [-7n, 0, "-7"],
        [5n, -3, "5000"],
        [-12n, -2, "-1200"]
      ] as const
    ) {
      assert.strictEqual(toJson(Schemas.Decimal, BigDecimal.make(unscaled, scale)), text, text)
    }
  })

  it("reads back with the scale its text shows", () => {
    for (
      const [text, unscaled, scale] of [
        ["0.10", 10n, 2],
        ["-0.005", -5n, 3],
        ["5000", 5000n, 0],
        ["1e-8", 1n, 8]
      ] as const
    ) {
      const value = fromJson(Schemas.Decimal, text)
      assert.isTrue(typeof value !== "string" && value.value === unscaled && value.scale === scale, `${text}: ${value}`)
    }
    assert.strictEqual(fromJson(Schemas.Decimal, "abc"), "failure: Expected a decimal number, got \"abc\"")
    assert.isTrue(String(fromJson(Schemas.Decimal, 5)).startsWith("failure: "))
  })

  it("refuses a value of over 4096 characters in fixed point, however it is scaled", () => {
    const refused = "failure: must have at most 4096 characters in fixed point"
    assert.strictEqual(toJson(Schemas.Decimal, BigDecimal.make(1n, -4096)), refused)
    assert.strictEqual(toJson(Schemas.Decimal, BigDecimal.make(0n, 5000)), refused, "zeros of its scale")
    assert.strictEqual(toJson(Schemas.Decimal, BigDecimal.make(1n, 5000)), refused)
    assert.strictEqual(toJson(Schemas.Decimal, BigDecimal.make(1n, -4095)), `1${"0".repeat(4095)}`)
    assert.strictEqual(toJson(Schemas.Decimal, BigDecimal.make(0n, 4000)), `0.${"0".repeat(4000)}`)
    assert.strictEqual(toJson(Schemas.Decimal, BigDecimal.make(0n, 4094)), `0.${"0".repeat(4094)}`, "4096 characters")
    assert.strictEqual(toJson(Schemas.Decimal, BigDecimal.make(0n, 4095)), refused, "4097 characters")
    assert.strictEqual(toJson(Schemas.Decimal, BigDecimal.make(-1n, 4094)), refused, "sign, 0, point and 4094 digits")
  })
})

describe("Option and open enums as JSON", () => {
  const recordOf = () =>
    Schema.Struct({
      price: Schemas.Maybe(Schemas.Decimal),
      side: Schemas.OpenEnum(["buy", "sell"]),
      detail: Schemas.OptionalObject(Schema.Struct({ note: Schema.String }))
    })

  it("writes None as null, Some as its value, an enum value as its text", () => {
    const Record = recordOf()
    assert.deepStrictEqual(
      toJson(Record, { price: Option.none(), side: "buy", detail: Option.none() }),
      { price: null, side: "buy", detail: null }
    )
    assert.deepStrictEqual(
      toJson(Record, {
        price: Option.some(BigDecimal.make(10n, 2)),
        side: new Schemas.Unrecognized({ value: "hold" }),
        detail: Option.some({ note: "x" })
      }),
      { price: "0.10", side: "hold", detail: { note: "x" } }
    )
  })

  it("reads null as None, a value as Some, unknown enum text as Unrecognized", () => {
    const Record = recordOf()
    const empty = fromJson(Record, { price: null, side: "sell", detail: null })
    assert.isTrue(typeof empty !== "string" && Option.isNone(empty.price) && Option.isNone(empty.detail))
    assert.strictEqual(typeof empty !== "string" && empty.side, "sell")
    const full = fromJson(Record, { price: "0.10", side: "hold", detail: { note: "x" } })
    if (typeof full === "string") return assert.fail(full)
    assert.isTrue(Option.isSome(full.price) && full.price.value.value === 10n && full.price.value.scale === 2)
    assert.instanceOf(full.side, Schemas.Unrecognized)
    assert.strictEqual(Schemas.enumText(full.side), "hold")
    assert.deepStrictEqual(full.detail, Option.some({ note: "x" }))
    assert.isTrue(String(fromJson(Record, { price: 1, side: "buy", detail: null })).startsWith("failure: "))
  })
})
