/**
 * Unit tests of the own-properties view of request encoders
 * (`internal/encoder.ts`), on schemas of every shape a request may take
 * (fields, arrays, tuples, records, unions, recursion): a request is what
 * its own properties say, at any depth, and a plain request is read as it
 * is. Each test builds its own schemas, since views and encoders are built
 * once per schema.
 */
import { assert, describe, it } from "@effect/vitest"
import { Result, Schema } from "effect"
import { compiledEncoder, encoder, ownProperties } from "../src/internal/encoder.js"
import { bail, leaf, withFastDecode } from "../src/internal/fastDecode.js"

/** A record owning `own` and inheriting `inherited`. */
const inheriting = (inherited: object, own: object): Record<string, unknown> =>
  Object.assign(Object.create(inherited), own)

/** What a request of `schema` sends for `input`: the JSON of the encoded value, or the failure. */
const sent = <A, I>(schema: Schema.Codec<A, I>, input: unknown): string => {
  const answer = encoder(schema)(input)
  return Result.isSuccess(answer) ? JSON.stringify(answer.success) : `fails: ${answer.failure.message}`
}

/** The own-properties view of a schema that has one. */
const viewOf = (schema: Schema.Top): (input: unknown) => unknown => {
  const view = ownProperties(schema)
  if (view === undefined) throw new Error("the schema has no own-properties view")
  return view
}

describe("own properties of a struct", () => {
  const order = () => Schema.Struct({ symbol: Schema.String, stopLoss: Schema.optionalKey(Schema.String) })

  it("ignores a field the input inherits, reading it from a copy and leaving the input as it was", () => {
    const Order = order()
    const input = inheriting({ stopLoss: "25000" }, { symbol: "BTCUSDT" })
    assert.strictEqual(sent(Order, input), "{\"symbol\":\"BTCUSDT\"}")
    const viewed = viewOf(Order)(input)
    assert.notStrictEqual(viewed, input)
    assert.isNull(Object.getPrototypeOf(viewed))
    assert.strictEqual(input.stopLoss, "25000")
  })

  it("reads a request whose fields are its own or absent as it is, whatever else it inherits", () => {
    const Order = order()
    const view = viewOf(Order)
    for (
      const input of [
        { symbol: "BTCUSDT" },
        { symbol: "BTCUSDT", stopLoss: "25000" },
        inheriting({ undefined: "x", note: "y" }, { symbol: "BTCUSDT" })
      ]
    ) {
      assert.strictEqual(view(input), input)
    }
    assert.strictEqual(
      sent(Order, { symbol: "BTCUSDT", stopLoss: "25000" }),
      "{\"symbol\":\"BTCUSDT\",\"stopLoss\":\"25000\"}"
    )
  })

  it("keeps a declared field the input owns without enumerating it, when it copies the rest", () => {
    const Order = order()
    const input = Object.defineProperty(Object.create({ stopLoss: "25000" }), "symbol", {
      value: "BTCUSDT",
      enumerable: false
    })
    assert.strictEqual(sent(Order, input), "{\"symbol\":\"BTCUSDT\"}")
  })

  it("keeps the undeclared fields of a struct with a rest record, ignoring the inherited declared ones", () => {
    const Tagged = Schema.StructWithRest(
      Schema.Struct({ symbol: Schema.String, note: Schema.optionalKey(Schema.String) }),
      [Schema.Record(Schema.String, Schema.String)]
    )
    const input = inheriting({ note: "inherited" }, { symbol: "BTCUSDT", tag: "t" })
    assert.strictEqual(sent(Tagged, input), "{\"symbol\":\"BTCUSDT\",\"tag\":\"t\"}")
  })

  it("reads a declared field by its own schema only, never by the rest record's, as Schema does", () => {
    const Price = Schema.Struct({ price: Schema.String })
    const Leg = Schema.Struct({ price: Schema.String, note: Schema.optionalKey(Schema.String) })
    const Request = Schema.StructWithRest(Schema.Struct({ main: Price }), [Schema.Record(Schema.String, Leg)])
    // `note` is no field of `main`'s schema: the record is read as it is, and Schema sends `price` alone
    const input = { main: inheriting({ note: "n" }, { price: "1" }), other: { price: "2" } }
    assert.strictEqual(viewOf(Request)(input), input)
    assert.strictEqual(sent(Request, input), "{\"main\":{\"price\":\"1\"},\"other\":{\"price\":\"2\"}}")
  })

  it("is built once per schema, as is its encoder", () => {
    const Order = order()
    assert.strictEqual(ownProperties(Order), ownProperties(Order))
    assert.strictEqual(encoder(Order), encoder(Order))
  })
})

describe("own properties at any depth", () => {
  const Leg = () => Schema.Struct({ price: Schema.String, note: Schema.optionalKey(Schema.String) })

  it("a field's record, an array's elements and a record's values ignore what they inherit", () => {
    const Request = Schema.Struct({
      order: Leg(),
      legs: Schema.Array(Leg()),
      byName: Schema.Record(Schema.String, Leg())
    })
    const element = inheriting({ note: "b" }, { price: "2" })
    const input = {
      order: inheriting({ note: "a" }, { price: "1" }),
      legs: [{ price: "1.5" }, element],
      byName: { x: inheriting({ note: "c" }, { price: "3" }) }
    }
    assert.strictEqual(
      sent(Request, input),
      "{\"order\":{\"price\":\"1\"},\"legs\":[{\"price\":\"1.5\"},{\"price\":\"2\"}],\"byName\":{\"x\":{\"price\":\"3\"}}}"
    )
    assert.strictEqual(input.legs[1], element, "the caller's array is left as it was")
  })

  it("a plain request with records at every depth is read as it is", () => {
    const Request = Schema.Struct({
      order: Leg(),
      legs: Schema.Array(Leg()),
      byName: Schema.Record(Schema.String, Leg())
    })
    const input = {
      order: { price: "1", note: "n" },
      legs: [{ price: "1.5" }, { price: "2", note: "m" }],
      byName: { x: { price: "3" } }
    }
    assert.strictEqual(viewOf(Request)(input), input)
  })

  it("a tuple's leading and trailing elements ignore what they inherit, around its rest", () => {
    const Request = Schema.Struct({
      legs: Schema.TupleWithRest(Schema.Tuple([Leg(), Schema.String]), [Schema.String, Leg()])
    })
    const input = {
      legs: [inheriting({ note: "a" }, { price: "1" }), "x", "y", "z", inheriting({ note: "b" }, { price: "2" })]
    }
    assert.strictEqual(sent(Request, input), "{\"legs\":[{\"price\":\"1\"},\"x\",\"y\",\"z\",{\"price\":\"2\"}]}")
    const shortest = { legs: [{ price: "1" }, "x", inheriting({ note: "b" }, { price: "2" })] }
    assert.strictEqual(sent(Request, shortest), "{\"legs\":[{\"price\":\"1\"},\"x\",{\"price\":\"2\"}]}")
  })

  it("a tuple's rest elements ignore what they inherit, before its trailing ones", () => {
    const Request = Schema.Struct({ legs: Schema.TupleWithRest(Schema.Tuple([]), [Leg(), Schema.String]) })
    const input = {
      legs: [inheriting({ note: "a" }, { price: "1" }), inheriting({ note: "b" }, { price: "2" }), "x"]
    }
    assert.strictEqual(sent(Request, input), "{\"legs\":[{\"price\":\"1\"},{\"price\":\"2\"},\"x\"]}")
  })

  it("each member of a union ignores the fields it declares when the input inherits them", () => {
    const Request = Schema.Struct({
      leg: Schema.Union([
        Schema.Struct({ kind: Schema.Literal("limit"), price: Schema.String, note: Schema.optionalKey(Schema.String) }),
        Schema.Struct({ kind: Schema.Literal("market"), size: Schema.String, memo: Schema.optionalKey(Schema.String) })
      ]),
      label: Schema.optionalKey(Schema.Union([Schema.String, Leg()]))
    })
    assert.strictEqual(
      sent(Request, { leg: inheriting({ memo: "m" }, { kind: "market", size: "1" }) }),
      "{\"leg\":{\"kind\":\"market\",\"size\":\"1\"}}"
    )
    assert.strictEqual(
      sent(Request, { leg: inheriting({ note: "n" }, { kind: "limit", price: "2" }), label: "x" }),
      "{\"leg\":{\"kind\":\"limit\",\"price\":\"2\"},\"label\":\"x\"}"
    )
    assert.strictEqual(
      sent(Request, { leg: { kind: "limit", price: "2" }, label: inheriting({ note: "n" }, { price: "3" }) }),
      "{\"leg\":{\"kind\":\"limit\",\"price\":\"2\"},\"label\":{\"price\":\"3\"}}"
    )
  })

  it("a recursive schema ignores what its records inherit, at every level", () => {
    interface Category {
      readonly name: string
      readonly note?: string
      readonly children: ReadonlyArray<Category>
    }
    const Category: Schema.Codec<Category> = Schema.Struct({
      name: Schema.String,
      note: Schema.optionalKey(Schema.String),
      children: Schema.Array(Schema.suspend((): Schema.Codec<Category> => Category))
    })
    const input = {
      name: "a",
      children: [{ name: "b", children: [inheriting({ note: "n" }, { name: "c", children: [] })] }]
    }
    assert.strictEqual(
      sent(Category, input),
      "{\"name\":\"a\",\"children\":[{\"name\":\"b\",\"children\":[{\"name\":\"c\",\"children\":[]}]}]}"
    )
  })

  it("records reached only through a recursion ignore what they inherit", () => {
    type Nested = { readonly price: string; readonly note?: string } | ReadonlyArray<Nested>
    const Nested: Schema.Codec<Nested> = Schema.Union([
      Schema.Array(Schema.suspend((): Schema.Codec<Nested> => Nested)),
      Leg()
    ])
    assert.strictEqual(sent(Nested, [[inheriting({ note: "n" }, { price: "1" })]]), "[[{\"price\":\"1\"}]]")
  })

  it("a schema holding no record with fields has no view, recursive ones included", () => {
    type Strings = string | ReadonlyArray<Strings>
    const Strings: Schema.Codec<Strings> = Schema.Union([
      Schema.String,
      Schema.Array(Schema.suspend((): Schema.Codec<Strings> => Strings))
    ])
    for (
      const schema of [
        Schema.String,
        Schema.Array(Schema.String),
        Schema.Record(Schema.String, Schema.String),
        Schema.Struct({}),
        Strings
      ]
    ) {
      assert.isUndefined(ownProperties(schema))
    }
    assert.strictEqual(sent(Strings, ["a", ["b", ["c"]]]), "[\"a\",[\"b\",[\"c\"]]]")
  })
})

describe("failures", () => {
  it("an input of the wrong shape, at any depth, is Schema's failure, never a throw", () => {
    const Request = Schema.Struct({
      order: Schema.Struct({ price: Schema.String, note: Schema.optionalKey(Schema.String) }),
      legs: Schema.optionalKey(
        Schema.Array(Schema.Struct({ price: Schema.String, note: Schema.optionalKey(Schema.String) }))
      )
    })
    const arrayLike = { length: 1, 0: inheriting({ note: "n" }, { price: "1" }) }
    for (const input of ["a request", 5, null, [], { order: "1" }, { order: { price: "1" }, legs: arrayLike }]) {
      const answer = encoder(Request)(input)
      assert.isTrue(Result.isFailure(answer), JSON.stringify(input))
    }
  })

  it("a failure reports every issue, not the first alone", () => {
    const Request = Schema.Struct({ symbol: Schema.String, size: Schema.String })
    const answer = sent(Request, { symbol: 1, size: 2 })
    assert.include(answer, "[\"symbol\"]")
    assert.include(answer, "[\"size\"]")
  })
})

describe("the compiled encoder", () => {
  it("never runs a schema's own fast decoder, which decodes", () => {
    // a fast decoder that upper-cases, where Schema's decoding and encoding hand the text back as it is
    const Name = withFastDecode(
      Schema.declare((input: unknown): input is string => typeof input === "string"),
      leaf((input) => (typeof input === "string" ? input.toUpperCase() : bail))
    )
    const Request = Schema.Struct({ name: Name })
    assert.strictEqual(sent(Request, { name: "abc" }), "{\"name\":\"abc\"}")
    const fast = compiledEncoder(Request)
    assert.notStrictEqual(fast?.({ name: "abc" }), undefined)
    assert.deepStrictEqual(fast?.({ name: "abc" }), { name: "abc" })
  })
})
