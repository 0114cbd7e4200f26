import { Credentials, Symbols } from "@bitget-effect/core"
import { BitgetNode } from "@bitget-effect/platform-node"
import { Fault, Sandbox } from "@bitget-effect/sandbox"
import { assert, describe, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"

// The client, pointed at the running sandbox with its demo HMAC key.
const Client = Layer.unwrap(
  Effect.map(
    Sandbox.Sandbox,
    (sandbox) => BitgetNode.layer({ baseUrl: sandbox.url, credentials: Credentials.hmac(sandbox.credentials.hmac) })
  )
)

describe("my service", () => {
  // the sandbox is a real server: run with the live clock (`excludeTestServices`), not TestClock
  layer(Layer.provideMerge(Client, Sandbox.layer({ seed: 42 })), { excludeTestServices: true })((it) => {
    it.effect("rides out two gateway errors", () =>
      Effect.gen(function*() {
        const sandbox = yield* Sandbox.Sandbox
        yield* sandbox.reset // seeded state, initial faults, empty log
        yield* sandbox.inject("symbols", Fault.httpError(503), { times: 2 })
        const [symbol] = yield* Symbols.symbols({ symbol: "BTC$USDT" })
        assert.strictEqual(symbol?.symbol, "BTC$USDT")
        const log = yield* sandbox.requests
        assert.deepStrictEqual(log.map((entry) => entry.status), [503, 503, 200])
      }))
  })
})
