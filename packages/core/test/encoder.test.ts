/**
 * Property tests of the request encoders (`internal/encoder.ts`), for the
 * request schema of every endpoint core exports (the list walked from its
 * descriptors; each has an entry in `requests`) and the building blocks of
 * requests:
 *
 * - the compiled encoder, with structs generated (as on Node) and
 *   interpreted (as where code cannot be generated), gives exactly the value
 *   Schema's encoder gives (the same keys, in the same order), and gives up
 *   exactly where Schema's encoder fails, on typed values, valid requests,
 *   values with a field replaced by an odd one, dropped or inherited, and
 *   unknown fields;
 * - valid requests take the fast path;
 * - `encoder` answers every input as Schema's encoder answers its own
 *   properties (errors "all");
 * - a request is what its own properties say: with extra inherited
 *   properties (values for its fields and others, at any depth) it encodes
 *   exactly as its own-properties copy, through `encoder`, the compiled
 *   encoder and Schema's (each handed `ownProperties`' view).
 *
 * Seeded (`PROPERTY_SEED` overrides the seed, `PROPERTY_RUNS` the run count).
 */
import { assert, describe, it } from "@effect/vitest"
import { Arbitrary, BigDecimal, DateTime, Result, Schema, SchemaAST } from "effect"
import * as BatchCancel from "../src/BatchCancel.js"
import * as FuturesHistory from "../src/FuturesHistory.js"
import { compiledEncoder, encoder, ownProperties } from "../src/internal/encoder.js"
import { bail } from "../src/internal/fastDecode.js"
import * as PositionTpsl from "../src/PositionTpsl.js"
import * as RpiOrderBook from "../src/RpiOrderBook.js"
import * as Schemas from "../src/Schemas.js"
import { constantFrom, integer, nat, oneOf } from "./arbitraries.js"
import { brief, keyOrder } from "./compare.js"
import type { ByEndpoint } from "./descriptors.js"
import { covered } from "./descriptors.js"
import { day } from "./support.js"

const seed = Number(process.env.PROPERTY_SEED ?? 20_251_125)
const runs = Number(process.env.PROPERTY_RUNS ?? 300)

/** The options of one property: a generous timeout, the fixed seed, a run count and bounded shrinking. */
const params = (count = runs) => ({ timeout: 60_000, arbitrary: { seed, runs: count, maxShrinks: 200 } })

// ---------------------------------------------------------------------------
// Generators
// ---------------------------------------------------------------------------

/** The largest distance from 1970 a `DateTime` holds, in milliseconds. */
const maxMillis = 8.64e15

/** Values a caller may pass by mistake, or on purpose, in place of a field (or of the whole request). */
const oddValues: ReadonlyArray<unknown> = [
  null,
  undefined,
  0,
  -0,
  1,
  -1,
  1.5,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  1e21,
  2 ** 53 + 2,
  "",
  " ",
  "  BTCUSDT  ",
  "\u0000",
  "a\r\nb",
  "\uD800",
  "x".repeat(64),
  ` ${"x".repeat(64)} `,
  "x".repeat(65),
  "0",
  "-1",
  "1e5",
  "00012",
  "9".repeat(31),
  "abc#+_-",
  "a".repeat(50),
  "__proto__",
  "usdt-futures",
  "USDT-FUTURES",
  "SPOT",
  "single",
  "buy",
  true,
  10n,
  Symbol("s"),
  () => 1,
  {},
  [],
  [{}],
  { symbol: "BTCUSDT" },
  Object.create(null),
  new Date(0),
  BigDecimal.fromStringUnsafe("0"),
  BigDecimal.fromStringUnsafe("-5"),
  BigDecimal.fromStringUnsafe("5"),
  BigDecimal.fromStringUnsafe("0.0000000000000000001"),
  BigDecimal.fromStringUnsafe("0.000000000000000001"),
  BigDecimal.fromStringUnsafe("1e24"),
  BigDecimal.fromStringUnsafe("1e23"),
  BigDecimal.fromStringUnsafe("1e5000"),
  BigDecimal.make(12_345n, -3),
  DateTime.makeUnsafe(0),
  DateTime.makeUnsafe(-1),
  DateTime.makeUnsafe(maxMillis),
  DateTime.makeUnsafe(1_700_000_000_000),
  DateTime.makeZonedUnsafe(1_700_000_000_000, { timeZone: "Europe/Paris" }),
  { epochMilliseconds: 5 }
]

const oddValue: Arbitrary.Arbitrary<unknown> = constantFrom(oddValues)

/** Keys with a meaning to JavaScript or to Effect, and random ones. */
const extraKey = oneOf(
  constantFrom(["__proto__", "constructor", "toString", "_tag", "valueOf", "symbol", "orderList"]),
  Arbitrary.schema(Schema.String.check(Schema.isMaxLength(8)))
)

/** Literal choices for a closed enum field (Schema's arbitrary would rarely hit a member), with near misses. */
const closedChoices = (literals: ReadonlyArray<string>): ReadonlyArray<string> => [
  ...literals,
  ...literals.map((literal) => literal.toLowerCase()),
  "",
  " SPOT",
  "bogus"
]

/**
 * Text fields: names and near misses, or short random text (Schema's
 * arbitrary of a text check other than a pattern draws text ever longer and
 * discards it; short random text starts empty).
 */
const shortText = Schema.Union([
  Schema.Literals([
    "BTCUSDT",
    " ETHUSDT ",
    "USDT",
    "x".repeat(64),
    ` ${"x".repeat(64)}`,
    "x".repeat(65),
    " ",
    "\u0085"
  ]),
  Schema.String.check(Schema.isMaxLength(70))
])

/** What the fields of the requests are drawn from, by name, where their own arbitrary would not do. */
const drawn: { readonly [name: string]: Schema.Top } = {
  productType: Schema.Literals(closedChoices(FuturesHistory.productTypes)),
  orderSource: Schema.Literals(closedChoices(FuturesHistory.orderSourceFilters)),
  category: Schema.Literals(closedChoices(RpiOrderBook.rpiCategories)),
  symbol: shortText,
  marginCoin: shortText,
  coin: shortText,
  advNo: shortText,
  fiat: shortText,
  orderNo: shortText
}

/**
 * Typed values of a request's fields: the type side of its struct, without
 * the checks of the whole request (windows, batch rules), closed enums drawn
 * from their literals and near misses, text fields from short text.
 */
const fieldsOf = (schema: Schema.Top): Arbitrary.Arbitrary<unknown> => {
  const type = SchemaAST.toType(schema.ast)
  if (!SchemaAST.isObjects(type)) throw new Error("a request is a struct")
  const fields = type.propertySignatures.map((ps) => {
    const field = drawn[String(ps.name)]
    if (field === undefined) return ps
    return new SchemaAST.PropertySignature(
      ps.name,
      SchemaAST.isOptional(ps.type) ? Schema.optionalKey(field).ast : field.ast
    )
  })
  return Arbitrary.schema(Schema.make<Schema.Top>(new SchemaAST.Objects(fields, [])))
}

/** An object with fields (the arbitrary also draws objects without a prototype). */
const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

/** A plain object (of `Object.prototype` or none): one whose fields a mutation may change. */
const isPlain = (value: unknown): value is Record<string, unknown> =>
  isRecord(value) && [Object.prototype, null].includes(Object.getPrototypeOf(value))

/** A window of `span` milliseconds from `startTime`, within what a `DateTime` holds, where both ends are given. */
const withinWindow = ([value, span]: readonly [unknown, number]): unknown => {
  if (!isRecord(value)) return value
  const { endTime, startTime } = value
  if (!DateTime.isDateTime(startTime) || !DateTime.isDateTime(endTime)) return value
  const start = Math.min(DateTime.toEpochMillis(startTime), maxMillis - span)
  return { ...value, startTime: DateTime.makeUnsafe(start), endTime: DateTime.makeUnsafe(start + span) }
}

/** The longest window, in days, of an endpoint whose descriptor states none. */
const defaultWindowDays = 30

/**
 * Typed requests whose time window, when both ends are given, spans 0 to one
 * day past `windowDays`: the windows the requests accept, and those just past
 * the limit that both paths refuse.
 */
const windowed = (schema: Schema.Top, windowDays: number) =>
  Arbitrary.map(Arbitrary.all([fieldsOf(schema), integer(0, (windowDays + 1) * day)]), withinWindow)

/** Valid batches: 1 to 50 distinct orders named the same way, in single or multiple mode. */
const batches: Arbitrary.Arbitrary<unknown> = Arbitrary.map(
  Arbitrary.all({
    count: integer(1, BatchCancel.maxOrders),
    byId: constantFrom([true, false]),
    mode: constantFrom([undefined, "single", "multiple"] as const),
    base: nat,
    symbol: constantFrom(["BTCUSDT", " ETHUSDT ", "x".repeat(64)])
  }),
  ({ base, byId, count, mode, symbol }) => {
    const orderList = Array.from({ length: count }, (_, i) => {
      const name = byId ? { orderId: String(base + i) } : { clientOid: `c-${base + i}` }
      return mode === "multiple" ? { symbol: i % 2 === 0 ? symbol : "SOLUSDT", ...name } : name
    })
    return mode === "multiple"
      ? { batchMode: mode, orderList }
      : { symbol, ...(mode === undefined ? {} : { batchMode: mode }), orderList }
  }
)

// ---------------------------------------------------------------------------
// Mutations of a typed value
// ---------------------------------------------------------------------------

type Mutation =
  | { readonly _tag: "Replace"; readonly at: number; readonly value: unknown }
  | { readonly _tag: "Drop"; readonly at: number }
  | { readonly _tag: "AddField"; readonly key: string; readonly value: unknown }
  | { readonly _tag: "Inherit" }

const mutation: Arbitrary.Arbitrary<Mutation> = oneOf<Mutation>(
  Arbitrary.all({ _tag: Arbitrary.Constant("Replace"), at: nat, value: oddValue }),
  Arbitrary.all({ _tag: Arbitrary.Constant("Drop"), at: nat }),
  Arbitrary.all({ _tag: Arbitrary.Constant("AddField"), key: extraKey, value: oddValue }),
  Arbitrary.all({ _tag: Arbitrary.Constant("Inherit") })
)

/** A copy of the plain objects and arrays of a value (decimals and instants are shared: they are immutable). */
const copy = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.map(copy)
    : isPlain(value)
    ? Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, copy(inner)]))
    : value

/** Every place in a copied value: the container and key of each field or element of its plain objects and arrays. */
const places = (root: unknown): ReadonlyArray<readonly [Record<string, unknown> | Array<unknown>, string | number]> => {
  const out: Array<readonly [Record<string, unknown> | Array<unknown>, string | number]> = []
  const stack: Array<unknown> = [root]
  while (stack.length > 0) {
    const node = stack.pop()
    if (Array.isArray(node)) {
      node.forEach((child, index) => {
        out.push([node, index])
        stack.push(child)
      })
    } else if (isPlain(node)) {
      for (const key of Object.keys(node)) {
        out.push([node, key])
        stack.push(node[key])
      }
    }
  }
  return out
}

/** Applies a mutation to a copy of a value (the root itself is replaced when it has no place to change). */
const mutate = (value: unknown, m: Mutation): unknown => {
  const root = copy(value)
  if (m._tag === "Inherit") return isRecord(root) ? Object.create(root) : root
  if (m._tag === "AddField") {
    if (isPlain(root)) {
      Object.defineProperty(root, m.key, { value: m.value, enumerable: true, writable: true, configurable: true })
    }
    return root
  }
  const all = places(root)
  const place = all[m.at % (all.length + 1)]
  if (place === undefined) return m._tag === "Replace" ? m.value : root
  const [container, key] = place
  if (m._tag === "Replace") Reflect.set(container, key, m.value)
  else if (Array.isArray(container)) container.splice(Number(key), 1)
  else delete container[key]
  return root
}

// ---------------------------------------------------------------------------
// The checks
// ---------------------------------------------------------------------------

/**
 * Holds the compiled encoder (structs generated and interpreted) and
 * `encoder` to Schema's encoder on one input: the same value, with the same
 * key order, or a give-up (for `encoder`, Schema's failure) exactly where
 * Schema fails. `expectValid` also requires the input to be one Schema
 * encodes.
 */
const agrees = <A, I>(schema: Schema.Codec<A, I>, input: unknown, expectValid = false) => {
  const what = () => brief(input)
  const slow = Schema.encodeUnknownResult(schema, { errors: "all" })(input)
  if (expectValid && Result.isFailure(slow)) assert.fail(`not a valid request: ${slow.failure.message}; ${what()}`)
  for (const generates of [true, false]) {
    const how = () => `${what()} (structs ${generates ? "generated" : "interpreted"})`
    const fast = compiledEncoder(schema, generates)
    if (fast === undefined) return assert.fail("the schema has no compiled encoder")
    const value = fast(input)
    if (Result.isFailure(slow)) {
      assert.strictEqual(value, bail, `the compiled encoder accepted what Schema refuses: ${how()}`)
      continue
    }
    if (value === bail) return assert.fail(`the compiled encoder gave up on what Schema encodes: ${how()}`)
    assert.deepStrictEqual(value, slow.success, how())
    assert.isUndefined(keyOrder(value, slow.success), how())
  }
  // the client reads what the input owns (an `Inherit` mutation owns nothing)
  const own = Schema.encodeUnknownResult(schema, { errors: "all" })(ownView(schema)(input))
  assertSameAnswer(encoder(schema)(input), own, what)
}

/** The own-properties view of a schema's values (the value itself where there is none). */
const ownView = (schema: Schema.Top): (input: unknown) => unknown => ownProperties(schema) ?? ((input) => input)

/** Asserts two answers of encoders are the same: the same value with the same key order, or the same failure. */
const assertSameAnswer = (
  answer: Result.Result<unknown, Schema.SchemaError>,
  expected: Result.Result<unknown, Schema.SchemaError>,
  what: () => string
) => {
  if (Result.isFailure(expected)) {
    return assert.strictEqual(
      Result.isFailure(answer) ? answer.failure.message : "a value",
      expected.failure.message,
      what()
    )
  }
  assert.deepStrictEqual(answer, expected, what())
  if (Result.isSuccess(answer)) assert.isUndefined(keyOrder(answer.success, expected.success), what())
}

// ---------------------------------------------------------------------------
// Inherited properties
// ---------------------------------------------------------------------------

/** Every field name a schema's records declare, at any depth (its arrays' elements included). */
const declaredNames = (ast: SchemaAST.AST): ReadonlyArray<string> => {
  const type = SchemaAST.toType(ast)
  if (SchemaAST.isObjects(type)) {
    return type.propertySignatures.flatMap((ps) => [String(ps.name), ...declaredNames(ps.type)])
  }
  if (SchemaAST.isArrays(type)) return [...type.elements, ...type.rest].flatMap(declaredNames)
  return SchemaAST.isUnion(type) ? type.types.flatMap(declaredNames) : []
}

/**
 * What each record of a request inherits: declared names (at any depth) and
 * others, with values a field may take (decimals, instants, names) or odd ones.
 */
const inheritance = (schema: Schema.Top): Arbitrary.Arbitrary<Record<string, unknown>> => {
  const names = [...new Set(declaredNames(schema.ast))]
  const key = names.length === 0 ? extraKey : oneOf(constantFrom(names), constantFrom(names), extraKey)
  return Arbitrary.map(
    Arbitrary.array(Arbitrary.all([key, oddValue]), { minLength: 1, maxLength: 6 }),
    (entries) => Object.fromEntries(entries)
  )
}

/** A copy of a value whose every plain record (at any depth) inherits the properties of `inherited`. */
const inheriting = (value: unknown, inherited: Record<string, unknown>): unknown => {
  if (Array.isArray(value)) return value.map((item) => inheriting(item, inherited))
  if (!isPlain(value)) return value
  const own = Object.fromEntries(Object.entries(value).map(([key, item]) => [key, inheriting(item, inherited)]))
  return Object.defineProperties(Object.create({ ...inherited }), Object.getOwnPropertyDescriptors(own))
}

/**
 * An encoder's answer as a request carries it: the JSON of its value (own
 * properties, in order; an empty struct's encoder hands its input back, with
 * whatever it inherits), or that it gave up, or its failure.
 */
const asSent = (answer: unknown): string => {
  if (answer === bail) return "gave up"
  if (!Result.isResult(answer)) return brief(answer, Infinity)
  return Result.isSuccess(answer) ? brief(answer.success, Infinity) : `failed: ${(answer.failure as Error).message}`
}

/**
 * Holds a request with inherited properties to its own-properties copy:
 * `encoder`, and the compiled encoder (structs generated and interpreted) and
 * Schema's, both handed the own-properties view, answer both alike.
 */
const ignoresInherited = <A, I>(schema: Schema.Codec<A, I>, value: unknown, inherited: Record<string, unknown>) => {
  const input = inheriting(value, inherited)
  const owned = copy(value)
  const what = `${brief(owned)} inheriting ${brief(inherited)}`
  const view = ownView(schema)
  const slow = Schema.encodeUnknownResult(schema, { errors: "all" })
  assert.strictEqual(asSent(encoder(schema)(input)), asSent(encoder(schema)(owned)), `encoder: ${what}`)
  assert.strictEqual(asSent(slow(view(input))), asSent(slow(owned)), `Schema's encoder: ${what}`)
  for (const generates of [true, false]) {
    const fast = compiledEncoder(schema, generates)
    if (fast === undefined) return assert.fail("the schema has no compiled encoder")
    assert.strictEqual(asSent(fast(view(input))), asSent(fast(owned)), `compiled encoder (${generates}): ${what}`)
  }
}

/** Registers the properties of one request schema, with its valid requests. */
const requestProperties = <A, I>(
  name: string,
  schema: Schema.Codec<A, I>,
  typed: Arbitrary.Arbitrary<unknown>,
  valid: Arbitrary.Arbitrary<unknown>
) =>
  describe(name, () => {
    it.prop("valid requests take the fast path, to Schema's value", [valid], ([value]) => {
      agrees(schema, value, true)
    }, params())

    it.prop("typed values encode as Schema encodes them, or fail where it fails", [typed], ([value]) => {
      agrees(schema, value)
    }, params())

    it.prop("a mutated valid request encodes as Schema encodes it, or fails where it fails", [
      valid,
      mutation
    ], ([value, m]) => {
      agrees(schema, mutate(value, m))
    }, params())

    it.prop("a mutated typed value encodes as Schema encodes it, or fails where it fails", [
      typed,
      mutation
    ], ([value, m]) => {
      agrees(schema, mutate(value, m))
    }, params())

    it.prop("a valid request with inherited properties encodes as its own-properties copy, in both encoders", [
      valid,
      inheritance(schema)
    ], ([value, inherited]) => {
      ignoresInherited(schema, value, inherited)
    }, params())

    it.prop("a typed value with inherited properties encodes as its own-properties copy, in both encoders", [
      typed,
      inheritance(schema)
    ], ([value, inherited]) => {
      ignoresInherited(schema, value, inherited)
    }, params())
  })

const identity = <A>(value: A): A => value

/**
 * The valid requests of an operation: typed values in a window of up to
 * about `windowDays`, completed by `complete` where a request needs more,
 * that Schema accepts.
 */
const validOf = <A, I>(
  schema: Schema.Codec<A, I>,
  windowDays: number,
  complete: (value: unknown) => unknown = identity
) => {
  const isValid = Schema.is(Schema.toType(schema))
  return Arbitrary.filter(Arbitrary.map(windowed(schema, windowDays), complete), (value) => isValid(value))
}

/** A stop-loss trigger where a request has neither trigger (a position TP/SL needs one). */
const withTrigger = (value: unknown): unknown =>
  isRecord(value) && value.stopSurplusTriggerPrice === undefined && value.stopLossTriggerPrice === undefined
    ? { ...value, stopLossTriggerPrice: BigDecimal.fromStringUnsafe("25000.5") }
    : value

/**
 * What an endpoint's requests need beyond typed values in a window: what
 * completes a valid one, or generators of their own (typed values and valid
 * requests).
 */
type Requests =
  | { readonly complete?: (value: unknown) => unknown }
  | { readonly typed: Arbitrary.Arbitrary<unknown>; readonly valid: Arbitrary.Arbitrary<unknown> }

/** The requests of each endpoint, by name; an endpoint core exports and this table lacks fails the suite. */
const requests: ByEndpoint<Requests> = {
  "public.time": {},
  "spot.batchCancelOrders": { typed: fieldsOf(BatchCancel.endpoint.request), valid: batches },
  "spot.symbols": {},
  "spot.fundNetFlow": {},
  "market.rpiOrderBook": {},
  "mix.placePositionTpsl": { complete: withTrigger },
  "mix.ordersHistory": {},
  "p2p.orderList": {},
  "common.allTradeRate": {},
  "tax.spotRecords": {},
  "account.openInterestLimit": {}
}

describe("request encoders", () => {
  for (const [{ bounds, name, request }, entry] of covered(requests)) {
    const windowDays = bounds?.windowDays ?? defaultWindowDays
    if ("valid" in entry) requestProperties(name, request, entry.typed, entry.valid)
    else requestProperties(name, request, windowed(request, windowDays), validOf(request, windowDays, entry.complete))
  }

  it("a request made invalid by a check of the whole request is Schema's failure, with every issue", () => {
    const input = {
      symbol: "BTCUSDT",
      orderList: [{ orderId: "1" }, { orderId: "1" }, { orderId: "01" }]
    }
    const answer = encoder(BatchCancel.BatchCancelRequest)(input)
    const slow = Schema.encodeUnknownResult(BatchCancel.BatchCancelRequest, { errors: "all" })(input)
    assert.isTrue(Result.isFailure(answer) && Result.isFailure(slow))
    if (Result.isFailure(answer) && Result.isFailure(slow)) {
      assert.strictEqual(answer.failure.message, slow.failure.message)
      assert.strictEqual(answer.failure.message.split("the batch names the same order twice").length, 3)
    }
  })
})

// ---------------------------------------------------------------------------
// Building blocks
// ---------------------------------------------------------------------------

/** Typed values of the building blocks, near their bounds. */
const decimals = Arbitrary.map(
  Arbitrary.all([integer(-(2 ** 31), 2 ** 31), integer(-30, 30)]),
  ([value, scale]) => BigDecimal.make(BigInt(value) * 10n ** 12n, scale)
)
const instants = Arbitrary.map(integer(-day * 365, day * 365 * 200), (millis) => DateTime.makeUnsafe(millis))
const texts = Arbitrary.schema(Schema.String.check(Schema.isMaxLength(70)))

/** The property of one building block: typed values and odd ones encode as Schema encodes them. */
const block = <A, I>(name: string, schema: Schema.Codec<A, I>, typed: Arbitrary.Arbitrary<unknown>) =>
  it.prop(`${name}: encodes as Schema encodes, or fails where it fails`, [oneOf(typed, oddValue)], ([value]) => {
    agrees(schema, value)
  }, params())

describe("building blocks", () => {
  block("Decimal", Schemas.Decimal, decimals)
  block("RequestDecimal", Schemas.RequestDecimal, decimals)
  block("PositiveDecimal", Schemas.PositiveDecimal, decimals)
  block("NonNegativeDecimal", Schemas.NonNegativeDecimal, decimals)
  block("Timestamp", Schemas.Timestamp, instants)
  block("QueryTimestamp", Schemas.QueryTimestamp, instants)
  block("IntString", Schemas.IntString(1, 500), integer(-10, 600))
  block("NonBlank", Schemas.NonBlank, texts)
  block("NumericId", Schemas.NumericId, Arbitrary.map(nat, String))
  block("ClientOid", Schemas.ClientOid, texts)
  block(
    "OpenEnum",
    Schemas.OpenEnum(["a", "B"]),
    constantFrom<unknown>(["a", "B", new Schemas.Unrecognized({ value: "c" })])
  )
  block("ClosedEnum", FuturesHistory.ProductType, constantFrom(closedChoices(FuturesHistory.productTypes)))
  block("ProductType (spellings)", PositionTpsl.ProductType, constantFrom(closedChoices(FuturesHistory.productTypes)))
})
