/**
 * Fast decoders compiled once from a schema's AST (Schema 4: nodes with
 * checks and encoding links). A compiled decoder either builds exactly the
 * value the Schema decoder builds, or gives up (`bail`) and lets the Schema
 * decoder decide, so a failure is always reported by Schema, with its
 * readable issue. Nodes it cannot follow (middleware, `oneOf` unions, tuples
 * with optional or rest elements) make the whole schema use Schema alone.
 *
 * Structs are the one place where code is generated, where the runtime
 * allows it (not in workerd): a struct's decoder reads and writes its
 * properties by name, so each read and call site sees one shape and one
 * decoder, and each object is built by a constructor that sizes it for all
 * its properties (built by writes to computed keys, V8 turns an object of
 * more than 19 properties into a slow dictionary). Elsewhere the same struct
 * is interpreted.
 *
 * Building blocks may carry their own fast decoder in the `FastDecode`
 * annotation (see `Schemas.Decimal`); property tests hold each to the Schema
 * decoder.
 *
 * Given a flipped AST, the same compiler builds encoders (`encoder.ts`,
 * without the `FastDecode` annotations): a node's `encodingChecks`, where
 * flipping moves the type side's checks, run on its input once its own
 * decoder took it, as Schema runs them.
 */
import * as Exit from "effect/Exit"
import * as Option from "effect/Option"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import * as SchemaAST from "effect/SchemaAST"
import type * as SchemaGetter from "effect/SchemaGetter"

/** What a fast decoder returns when it cannot decode a value. */
export const bail: unique symbol = Symbol.for("@bitget-effect/core/internal/decoder/bail")

/**
 * The input of a property the object does not have, and the output of a
 * decoder that produces no value (an optional property left out). Leaves pass
 * it through; a struct refuses it for a required property.
 */
export const absent: unique symbol = Symbol.for("@bitget-effect/core/internal/decoder/absent")

/** A compiled decoder: the decoded value, `absent`, or `bail`. */
export type Fast = (input: unknown) => unknown

/**
 * Compiles a node, or `undefined` when it has no fast decoder; `generates`
 * tells whether it generates code for structs.
 */
export interface Compile {
  (ast: SchemaAST.AST): Fast | undefined
  readonly generates: boolean
}

/** The annotation key of a schema that brings its own fast decoder. */
export const FastDecode = "@bitget-effect/core/FastDecode"

/**
 * Builds the fast decoder of a node (its encoding and its own type; the node's
 * checks are run after it by the compiler), given the compiler for inner
 * schemas; `undefined` when it cannot.
 */
export type FastDecodeBuild = (compile: Compile, ast: SchemaAST.AST) => Fast | undefined

/**
 * The `FastDecode` annotation: the builder, and the transformations of the
 * encoding it was written for. Annotations survive copies of a node that
 * change what it decodes (`Schema.toType` drops the encoding and keeps them),
 * so the builder is used only while the node's encoding still runs these
 * transformations.
 */
export interface FastDecodeAnnotation {
  readonly build: FastDecodeBuild
  readonly transformations: ReadonlyArray<unknown> | undefined
}

/** The transformations of a node's encoding, in order. */
const transformationsOf = (ast: SchemaAST.AST): ReadonlyArray<unknown> =>
  ast.encoding?.map((link) => link.transformation) ?? []

/**
 * Gives a schema its own fast decoder, valid for the schema as built (its
 * encoding) and for optional or annotated copies of it. Checks added later
 * still run after it. The schema must not have checks yet (an annotation
 * would go to its last check).
 */
export const withFastDecode = <S extends Schema.Top>(schema: S, build: FastDecodeBuild): S["Rebuild"] => {
  if (schema.ast.checks !== undefined) throw new Error("withFastDecode: annotate before adding checks")
  const annotation: FastDecodeAnnotation = { build, transformations: transformationsOf(schema.ast) }
  return schema.annotate({ [FastDecode]: annotation })
}

/**
 * What a leaf answers for an input it does not decode: `bail`, except that
 * `absent` passes through it.
 */
export const refuse = (input: unknown): unknown => input === absent ? absent : bail

/**
 * The fast decoder of a leaf, which needs no compiling. It answers `refuse`
 * for what it does not decode (so `absent` passes through it, checked only
 * there, not on each value).
 */
export const leaf = (fast: Fast): FastDecodeBuild => () => fast

const options: SchemaAST.ParseOptions = {}

/**
 * What Schema's own parsers answer for "the input, unchanged": a shared
 * success whose value is an internal marker, not the input. Learnt from
 * `Schema.Json`'s parser (the marker is not exported); a declaration that
 * answers it decodes to its input.
 */
const unchanged: unknown = (() => {
  const json = Schema.Json.ast as SchemaAST.Declaration
  return json.run(json.typeParameters)(null, json, options)
})()

/** The value of an effect that is a settled success; anything else (a failure, an effect to run) bails. */
const settled = (result: unknown): unknown => Exit.isExit(result) && Exit.isSuccess(result) ? result.value : bail

const isObject = (input: unknown): input is Record<PropertyKey, unknown> =>
  typeof input === "object" && input !== null && !Array.isArray(input)

/** Whether an object has a property, as Schema asks it (`in`, own only for `__proto__`). */
const hasProperty = (input: object, key: PropertyKey): boolean =>
  key === "__proto__" ? Object.hasOwn(input, key) : key in input

const all = (fasts: ReadonlyArray<Fast | undefined>): fasts is ReadonlyArray<Fast> =>
  fasts.every((fast) => fast !== undefined)

/** A member that only a value equal to its literal passes. */
const plainLiteral = (ast: SchemaAST.AST): ast is SchemaAST.Literal =>
  SchemaAST.isLiteral(ast) && ast.checks === undefined && ast.encoding === undefined

/** Tries members in their order, the first that decodes wins; runs of literals are one set lookup. */
const union = (ast: SchemaAST.Union, compile: Compile): Fast | undefined => {
  if (ast.options?.mode === "oneOf") return undefined
  const steps: Array<Fast> = []
  for (let i = 0; i < ast.types.length; i++) {
    const literals = new Set<unknown>()
    for (let member = ast.types[i]; member !== undefined && plainLiteral(member); member = ast.types[++i]) {
      literals.add(member.literal)
    }
    if (literals.size > 0) steps.push((input) => (literals.has(input) ? input : bail))
    const member = ast.types[i]
    if (member === undefined) break
    const fast = compile(member)
    if (fast === undefined) return undefined
    steps.push(fast)
  }
  return (input) => {
    if (input === absent) return absent
    for (const fast of steps) {
      const value = fast(input)
      if (value !== bail) return value
    }
    return bail
  }
}

/**
 * `true` when a struct can be generated: properties named by strings other
 * than `__proto__` (which a write would take for the prototype), and no
 * index signature.
 */
const generable = (ast: SchemaAST.Objects): boolean =>
  ast.indexSignatures.length === 0 &&
  ast.propertySignatures.every((ps) => typeof ps.name === "string" && ps.name !== "__proto__")

/**
 * A struct's decoder as generated code: each property read by name, decoded
 * by its own decoder, and the object built by a constructor that writes the
 * properties in order (an optional one only when it has a value), with the
 * given prototype. The names are written as JSON string literals; the
 * decoders and sentinels are parameters.
 */
const generated = (ast: SchemaAST.Objects, fields: ReadonlyArray<Fast>, prototype: object): Fast => {
  const keys = ast.propertySignatures.map((ps) => JSON.stringify(ps.name))
  const optional = ast.propertySignatures.map((ps) => SchemaAST.isOptional(ps.type))
  const values = keys.map((_, i) => `v${i}`)
  const writes = keys.map((key, i) => `${optional[i] ? `if(v${i}!==absent)` : ""}this[${key}]=v${i};`)
  const reads = keys.map((key, i) =>
    `let v${i}=input[${key}];if(v${i}===undefined&&!(${key} in input))v${i}=absent;` +
    `v${i}=f${i}(v${i});if(v${i}===bail${optional[i] ? "" : `||v${i}===absent`})return bail;`
  )
  const make = new Function(
    "absent",
    "bail",
    "prototype",
    ...fields.map((_, i) => `f${i}`),
    `function Make(${values.join(",")}){${writes.join("")}}Make.prototype=prototype;` +
      "return function(input){if(input===absent)return absent;" +
      "if(typeof input!==\"object\"||input===null||Array.isArray(input))return bail;" +
      `${reads.join("")}return new Make(${values.join(",")})}`
  )
  const decode: Fast = make(absent, bail, prototype, ...fields)
  return decode
}

/**
 * The same struct interpreted: each declared property decoded in order into
 * a new object of the given prototype, then the keys of its string index
 * signatures (a record); other properties are dropped.
 */
const interpreted = (
  ast: SchemaAST.Objects,
  fields: ReadonlyArray<Fast>,
  indexed: ReadonlyArray<Fast>,
  prototype: object
): Fast => {
  const names = ast.propertySignatures.map((ps) => ps.name)
  const declared = new Set<PropertyKey>(names)
  const optional = ast.propertySignatures.map((ps) => SchemaAST.isOptional(ps.type))
  return (input) => {
    if (input === absent) return absent
    if (!isObject(input)) return bail
    const output = Object.create(prototype) as Record<PropertyKey, unknown>
    for (let i = 0; i < names.length; i++) {
      const name = names[i] as PropertyKey
      const value = (fields[i] as Fast)(hasProperty(input, name) ? input[name] : absent)
      if (value === bail) return bail
      if (value === absent) {
        if (!optional[i]) return bail
        continue
      }
      output[name] = value
    }
    for (const fast of indexed) {
      for (const key of Object.keys(input)) {
        const value = fast(input[key])
        if (value === bail) return bail
        if (value !== absent && !declared.has(key)) output[key] = value
      }
    }
    return output
  }
}

/**
 * A struct whose objects have the given prototype (a class's, for its
 * instances): generated where the compiler generates code, the struct allows
 * it and the runtime builds the code at that moment, else interpreted. A required property that decodes to nothing
 * bails (Schema reports it missing).
 */
const objects = (ast: SchemaAST.Objects, compile: Compile, prototype: object = Object.prototype): Fast | undefined => {
  if (ast.propertySignatures.length === 0 && ast.indexSignatures.length === 0 && prototype === Object.prototype) {
    return (input) => (input === absent ? absent : input === null || input === undefined ? bail : input)
  }
  if (ast.indexSignatures.some((is) => !SchemaAST.isString(is.parameter) || is.parameter.checks !== undefined)) {
    return undefined
  }
  const fields = ast.propertySignatures.map((ps) => compile(ps.type))
  const indexed = ast.indexSignatures.map((is) => compile(is.type))
  if (!all(fields) || !all(indexed)) return undefined
  if (compile.generates && generable(ast)) {
    try {
      return generated(ast, fields, prototype)
    } catch {
      // code generation refused here: workerd allows it while a module loads, not while it answers a request
    }
  }
  return interpreted(ast, fields, indexed, prototype)
}

/** An array (any number of one element type) or a tuple of required elements. */
const arrays = (ast: SchemaAST.Arrays, compile: Compile): Fast | undefined => {
  if (ast.rest.length > 1 || ast.elements.some(SchemaAST.isOptional)) return undefined
  const elements = ast.elements.map(compile)
  const rest = ast.rest.length === 1 ? compile(ast.rest[0] as SchemaAST.AST) : () => bail
  if (!all(elements) || rest === undefined) return undefined
  const count = elements.length
  const open = ast.rest.length === 1
  return (input) => {
    if (input === absent) return absent
    if (!Array.isArray(input) || input.length < count || (!open && input.length > count)) return bail
    const output = new Array<unknown>(input.length)
    for (let i = 0; i < input.length; i++) {
      const value = (i < count ? elements[i] as Fast : rest)(input[i])
      if (value === bail || value === absent) return bail
      output[i] = value
    }
    return output
  }
}

/** A getter's step on the decoding side: the value, `absent` for no value, or `bail`. */
const getterStep = (getter: SchemaGetter.Getter<unknown, unknown, unknown>): (value: unknown) => unknown => {
  switch (getter._tag) {
    case "Passthrough":
      return (value) => value
    case "Transform":
      return (value) => (value === absent ? absent : getter.transform(value))
    case "TransformOptional":
      return (value) => {
        const out = getter.transform(value === absent ? Option.none() : Option.some(value))
        return Option.isSome(out) ? out.value : absent
      }
    case "TransformEffect":
      return (value) => (value === absent ? absent : settled(getter.transform(value, options)))
    case "TransformOptionalEffect":
      return (value) => {
        const out = settled(getter.transform(value === absent ? Option.none() : Option.some(value), options))
        return out === bail ? bail : Option.isSome(out as Option.Option<unknown>)
          ? (out as Option.Some<unknown>).value
          : absent
      }
  }
}

/**
 * A node's encoding as Schema decodes it: the most encoded side first, then
 * each transformation and the side it leads to, then the node itself.
 */
const encoded = (encoding: ReadonlyArray<SchemaAST.Link>, body: Fast, compile: Compile): Fast | undefined => {
  const sides = encoding.map((link) => compile(link.to))
  if (!all(sides)) return undefined
  const steps: Array<(value: unknown) => unknown> = []
  for (const link of encoding) {
    if (link.transformation._tag === "Middleware") return undefined
    steps.push(getterStep(link.transformation.decode as SchemaGetter.Getter<unknown, unknown, unknown>))
  }
  const last = encoding.length - 1
  return (input) => {
    let value = (sides[last] as Fast)(input)
    for (let i = last; i >= 0; i--) {
      if (value === bail) return bail
      value = (steps[i] as (value: unknown) => unknown)(value)
      if (i > 0 && value !== bail) value = (sides[i - 1] as Fast)(value)
    }
    return value === bail ? bail : body(value)
  }
}

/** The node's own type, without its encoding or checks. */
const body = (ast: SchemaAST.AST, compile: Compile): Fast | undefined => {
  switch (ast._tag) {
    case "Literal": {
      const literal = ast.literal
      return (input) => (input === absent || input === literal ? input : bail)
    }
    case "String":
      return (input) => (input === absent || typeof input === "string" ? input : bail)
    case "Number":
      return (input) => (input === absent || typeof input === "number" ? input : bail)
    case "Boolean":
      return (input) => (input === absent || typeof input === "boolean" ? input : bail)
    case "Null":
      return (input) => (input === absent || input === null ? input : bail)
    case "Undefined":
      return (input) => (input === absent || input === undefined ? input : bail)
    case "Unknown":
    case "Any":
      return (input) => input
    case "Declaration": {
      const run = ast.run(ast.typeParameters)
      return (input) => {
        if (input === absent) return absent
        const result = run(input, ast, options)
        return result === unchanged ? input : settled(result)
      }
    }
    case "Objects":
      return objects(ast, compile)
    case "Arrays":
      return arrays(ast, compile)
    case "Union":
      return union(ast, compile)
    case "Suspend": {
      let inner: Fast | undefined
      return (input) => (inner ??= compile(ast.thunk()) ?? (() => bail))(input)
    }
    default:
      return undefined
  }
}

/** `true` when every filter of the checks passes (reports no issue, as Schema reads it). */
const passes = (checks: ReadonlyArray<SchemaAST.Check<unknown>>, value: unknown, ast: SchemaAST.AST): boolean => {
  for (const check of checks) {
    if (check._tag === "FilterGroup" ? !passes(check.checks, value, ast) : check.run(value, ast, options)) {
      return false
    }
  }
  return true
}

/** A node's checks run on what its decoder built. */
const checked = (fast: Fast, ast: SchemaAST.AST, checks: SchemaAST.Checks): Fast => (input) => {
  const value = fast(input)
  return value === bail || value === absent || passes(checks, value, ast) ? value : bail
}

/**
 * A node's `encodingChecks` (the checks of the side it decodes from: the
 * type side's checks on a flipped node) run, as Schema runs them, on its
 * input once its own decoder took it.
 */
const inputChecked = (fast: Fast, ast: SchemaAST.AST, checks: SchemaAST.Checks): Fast => (input) => {
  const value = fast(input)
  return value === bail || value === absent || passes(checks, input, ast) ? value : bail
}

/**
 * The node's own `FastDecode` and how many links of its encoding it covers:
 * the annotation holds while the node's encoding starts with the
 * transformations it was written for (links added later, such as a decoding
 * default, are decoded before it).
 */
const own = (
  ast: SchemaAST.AST
): { readonly annotation: FastDecodeAnnotation; readonly covers: number } | undefined => {
  const annotation = ast.annotations?.[FastDecode] as FastDecodeAnnotation | undefined
  if (annotation === undefined) return undefined
  const { transformations } = annotation
  const current = transformationsOf(ast)
  // written for the node's own first link (a class's), whatever links were added after it
  if (transformations === undefined) return { annotation, covers: Math.min(1, current.length) }
  return current.length >= transformations.length && transformations.every((t, i) => t === current[i])
    ? { annotation, covers: transformations.length }
    : undefined
}

/** The checks a node runs on its input (`Schema.flip` moves a node's checks there), if any. */
const encodingChecksOf = (ast: SchemaAST.AST): SchemaAST.Checks | undefined =>
  "encodingChecks" in ast ? ast.encodingChecks : undefined

/**
 * A compiler, memoised per node: a node's own `FastDecode` when it has one,
 * else one by its kind; then its checks. `generates` tells whether structs
 * are generated; `encodes`, that it compiles flipped ASTs (encoders), where
 * the `FastDecode` annotations, written for decoding, are not used.
 */
const makeCompiler = (generates: boolean, encodes: boolean): Compile => {
  const memo = new WeakMap<SchemaAST.AST, Fast | null>()
  const compile = (ast: SchemaAST.AST): Fast | undefined => {
    const known = memo.get(ast)
    if (known !== undefined) return known ?? undefined
    const inputChecks = encodingChecksOf(ast)
    // the node's own fast decoder for the links it covers, else one by its kind for all of them
    const mine = encodes || inputChecks !== undefined ? undefined : own(ast)
    const built = mine?.annotation.build(compiler, ast)
    const outer = built === undefined ? ast.encoding : ast.encoding?.slice(mine?.covers)
    let self = built ?? body(ast, compiler)
    if (self !== undefined && inputChecks !== undefined) self = inputChecked(self, ast, inputChecks)
    let fast = self === undefined || outer === undefined || outer.length === 0 ? self : encoded(outer, self, compiler)
    if (fast !== undefined && ast.checks !== undefined) fast = checked(fast, ast, ast.checks)
    memo.set(ast, fast ?? null)
    return fast
  }
  const compiler: Compile = Object.assign(compile, { generates })
  return compiler
}

const compilers = new Map<string, Compile>()

/**
 * The compiler of decoders, or (`encodes`) of encoders from flipped ASTs,
 * each built once; structs are generated where the runtime allows it, unless
 * `generates` says otherwise (tests hold both to Schema).
 */
export const compilerOf = (encodes: boolean, generates = true): Compile => {
  const key = `${encodes}:${generates}`
  const known = compilers.get(key)
  if (known !== undefined) return known
  const made = makeCompiler(generates, encodes)
  compilers.set(key, made)
  return made
}

/** Schema's decoder or encoder of untrusted input. */
export type Parser<A> = (input: unknown) => Result.Result<A, Schema.SchemaError>

/**
 * A compiled fast path (if any) in front of Schema: its value when it gives
 * one, else (it gives up, or throws) Schema's answer, the same value or the
 * failure.
 */
export const withSchema = <A>(fast: Fast | undefined, slow: Parser<A>): Parser<A> =>
  fast === undefined ? slow : (input) => {
    let value: unknown
    try {
      value = fast(input)
    } catch {
      return slow(input)
    }
    return value === bail || value === absent ? slow(input) : Result.succeed(value as A)
  }

const decoders = new WeakMap<SchemaAST.AST, Parser<unknown>>()

/**
 * A decoder for a schema (built once per schema): the compiled fast path when
 * there is one, else Schema's; either way, a value the fast path gives up on
 * is decoded by Schema, which builds the same value or the failure.
 */
export const decoder = <A, I>(schema: Schema.Codec<A, I>): Parser<A> => {
  const known = decoders.get(schema.ast)
  if (known !== undefined) return known as Parser<A>
  const made = withSchema(compilerOf(false)(schema.ast), Schema.decodeUnknownResult(schema))
  decoders.set(schema.ast, made)
  return made
}

/**
 * The compiled decoder of a schema alone (`undefined` when it has none), with
 * structs generated or interpreted, for tests that hold both to the Schema
 * decoder.
 */
export const compiled = (schema: Schema.Top, generates = true): Fast | undefined =>
  compilerOf(false, generates)(schema.ast)

/**
 * The annotations of a response class (`Schema.Class<X>("X")(fields,
 * fastClass)`) that let its fast decoder build instances from the decoded
 * fields directly: the first through the class's own transformation, the
 * rest as a struct with the class's prototype, as the constructor does with
 * fields it trusts, instead of building the fields twice. For classes that
 * declare no constructor or field initialisers of their own, over a plain
 * struct (no encoding or fast decoder of its own).
 */
export const fastClass: { readonly [FastDecode]: FastDecodeAnnotation } = {
  [FastDecode]: {
    transformations: undefined,
    build: (compile, ast) => {
      const link = ast.encoding?.[0]
      if (
        !SchemaAST.isDeclaration(ast) || link === undefined ||
        link.transformation._tag !== "Transformation" || !SchemaAST.isObjects(link.to) ||
        link.to.encoding !== undefined || encodingChecksOf(link.to) !== undefined || own(link.to) !== undefined
      ) {
        return undefined
      }
      const struct = link.to
      const fields = compile(struct)
      if (fields === undefined) return undefined
      const construct = getterStep(link.transformation.decode as SchemaGetter.Getter<unknown, unknown, unknown>)
      let instances: Fast | undefined
      return (input) => {
        if (instances !== undefined) return instances(input)
        if (input === absent) return absent
        const decoded = fields(input)
        if (decoded === bail) return bail
        const first = construct(decoded)
        if (first !== bail && first !== absent) {
          const made = objects(struct, compile, Object.getPrototypeOf(first) as object)
          instances = made === undefined || struct.checks === undefined ? made : checked(made, struct, struct.checks)
        }
        return first
      }
    }
  } satisfies FastDecodeAnnotation
}
