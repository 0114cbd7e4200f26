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
import { Sandbox } from "@bitget-effect/sandbox"
import { assert, describe, layer } from "@effect/vitest"
import { Chunk, DateTime, Effect, Stream } from "effect"
import type { ClientOptions } from "./support.js"
import {
  apiKeyOf,
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
const sizes = { taxRecords: 1_500, taxDays: 100, taxBurst: 120, p2pOrders: 10, futuresOrders: 10 }
const client: ClientOptions = {
  rateLimit: { overrides: { "tax.spotRecords": { limit: scale, window: "1 second" } } },
  timeout: "400 millis",
  retry: { baseDelay: "20 millis" }
}

describe("TaxRecords.stream", () => {
  layer(Sandbox.layer({ seed: 21, sizes, limitScale: scale }), { excludeTestServices: true })((it) => {
    /** 78 days (three 30-day windows), cutting into the data at both ends. */
    const range = (sandbox: Sandbox.Sandbox.Service) => ({
      start: sandbox.anchor - 78 * DAY - 12_345,
      end: sandbox.anchor - 2 * DAY
    })
    const walk = (sandbox: Sandbox.Sandbox.Service) =>
      TaxRecords.stream({
        startTime: DateTime.unsafeMake(range(sandbox).start),
        endTime: DateTime.unsafeMake(range(sandbox).end),
        pageSize: 50
      })

    it.effect(
      "walks three 30-day windows in ≥ 10 pages: every record once, none missing",
      () =>
        Effect.gen(function*() {
          const sandbox = yield* freshSandbox
          const { end, start } = range(sandbox)
          const expected = oracle(sandbox).taxIds("hmac", start, end)
          const burst = oracle(sandbox).dataset.taxBurstTime(apiKeyOf(sandbox, "hmac"))!
          assert.isTrue(burst >= start && burst <= end, "the 120-record burst (one timestamp) lies inside the range")
          assert.isAbove(expected.length, 500)

          const records = Chunk.toReadonlyArray(yield* Stream.runCollect(walk(sandbox)).pipe(withClient(client)))
          const ids = records.map((r) => r.id)
          assertNewestFirstUnique(ids, "tax stream")
          assert.deepStrictEqual(ids, expected, "exactly the sandbox's records, in order")
          assert.isTrue(
            records.every((r) => DateTime.toEpochMillis(r.ts) >= start && DateTime.toEpochMillis(r.ts) <= end)
          )
          assert.isAtLeast(records.filter((r) => DateTime.toEpochMillis(r.ts) === burst).length, 120)

          const log = yield* logOf("tax-records")
          assert.isAtLeast(cleanPages(log).length, 10)
          assert.strictEqual(cleanPages(log).length, log.length, "no 429 and no error on the way")
          assert.strictEqual(windowsAsked(log).length, 3, "three windows")
          assert.isTrue(log.every((e) => e.query.includes("limit=50")))
        }),
      20_000
    )

    it.effect(
      "the same walk rides out a 503, two 429s, a reset connection and a timeout mid-way",
      () =>
        Effect.gen(function*() {
          const sandbox = yield* freshSandbox
          const { end, start } = range(sandbox)
          const expected = oracle(sandbox).taxIds("hmac", start, end)
          const records = yield* Stream.runCollect(
            midway(walk(sandbox), walkFaults(sandbox, "tax-records", [100, 250, 400, 550], "700 millis"))
          )
            .pipe(withClient(client))
          const ids = Chunk.toReadonlyArray(records).map((r) => r.id)
          assertNewestFirstUnique(ids, "tax stream with faults")
          assert.deepStrictEqual(ids, expected)

          const log = yield* logOf("tax-records")
          assert.deepStrictEqual(faultsSeen(log).filter((f) => !f.startsWith("delay")), ["503", "429", "429", "reset"])
          assert.strictEqual((yield* sandbox.stats).faultsInjected, 5)
          assert.deepStrictEqual(yield* sandbox.pendingFaults, [])
          assert.strictEqual(
            new Set(cleanPages(log).map((e) => e.query)).size,
            cleanPages(log).length,
            "no page was fetched twice after a success"
          )
          assert.isAtLeast(cleanPages(log).length, 10)
        }),
      20_000
    )
  })
})
