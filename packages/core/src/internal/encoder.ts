/**
 * Fast request encoders. Schema encodes by decoding the flipped AST
 * (`SchemaAST.flip`): the type side's checks become the flipped nodes'
 * `encodingChecks`, run on a node's input before the transformations
 * encode it. The decoder's compiler follows the same flipped AST (without
 * the `FastDecode` annotations, which are decoders), so a compiled encoder
 * either builds exactly the value Schema's encoder builds, or gives up and
 * lets Schema encode, so a failure is always Schema's, with every issue
 * (`errors: "all"`).
 */
import * as Schema from "effect/Schema"
import * as SchemaAST from "effect/SchemaAST"
import type { Fast, Parser } from "./decoder.js"
import { compilerOf, withSchema } from "./decoder.js"

const encoders = new WeakMap<SchemaAST.AST, Parser<unknown>>()

/**
 * The encoder of a request schema (built once per schema): the compiled fast
 * path when there is one, in front of Schema's encoder reporting every issue.
 */
export const encoder = <A, I>(schema: Schema.Codec<A, I>): Parser<I> => {
  const known = encoders.get(schema.ast)
  if (known !== undefined) return known as Parser<I>
  const made = withSchema(
    compilerOf(true)(SchemaAST.flip(schema.ast)),
    Schema.encodeUnknownResult(schema, { errors: "all" })
  )
  encoders.set(schema.ast, made)
  return made
}

/**
 * The compiled encoder of a schema alone (`undefined` when it has none), with
 * structs generated or interpreted, for tests that hold both to Schema's
 * encoder.
 */
export const compiledEncoder = (schema: Schema.Top, generates = true): Fast | undefined =>
  compilerOf(true, generates)(SchemaAST.flip(schema.ast))
