import { Dataset, Sandbox } from "@bitget-effect/sandbox"
import { assert, describe, layer } from "@effect/vitest"
import { DateTime, Effect } from "effect"
import worker from "../src/runtime-worker.js"

// The worker's fetch handler, called on Node with bindings as Cloudflare would pass them, against the sandbox.
describe("the worker", () => {
  layer(Sandbox.layer({ seed: 42 }), { excludeTestServices: true })((it) => {
    it.effect("answers with the counts of a public and a signed call, its key from the bindings", () =>
      Effect.gen(function*() {
        const sandbox = yield* Sandbox.Sandbox
        const { apiKey, passphrase, secret } = sandbox.credentials.hmac
        const env = {
          BITGET_BASE_URL: sandbox.url,
          BITGET_API_KEY: apiKey,
          BITGET_API_SECRET: secret,
          BITGET_API_PASSPHRASE: passphrase
        }
        const response = yield* Effect.promise(() => worker.fetch(new Request("http://worker.test/"), env))
        assert.strictEqual(response.status, 200)
        const data = Dataset.make(sandbox)
        const now = yield* DateTime.now
        const week = data.taxRecords(apiKey, {
          start: DateTime.toEpochMillis(DateTime.subtract(now, { days: 7 })),
          end: DateTime.toEpochMillis(now)
        })
        assert.deepStrictEqual(yield* Effect.promise(() => response.json()), {
          symbols: data.symbols.length,
          taxRecords: week.length
        })
      }))

    it.effect("without a key in its bindings, answers 502 naming what to set", () =>
      Effect.gen(function*() {
        const sandbox = yield* Sandbox.Sandbox
        const response = yield* Effect.promise(() =>
          worker.fetch(new Request("http://worker.test/"), { BITGET_BASE_URL: sandbox.url })
        )
        assert.strictEqual(response.status, 502)
        assert.match(yield* Effect.promise(() => response.text()), /BITGET_API_KEY/)
      }))
  })
})
