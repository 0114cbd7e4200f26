/**
 * `P2pOrders.stream` end to end with the RSA key: 190 days (three 90-day
 * windows) in 50-order pages, compared with what the sandbox holds; then the
 * same walk with faults injected mid-way.
 */
import { P2pOrders } from "@bitget-effect/core"
import type { Sandbox } from "@bitget-effect/sandbox"
import { assert, describe } from "@effect/vitest"
import { DateTime, Effect } from "effect"
import type { Walk } from "./support.js"
import {
  assertCleanWalk,
  assertWalk,
  assertWalkRidesOutFaults,
  DAY,
  freshSandbox,
  onSandbox,
  oracle,
  walkClient,
  windowsAsked
} from "./support.js"

const scale = 20
const sizes = { p2pOrders: 1_200, p2pDays: 200, taxRecords: 10, futuresOrders: 10 }

describe("P2pOrders.stream", () => {
  onSandbox({ seed: 31, sizes, limitScale: scale })((it) => {
    const startOf = (sandbox: Sandbox.Sandbox.Service) => sandbox.anchor - 190 * DAY
    const orders: Walk<P2pOrders.P2pOrder> = {
      name: "p2p stream",
      route: "p2p-orders",
      client: { ...walkClient("p2p.orderList", 10 * scale), key: "rsa" },
      stream: (sandbox) => P2pOrders.stream({ startTime: DateTime.makeUnsafe(startOf(sandbox)), pageSize: 50 }),
      id: (order) => order.orderId,
      expected: (sandbox) => oracle(sandbox).p2pIds("rsa", startOf(sandbox), Date.now())
    }

    it.effect(
      "walks three 90-day windows up to now in ≥ 10 pages: every order once, none missing",
      () =>
        Effect.gen(function*() {
          const sandbox = yield* freshSandbox
          const expected = orders.expected(sandbox)
          assert.isAbove(expected.length, 1_000)
          assert.isBelow(expected.length, sandbox.sizes.p2pOrders, "the range cuts into the data")
          yield* assertWalk(orders, sandbox)
          const log = yield* assertCleanWalk(orders)
          assert.strictEqual(windowsAsked(log).length, 3)
          assert.isTrue(log.every((e) => e.apiKey === sandbox.credentials.rsa.apiKey && e.signature === "valid"))
        }),
      20_000
    )

    it.effect(
      "the same walk rides out a 503, two 429s, a reset connection and a timeout mid-way",
      () => Effect.flatMap(freshSandbox, (sandbox) => assertWalkRidesOutFaults(orders, sandbox, [75, 300, 600, 900])),
      20_000
    )
  })
})
