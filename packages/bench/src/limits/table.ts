/**
 * The limits bench's table: every endpoint core exports, by name, with its part
 * in the workload or why it has none (checked by `test/limits.test.ts`, and by
 * the bench at start).
 */
import * as Core from "@bitget-effect/core"
import type { RateLimit } from "@bitget-effect/core/Endpoint"
import type { RouteName } from "@bitget-effect/sandbox/Route"

/** One endpoint of the workload: its descriptor (limit and window), the sandbox's route, and its callers. */
export interface Workload {
  readonly name: string
  readonly route: RouteName
  readonly endpoint: { readonly name: string; readonly path: string; readonly rateLimit: RateLimit }
  readonly callers: number
}

/** An endpoint's part in the workload (its descriptor is core's). */
type Part = Omit<Workload, "endpoint">

/** Why an endpoint has no part in the workload. */
interface LeftOut {
  readonly leftOut: string
}

/**
 * Every endpoint core exports, by name: its part in the workload, or why it
 * has none. The four parts allow so many calls per 1-second window.
 */
const byEndpoint: { readonly [name: string]: Part | LeftOut } = {
  "tax.spotRecords": { name: "tax-record stream", route: "tax-records", callers: 1 },
  "mix.ordersHistory": { name: "futures history", route: "futures-history", callers: 20 },
  "spot.symbols": { name: "symbols", route: "symbols", callers: 40 },
  "account.openInterestLimit": { name: "open interest limit", route: "open-interest-limit", callers: 10 },
  "common.allTradeRate": { leftOut: "10/s per user, as futures history" },
  "p2p.orderList": { leftOut: "10/s per user, as futures history; its stream pages as the tax stream does" },
  "spot.fundNetFlow": { leftOut: "a per-address limit, as symbols" },
  "market.rpiOrderBook": { leftOut: "a per-address limit, as symbols (and for market makers only)" },
  "public.time": { leftOut: "a per-address limit, as symbols; the clients ask it only to correct their clock" },
  "spot.batchCancelOrders": { leftOut: "a write: it would empty the sandbox's open orders" },
  "mix.placePositionTpsl": { leftOut: "a write: it would pile plans on the sandbox's positions" }
}

/** Every endpoint core exports. */
const descriptors = Core.Endpoint.collect(Core)

/** The endpoints the table lacks, and the names in it that core lacks. */
export const gaps: ReadonlyArray<string> = Core.Endpoint.gaps(descriptors, byEndpoint)

/** The workload: each endpoint with a part in it, in the table's order; fails on a gap in the table. */
export const workloads = (): ReadonlyArray<Workload> => {
  if (gaps.length > 0) {
    throw new Error(
      `the limits bench's table (src/limits/table.ts) and core's endpoints differ: ${gaps.join("; ")}. ` +
        "Give each endpoint its part in the workload, or the reason it has none."
    )
  }
  return Object.entries(byEndpoint).flatMap(([name, entry]) => {
    const endpoint = descriptors.find((descriptor) => descriptor.name === name)
    return "leftOut" in entry || endpoint === undefined ? [] : [{ ...entry, endpoint }]
  })
}
