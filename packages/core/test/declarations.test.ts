/**
 * Declarations whose parser answers "the input, unchanged" (`Schema.Json`,
 * `Schema.JsonObject`): the compiled decoder and encoder give the input, as
 * Schema does, not Schema's internal marker.
 */
import { assert, describe, it } from "@effect/vitest"
import { Result, Schema } from "effect"
import { compiled, decoder } from "../src/internal/decoder.js"
import { compiledEncoder, encoder } from "../src/internal/encoder.js"

const Answer = Schema.Struct({ data: Schema.Json, meta: Schema.optional(Schema.JsonObject) })
const json = { data: [1, "two", { three: null }], meta: { nested: [true] } }

describe("declarations answered unchanged", () => {
  it("decode to their input, on the compiled path and through decoder", () => {
    const fast = compiled(Answer)
    assert.isDefined(fast, "Schema.Json compiles")
    assert.deepStrictEqual(fast!(json), json)
    const decoded = decoder(Answer)(json)
    assert.isTrue(Result.isSuccess(decoded))
    assert.deepStrictEqual(Result.getOrThrow(decoded), json)
  })

  it("encode to their input: a JSON body is sent whole, not as {}", () => {
    const fast = compiledEncoder(Answer)
    assert.isDefined(fast, "Schema.Json compiles")
    assert.deepStrictEqual(fast!(json), json)
    assert.deepStrictEqual(Result.getOrThrow(encoder(Answer)(json)), json)
    assert.deepStrictEqual(Schema.encodeSync(Answer)(json), json)
  })
})
