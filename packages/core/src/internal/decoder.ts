/**
 * Fast decoders compiled once from a schema's AST (Schema 4: nodes with
 * checks and encoding links), installed in Schema's own registry
 * (`SchemaCompiler.set`) so that `Schema.decodeUnknown*` itself runs them.
 * A compiled decoder either builds exactly the value the Schema decoder
 * builds, or gives up (`bail`, Schema's `invalid`) and lets Schema decide,
 * so a failure is always reported by Schema, with its readable issue. Nodes
 * it cannot follow (middleware, `oneOf` unions, tuples with optional or rest
 * elements) make the whole schema use Schema alone.
 *
 * Classes (`Schema.Class`) need nothing of their own: the first value is
 * built by the class's constructor, and when that instance holds exactly
 * the decoded fields (no constructor or initialiser of its own added or
 * changed one), the next ones are built directly with the class's
 * prototype. Structs are generated where the runtime allows it
 * (`structDecoder.ts`). Building blocks may carry their own fast decoder in
 * the `FastDecode` annotation (see `Schemas.Decimal`); property tests hold
 * each to the Schema decoder.
 *
 * Given a flipped AST, the same compiler builds encoders (`encoder.ts`,
 * without the `FastDecode` annotations): a node's `encodingChecks`, where
 * flipping moves the type side's checks, run on its input once its own
 * decoder took it, as Schema runs them.
 */
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import * as SchemaCompiler from "effect/schema/SchemaCompiler"
import * as SchemaAST from "effect/SchemaAST"
import type * as SchemaGetter from "effect/SchemaGetter"
import * as SchemaParser from "effect/SchemaParser"
import { classDecoder, classStruct } from "./classDecoder.js"
import { checked, encodingChecksOf, getterStep, inputChecked, options, settled, unchanged } from "./decodeSteps.js"
import type { Compile, Fast, FastDecodeBuild } from "./fastDecode.js"
import { absent, bail, ownFastDecode } from "./fastDecode.js"
import { all, objects } from "./structDecoder.js"

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

/**
 * The node's own fast decoder and how many links of its encoding it covers:
 * its `FastDecode` annotation, else a class's (its constructor's link).
 */
const own = (ast: SchemaAST.AST): { readonly build: FastDecodeBuild; readonly covers: number } | undefined =>
  ownFastDecode(ast) ?? (classStruct(ast) === undefined ? undefined : { build: classDecoder, covers: 1 })

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
    const built = mine?.build(compiler, ast)
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

/**
 * The compiled decoder of a schema alone (`undefined` when it has none), with
 * structs generated or interpreted, for tests that hold both to the Schema
 * decoder.
 */
export const compiled = (schema: Schema.Top, generates = true): Fast | undefined =>
  compilerOf(false, generates)(schema.ast)

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

/** `true` when the options change nothing a fast decoder decides (it is compiled for the defaults). */
const defaults = (parseOptions: SchemaAST.ParseOptions): boolean =>
  parseOptions.onExcessProperty !== "error" && parseOptions.disableChecks !== true

/**
 * The same schema as Schema alone decodes it: a copy of its node (annotated
 * with nothing), which the registry does not know. Its inner nodes are the
 * schema's own.
 */
export const unregistered = <S extends Schema.Top>(schema: S): S["Rebuild"] => schema.annotate({})

const installed = new WeakSet<SchemaAST.AST>()

/**
 * Installs a node's fast decoder (`encodes`: a flipped node's encoder) in
 * Schema's registry, compiled on its first use: Schema's parsers then try
 * it first and ask Schema's own parser of the node when it gives up, throws,
 * or the options ask what it does not decide.
 */
const installNode = (ast: SchemaAST.AST, encodes: boolean): void => {
  if (installed.has(ast)) return
  installed.add(ast)
  let slow: SchemaCompiler.DecodeEffect | undefined
  SchemaCompiler.set(ast, {
    get decode(): SchemaCompiler.Decode | undefined {
      const fast = compilerOf(encodes)(ast)
      return fast === undefined ? undefined : (input, parseOptions) => {
        if (!defaults(parseOptions)) return bail
        try {
          const value = fast(input)
          return value === absent ? bail : value
        } catch {
          return bail
        }
      }
    },
    get decodeEffect(): SchemaCompiler.DecodeEffect {
      return slow ??= SchemaParser.decodeUnknownEffect(unregistered(Schema.make<Schema.Top>(ast)))
    }
  })
}

/**
 * Installs a schema's fast decoder and encoder in Schema's registry, so that
 * `Schema.decodeUnknown*` and `Schema.encode*` of the schema run them (an
 * endpoint's response, when the endpoint is defined; `BitgetMock` encodes
 * the answers it is given and decodes them). Nothing is compiled until a
 * first use.
 */
export const install = (schema: Schema.Top): void => {
  installNode(schema.ast, false)
  installNode(SchemaAST.flip(schema.ast), true)
}

/** Whether a node's fast decoder is installed in Schema's registry (for the check that every response's is). */
export const isInstalled = (ast: SchemaAST.AST): boolean => installed.has(ast)

const decoders = new WeakMap<SchemaAST.AST, Parser<unknown>>()

/**
 * A decoder for a schema (built once per schema): Schema's own, with the
 * schema's fast decoders installed first.
 */
export const decoder = <A, I>(schema: Schema.Codec<A, I>): Parser<A> => {
  const known = decoders.get(schema.ast)
  if (known !== undefined) return known as Parser<A>
  install(schema)
  const made = Schema.decodeUnknownResult(schema)
  decoders.set(schema.ast, made)
  return made
}
