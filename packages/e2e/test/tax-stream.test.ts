/**
 * `TaxRecords.stream` end to end: a range longer than the 30-day window,
 * walked in 50-record pages (including a burst of records sharing one
 * timestamp), compared with what the sandbox holds; then the same walk with
 * faults injected mid-way, which the client's retries absorb.
 *
 * The tax endpoint allows 1 call per second; the sandbox's limits are scaled
 * by 20 and the client told the same, so the walk stays quick and still runs
 * under both limiters.
 */
import { TaxRecords } from "@bitget-effect/core"
import type { Sandbox } from "@bitget-effect/sandbox"
import { assert, describe } from "@effect/vitest"
import { DateTime, Effect } from "effect"
import type { Walk } from "./support.js"
import {
  apiKeyOf,
  assertCleanWalk,
  assertWalk,
  assertWalkRidesOutFaults,
  cleanPages,
  DAY,
  freshSandbox,
  onSandbox,
  oracle,
  walkClient,
  windowsAsked
} from "./support.js"

const scale = 20
const sizes = { taxRecords: 1_500, taxDays: 100, taxBurst: 120, p2pOrders: 10, futuresOrders: 10 }

describe("TaxRecords.stream", () => {
  onSandbox({ seed: 21, sizes, limitScale: scale })((it) => {
    /** 78 days (three 30-day windows), cutting into the data at both ends. */
    const range = (sandbox: Sandbox.Sandbox.Service) => ({
      start: sandbox.anchor - 78 * DAY - 12_345,
      end: sandbox.anchor - 2 * DAY
    })
    const records: Walk<TaxRecords.SpotTaxRecord> = {
      name: "tax stream",
      route: "tax-records",
      client: walkClient("tax.spotRecords", scale),
      stream: (sandbox) =>
        TaxRecords.stream({
          startTime: DateTime.makeUnsafe(range(sandbox).start),
          endTime: DateTime.makeUnsafe(range(sandbox).end),
          pageSize: 50
        }),
      id: (record) => record.id,
      expected: (sandbox) => oracle(sandbox).taxIds("hmac", range(sandbox).start, range(sandbox).end)
    }

    it.effect(
      "walks three 30-day windows in ≥ 10 pages: every record once, none missing",
      () =>
        Effect.gen(function*() {
          const sandbox = yield* freshSandbox
          const { end, start } = range(sandbox)
          const expected = records.expected(sandbox)
          const burst = oracle(sandbox).dataset.taxBurstTime(apiKeyOf(sandbox, "hmac"))!
          assert.isTrue(burst >= start && burst <= end, "the 120-record burst (one timestamp) lies inside the range")
          assert.isAbove(expected.length, 500)

          const walked = yield* assertWalk(records, sandbox)
          assert.isTrue(
            walked.every((r) => DateTime.toEpochMillis(r.ts) >= start && DateTime.toEpochMillis(r.ts) <= end)
          )
          assert.isAtLeast(walked.filter((r) => DateTime.toEpochMillis(r.ts) === burst).length, 120)

          const log = yield* assertCleanWalk(records)
          assert.strictEqual(windowsAsked(log).length, 3, "three windows")
          assert.isTrue(log.every((e) => e.query.includes("limit=50")))
        }),
      20_000
    )

    it.effect(
      "the same walk rides out a 503, two 429s, a reset connection and a timeout mid-way",
      () =>
        Effect.gen(function*() {
          const log = yield* assertWalkRidesOutFaults(records, yield* freshSandbox, [100, 250, 400, 550])
          assert.isAtLeast(cleanPages(log).length, 10)
        }),
      20_000
    )
  })
})
