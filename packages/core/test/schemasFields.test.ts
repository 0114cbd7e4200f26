/**
 * The field schemas of `Schemas` besides decimals: timestamps (encoding, the
 * range of a `Date`, query times), the spellings of "unset" (`Maybe`,
 * `ListOrEmpty`, `OptionalObject`), open and closed enums, ids, request text
 * and time windows. Each decoded both by Schema and by the compiled fast
 * decoder, which must agree.
 */
import { assert, describe, it } from "@effect/vitest"
import { BigDecimal, DateTime, Equal, Option, Order, Result, Schema } from "effect"
import { compiled } from "../src/internal/decoder.js"
import { absent, bail } from "../src/internal/fastDecode.js"
import * as Schemas from "../src/Schemas.js"

const dec = BigDecimal.fromStringUnsafe
const time = (millis: number) => DateTime.makeUnsafe(millis)

/**
 * What `schema` decodes `input` to (`Result`), after asserting its compiled
 * fast decoder (when it has one) gives an equal value, or gives up where
 * Schema fails.
 */
const decode = <A, I>(schema: Schema.Codec<A, I>, input: unknown): Result.Result<A, string> => {
  const result = Schema.decodeUnknownResult(schema)(input)
  const fast = compiled(schema)
  if (fast !== undefined) {
    const quick = fast(input)
    if (Result.isFailure(result)) assert.strictEqual(quick, bail, `the fast decoder accepted ${String(input)}`)
    else assert.isTrue(Equal.equals(quick, result.success), `the fast decoder differs on ${String(input)}`)
  }
  return Result.mapError(result, (error) => error.message)
}

/** The value `schema` decodes `input` to; fails the test when it is refused. */
const valueOf = <A, I>(schema: Schema.Codec<A, I>, input: unknown): A =>
  Result.getOrThrowWith(decode(schema, input), (message) => new Error(`${String(input)}: ${message}`))

/** The message `schema` refuses `input` with; fails the test when it is decoded. */
const refusal = <A, I>(schema: Schema.Codec<A, I>, input: unknown): string =>
  Result.match(decode(schema, input), {
    onFailure: (message) => message,
    onSuccess: (value) => assert.fail(`${JSON.stringify(input)} was decoded as ${String(value)}`)
  })

/** What `schema` encodes `value` to, or `failure: message`. */
const encoded = <A, I>(schema: Schema.Codec<A, I>, value: A): I | string =>
  Result.match(Schema.encodeUnknownResult(schema)(value), {
    onFailure: (error) => `failure: ${error.message}`,
    onSuccess: (wire) => wire
  })

describe("Timestamp", () => {
  it("encodes as its millisecond text", () => {
    assert.strictEqual(encoded(Schemas.Timestamp, time(1_700_000_000_123)), "1700000000123")
    assert.strictEqual(encoded(Schemas.Timestamp, time(-86_400_000)), "-86400000")
    assert.strictEqual(encoded(Schemas.Timestamp, time(0)), "0")
  })

  it("takes the whole range of a Date, both ends included, and nothing past it", () => {
    for (const millis of [8.64e15, -8.64e15]) {
      for (const input of [millis, String(millis)]) {
        assert.isTrue(Equal.equals(valueOf(Schemas.Timestamp, input), time(millis)), String(input))
      }
    }
    for (const input of [8.64e15 + 1, -8.64e15 - 1, "8640000000000001", "-8640000000000001", "99999999999999999"]) {
      assert.include(refusal(Schemas.Timestamp, input), "Expected a millisecond timestamp", String(input))
    }
  })

  it("reads digits past 15 and spaces through the whole text", () => {
    assert.isTrue(Equal.equals(valueOf(Schemas.Timestamp, "0001700000000123"), time(1_700_000_000_123)))
    assert.isTrue(Equal.equals(valueOf(Schemas.Timestamp, "-0001700000000123"), time(-1_700_000_000_123)))
    assert.isTrue(Equal.equals(valueOf(Schemas.Timestamp, "123456789012345"), time(123_456_789_012_345)))
    assert.isTrue(Equal.equals(valueOf(Schemas.Timestamp, "-123456789012345"), time(-123_456_789_012_345)))
    assert.isTrue(Equal.equals(valueOf(Schemas.Timestamp, "\t42\n"), time(42)))
    assert.isTrue(Equal.equals(valueOf(Schemas.Timestamp, " -42 "), time(-42)))
    for (const input of ["", " ", "-", "--1", "1-", "4 2", "1a", "a1", "/", ":", "1.0", null, true, Number.NaN, 1.5]) {
      assert.isTrue(Result.isFailure(decode(Schemas.Timestamp, input)), JSON.stringify(input))
    }
    assert.strictEqual(refusal(Schemas.Timestamp, "soon"), "Expected a millisecond timestamp, got \"soon\"")
  })

  it("QueryTimestamp: a string of 1970 or later", () => {
    assert.isTrue(Equal.equals(valueOf(Schemas.QueryTimestamp, "0"), time(0)))
    assert.isTrue(Equal.equals(valueOf(Schemas.QueryTimestamp, "1700000000123"), time(1_700_000_000_123)))
    assert.include(refusal(Schemas.QueryTimestamp, "-1"), "must not be before 1970")
    assert.isTrue(Result.isFailure(decode(Schemas.QueryTimestamp, 5)))
    assert.strictEqual(encoded(Schemas.QueryTimestamp, time(1_700_000_000_123)), "1700000000123")
  })
})

describe("unset values", () => {
  it("isAbsent: missing, null and \"\" only", () => {
    for (const value of [undefined, null, ""]) assert.isTrue(Schemas.isAbsent(value), String(value))
    for (const value of [0, false, " ", "0", "null", [], {}]) assert.isFalse(Schemas.isAbsent(value), String(value))
  })

  const MaybeDecimal = Schema.Struct({ value: Schemas.Maybe(Schemas.Decimal) })

  it("Maybe: None for a missing field, null or \"\"; Some of the value; encodes None as \"\"", () => {
    for (const input of [{}, { value: null }, { value: "" }]) {
      assert.isTrue(Option.isNone(valueOf(MaybeDecimal, input).value), JSON.stringify(input))
    }
    const some = valueOf(MaybeDecimal, { value: "0.10" }).value
    assert.isTrue(Option.isSome(some) && Equal.equals(some.value, dec("0.1")))
    assert.isTrue(Result.isFailure(decode(MaybeDecimal, { value: "abc" })))
    assert.isTrue(Result.isFailure(decode(MaybeDecimal, { value: 0 })) === false)
    assert.deepStrictEqual(encoded(MaybeDecimal, { value: Option.none() }), { value: "" })
    assert.deepStrictEqual(encoded(MaybeDecimal, { value: Option.some(dec("1e-8")) }), { value: "0.00000001" })
  })

  it("Maybe of text: \" \" is a value, and Some(\"\") is none of its values", () => {
    const MaybeText = Schema.Struct({ value: Schemas.Maybe(Schema.String) })
    assert.deepStrictEqual(valueOf(MaybeText, { value: " " }).value, Option.some(" "))
    assert.deepStrictEqual(valueOf(MaybeText, { value: "x" }).value, Option.some("x"))
    assert.isTrue(Option.isNone(valueOf(MaybeText, { value: "" }).value))
    // the type side refuses Some(""), which would read back as None
    const typeSide = Schema.toType(MaybeText)
    assert.isTrue(Result.isFailure(decode(typeSide, { value: Option.some("") })))
    assert.deepStrictEqual(valueOf(typeSide, { value: Option.some("x") }).value, Option.some("x"))
    assert.isTrue(Option.isNone(valueOf(typeSide, { value: Option.none() }).value))
    assert.isTrue(Result.isFailure(decode(typeSide, { value: "x" })))
    assert.isTrue(Result.isFailure(decode(typeSide, { value: Option.some(1) })))
  })

  it("Maybe of an open enum: the unknown value \"\" is none of its values", () => {
    const MaybeSide = Schema.Struct({ value: Schemas.Maybe(Schemas.OpenEnum(["buy", "sell"])) })
    assert.isTrue(Option.isNone(valueOf(MaybeSide, { value: "" }).value))
    const unknown = valueOf(MaybeSide, { value: "hold" }).value
    assert.isTrue(Option.isSome(unknown) && Schemas.enumText(unknown.value) === "hold")
    const typeSide = Schema.toType(MaybeSide)
    assert.isTrue(
      Result.isFailure(decode(typeSide, { value: Option.some(new Schemas.Unrecognized({ value: "" })) }))
    )
    const kept = valueOf(typeSide, { value: Option.some(new Schemas.Unrecognized({ value: "hold" })) }).value
    assert.isTrue(Option.isSome(kept) && Schemas.enumText(kept.value) === "hold")
    assert.deepStrictEqual(encoded(MaybeSide, { value: Option.some<Schemas.OpenEnum<"buy" | "sell">>("sell") }), {
      value: "sell"
    })
  })

  it("ListOrEmpty: [] for a missing list, null or \"\"; the items otherwise", () => {
    const Lists = Schema.Struct({ items: Schemas.ListOrEmpty(Schemas.Decimal) })
    for (const input of [{}, { items: null }, { items: "" }, { items: [] }]) {
      assert.deepStrictEqual(valueOf(Lists, input).items, [], JSON.stringify(input))
    }
    const items = valueOf(Lists, { items: ["1.5", 2] }).items
    assert.isTrue(Equal.equals(items[0], dec("1.5")) && Equal.equals(items[1], dec("2")) && items.length === 2)
    for (const input of [{ items: ["x"] }, { items: "1" }, { items: 0 }, { items: {} }]) {
      assert.isTrue(Result.isFailure(decode(Lists, input)), JSON.stringify(input))
    }
    assert.deepStrictEqual(encoded(Lists, { items: [dec("1e-3")] }), { items: ["0.001"] })
  })

  it("OptionalObject: None for a missing object, null or \"\"; Some of the object; encodes None as null", () => {
    const Inner = Schema.Struct({ price: Schemas.Decimal })
    const Outer = Schema.Struct({ inner: Schemas.OptionalObject(Inner) })
    for (const input of [{}, { inner: null }, { inner: "" }]) {
      assert.isTrue(Option.isNone(valueOf(Outer, input).inner), JSON.stringify(input))
    }
    const some = valueOf(Outer, { inner: { price: "2.50" } }).inner
    assert.isTrue(Option.isSome(some) && Equal.equals(some.value.price, dec("2.5")))
    assert.include(refusal(Outer, { inner: { price: "x" } }), "price")
    assert.isTrue(Result.isFailure(decode(Outer, { inner: 5 })))
    assert.deepStrictEqual(encoded(Outer, { inner: Option.none() }), { inner: null })
    assert.deepStrictEqual(encoded(Outer, { inner: Option.some({ price: dec("1e-2") }) }), { inner: { price: "0.01" } })
    assert.strictEqual(
      encoded(Outer, { inner: Option.some({ price: BigDecimal.make(1n, -5000) }) }),
      "failure: must have at most 4096 characters in fixed point\n  at [\"inner\"][\"price\"]"
    )
  })

  it("text that decodes to \"\" is None in a Maybe, and Some(\"\") in an OptionalObject, fast or not", () => {
    const maybe = Schemas.Maybe(Schema.Trim)
    assert.isTrue(Option.isNone(Result.getOrThrow(Schema.decodeUnknownResult(maybe)(" "))))
    const quick = compiled(maybe)?.(" ")
    assert.isTrue(quick === bail || Equal.equals(quick, Option.none()), "the fast decoder never gives Some(\"\")")
    assert.deepStrictEqual(valueOf(Schemas.OptionalObject(Schema.Trim), " "), Option.some(""))
  })

  it("decodes around an inner schema that has no fast decoder (a oneOf union)", () => {
    const inner = Schema.Union([Schema.String, Schema.Number], { mode: "oneOf" })
    const maybe = Schema.Struct({ value: Schemas.Maybe(inner) })
    assert.deepStrictEqual(valueOf(maybe, { value: "a" }), { value: Option.some("a") })
    assert.deepStrictEqual(valueOf(maybe, {}), { value: Option.none() })
    const object = Schema.Struct({ value: Schemas.OptionalObject(inner) })
    assert.deepStrictEqual(valueOf(object, { value: 1 }), { value: Option.some(1) })
    assert.deepStrictEqual(valueOf(object, { value: null }), { value: Option.none() })
    const list = Schema.Struct({ value: Schemas.ListOrEmpty(inner) })
    assert.deepStrictEqual(valueOf(list, { value: ["b", 2] }), { value: ["b", 2] })
    assert.deepStrictEqual(valueOf(list, {}), { value: [] })
  })

  it("the fast decoders: an absent field is None or [], anything but an Option refused on the type side", () => {
    const fastMaybe = compiled(Schemas.Maybe(Schemas.Decimal))
    const fastList = compiled(Schemas.ListOrEmpty(Schemas.Decimal))
    const fastObject = compiled(Schemas.OptionalObject(Schema.Struct({ price: Schemas.Decimal })))
    assert.isTrue(Option.isNone(fastMaybe?.(absent) as Option.Option<unknown>))
    assert.deepStrictEqual(fastList?.(absent), [])
    assert.isTrue(Option.isNone(fastObject?.(absent) as Option.Option<unknown>))
    const fastType = compiled(Schema.toType(Schemas.Maybe(Schemas.Decimal)))
    const none = Option.none()
    assert.strictEqual(fastType?.(none), none)
    const some = Option.some(dec("1.5"))
    assert.isTrue(Equal.equals(fastType?.(some), some))
    assert.strictEqual(fastType?.(dec("1.5")), bail)
    assert.strictEqual(fastType?.(Option.some("1.5")), bail)
  })
})

describe("OpenEnum", () => {
  const Side = Schemas.OpenEnum(["buy", "sell"])
  const Status = Schemas.OpenEnum(["Paid", "Done"], { caseInsensitive: true })

  it("decodes a known literal as itself and anything else as Unrecognized, kept verbatim", () => {
    assert.strictEqual(valueOf(Side, "buy"), "buy")
    assert.strictEqual(valueOf(Side, "sell"), "sell")
    for (const raw of ["BUY", "hold", "", " buy"]) {
      const value = valueOf(Side, raw)
      assert.instanceOf(value, Schemas.Unrecognized, raw)
      assert.isFalse(Schemas.isKnown(value))
      assert.strictEqual(Schemas.enumText(value), raw)
    }
    assert.isTrue(Schemas.isKnown(valueOf(Side, "buy")))
    assert.strictEqual(Schemas.enumText(valueOf(Side, "buy")), "buy")
    for (const input of [1, null, undefined, {}]) assert.isTrue(Result.isFailure(decode(Side, input)), String(input))
  })

  it("with caseInsensitive, decodes any case of a known literal as the literal", () => {
    assert.strictEqual(valueOf(Status, "PAID"), "Paid")
    assert.strictEqual(valueOf(Status, "paid"), "Paid")
    assert.strictEqual(valueOf(Status, "dOnE"), "Done")
    assert.strictEqual(Schemas.enumText(valueOf(Status, "Refunded")), "Refunded")
    // without it, the case matters
    assert.instanceOf(valueOf(Schemas.OpenEnum(["Paid"]), "PAID"), Schemas.Unrecognized)
    assert.instanceOf(valueOf(Schemas.OpenEnum(["Paid"], { caseInsensitive: false }), "paid"), Schemas.Unrecognized)
  })

  it("encodes a literal or an unknown value as its text", () => {
    assert.strictEqual(encoded(Side, "sell"), "sell")
    assert.strictEqual(encoded(Side, new Schemas.Unrecognized({ value: "hold" })), "hold")
    assert.strictEqual(encoded(Status, "Paid"), "Paid")
  })
})

describe("Unrecognized", () => {
  it("is tagged Unrecognized, with the raw text as a string", () => {
    const value = new Schemas.Unrecognized({ value: "hold" })
    assert.strictEqual(value._tag, "Unrecognized")
    assert.strictEqual(value.value, "hold")
    assert.isTrue(Result.isSuccess(decode(Schemas.Unrecognized, { _tag: "Unrecognized", value: "hold" })))
    assert.isTrue(Result.isFailure(decode(Schemas.Unrecognized, { _tag: "Unrecognized", value: 1 })))
    assert.isTrue(Result.isFailure(decode(Schemas.Unrecognized, { _tag: "Other", value: "hold" })))
  })
})

describe("ClosedEnum", () => {
  const Category = Schemas.ClosedEnum("Category", ["SPOT", "USDT-FUTURES"])

  it("takes its literals only, naming the choices and the value given", () => {
    assert.strictEqual(valueOf(Category, "SPOT"), "SPOT")
    assert.strictEqual(valueOf(Category, "USDT-FUTURES"), "USDT-FUTURES")
    assert.include(refusal(Category, "spot"), "must be one of SPOT, USDT-FUTURES, got \"spot\"")
    assert.include(refusal(Category, ""), "must be one of SPOT, USDT-FUTURES, got \"\"")
    // as a request is encoded (every issue collected): that one message, nothing more
    const all = Schema.encodeUnknownResult(Category, { errors: "all" })("spot")
    assert.strictEqual(Result.isFailure(all) && all.failure.message, "must be one of SPOT, USDT-FUTURES, got \"spot\"")
    const Named = Schemas.ClosedEnum("Named", ["a", "b"], "a letter")
    assert.include(refusal(Named, "c"), "must be one of a letter, got \"c\"")
    assert.strictEqual(encoded(Category, "SPOT"), "SPOT")
  })
})

describe("ids", () => {
  it("NumericId: 1 to 30 digits", () => {
    for (const id of ["0", "1203", "9".repeat(30)]) assert.strictEqual(valueOf(Schemas.NumericId, id), id)
    for (const id of ["", "9".repeat(31), "12a", " 12", "12 ", "-1", "1.0"]) {
      assert.include(refusal(Schemas.NumericId, id), "must be a numeric id (digits only)", id)
    }
  })

  it("IdOrder: by value, never lexically; leading zeros ignored; total on any text", () => {
    const compare = (a: string, b: string) => Schemas.IdOrder(a, b)
    assert.strictEqual(compare("9", "10"), -1)
    assert.strictEqual(compare("10", "9"), 1)
    assert.strictEqual(compare("12", "12"), 0)
    assert.strictEqual(compare("12", "13"), -1)
    assert.strictEqual(compare("13", "12"), 1)
    assert.strictEqual(compare("007", "7"), 0)
    assert.strictEqual(compare("0009", "10"), -1)
    assert.strictEqual(compare("000", "0"), 0)
    assert.strictEqual(compare("", "0"), -1)
    assert.strictEqual(compare("abc", "abd"), -1)
    assert.deepStrictEqual(
      ["100", "20", "3", "0020", "99999999999999999999", "1"].sort(Order.make(Schemas.IdOrder)),
      ["1", "3", "20", "0020", "100", "99999999999999999999"]
    )
  })

  it("ClientOid: 1 to 49 of [0-9a-zA-Z-+_#]", () => {
    for (const id of ["a", "Order-1+x_y#2", "x".repeat(49)]) assert.strictEqual(valueOf(Schemas.ClientOid, id), id)
    for (const id of ["", "x".repeat(50), "a b", "a.b", "a/b", "é"]) {
      assert.include(refusal(Schemas.ClientOid, id), "must be 1-49 characters of [0-9a-zA-Z-+_#]", id)
    }
  })
})

describe("request text", () => {
  it("isSendable: no control character and no lone surrogate", () => {
    for (const text of ["BTCUSDT", "", "über 😀", " tab-less "]) assert.isTrue(Schemas.isSendable(text), text)
    for (const text of ["a\nb", "a\rb", "\t", "\u0000", "\u007F", "\u0085", "\uD800", "x\uDC00"]) {
      assert.isFalse(Schemas.isSendable(text), JSON.stringify(text))
    }
  })

  it("NonBlank: sent trimmed; refuses blank, over 64 characters, or unsendable text", () => {
    assert.strictEqual(maxTextLength(), 64)
    assert.strictEqual(valueOf(Schemas.NonBlank, "BTCUSDT"), "BTCUSDT")
    assert.strictEqual(encoded(Schemas.NonBlank, "  BTCUSDT "), "BTCUSDT")
    assert.strictEqual(valueOf(Schemas.NonBlank, ` ${"x".repeat(64)} `), ` ${"x".repeat(64)} `)
    assert.include(refusal(Schemas.NonBlank, ""), "must not be blank")
    assert.include(refusal(Schemas.NonBlank, " \t "), "must not be blank")
    assert.include(refusal(Schemas.NonBlank, "x".repeat(65)), "must be at most 64 characters")
    assert.include(refusal(Schemas.NonBlank, "a\u0000b"), "must not hold control characters or lone surrogates")
    assert.include(refusal(Schemas.NonBlank, "\uD800"), "must not hold control characters or lone surrogates")
  })

  it("Filter: optional, and NonBlank when given", () => {
    const Request = Schema.Struct({ symbol: Schemas.Filter })
    assert.deepStrictEqual(valueOf(Request, {}), {})
    assert.deepStrictEqual(valueOf(Request, { symbol: "BTCUSDT" }), { symbol: "BTCUSDT" })
    assert.include(refusal(Request, { symbol: " " }), "must not be blank")
  })

  it("IntString: an integer within its bounds, from a string", () => {
    const Limit = Schemas.IntString(1, 100)
    assert.strictEqual(valueOf(Limit, "1"), 1)
    assert.strictEqual(valueOf(Limit, "100"), 100)
    for (const text of ["0", "101", "1.5", "-1"]) {
      assert.include(refusal(Limit, text), "must be an integer from 1 to 100", text)
    }
    assert.strictEqual(encoded(Limit, 50), "50")
  })
})

/** `Schemas.maxTextLength`, read through a function so the assertion is on the export. */
const maxTextLength = () => Schemas.maxTextLength

describe("time windows", () => {
  const day = 86_400_000
  const check = Schemas.checkWindow(7)

  it("checkWindow: start not after end, and at most maxDays apart, when both are given", () => {
    assert.isTrue(check({}))
    assert.isTrue(check({ startTime: time(0) }))
    assert.isTrue(check({ endTime: time(0) }))
    assert.isTrue(check({ startTime: time(day), endTime: time(day) }))
    assert.isTrue(check({ startTime: time(0), endTime: time(7 * day) }))
    assert.strictEqual(
      check({ startTime: time(0), endTime: time(7 * day + 1) }),
      "startTime to endTime must be at most 7 days"
    )
    assert.strictEqual(check({ startTime: time(1), endTime: time(0) }), "startTime must not be after endTime")
  })

  it("completeRange: fills the end with now, or the start maxDays before the end (not before earliest)", () => {
    interface Request {
      readonly startTime?: DateTime.Utc
      readonly endTime?: DateTime.Utc
      readonly limit?: number
    }
    const complete = (request: Request, earliest?: DateTime.Utc) =>
      Schemas.completeRange(request, time(100 * day), 30, earliest)
    const start = time(10 * day)
    const end = time(50 * day)
    assert.deepStrictEqual(complete({ startTime: start }), { startTime: start, endTime: time(100 * day) })
    assert.deepStrictEqual(complete({ endTime: end, limit: 5 }), { endTime: end, limit: 5, startTime: time(20 * day) })
    assert.deepStrictEqual(complete({ endTime: end }, time(25 * day)), { endTime: end, startTime: time(25 * day) })
    assert.deepStrictEqual(complete({ endTime: end }, time(day)), { endTime: end, startTime: time(20 * day) })
    const both: Request = { startTime: start, endTime: end }
    assert.strictEqual(complete(both), both)
    const neither: Request = { limit: 5 }
    assert.strictEqual(complete(neither), neither)
  })
})

describe("names", () => {
  it("names each schema in the JSON Schema of what it is sent or read as", () => {
    const definitions = (schema: Schema.Top) => Object.keys(Schema.toJsonSchemaDocument(schema).definitions)
    for (
      const [schema, name] of [
        [Schemas.Decimal, "DecimalEncoded"],
        [Schemas.RequestDecimal, "RequestDecimalEncoded"],
        [Schemas.PositiveDecimal, "PositiveDecimalEncoded"],
        [Schemas.NonNegativeDecimal, "NonNegativeDecimalEncoded"],
        [Schemas.Timestamp, "TimestampEncoded"],
        [Schemas.NumericId, "NumericId"],
        [Schemas.ClientOid, "ClientOid"],
        [Schemas.NonBlank, "NonBlankEncoded"]
      ] as const
    ) {
      assert.deepStrictEqual(definitions(schema), [name])
    }
  })

  it("names Decimal and Timestamp when asked to encode what is not one", () => {
    assert.strictEqual(encoded(Schemas.Decimal, "1.5" as unknown as BigDecimal.BigDecimal), "failure: Expected Decimal")
    assert.strictEqual(encoded(Schemas.Timestamp, 5 as unknown as DateTime.Utc), "failure: Expected Timestamp")
  })
})
