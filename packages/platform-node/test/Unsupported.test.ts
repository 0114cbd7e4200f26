/**
 * On a runtime whose `undici` cannot send (Bun's is a stand-in: its `Agent`
 * has no `request` or `close`), the Node layers fail as they are built, with
 * one line naming the layer to use instead, and no call is made. The stand-in
 * is faked here, as Bun has it.
 */
import * as FailureText from "@bitget-effect/core/FailureText"
import * as Symbols from "@bitget-effect/core/Symbols"
import { assert, describe, it } from "@effect/vitest"
import { Cause, ConfigProvider, Effect, Exit } from "effect"
import { vi } from "vitest"
import * as BitgetNode from "../src/BitgetNode.js"
import * as UndiciTransport from "../src/UndiciTransport.js"

vi.mock("undici", () => ({ Agent: class Agent {} }))

describe("BitgetNode on a runtime without Node's undici", () => {
  for (const [name, layer] of [["layer", BitgetNode.layer()], ["layerConfig", BitgetNode.layerConfig()]] as const) {
    it.effect(`${name} fails at build, naming the layer to use instead; the program never runs`, () =>
      Effect.gen(function*() {
        let ran = false
        const exit = yield* Effect.exit(
          Symbols.symbols().pipe(
            Effect.tap(() => Effect.sync(() => (ran = true))),
            Effect.provide(layer),
            Effect.provideService(ConfigProvider.ConfigProvider, ConfigProvider.fromUnknown({}))
          )
        )
        assert.isFalse(ran)
        assert.isTrue(Exit.isFailure(exit))
        if (Exit.isFailure(exit)) {
          assert.deepStrictEqual(FailureText.describe(exit.cause), [
            "error: undici transport failure (Unexpected): this runtime's undici cannot send requests " +
            "(its Agent has no request method, as under Bun): use BitgetFetch.layer from @bitget-effect/core " +
            "(fetch and WebCrypto) instead of BitgetNode.layer",
            "hint: not a network failure, so not retried: a bug, or a runtime this transport does not support; " +
            "the message names the cause"
          ])
          assert.isTrue(Cause.hasDies(exit.cause))
          // what a program (the CLI) recognises to take another transport
          assert.isTrue(
            exit.cause.reasons.some((reason) =>
              Cause.isDieReason(reason) && UndiciTransport.isUnsupported(reason.defect)
            )
          )
        }
      }))
  }
})
