/**
 * Where undici does not run, building the Node layers fails at once with a
 * readable line, and no call is made: on a Node.js older than 22.19 (checked
 * before undici is loaded; the real Node 20 is run by the CLI's
 * OldNode.test.ts), and where undici cannot be loaded at all (Deno without
 * `--allow-env` for the variables undici reads as it loads; faked here by a
 * module that throws, which vitest reports as its own error).
 */
import * as BitgetError from "@bitget-effect/core/BitgetError"
import * as FailureText from "@bitget-effect/core/FailureText"
import * as Symbols from "@bitget-effect/core/Symbols"
import { assert, describe, it } from "@effect/vitest"
import { Cause, ConfigProvider, Effect, Exit } from "effect"
import { vi } from "vitest"
import * as BitgetNode from "../src/BitgetNode.js"
import * as UndiciTransport from "../src/UndiciTransport.js"

const undici = vi.hoisted(() => ({ loads: 0 }))

// undici as Deno loads it without the permission to read UNDICI_NO_WASM_SIMD
vi.mock("undici", () => {
  undici.loads++
  const error = new Error("Requires env access to \"UNDICI_NO_WASM_SIMD\", run again with the --allow-env flag")
  error.name = "NotCapable"
  throw error
})

/** `process.versions` with `node` as given, for the length of an effect. */
const onNode = <A, E, R>(node: string, effect: Effect.Effect<A, E, R>) =>
  Effect.acquireUseRelease(
    Effect.sync(() => {
      const versions = process.versions
      Object.defineProperty(process, "versions", { value: { ...versions, node }, configurable: true })
      return versions
    }),
    () => effect,
    (versions) => Effect.sync(() => Object.defineProperty(process, "versions", { value: versions, configurable: true }))
  )

/** Builds `layer` for a call, which must never run; yields the cause of the failure. */
const buildFails = (layer: ReturnType<typeof BitgetNode.layerConfig>) =>
  Effect.gen(function*() {
    let ran = false
    const exit = yield* Effect.exit(
      Symbols.symbols().pipe(
        Effect.tap(() => Effect.sync(() => (ran = true))),
        Effect.provide(layer),
        Effect.provideService(ConfigProvider.ConfigProvider, ConfigProvider.fromUnknown({}))
      )
    )
    assert.isFalse(ran, "the program never runs")
    assert.isTrue(Exit.isFailure(exit))
    return Exit.isFailure(exit) ? exit.cause : Cause.empty
  })

const layers = [["layer", () => BitgetNode.layer()], ["layerConfig", () => BitgetNode.layerConfig()]] as const

describe("checkNodeVersion", () => {
  it.effect("passes Node.js 22.19 and later, and Bun whatever Node.js it reports; fails older ones", () =>
    Effect.gen(function*() {
      const cases: ReadonlyArray<readonly [Record<string, string>, boolean]> = [
        [{ node: "22.19.0" }, true],
        [{ node: "22.20.1" }, true],
        [{ node: "23.0.0" }, true],
        [{ node: "26.10.0" }, true],
        [{ node: "22.6.0", bun: "1.1.30" }, true],
        [{}, true],
        [{ node: "22.18.9" }, false],
        [{ node: "20.20.2" }, false],
        [{ node: "18.0.0" }, false]
      ]
      for (const [versions, passes] of cases) {
        const exit = yield* Effect.exit(UndiciTransport.checkNodeVersion(versions))
        assert.strictEqual(Exit.isSuccess(exit), passes, JSON.stringify(versions))
      }
      assert.isTrue(Exit.isSuccess(yield* Effect.exit(UndiciTransport.checkNodeVersion())), "this Node.js")
    }))

  it.effect("fails with one line naming the version, the supported range and BitgetFetch.layer", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(UndiciTransport.checkNodeVersion({ node: "20.20.2" }))
      assert.isTrue(UndiciTransport.isUnsupportedNode(error))
      assert.isFalse(UndiciTransport.isUnsupported(error), "not Bun's case: no other transport is taken for it")
      const line = "error: Node.js 20.20.2 is not supported: BitgetNode.layer's undici needs Node.js >=22.19; " +
        "upgrade Node.js, or use BitgetFetch.layer from @bitget-effect/core (fetch and WebCrypto) on this version"
      // as a failure (the CLI checks first) and as a defect (what the layers die with)
      assert.deepStrictEqual(BitgetNode.describeFailure(Cause.fail(error)), [line])
      assert.deepStrictEqual(BitgetNode.describeFailure(Cause.die(error)), [line])
      // core's description of it stays readable
      assert.match(FailureText.describe(Cause.die(error))[0] ?? "", /^error: Node\.js transport failure/)
    }))

  it("BitgetNode.describeFailure describes any other failure as core does", () => {
    const other = Cause.fail(BitgetError.apiError({ endpoint: "GET /x", code: "40009", msg: "sign signature error" }))
    assert.deepStrictEqual(BitgetNode.describeFailure(other), FailureText.describe(other))
    assert.deepStrictEqual(BitgetNode.describeFailure(Cause.interrupt(0)), [])
  })
})

describe("BitgetNode where undici does not run", () => {
  for (const [name, layer] of layers) {
    it.effect(`${name} fails at build on Node.js 20, before undici is loaded`, () =>
      Effect.gen(function*() {
        const loads = undici.loads
        const cause = yield* onNode("20.20.2", buildFails(layer()))
        assert.strictEqual(undici.loads, loads, "undici is not loaded")
        assert.isTrue(
          cause.reasons.some((reason) => Cause.isDieReason(reason) && UndiciTransport.isUnsupportedNode(reason.defect))
        )
        const lines = BitgetNode.describeFailure(cause)
        assert.strictEqual(lines.length, 1)
        assert.include(lines[0], "Node.js 20.20.2 ")
        assert.include(lines[0], ">=22.19")
        assert.include(lines[0], "BitgetFetch.layer")
      }))

    it.effect(`${name} fails at build where undici cannot be loaded, naming why and the layer to use`, () =>
      Effect.gen(function*() {
        const cause = yield* buildFails(layer())
        assert.isAbove(undici.loads, 0, "undici was loaded, and threw")
        // what a program (the CLI) recognises to take another transport
        assert.isTrue(
          cause.reasons.some((reason) => Cause.isDieReason(reason) && UndiciTransport.isUnsupported(reason.defect))
        )
        const [what, hint, ...rest] = BitgetNode.describeFailure(cause)
        assert.match(what ?? "", /^error: undici transport failure \(Unexpected\): this runtime cannot load undici \(/)
        assert.include(what, "use BitgetFetch.layer from @bitget-effect/core")
        assert.match(hint ?? "", /^hint: /)
        assert.deepStrictEqual(rest, [])
      }))
  }
})
