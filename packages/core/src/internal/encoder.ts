/**
 * Fast request encoders. Schema encodes by decoding the flipped AST
 * (`SchemaAST.flip`): the type side's checks become the flipped nodes'
 * `encodingChecks`, run on a node's input before the transformations
 * encode it. The decoder's compiler follows the same flipped AST (without
 * the `FastDecode` annotations, which are decoders), so a compiled encoder
 * either builds exactly the value Schema's encoder builds, or gives up and
 * lets Schema encode, so a failure is always Schema's, with every issue
 * (`errors: "all"`).
 *
 * A request is what its own properties say: both encoders read a declared
 * field wherever `in` finds it (the prototype chain included), so each is
 * handed the input's own-properties view first (`ownProperties`).
 */
import * as Schema from "effect/Schema"
import * as SchemaAST from "effect/SchemaAST"
import type { Parser } from "./decoder.js"
import { compilerOf, withSchema } from "./decoder.js"
import type { Fast } from "./fastDecode.js"

/** A value as an encoder is to read it: the same value, or a copy of what differs. */
type View = (input: unknown) => unknown

const isRecord = (input: unknown): input is Record<PropertyKey, unknown> =>
  typeof input === "object" && input !== null && !Array.isArray(input)

const relevance = new WeakMap<SchemaAST.AST, boolean>()

/**
 * Whether a value of the type side of `ast` may hold a record with declared
 * fields (which `in` reads through the prototype chain); a recursive schema
 * is walked once (a node met again adds nothing).
 */
const holdsFields = (ast: SchemaAST.AST, walking: Set<SchemaAST.AST> = new Set()): boolean => {
  const known = relevance.get(ast)
  if (known !== undefined) return known
  if (walking.has(ast)) return false
  walking.add(ast)
  const inner = (node: SchemaAST.AST) => holdsFields(node, walking)
  const holds = SchemaAST.isObjects(ast)
    ? ast.propertySignatures.length > 0 || ast.indexSignatures.some((is) => inner(is.type))
    : SchemaAST.isArrays(ast)
    ? [...ast.elements, ...ast.rest].some(inner)
    : SchemaAST.isUnion(ast)
    ? ast.types.some(inner)
    : SchemaAST.isSuspend(ast) && inner(ast.thunk())
  walking.delete(ast)
  if (walking.size === 0) relevance.set(ast, holds)
  return holds
}

/** A record's copy, once one is needed. */
type Copy = Record<PropertyKey, unknown> | undefined

/** A record's own properties, without a prototype: its enumerable ones, and the declared `names` it owns. */
const ownCopy = (
  input: Record<PropertyKey, unknown>,
  names: ReadonlyArray<PropertyKey>
): Record<PropertyKey, unknown> => {
  const copy: Record<PropertyKey, unknown> = Object.assign(Object.create(null), input)
  for (const name of names) if (Object.hasOwn(input, name)) copy[name] = input[name]
  return copy
}

/**
 * A struct's view: the record itself while its declared fields are all its
 * own (or absent) and their views change nothing; else its own-properties
 * copy, each field and index value through its view.
 */
const objectsView = (ast: SchemaAST.Objects): View => {
  const names = ast.propertySignatures.map((ps) => ps.name)
  const declared = new Set(names)
  const fields = ast.propertySignatures.map((ps) => viewOf(ps.type))
  const indexed = ast.indexSignatures.flatMap((is) => viewOf(is.type) ?? [])
  /** The copy so far, with the value at `key` through `view` (the copy made when it changes). */
  const through = (input: Record<PropertyKey, unknown>, copy: Copy, key: PropertyKey, view: View | undefined): Copy => {
    if (view === undefined) return copy
    const viewed = view(input[key])
    if (viewed === input[key]) return copy
    const out = copy ?? ownCopy(input, names)
    out[key] = viewed
    return out
  }
  return (input) => {
    if (!isRecord(input)) return input
    let copy: Copy
    for (let i = 0; i < names.length; i++) {
      const name = names[i] as PropertyKey
      if (Object.hasOwn(input, name)) copy = through(input, copy, name, fields[i])
      else if (name in input) copy ??= ownCopy(input, names)
    }
    for (const view of indexed) {
      for (const key of Object.keys(input)) if (!declared.has(key)) copy = through(input, copy, key, view)
    }
    return copy ?? input
  }
}

/** An array's view: the array itself while its elements' views change nothing, else a copy of it. */
const arraysView = (ast: SchemaAST.Arrays): View => {
  const elements = ast.elements.map(viewOf)
  const rest = ast.rest.map(viewOf)
  const viewAt = (index: number, length: number): View | undefined => {
    if (index < elements.length) return elements[index]
    const fromEnd = length - index
    return fromEnd < rest.length ? rest[rest.length - fromEnd] : rest[0]
  }
  return (input) => {
    if (!Array.isArray(input)) return input
    let copy: Array<unknown> | undefined
    for (let i = 0; i < input.length; i++) {
      const view = viewAt(i, input.length)
      const viewed = view === undefined ? input[i] : view(input[i])
      if (viewed !== input[i]) (copy ??= input.slice())[i] = viewed
    }
    return copy ?? input
  }
}

/** A union's view: each member's in turn (a record stays whole in each, so every member sees its fields). */
const unionView = (ast: SchemaAST.Union): View => {
  const members = ast.types.map(viewOf).filter((view) => view !== undefined)
  return members.length === 1 ? members[0] as View : (input) => members.reduce((value, view) => view(value), input)
}

/** A recursive schema's view, built at its first use. */
const suspendView = (ast: SchemaAST.Suspend): View => {
  let built: View | undefined
  return (input) => (built ??= viewOf(ast.thunk()) ?? ((value) => value))(input)
}

const views = new WeakMap<SchemaAST.AST, View | null>()

/** The view of the type side of `ast` (built once per node): `undefined` when it holds no record with fields. */
const viewOf = (ast: SchemaAST.AST): View | undefined => {
  const known = views.get(ast)
  if (known !== undefined) return known ?? undefined
  const view = !holdsFields(ast)
    ? undefined
    : SchemaAST.isObjects(ast)
    ? objectsView(ast)
    : SchemaAST.isArrays(ast)
    ? arraysView(ast)
    : SchemaAST.isUnion(ast)
    ? unionView(ast)
    : SchemaAST.isSuspend(ast)
    ? suspendView(ast)
    : undefined
  views.set(ast, view ?? null)
  return view
}

/**
 * The own-properties view of a schema's values (`undefined` when its values
 * hold no record with fields): the value itself when every field it declares
 * is the record's own or absent, at any depth, else a copy (records without a
 * prototype) of its own properties. Inherited properties are thus ignored:
 * `Object.create({ stopLossTriggerPrice })` sends no stop-loss. It copies
 * only such inputs: a plain request is read as it is.
 */
export const ownProperties = (schema: Schema.Top): View | undefined => viewOf(schema.ast)

const encoders = new WeakMap<SchemaAST.AST, Parser<unknown>>()

/**
 * The encoder of a request schema (built once per schema): the compiled fast
 * path when there is one, in front of Schema's encoder reporting every issue,
 * both handed the input's own properties only (`ownProperties`): a request
 * is what its own properties say, and an inherited one is ignored.
 */
export const encoder = <A, I>(schema: Schema.Codec<A, I>): Parser<I> => {
  const known = encoders.get(schema.ast)
  if (known !== undefined) return known as Parser<I>
  const parse = withSchema(
    compilerOf(true)(SchemaAST.flip(schema.ast)),
    Schema.encodeUnknownResult(schema, { errors: "all" })
  )
  const own = ownProperties(schema)
  const made: Parser<I> = own === undefined ? parse : (input) => parse(own(input))
  encoders.set(schema.ast, made)
  return made
}

/**
 * The compiled encoder of a schema alone (`undefined` when it has none), with
 * structs generated or interpreted, for tests that hold both to Schema's
 * encoder. Like Schema's, it reads what the input inherits: `encoder` hands it
 * the own-properties view.
 */
export const compiledEncoder = (schema: Schema.Top, generates = true): Fast | undefined =>
  compilerOf(true, generates)(SchemaAST.flip(schema.ast))
