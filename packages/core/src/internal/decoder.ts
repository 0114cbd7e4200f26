/**
 * Fast decoders compiled once from a schema's AST. A compiled decoder either
 * builds exactly the value the Schema decoder builds, or gives up (`bail`)
 * and lets the Schema decoder decide, so a failure is always reported by
 * Schema, with its readable issue. Nodes it cannot follow (effects, parse
 * option or fallback annotations) make the whole schema use Schema alone.
 *
 * Building blocks may carry their own fast decoder in the `FastDecode`
 * annotation (see `Schemas.Decimal`); property tests hold each to the Schema
 * decoder.
 */
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import * as SchemaAST from "effect/SchemaAST"

/** What a fast decoder returns when it cannot decode a value. */
export const bail: unique symbol = Symbol.for("@bitget-effect/core/internal/decoder/bail")

/**
 * A compiled decoder: the decoded value, or `bail`. A struct's decoder
 * writes its properties into `into` when given one (a class instance being
 * built), and returns it.
 */
export type Fast = (input: unknown, into?: Record<PropertyKey, unknown>) => unknown

/** Compiles a node, or `undefined` when it has no fast decoder. */
export type Compile = (ast: SchemaAST.AST) => Fast | undefined

/**
 * The annotation of a schema that brings its own fast decoder, built from
 * the compiler (for its inner schemas); `undefined` when it cannot.
 */
export const FastDecode: unique symbol = Symbol.for("@bitget-effect/core/FastDecode")

/** Builds a fast decoder for a node that carries `FastDecode`, given the compiler and the node. */
export type FastDecodeAnnotation = (compile: Compile, ast: SchemaAST.AST) => Fast | undefined

/** The `FastDecode` of a leaf: a fast decoder that needs no compiling. */
export const leaf = (fast: Fast): FastDecodeAnnotation => () => fast

const options: SchemaAST.ParseOptions = {}

/** Unwraps a parse result that is a plain `Either`; anything else (an effect, a failure) bails. */
const settled = (result: unknown): unknown => Either.isEither(result) && Either.isRight(result) ? result.right : bail

const hasOwn = (value: object, key: PropertyKey): boolean => Object.prototype.hasOwnProperty.call(value, key)

const isRecordOrArray = (input: unknown): input is Record<PropertyKey, unknown> =>
  typeof input === "object" && input !== null

/** The properties of a member that hold a literal (how Schema picks union candidates). */
const literalKeys = (ast: SchemaAST.AST): number => {
  switch (ast._tag) {
    case "Declaration":
      return Option.match(SchemaAST.getSurrogateAnnotation(ast), { onNone: () => 0, onSome: literalKeys })
    case "TypeLiteral":
      return ast.propertySignatures.filter((ps) => !ps.isOptional && SchemaAST.isLiteral(SchemaAST.encodedAST(ps.type)))
        .length
    case "TupleType":
      return ast.elements.filter((e) => !e.isOptional && SchemaAST.isLiteral(SchemaAST.encodedAST(e.type))).length
    case "Refinement":
      return literalKeys(ast.from)
    case "Suspend":
      return literalKeys(ast.f())
    case "Transformation":
      return literalKeys(ast.from)
    default:
      return 0
  }
}

const all = (fasts: ReadonlyArray<Fast | undefined>): fasts is ReadonlyArray<Fast> =>
  fasts.every((fast) => fast !== undefined)

/**
 * Tries members in Schema's order: those keyed by a literal property first
 * when the input is an object, then the others; runs of literals are one
 * set lookup.
 */
const union = (ast: SchemaAST.Union, compile: Compile): Fast | undefined => {
  const keyed = ast.types.filter((member) => literalKeys(member) > 0)
  const others = ast.types.filter((member) => literalKeys(member) === 0)
  const keyedFast = keyed.map(compile)
  if (!all(keyedFast)) return undefined
  const steps: Array<Fast> = []
  for (let i = 0; i < others.length; i++) {
    const literals = new Set<unknown>()
    for (let member = others[i]; member !== undefined && SchemaAST.isLiteral(member); member = others[++i]) {
      literals.add(member.literal)
    }
    if (literals.size > 0) steps.push((input) => (literals.has(input) ? input : bail))
    const member = others[i]
    if (member === undefined) break
    const fast = compile(member)
    if (fast === undefined) return undefined
    steps.push(fast)
  }
  return (input) => {
    if (isRecordOrArray(input)) {
      for (const fast of keyedFast) {
        const value = fast(input)
        if (value !== bail) return value
      }
    }
    for (const fast of steps) {
      const value = fast(input)
      if (value !== bail) return value
    }
    return bail
  }
}

const bailing: Fast = () => bail

/** An optional property the input does not have. */
const absent: unique symbol = Symbol("absent")

/**
 * A struct: each property decoded in order into a new object, then the keys
 * of its string index signatures (a record); other properties are dropped.
 */
const typeLiteral = (ast: SchemaAST.TypeLiteral, compile: Compile): Fast | undefined => {
  if (ast.propertySignatures.length === 0 && ast.indexSignatures.length === 0) {
    return (input) => (input === null || input === undefined ? bail : input)
  }
  if (ast.indexSignatures.some((is) => !SchemaAST.isStringKeyword(is.parameter))) return undefined
  const names = ast.propertySignatures.map((ps) => ps.name)
  const declared = new Set<PropertyKey>(names)
  const optional = ast.propertySignatures.map((ps) => ps.isOptional)
  const fields = ast.propertySignatures.map((ps) => compile(ps.type))
  const indexed = ast.indexSignatures.map((is) => compile(is.type))
  if (!all(fields) || !all(indexed)) return undefined
  return (input, into) => {
    if (!isRecordOrArray(input) || Array.isArray(input)) return bail
    const output: Record<PropertyKey, unknown> = into ?? {}
    for (let i = 0; i < names.length; i++) {
      const name = names[i] as PropertyKey
      if (optional[i] && !hasOwn(input, name)) continue
      const value = (fields[i] as Fast)(input[name])
      if (value === bail) return bail
      output[name] = value
    }
    for (const fast of indexed) {
      for (const key of Object.keys(input)) {
        const value = fast(input[key])
        if (value === bail) return bail
        if (!declared.has(key)) output[key] = value
      }
    }
    return output
  }
}

/** An array or tuple: its elements (optional ones may be missing), then any number of the rest element. */
const tupleType = (ast: SchemaAST.TupleType, compile: Compile): Fast | undefined => {
  if (ast.rest.length > 1) return undefined
  const elements = ast.elements.map((element) => compile(element.type))
  const rest = ast.rest.length === 1 ? compile((ast.rest[0] as SchemaAST.Type).type) : bailing
  if (!all(elements) || rest === undefined) return undefined
  const required = ast.elements.filter((element) => !element.isOptional).length
  const count = elements.length
  return (input) => {
    if (!Array.isArray(input) || input.length < required || (ast.rest.length === 0 && input.length > count)) {
      return bail
    }
    const output = new Array<unknown>(input.length)
    for (let i = 0; i < input.length; i++) {
      const value = (i < count ? elements[i] as Fast : rest)(input[i])
      if (value === bail) return bail
      output[i] = value
    }
    return output
  }
}

/** The step between a transformation's two sides, given the decoded `from` side and the original input. */
const step = (ast: SchemaAST.Transformation): (a: unknown, input: unknown) => unknown => {
  const transformation = ast.transformation
  switch (transformation._tag) {
    case "FinalTransformation":
      return (a, input) => settled(transformation.decode(a, options, ast, input))
    case "ComposeTransformation":
      return (a) => a
    case "TypeLiteralTransformation":
      // `a` is the fresh object the `from` type literal built, never the caller's input
      return (a) => {
        const record = a as Record<PropertyKey, unknown>
        for (const pst of transformation.propertySignatureTransformations) {
          const value = pst.decode(hasOwn(record, pst.from) ? Option.some(record[pst.from]) : Option.none())
          delete record[pst.from]
          if (Option.isSome(value)) record[pst.to] = value.value
        }
        return record
      }
  }
}

/** The member of `X | undefined` that is not `undefined` (`optional` and `optionalWith` properties), or the type. */
const definedMember = (ast: SchemaAST.AST): SchemaAST.AST => {
  if (!SchemaAST.isUnion(ast)) return ast
  const defined = ast.types.filter((member) => !SchemaAST.isUndefinedKeyword(member))
  return defined.length === 1 ? defined[0] as SchemaAST.AST : ast
}

/**
 * A struct with property transformations (`optionalWith`, renames) in one
 * pass: each encoded property decoded, then the type side built in its own
 * order, each written property passed through its transformation and checked
 * against its type. A property no transformation writes holds what its own
 * decoder built, which its type side accepts by construction (`Schema.Struct`
 * makes it the type side of the encoded property), so it is copied. Other
 * shapes take the general path.
 */
const struct = (
  ast: SchemaAST.Transformation,
  transformation: SchemaAST.TypeLiteralTransformation,
  compile: Compile
): Fast | undefined => {
  const { from, to } = ast
  const psts = transformation.propertySignatureTransformations
  if (
    !SchemaAST.isTypeLiteral(from) || !SchemaAST.isTypeLiteral(to) || from.indexSignatures.length > 0 ||
    to.indexSignatures.length > 0 || new Set(psts.map((pst) => pst.from)).size < psts.length
  ) {
    return undefined
  }
  const names = from.propertySignatures.map((ps) => ps.name)
  const optional = from.propertySignatures.map((ps) => ps.isOptional)
  const fields = from.propertySignatures.map((ps) => compile(ps.type))
  if (!all(fields)) return undefined
  const index = new Map(names.map((name, i) => [name, i]))
  type Plan =
    | { readonly _tag: "Copy"; readonly name: PropertyKey; readonly at: number }
    | {
      readonly _tag: "Write"
      readonly name: PropertyKey
      readonly at: number | undefined
      readonly decode: SchemaAST.PropertySignatureTransformation["decode"]
      readonly check: Fast
      readonly optional: boolean
      /**
       * A defined value passed through unchanged is of the type already: the
       * encoded property's type (bar `undefined`) has this type side.
       */
      readonly passes: boolean
    }
  const plans: Array<Plan> = []
  for (const ps of to.propertySignatures) {
    const pst = psts.find((candidate) => candidate.to === ps.name)
    if (pst === undefined) {
      const at = index.get(ps.name)
      if (at === undefined || psts.some((candidate) => candidate.from === ps.name)) return undefined
      plans.push({ _tag: "Copy", name: ps.name, at })
      continue
    }
    const check = compile(ps.type)
    if (check === undefined) return undefined
    const at = index.get(pst.from)
    const source = at === undefined ? undefined : from.propertySignatures[at]?.type
    plans.push({
      _tag: "Write",
      name: ps.name,
      at,
      decode: pst.decode,
      check,
      optional: ps.isOptional,
      passes: source !== undefined && SchemaAST.typeAST(definedMember(source)) === ps.type
    })
  }
  /** Builds the type side from the decoded encoded properties (`absent` where the input had none). */
  const build = (values: ReadonlyArray<unknown>, output: Record<PropertyKey, unknown>): unknown => {
    for (const plan of plans) {
      const value = plan.at === undefined ? absent : values[plan.at]
      if (plan._tag === "Copy") {
        if (value !== absent) output[plan.name] = value
        continue
      }
      const written = plan.decode(value === absent ? Option.none() : Option.some(value))
      if (Option.isNone(written) && plan.optional) continue
      const candidate = Option.getOrUndefined(written)
      const checked = plan.passes && candidate !== undefined && candidate === value ? candidate : plan.check(candidate)
      if (checked === bail) return bail
      output[plan.name] = checked
    }
    return output
  }
  return (input, into) => {
    if (!isRecordOrArray(input) || Array.isArray(input)) return bail
    const values = new Array<unknown>(names.length)
    for (let i = 0; i < names.length; i++) {
      const name = names[i] as PropertyKey
      if (optional[i] && !hasOwn(input, name)) {
        values[i] = absent
        continue
      }
      const value = (fields[i] as Fast)(input[name])
      if (value === bail) return bail
      values[i] = value
    }
    return build(values, into ?? {})
  }
}

const transformation = (ast: SchemaAST.Transformation, compile: Compile): Fast | undefined => {
  if (ast.transformation._tag === "TypeLiteralTransformation") {
    const fused = struct(ast, ast.transformation, compile)
    if (fused !== undefined) return fused
  }
  const from = compile(ast.from)
  const to = compile(ast.to)
  if (from === undefined || to === undefined) return undefined
  const between = step(ast)
  return (input) => {
    const a = from(input)
    if (a === bail) return bail
    const b = between(a, input)
    return b === bail ? bail : to(b)
  }
}

const node = (ast: SchemaAST.AST, compile: Compile): Fast | undefined => {
  switch (ast._tag) {
    case "Literal": {
      const literal = ast.literal
      return (input) => (input === literal ? input : bail)
    }
    case "StringKeyword":
      return (input) => (typeof input === "string" ? input : bail)
    case "NumberKeyword":
      return (input) => (typeof input === "number" ? input : bail)
    case "BooleanKeyword":
      return (input) => (typeof input === "boolean" ? input : bail)
    case "UndefinedKeyword":
      return (input) => (input === undefined ? input : bail)
    case "UnknownKeyword":
    case "AnyKeyword":
      return (input) => input
    case "Declaration": {
      const parse = ast.decodeUnknown(...ast.typeParameters)
      return (input) => settled(parse(input, options, ast))
    }
    case "Refinement": {
      const from = compile(ast.from)
      if (from === undefined) return undefined
      return (input) => {
        const value = from(input)
        return value === bail || Option.isSome(ast.filter(value, options, ast)) ? bail : value
      }
    }
    case "Transformation":
      return transformation(ast, compile)
    case "TypeLiteral":
      return typeLiteral(ast, compile)
    case "TupleType":
      return tupleType(ast, compile)
    case "Union":
      return union(ast, compile)
    case "Suspend": {
      let inner: Fast | undefined
      return (input) => (inner ??= compile(ast.f()) ?? (() => bail))(input)
    }
    default:
      return undefined
  }
}

const memo = new WeakMap<SchemaAST.AST, Fast | null>()

/** Compiles a node (memoised): its own `FastDecode` when it has one, else by its kind. */
const compile: Compile = (ast) => {
  const known = memo.get(ast)
  if (known !== undefined) return known ?? undefined
  const annotations = ast.annotations
  const unsupported = annotations[SchemaAST.ParseOptionsAnnotationId] !== undefined ||
    annotations[SchemaAST.DecodingFallbackAnnotationId] !== undefined
  const own = annotations[FastDecode] as FastDecodeAnnotation | undefined
  const fast = unsupported ? undefined : own !== undefined ? own(compile, ast) : node(ast, compile)
  memo.set(ast, fast ?? null)
  return fast
}

/** A decoder of untrusted input. */
type Decoder<A> = (input: unknown) => Either.Either<A, ParseResult.ParseError>

const decoders = new WeakMap<SchemaAST.AST, Decoder<unknown>>()

/**
 * A decoder for a schema (built once per schema): the compiled fast path when there is one, else
 * Schema's; either way, a value the fast path gives up on is decoded by
 * Schema, which builds the same value or the failure.
 */
export const decoder = <A, I>(schema: Schema.Schema<A, I>): Decoder<A> => {
  const known = decoders.get(schema.ast)
  if (known !== undefined) return known as Decoder<A>
  const slow = Schema.decodeUnknownEither(schema)
  const fast = compile(schema.ast)
  const made: Decoder<A> = fast === undefined ? slow : (input) => {
    const value = fast(input)
    return value === bail ? slow(input) : Either.right(value as A)
  }
  decoders.set(schema.ast, made)
  return made
}

/**
 * The compiled decoder of a schema alone (`undefined` when it has none), for
 * tests that hold it to the Schema decoder.
 */
export const compiled = (schema: Schema.Schema.Any): Fast | undefined => compile(schema.ast)

/**
 * The annotations of a response class (`Schema.Class<X>("X")(fields,
 * fastClass)`) that let its fast decoder build instances from the decoded
 * fields directly: the first through the class's own decoding, the rest on
 * its prototype, as the constructor does without validation, instead of
 * copying the fields twice and looking for defaults they already hold. For
 * classes that declare no constructor or field initialisers of their own.
 */
export const fastClass = [undefined, {
  [FastDecode]: ((compile, ast) => {
    if (!SchemaAST.isTransformation(ast) || ast.transformation._tag !== "FinalTransformation") return undefined
    const from = compile(ast.from)
    if (from === undefined) return undefined
    const construct = ast.transformation.decode
    let prototype: object | undefined
    return (input) => {
      if (prototype !== undefined) {
        // the fields are written straight into the instance when the decoder of the fields can
        const instance = Object.create(prototype) as Record<PropertyKey, unknown>
        const fields = from(input, instance)
        return fields === bail ? bail : fields === instance ? instance : Object.assign(instance, fields)
      }
      const fields = from(input)
      if (fields === bail) return bail
      const first = settled(construct(fields, options, ast, input))
      if (first !== bail) prototype = Object.getPrototypeOf(first)
      return first
    }
  }) satisfies FastDecodeAnnotation
}] as const
