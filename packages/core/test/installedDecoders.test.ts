/**
 * Every endpoint's response decodes on the fast path through Schema's own
 * entry points: defining the endpoint installs its compiled decoder in
 * Schema's registry, the whole response compiles (a node without a fast
 * decoder would send the whole answer to Schema's slower parser), and every
 * class in it builds its instances by its prototype, not by its constructor
 * per record. A new endpoint, field or class that falls back fails here.
 */
import { assert, describe, it } from "@effect/vitest"
import { Arbitrary, Effect, Schema, SchemaAST } from "effect"
import { classPath } from "../src/internal/classDecoder.js"
import { compiled, isInstalled, unregistered } from "../src/internal/decoder.js"
import { compiledEncoder } from "../src/internal/encoder.js"
import { descriptors } from "./descriptors.js"

/** The classes a schema holds (declarations over a struct: `Schema.Class` and its kin), each once. */
const classesOf = (ast: SchemaAST.AST, found: Set<SchemaAST.AST> = new Set()): Set<SchemaAST.AST> => {
  const first = ast.encoding?.[0]
  if (SchemaAST.isDeclaration(ast) && first !== undefined && SchemaAST.isObjects(first.to)) found.add(ast)
  for (const link of ast.encoding ?? []) classesOf(link.to, found)
  const inner = SchemaAST.isObjects(ast)
    ? [...ast.propertySignatures.map((ps) => ps.type), ...ast.indexSignatures.map((is) => is.type)]
    : SchemaAST.isArrays(ast)
    ? [...ast.elements, ...ast.rest]
    : SchemaAST.isUnion(ast)
    ? ast.types
    : []
  for (const node of inner) classesOf(node, found)
  return found
}

/** Values of an endpoint's answers, as the client gives them. */
const values = <A, I>(schema: Schema.Codec<A, I>): ReadonlyArray<A> =>
  Effect.runSync(Arbitrary.sampleEffect(Arbitrary.schema(schema), { count: 40, seed: 33 }))

/** Valid answers of an endpoint, as the wire carries them (encoded by Schema alone, through JSON text). */
const answers = <A, I>(schema: Schema.Codec<A, I>): ReadonlyArray<unknown> =>
  values(schema).map((value) => JSON.parse(JSON.stringify(Schema.encodeSync(unregistered(schema))(value))))

describe("installed decoders", () => {
  for (const endpoint of descriptors) {
    it(`${endpoint.name}: its response decodes on the fast path through Schema`, () => {
      assert.isTrue(isInstalled(endpoint.response.ast), "the endpoint did not install its decoder")
      assert.isDefined(compiled(endpoint.response), "the response has a node without a fast decoder")
      const decode = Schema.decodeUnknownSync(endpoint.response)
      for (const answer of answers(endpoint.response)) decode(answer)
      for (const node of classesOf(endpoint.response.ast)) {
        const name = String(node.annotations?.identifier ?? node._tag)
        assert.strictEqual(classPath(node), "prototype", `${name} is not built by its prototype`)
      }
    })
  }

  for (const endpoint of descriptors) {
    it(`${endpoint.name}: its response encodes on the fast path through Schema, as Schema alone does`, () => {
      assert.isTrue(isInstalled(SchemaAST.flip(endpoint.response.ast)), "the endpoint did not install its encoder")
      assert.isDefined(compiledEncoder(endpoint.response), "the response has a node without a fast encoder")
      const encode = Schema.encodeSync(endpoint.response)
      const alone = Schema.encodeSync(unregistered(endpoint.response))
      for (const value of values(endpoint.response)) assert.deepStrictEqual(encode(value), alone(value))
    })
  }

  it("a class whose constructor does more keeps its constructor", () => {
    class Counted extends Schema.Class<Counted>("Counted")({ id: Schema.String }) {
      constructor(props: { readonly id: string }, options?: Schema.MakeOptions) {
        super(props, options)
      }
    }
    class Cached extends Schema.Class<Cached>("Cached")({ id: Schema.String }) {
      readonly #seen = new Set<string>()
      seen(): number {
        return this.#seen.size
      }
    }
    class Stamped extends Schema.Class<Stamped>("Stamped")({ id: Schema.String }) {
      readonly stamp = 1
    }
    for (const Class of [Counted, Cached, Stamped]) {
      const schema = Schema.Array(Class)
      const fast = compiled(schema)
      assert.isDefined(fast)
      const decoded = fast!([{ id: "a" }, { id: "b" }]) as ReadonlyArray<object>
      assert.strictEqual(classPath(Class.ast), "constructor", Class.identifier)
      for (const instance of decoded) assert.instanceOf(instance, Class)
    }
  })
})
