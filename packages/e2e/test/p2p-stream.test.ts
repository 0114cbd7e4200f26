/**
 * `P2pOrders.stream` end to end with the RSA key: 190 days (three 90-day
 * windows) in 50-order pages, compared with what the sandbox holds; then the
 * same walk with faults injected mid-way.
 */
import { P2pOrders } from "@bitget-effect/core"
import { Sandbox } from "@bitget-effect/sandbox"
import { assert, describe, layer } from "@effect/vitest"
import { Chunk, DateTime, Effect, Stream } from "effect"
import type { ClientOptions } from "./support.js"
import {
  assertNewestFirstUnique,
  cleanPages,
  DAY,
  faultsSeen,
  freshSandbox,
  logOf,
  midway,
  oracle,
  walkFaults,
  windowsAsked,
  withClient
} from "./support.js"

const scale = 20
const sizes = { p2pOrders: 1_200, p2pDays: 200, taxRecords: 10, futuresOrders: 10 }
const client: ClientOptions = {
  key: "rsa",
  rateLimit: { overrides: { "p2p.orderList": { limit: 10 * scale, window: "1 second" } } },
  timeout: "400 millis",
  retry: { baseDelay: "20 millis" }
}

describe("P2pOrders.stream", () => {
  layer(Sandbox.layer({ seed: 31, sizes, limitScale: scale }), { excludeTestServices: true })((it) => {
    const startOf = (sandbox: Sandbox.Sandbox.Service) => sandbox.anchor - 190 * DAY
    const walk = (sandbox: Sandbox.Sandbox.Service) =>
      P2pOrders.stream({ startTime: DateTime.unsafeMake(startOf(sandbox)), pageSize: 50 })

    it.effect(
      "walks three 90-day windows up to now in ≥ 10 pages: every order once, none missing",
      () =>
        Effect.gen(function*() {
          const sandbox = yield* freshSandbox
          const expected = oracle(sandbox).p2pIds("rsa", startOf(sandbox), Date.now())
          assert.isAbove(expected.length, 1_000)
          assert.isBelow(expected.length, sandbox.sizes.p2pOrders, "the range cuts into the data")
          const orders = Chunk.toReadonlyArray(yield* Stream.runCollect(walk(sandbox)).pipe(withClient(client)))
          const ids = orders.map((o) => o.orderId)
          assertNewestFirstUnique(ids, "p2p stream")
          assert.deepStrictEqual(ids, expected)
          const log = yield* logOf("p2p-orders")
          assert.isAtLeast(cleanPages(log).length, 10)
          assert.strictEqual(cleanPages(log).length, log.length, "no 429 and no error on the way")
          assert.strictEqual(windowsAsked(log).length, 3)
          assert.isTrue(log.every((e) => e.apiKey === sandbox.credentials.rsa.apiKey && e.signature === "valid"))
        }),
      20_000
    )

    it.effect(
      "the same walk rides out a 503, two 429s, a reset connection and a timeout mid-way",
      () =>
        Effect.gen(function*() {
          const sandbox = yield* freshSandbox
          const expected = oracle(sandbox).p2pIds("rsa", startOf(sandbox), Date.now())
          const orders = yield* Stream.runCollect(
            midway(walk(sandbox), walkFaults(sandbox, "p2p-orders", [75, 300, 600, 900], "700 millis"))
          ).pipe(withClient(client))
          const ids = Chunk.toReadonlyArray(orders).map((o) => o.orderId)
          assertNewestFirstUnique(ids, "p2p stream with faults")
          assert.deepStrictEqual(ids, expected)
          const log = yield* logOf("p2p-orders")
          assert.deepStrictEqual(faultsSeen(log).filter((f) => !f.startsWith("delay")), ["503", "429", "429", "reset"])
          assert.strictEqual((yield* sandbox.stats).faultsInjected, 5)
          assert.deepStrictEqual(yield* sandbox.pendingFaults, [])
          assert.strictEqual(new Set(cleanPages(log).map((e) => e.query)).size, cleanPages(log).length)
        }),
      20_000
    )
  })
})
