/**
 * The steps a fast decoder shares with Schema's: a getter's decoding side,
 * a node's checks, and the marker of Schema's "unchanged" answer.
 */
import * as Exit from "effect/Exit"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import type * as SchemaAST from "effect/SchemaAST"
import type * as SchemaGetter from "effect/SchemaGetter"
import type { Fast } from "./fastDecode.js"
import { absent, bail } from "./fastDecode.js"

/** The parse options a fast decoder is compiled for: Schema's defaults. */
export const options: SchemaAST.ParseOptions = {}

/**
 * What Schema's own parsers answer for "the input, unchanged": a shared
 * success whose value is an internal marker, not the input. Learnt from
 * `Schema.Json`'s parser (the marker is not exported); a declaration that
 * answers it decodes to its input.
 */
export const unchanged: unknown = (() => {
  const json = Schema.Json.ast as SchemaAST.Declaration
  return json.run(json.typeParameters)(null, json, options)
})()

/** The value of an effect that is a settled success; anything else (a failure, an effect to run) bails. */
export const settled = (result: unknown): unknown => Exit.isExit(result) && Exit.isSuccess(result) ? result.value : bail

/** A getter's step on the decoding side: the value, `absent` for no value, or `bail`. */
export const getterStep = (getter: SchemaGetter.Getter<unknown, unknown, unknown>): (value: unknown) => unknown => {
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
export const checked = (fast: Fast, ast: SchemaAST.AST, checks: SchemaAST.Checks): Fast => (input) => {
  const value = fast(input)
  return value === bail || value === absent || passes(checks, value, ast) ? value : bail
}

/**
 * A node's `encodingChecks` (the checks of the side it decodes from: the
 * type side's checks on a flipped node) run, as Schema runs them, on its
 * input once its own decoder took it.
 */
export const inputChecked = (fast: Fast, ast: SchemaAST.AST, checks: SchemaAST.Checks): Fast => (input) => {
  const value = fast(input)
  return value === bail || value === absent || passes(checks, input, ast) ? value : bail
}

/** The checks a node runs on its input (`Schema.flip` moves a node's checks there), if any. */
export const encodingChecksOf = (ast: SchemaAST.AST): SchemaAST.Checks | undefined =>
  "encodingChecks" in ast ? ast.encodingChecks : undefined
