/**
 * Property tests of the response schema of every endpoint core exports (the
 * list walked from its descriptors), with values generated from the schemas
 * themselves (`Arbitrary.schema`):
 *
 * - every typed value round-trips through its wire form (encode, JSON, decode);
 * - a decoder given arbitrary JSON, or a valid answer mutated (a field
 *   dropped, replaced by random JSON, nested 100k deep, a huge decimal, …),
 *   answers a value or a typed `SchemaError` and never throws, and the error
 *   can be described (as the client does for `BitgetDecodeError`) without
 *   throwing;
 * - unknown fields never break decoding of a valid answer;
 * - enum values the library does not know decode as `Unrecognized`, kept verbatim.
 *
 * Seeded (`PROPERTY_SEED` overrides the seed, `PROPERTY_RUNS` the run count).
 */
import { assert, describe, it } from "@effect/vitest"
import { Arbitrary, BigDecimal, DateTime, Effect, Option, Predicate, Result, Schema } from "effect"
import { describeParseError } from "../src/client/envelope.js"
import * as FuturesHistory from "../src/FuturesHistory.js"
import { compiled, unregistered } from "../src/internal/decoder.js"
import { bail } from "../src/internal/fastDecode.js"
import * as P2pOrders from "../src/P2pOrders.js"
import { Unrecognized } from "../src/Schemas.js"
import * as Symbols from "../src/Symbols.js"
import * as TaxRecords from "../src/TaxRecords.js"
import { arrayOf, checkCounting, constantFrom, integer, nat, oneOf } from "./arbitraries.js"
import { brief, keyOrder } from "./compare.js"
import { descriptors } from "./descriptors.js"

const seed = Number(process.env.PROPERTY_SEED ?? 20_250_611)
const runs = Number(process.env.PROPERTY_RUNS ?? 300)

/** Test timeout of one property (ms): generous, since a failing property shrinks. */
const timeout = 60_000

/**
 * The options of one property: its timeout, the fixed seed, a run count, and a
 * bound on shrinking (a number of candidates, as `Arbitrary.checkEffect` counts it).
 */
const params = (count = runs) => ({ timeout, arbitrary: { seed, runs: count, maxShrinks: 200 } })

// ---------------------------------------------------------------------------
// Generators
// ---------------------------------------------------------------------------

/**
 * Strings of up to `maxLength` characters: half of them the schema's own (printable ASCII and well-known
 * troublemakers, `__proto__`, lone surrogates, …, which stop at 10 characters), half printable ASCII of a length
 * drawn up to `maxLength`.
 */
const string = (maxLength: number): Arbitrary.Arbitrary<string> => {
  const ofLength = Array.from(
    { length: maxLength + 1 },
    (_, length) => Arbitrary.schema(Schema.String.check(Schema.isBetweenLength(length, length)))
  )
  return oneOf(
    Arbitrary.schema(Schema.String.check(Schema.isMaxLength(maxLength))),
    Arbitrary.flatMap(integer(0, maxLength), (length) => ofLength[length] as Arbitrary.Arbitrary<string>)
  )
}

/** Strings of up to `maxLength` code points, any of them, lone surrogates included (fast-check's `unit: "binary"`). */
const binaryString = (maxLength: number): Arbitrary.Arbitrary<string> =>
  Arbitrary.map(arrayOf(integer(0, 0x10FFFF), 0, maxLength), (codePoints) => String.fromCodePoint(...codePoints))

// ---------------------------------------------------------------------------
// JSON helpers
// ---------------------------------------------------------------------------

type Json = null | boolean | number | string | ReadonlyArray<Json> | { readonly [key: string]: Json }

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

/** A deep copy through JSON, as the value would reach the client over the wire. */
const wire = (value: unknown): unknown => JSON.parse(JSON.stringify(value))

/** Sets an own, enumerable property as `JSON.parse` would (so `__proto__` is a plain key). */
const define = (target: Record<string, unknown>, key: string, value: unknown) =>
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true })

/** A place in a JSON value: the container and the key of a child (the root has no container). */
type Location = { readonly _tag: "Root" } | {
  readonly _tag: "Child"
  readonly container: Record<string, unknown> | Array<unknown>
  readonly key: string | number
}

/** Every place in a value, root first, in document order. */
const locations = (root: unknown): ReadonlyArray<Location> => {
  const out: Array<Location> = [{ _tag: "Root" }]
  const stack: Array<unknown> = [root]
  while (stack.length > 0) {
    const node = stack.pop()
    if (Array.isArray(node)) {
      node.forEach((child, key) => {
        out.push({ _tag: "Child", container: node, key })
        stack.push(child)
      })
    } else if (isObject(node)) {
      for (const key of Object.keys(node)) {
        out.push({ _tag: "Child", container: node, key })
        stack.push(node[key])
      }
    }
  }
  return out
}

/** Every object in a value. */
const objectsIn = (root: unknown): ReadonlyArray<Record<string, unknown>> => {
  const out: Array<Record<string, unknown>> = []
  const stack: Array<unknown> = [root]
  while (stack.length > 0) {
    const node = stack.pop()
    if (Array.isArray(node)) stack.push(...node)
    else if (isObject(node)) {
      out.push(node)
      stack.push(...Object.values(node))
    }
  }
  return out
}

/** An array (or object) nested `depth` levels deep, built without recursion. */
const deepNest = (depth: number, shape: "array" | "object"): unknown => {
  let value: unknown = shape === "array" ? [] : {}
  for (let i = 0; i < depth; i++) value = shape === "array" ? [value] : { a: value }
  return value
}

const thrown = (error: unknown): string =>
  error instanceof Error ? `${error.name}: ${error.message.slice(0, 300)}` : brief(error)

// ---------------------------------------------------------------------------
// Mutations of a valid encoded answer
// ---------------------------------------------------------------------------

/** Decimal and number spellings a hostile or buggy server may send. */
const oddDecimals: ReadonlyArray<Json> = [
  "1e999999999",
  "-1e999999999",
  "1e-999999999",
  "1E+999999999",
  "9".repeat(5_000),
  `0.${"0".repeat(5_000)}1`,
  "Infinity",
  "-Infinity",
  "NaN",
  "-0",
  "0x1F",
  "1_000",
  " 12.5 ",
  "1e5",
  ".5",
  "5.",
  "+5",
  "--5",
  "١٢٣",
  "\uD800",
  "",
  " ",
  1e308,
  -1e-308,
  2 ** 53 + 2,
  -0,
  0.1,
  123
]

type Mutation =
  | { readonly _tag: "Drop"; readonly at: number }
  | { readonly _tag: "Replace"; readonly at: number; readonly value: Json }
  | { readonly _tag: "Deep"; readonly at: number; readonly depth: number; readonly shape: "array" | "object" }
  | { readonly _tag: "OddDecimal"; readonly at: number; readonly value: Json }
  | { readonly _tag: "LongString"; readonly at: number; readonly length: number }
  | { readonly _tag: "ToNumber"; readonly at: number }
  | { readonly _tag: "AddFields"; readonly fields: ReadonlyArray<readonly [string, Json]> }

/** Keys with a meaning to JavaScript or to Effect, and random ones. */
const hostileKey = oneOf(
  constantFrom(["__proto__", "constructor", "prototype", "toString", "hasOwnProperty", "_tag", "_id", "valueOf"]),
  string(12),
  binaryString(12)
)

/** Any JSON value (null, finite numbers, booleans, strings, arrays and objects, a few levels deep). */
const jsonValue: Arbitrary.Arbitrary<Json> = Arbitrary.schema(Schema.Json)

/** One to four unknown fields. */
const extraFields = Arbitrary.array(Arbitrary.all([hostileKey, jsonValue]), { minLength: 1, maxLength: 4 })

/** A field (or the whole answer) replaced by an array or object nested 100 to 100k levels deep. */
const deepMutation: Arbitrary.Arbitrary<Mutation> = Arbitrary.all({
  _tag: Arbitrary.Constant("Deep"),
  at: nat,
  depth: constantFrom([100, 10_000, 100_000]),
  shape: constantFrom(["array", "object"] as const)
})

/** Every other mutation. */
const mutation: Arbitrary.Arbitrary<Mutation> = oneOf<Mutation>(
  Arbitrary.all({ _tag: Arbitrary.Constant("Drop"), at: nat }),
  Arbitrary.all({ _tag: Arbitrary.Constant("Replace"), at: nat, value: jsonValue }),
  Arbitrary.all({ _tag: Arbitrary.Constant("OddDecimal"), at: nat, value: constantFrom(oddDecimals) }),
  Arbitrary.all({ _tag: Arbitrary.Constant("LongString"), at: nat, length: constantFrom([10_000, 100_000]) }),
  Arbitrary.all({ _tag: Arbitrary.Constant("ToNumber"), at: nat }),
  Arbitrary.all({ _tag: Arbitrary.Constant("AddFields"), fields: extraFields })
)

/** Describes a mutation without quoting large payloads. */
const describeMutation = (m: Mutation): string => {
  switch (m._tag) {
    case "Deep":
      return `Deep(${m.shape} x${m.depth} at #${m.at})`
    case "LongString":
      return `LongString(${m.length} at #${m.at})`
    default:
      return brief(m, 200)
  }
}

/** Applies a mutation to a copy of an encoded value. */
const mutate = (encoded: unknown, m: Mutation): unknown => {
  const root = { value: wire(encoded) }
  if (m._tag === "AddFields") {
    const targets = objectsIn(root.value)
    targets.forEach((target, index) => {
      const [key, value] = m.fields[index % m.fields.length] as readonly [string, Json]
      define(target, key, value)
    })
    return root.value
  }
  const all = locations(root.value)
  const location = all[m.at % all.length] as Location
  const current = location._tag === "Root" ? root.value : (location.container as Record<string, unknown>)[location.key]
  const replacement = ((): { readonly value: unknown } | "drop" => {
    switch (m._tag) {
      case "Drop":
        return "drop"
      case "Replace":
        return { value: m.value }
      case "Deep":
        return { value: deepNest(m.depth, m.shape) }
      case "OddDecimal":
        return { value: m.value }
      case "LongString":
        return { value: "7".repeat(m.length) }
      case "ToNumber":
        return { value: typeof current === "string" ? Number(current) : current }
    }
  })()
  if (location._tag === "Root") return replacement === "drop" ? undefined : replacement.value
  const { container, key } = location
  if (replacement === "drop") {
    if (Array.isArray(container)) container.splice(Number(key), 1)
    else delete container[key as string]
  } else if (Array.isArray(container)) {
    container[Number(key)] = replacement.value
  } else {
    define(container, key as string, replacement.value)
  }
  return root.value
}

/**
 * Where two decoded values differ (`undefined` when they are equal):
 * decimals compare by value, instants by time, options by content, class
 * instances by constructor and fields, and NaN equals itself (`"NaN"` is a
 * number the wire can carry).
 */
const difference = (a: unknown, b: unknown, path = "$"): string | undefined => {
  const show = (x: unknown) => brief(x, 80)
  const differs = () => `${path}: ${show(a)} vs ${show(b)}`
  if (a === b) return undefined
  if (typeof a === "number" && typeof b === "number") return Number.isNaN(a) && Number.isNaN(b) ? undefined : differs()
  if (BigDecimal.isBigDecimal(a) || BigDecimal.isBigDecimal(b)) {
    return BigDecimal.isBigDecimal(a) && BigDecimal.isBigDecimal(b) && BigDecimal.equals(a, b) ? undefined : differs()
  }
  if (DateTime.isDateTime(a) || DateTime.isDateTime(b)) {
    return DateTime.isDateTime(a) && DateTime.isDateTime(b) && DateTime.Equivalence(a, b) ? undefined : differs()
  }
  if (Option.isOption(a) || Option.isOption(b)) {
    if (!Option.isOption(a) || !Option.isOption(b) || a._tag !== b._tag) {
      return differs()
    }
    return Option.isSome(a) && Option.isSome(b) ? difference(a.value, b.value, `${path}.value`) : undefined
  }
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return differs()
    for (let i = 0; i < a.length; i++) {
      const found = difference(a[i], b[i], `${path}[${i}]`)
      if (found !== undefined) return found
    }
    return undefined
  }
  if (typeof a === "object" && a !== null && typeof b === "object" && b !== null) {
    if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return `${path}: not of the same class`
    const keys = Object.keys(a)
    if (keys.length !== Object.keys(b).length) return `${path}: keys differ`
    for (const key of keys) {
      const found = difference(Reflect.get(a, key), Reflect.get(b, key), `${path}.${key}`)
      if (found !== undefined) return found
    }
    return undefined
  }
  return differs()
}

// ---------------------------------------------------------------------------
// The checks
// ---------------------------------------------------------------------------

/**
 * Decodes untrusted input and asserts the decoder never throws: the answer is
 * a value or a `SchemaError`, and a `SchemaError` can be described, as the
 * client describes it in a `BitgetDecodeError`, without throwing. (Effect's
 * own `SchemaError.message` may overflow the stack on a 10k-deep value; the
 * client never shows it, so it is not checked here.)
 */
const decodeSafely = <A, I>(
  schema: Schema.Codec<A, I>,
  input: unknown,
  what: () => string
): Result.Result<A, Schema.SchemaError> => {
  let result: Result.Result<A, Schema.SchemaError>
  try {
    result = Schema.decodeUnknownResult(schema)(input)
  } catch (error) {
    return assert.fail(`the decoder threw on ${what()}: ${thrown(error)}`)
  }
  if (Result.isFailure(result)) {
    const error: unknown = result.failure
    assert.isTrue(Schema.isSchemaError(error), `the decoder failed without a SchemaError on ${what()}`)
    try {
      describeParseError(result.failure)
    } catch (error) {
      return assert.fail(`describing the SchemaError (BitgetDecodeError.issue) threw on ${what()}: ${thrown(error)}`)
    }
  }
  return result
}

/**
 * Holds the compiled fast decoder to Schema's own parser on one input (the
 * schema's unregistered copy, which Schema decodes alone): with its structs
 * generated (as on Node) and interpreted (as where code cannot be generated,
 * e.g. workerd), where it gives a value, Schema gives the same value, with
 * the same classes and key order; where Schema fails, it gives up. And
 * through Schema's entry point, where the endpoint installed it, the answer
 * is Schema's own: the same value, or a failure where Schema fails.
 * `expectFast` also requires it not to give up (a valid answer must take the
 * fast path).
 */
const agrees = <A, I>(schema: Schema.Codec<A, I>, input: unknown, what: () => string, expectFast = false) => {
  const slow = decodeSafely(unregistered(schema), input, what)
  const installed = decodeSafely(schema, input, () => `${what()} (through Schema, installed)`)
  assert.strictEqual(Result.isSuccess(installed), Result.isSuccess(slow), `installed and Schema differ on ${what()}`)
  if (Result.isSuccess(installed) && Result.isSuccess(slow)) {
    const found = difference(installed.success, slow.success) ?? keyOrder(installed.success, slow.success)
    assert.isUndefined(found, `through Schema, the installed decoder built a different value at ${found}; ${what()}`)
  }
  for (const generates of [true, false]) {
    const how = () => `${what()} (structs ${generates ? "generated" : "interpreted"})`
    const fast = compiled(schema, generates)
    if (fast === undefined) return assert.fail("the schema has no fast decoder")
    let value: unknown
    try {
      value = fast(input)
    } catch (error) {
      return assert.fail(`the fast decoder threw on ${how()}: ${thrown(error)}`)
    }
    if (value === bail) {
      if (expectFast) assert.fail(`the fast decoder gave up on a valid answer: ${how()}`)
      continue
    }
    if (Result.isFailure(slow)) return assert.fail(`the fast decoder accepted what Schema refuses: ${how()}`)
    const found = difference(value, slow.success) ?? keyOrder(value, slow.success)
    assert.isUndefined(found, `the fast decoder built a different value at ${found}; ${how()}`)
  }
}

/** Registers the properties of one response schema. */
const responseProperties = <A, I>(name: string, schema: Schema.Codec<A, I>) => {
  const arbitrary = Arbitrary.schema(schema)
  const encode = Schema.encodeSync(schema)

  describe(name, () => {
    it.prop("round-trips: decode(JSON(encode(a))) is a", [arbitrary], ([value]) => {
      const encoded = encode(value)
      const decoded = decodeSafely(schema, wire(encoded), () => brief(encoded))
      if (Result.isFailure(decoded)) {
        return assert.fail(`its own encoding did not decode: ${describeParseError(decoded.failure)}; ${brief(encoded)}`)
      }
      const found = difference(value, decoded.success)
      assert.isUndefined(found, `decoded value differs from the original at ${found}; wire ${brief(encoded)}`)
      assert.deepStrictEqual(wire(encode(decoded.success)), wire(encoded), "re-encoded form differs")
    }, params())

    it.prop("round-trips once normalised: what the wire carries decodes back to itself", [arbitrary], ([value]) => {
      const first = decodeSafely(schema, wire(encode(value)), () => brief(encode(value)))
      if (Result.isFailure(first)) return assert.fail(`its own encoding did not decode: ${brief(encode(value))}`)
      const encoded = encode(first.success)
      const again = decodeSafely(schema, wire(encoded), () => brief(encoded))
      if (Result.isFailure(again)) return assert.fail(`a decoded value did not round-trip: ${brief(encoded)}`)
      const found = difference(first.success, again.success)
      assert.isUndefined(found, `decoded value not stable at ${found}; wire ${brief(encoded)}`)
    }, params())

    it.prop("the fast decoder builds what Schema builds from a valid answer", [arbitrary], ([value]) => {
      const encoded = wire(encode(value))
      agrees(schema, encoded, () => brief(encoded), true)
    }, params())

    it.prop("the fast decoder agrees with Schema on a mutated answer", [arbitrary, mutation], ([value, m]) => {
      const mutated = mutate(encode(value), m)
      agrees(schema, mutated, () => `${describeMutation(m)} of ${brief(encode(value))}`)
    }, params())

    it.prop("the fast decoder agrees with Schema on arbitrary JSON", [jsonValue], ([input]) => {
      agrees(schema, input, () => brief(input))
    }, params())

    it.prop("never throws on arbitrary JSON", [jsonValue], ([input]) => {
      decodeSafely(schema, input, () => brief(input))
    }, params())

    it.prop("never throws on a mutated valid answer", [arbitrary, mutation], ([value, m]) => {
      const mutated = mutate(encode(value), m)
      decodeSafely(schema, mutated, () => `${describeMutation(m)} of ${brief(encode(value))}`)
    }, params())

    it.prop("never throws on a valid answer with a deeply nested value", [arbitrary, deepMutation], ([value, m]) => {
      const mutated = mutate(encode(value), m)
      decodeSafely(schema, mutated, () => `${describeMutation(m)} of ${brief(encode(value))}`)
    }, params(50))

    it.prop(
      "decodes a valid answer with unknown fields added everywhere as without them",
      [arbitrary, extraFields],
      ([value, fields]) => {
        const encoded = wire(encode(value))
        const extended = wire(encoded)
        objectsIn(extended).forEach((target, index) => {
          const [key, extra] = fields[index % fields.length] as readonly [string, Json]
          // an unknown field, never one the object already has (that would be a replacement)
          if (!Object.hasOwn(target, key)) define(target, key, extra)
        })
        const what = () => `${brief(extended)} (fields ${brief(fields, 120)})`
        const plain = decodeSafely(schema, encoded, () => brief(encoded))
        const decoded = decodeSafely(schema, extended, what)
        if (Result.isFailure(plain)) return assert.fail(`the valid answer did not decode: ${brief(encoded)}`)
        if (Result.isFailure(decoded)) {
          return assert.fail(`unknown fields broke decoding: ${describeParseError(decoded.failure)}; ${what()}`)
        }
        const found = difference(plain.success, decoded.success)
        assert.isUndefined(found, `unknown fields changed the value at ${found}: ${what()}`)
      },
      params()
    )
  })
}

// every endpoint's answer, the list taken from core's descriptors (a new endpoint is covered without an edit here)
for (const endpoint of descriptors) responseProperties(`${endpoint.name} (${endpoint.path})`, endpoint.response)

// ---------------------------------------------------------------------------
// Open enums: unknown values decode, kept visible as `Unrecognized`
// ---------------------------------------------------------------------------

/** Reads a path of a decoded value, looking through `Some`. */
const readPath = (value: unknown, path: ReadonlyArray<string | number>): unknown => {
  let current = value
  for (const key of path) {
    if (Option.isOption(current)) current = Option.getOrUndefined(current)
    if (current === null || typeof current !== "object") return undefined
    current = (current as Record<string | number, unknown>)[key]
  }
  return Option.isOption(current) ? Option.getOrElse(current, () => "<None>") : current
}

/** Sets a path of an encoded (plain JSON) value. */
const writePath = (root: unknown, path: ReadonlyArray<string | number>, value: unknown) => {
  let current = root as Record<string | number, unknown>
  path.slice(0, -1).forEach((key) => {
    current = current[key] as Record<string | number, unknown>
  })
  current[path[path.length - 1] as string | number] = value
}

/** Strings that are not enum values: random, control characters, lone surrogates, near misses. */
const rawEnum = oneOf(
  string(24),
  binaryString(24),
  constantFrom([
    "",
    " ",
    "\uD800",
    "\uDC00x",
    "online ",
    " buy",
    "ONLINE",
    "Online",
    "buy\r\n",
    "\u0000",
    "__proto__",
    "constructor",
    "toString",
    "hasOwnProperty",
    "filled\u200B",
    "Cancelled",
    "canceled",
    "x".repeat(10_000)
  ])
)

interface EnumField {
  readonly path: ReadonlyArray<string | number>
  readonly known: ReadonlyArray<string>
  readonly caseInsensitive?: boolean
  /** The field is optional (`Maybe`): `""` means absent, not an unknown value. */
  readonly maybe?: boolean
}

/** The field an index picks. */
const fieldAt = (fields: ReadonlyArray<EnumField>, index: number) => fields[index % fields.length] as EnumField

/** A string the field does not know (nor, for an optional field, `""`, which means absent). */
const isUnknownTo = (field: EnumField, raw: string): boolean => {
  const isKnown = field.caseInsensitive === true
    ? field.known.some((known) => known.toLowerCase() === raw.toLowerCase())
    : field.known.includes(raw)
  return !isKnown && !(field.maybe === true && raw === "")
}

const enumProperties = <A, I>(
  name: string,
  schema: Schema.Codec<A, I>,
  fields: ReadonlyArray<EnumField>,
  prepare: (encoded: Record<string, unknown>) => void = () => {}
) => {
  // a value, a field (by index) and a string that field does not know
  const cases = Arbitrary.all([Arbitrary.schema(schema), nat, rawEnum]).pipe(
    Arbitrary.filter(([, index, raw]) => isUnknownTo(fieldAt(fields, index), raw))
  )
  const encode = Schema.encodeSync(schema)
  const { arbitrary, timeout } = params()
  it.effect(`${name}: unknown enum strings decode as Unrecognized, kept verbatim`, () =>
    Effect.gen(function*() {
      const counts = yield* checkCounting(cases, {
        // the generated strings, as long as `rawEnum` says (not the one of 10,000 characters)
        "11 to 24 code points": ([, , raw]) => [...raw].length > 10 && [...raw].length <= 24,
        "24 code points": ([, , raw]) => [...raw].length === 24
      }, ([value, index, raw]) => {
        const field = fieldAt(fields, index)
        const encoded = wire(encode(value)) as Record<string, unknown>
        prepare(encoded)
        writePath(encoded, field.path, raw)
        const what = () => `${field.path.join(".")} = ${brief(raw, 60)} in ${brief(encoded)}`
        const decoded = decodeSafely(schema, encoded, what)
        if (Result.isFailure(decoded)) {
          return assert.fail(`an unknown enum value failed decoding: ${describeParseError(decoded.failure)}; ${what()}`)
        }
        const read = readPath(decoded.success, field.path)
        assert.instanceOf(read, Unrecognized, `not kept as Unrecognized: ${brief(read)}; ${what()}`)
        assert.strictEqual(Predicate.hasProperty(read, "value") ? read.value : undefined, raw, what())
      }, arbitrary)
      assert.isAtLeast(counts["11 to 24 code points"], Math.ceil(arbitrary.runs / 6), "strings of 11 to 24 code points")
      assert.isAtLeast(counts["24 code points"], 1, "strings of 24 code points")
    }), timeout)
}

const paymentInfo = {
  paymethodName: "Wise",
  paymethodId: "27",
  paymethodInfo: [{ name: "Email", required: "yes", type: "number", value: "****1234" }]
}

describe("open enums", () => {
  enumProperties("SpotSymbol", Symbols.SpotSymbol, [
    { path: ["status"], known: ["offline", "gray", "online", "halt"] },
    { path: ["areaSymbol"], known: ["yes", "no"], maybe: true }
  ])
  enumProperties("FuturesOrder", FuturesHistory.FuturesOrder, [
    { path: ["status"], known: FuturesHistory.orderStatuses },
    { path: ["side"], known: FuturesHistory.sides },
    { path: ["force"], known: FuturesHistory.forces },
    { path: ["posSide"], known: FuturesHistory.posSides },
    { path: ["marginMode"], known: FuturesHistory.marginModes },
    { path: ["reduceOnly"], known: FuturesHistory.reduceOnlyValues, maybe: true },
    { path: ["enterPointSource"], known: FuturesHistory.enterPointSources, caseInsensitive: true },
    { path: ["tradeSide"], known: FuturesHistory.tradeSides },
    { path: ["posMode"], known: FuturesHistory.posModes },
    { path: ["orderType"], known: FuturesHistory.orderTypes },
    { path: ["orderSource"], known: FuturesHistory.orderSources }
  ])
  enumProperties(
    "P2pOrder (from the wire)",
    P2pOrders.P2pOrderFromWire,
    [
      { path: ["side"], known: ["buy", "sell"] },
      {
        path: ["status"],
        known: ["pending_pay", "Paid", "Appeal", "Completed", "cancelled"],
        caseInsensitive: true
      },
      { path: ["paymentInfo", "paymethodInfo", 0, "required"], known: ["yes", "no"] },
      { path: ["paymentInfo", "paymethodInfo", 0, "type"], known: ["number", "file"], maybe: true }
    ],
    (encoded) => {
      encoded.paymentInfo = wire(paymentInfo)
    }
  )
  enumProperties("SpotTaxRecord", TaxRecords.SpotTaxRecord, [
    { path: ["spotTaxType"], known: TaxRecords.spotTaxTypes }
  ])
})
