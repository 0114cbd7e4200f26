/**
 * The vocabulary of the fast decoders (`decoder.ts` compiles them): what a
 * compiled decoder is, the two sentinels it answers besides a value, and the
 * `FastDecode` annotation by which a building block brings its own.
 *
 * The sentinels are Schema's own (`SchemaCompiler.invalid` and `missing`),
 * so a compiled decoder is installed in Schema's registry as it is.
 */
import type * as Schema from "effect/Schema"
import * as SchemaCompiler from "effect/schema/SchemaCompiler"
import type * as SchemaAST from "effect/SchemaAST"

/** What a fast decoder returns when it cannot decode a value (Schema's `invalid`). */
export const bail: typeof SchemaCompiler.invalid = SchemaCompiler.invalid

/**
 * The input of a property the object does not have, and the output of a
 * decoder that produces no value (an optional property left out): Schema's
 * `missing`. Leaves pass it through; a struct refuses it for a required
 * property.
 */
export const absent: typeof SchemaCompiler.missing = SchemaCompiler.missing

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
  readonly transformations: ReadonlyArray<unknown>
}

/** The transformations of a node's encoding, in order. */
export const transformationsOf = (ast: SchemaAST.AST): ReadonlyArray<unknown> =>
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

/**
 * The node's own `FastDecode` and how many links of its encoding it covers:
 * the annotation holds while the node's encoding starts with the
 * transformations it was written for (links added later, such as a decoding
 * default, are decoded before it).
 */
export const ownFastDecode = (
  ast: SchemaAST.AST
): { readonly build: FastDecodeBuild; readonly covers: number } | undefined => {
  const annotation = ast.annotations?.[FastDecode] as FastDecodeAnnotation | undefined
  if (annotation === undefined) return undefined
  const { transformations } = annotation
  const current = transformationsOf(ast)
  return current.length >= transformations.length && transformations.every((t, i) => t === current[i])
    ? { build: annotation.build, covers: transformations.length }
    : undefined
}
