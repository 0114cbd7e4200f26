/**
 * Where the runtime refuses to build code from text at the moment a schema is
 * compiled (workerd, once a request is being answered; a strict CSP), the
 * compiler interprets the struct instead of failing.
 */
import { assert, describe, it } from "@effect/vitest"
import { Result, Schema } from "effect"
import { decoder, unregistered } from "../src/internal/decoder.js"

/** Runs `f` while `new Function` throws as workerd's does, then restores it. */
const withoutCodeGeneration = <A>(f: () => A): A => {
  const original = globalThis.Function
  globalThis.Function = new Proxy(original, {
    construct: () => {
      throw new EvalError("Code generation from strings disallowed for this context")
    }
  })
  try {
    return f()
  } finally {
    globalThis.Function = original
  }
}

describe("code generation refused", () => {
  it("a struct compiled then is interpreted and decodes as Schema does", () => {
    const Order = Schema.Struct({ id: Schema.String, size: Schema.Number, note: Schema.optional(Schema.String) })
    const decode = withoutCodeGeneration(() => decoder(Order))
    const input = { id: "1", size: 2, note: "n", extra: true }
    const decoded = withoutCodeGeneration(() => decode(input))
    assert.deepStrictEqual(decoded, Schema.decodeUnknownResult(unregistered(Order))(input))
    assert.deepStrictEqual(Result.getOrThrow(decoded), { id: "1", size: 2, note: "n" })
  })
})
