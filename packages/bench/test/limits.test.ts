/**
 * The limits bench covers every endpoint core exports: its table gives each
 * one a part in the workload or the reason it has none (CI runs this; it runs
 * the bench itself only at its tiny size, without `bench:limits`).
 */
import { assert, describe, it } from "@effect/vitest"
import { gaps, workloads } from "../src/limits/table.js"

describe("the limits bench's table", () => {
  it("has an entry for every endpoint core exports, and none for an endpoint it lacks", () => {
    assert.deepStrictEqual(gaps, [], "the limits bench's table and core's endpoints differ")
  })

  it("keeps its four endpoints under pressure, each with its route", () => {
    assert.deepStrictEqual(workloads().map((workload) => [workload.endpoint.name, workload.route]), [
      ["tax.spotRecords", "tax-records"],
      ["mix.ordersHistory", "futures-history"],
      ["spot.symbols", "symbols"],
      ["account.openInterestLimit", "open-interest-limit"]
    ])
  })
})
