/**
 * Get spot 24-hour net capital inflow: `GET /api/v2/spot/market/fund-net-flow`
 * (public, 1/s per IP).
 *
 * @since 0.1.0
 */
import type * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as BitgetClient from "./BitgetClient.js"
import type { BitgetPublicError } from "./BitgetError.js"
import * as Endpoint from "./Endpoint.js"
import { Decimal, NonBlank, Timestamp } from "./Schemas.js"

/**
 * One point of large-holder (whale) fund net flow; `netFlow` can be negative.
 *
 * @since 0.1.0
 * @category models
 */
export class NetFlow extends Schema.Class<NetFlow>("NetFlow")({
  netFlow: Decimal,
  ts: Timestamp
}) {}

/**
 * The request: the trading pair, required and non-blank.
 *
 * @since 0.1.0
 * @category models
 */
export const FundNetFlowRequest = Schema.Struct({
  symbol: NonBlank
}).annotate({ identifier: "FundNetFlowRequest" })

/**
 * The request type.
 *
 * @since 0.1.0
 * @category models
 */
export type FundNetFlowRequest = typeof FundNetFlowRequest.Type

/**
 * The endpoint descriptor.
 *
 * @see `fundNetFlow`, which calls it
 * @since 0.1.0
 * @category endpoints
 */
export const endpoint = Endpoint.get({
  name: "spot.fundNetFlow",
  path: "/api/v2/spot/market/fund-net-flow",
  auth: "public",
  rateLimit: { limit: 1, window: "1 second", scope: "ip" },
  idempotency: "idempotent",
  request: FundNetFlowRequest,
  response: Schema.Array(NetFlow)
})

/**
 * Reads the 24-hour net capital flow of a spot pair (any number of points, as given).
 *
 * @example
 * ```ts
 * import { FundNetFlow, Schemas } from "@bitget-effect/core"
 * import { BigDecimal, DateTime, Effect } from "effect"
 *
 * // Public: no credentials needed.
 * const program = Effect.gen(function*() {
 *   const points = yield* FundNetFlow.fundNetFlow({ symbol: "BTCUSDT" })
 *   for (const point of points) {
 *     yield* Effect.log(`${DateTime.formatIso(point.ts)} ${Schemas.formatDecimal(point.netFlow)}`)
 *   }
 *   const total = BigDecimal.sumAll(points.map((point) => point.netFlow))
 *   yield* Effect.log(`net flow: ${Schemas.formatDecimal(total)}`)
 * })
 * ```
 *
 * @see `endpoint` for the method, path, limits and retry policy
 * @since 0.1.0
 * @category operations
 */
export const fundNetFlow = (
  request: FundNetFlowRequest
): Effect.Effect<ReadonlyArray<NetFlow>, BitgetPublicError, BitgetClient.BitgetClient> =>
  BitgetClient.execute(endpoint, request)
