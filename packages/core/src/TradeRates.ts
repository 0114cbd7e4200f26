/**
 * Get business line all-symbol trade rate: `GET /api/v2/common/all-trade-rate`
 * (signed, 10/s per UID).
 *
 * @since 0.1.0
 */
import type * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as BitgetClient from "./BitgetClient.js"
import type { BitgetError } from "./BitgetError.js"
import * as Endpoint from "./Endpoint.js"
import { Decimal, Filter } from "./Schemas.js"

/**
 * The business lines the request accepts: `mix` (futures), `spot`, `margin`.
 *
 * @since 0.2.0
 * @category constants
 */
export const businessTypes = ["mix", "spot", "margin"] as const

/**
 * A business line: `mix` (futures), `spot`, `margin`.
 *
 * @since 0.1.0
 * @category models
 */
export const BusinessType = Schema.Literals(businessTypes)

/**
 * The business line type.
 *
 * @since 0.1.0
 * @category models
 */
export type BusinessType = typeof BusinessType.Type

/**
 * The request. The spec marks `symbol` required, but the exchange answers for
 * every symbol of the line without it (this is the "all symbols" endpoint).
 *
 * @since 0.1.0
 * @category models
 */
export const TradeRatesRequest = Schema.Struct({
  /** Sent as `businessType` (the documented name; the doc example's `business` is wrong). */
  businessType: BusinessType,
  symbol: Filter
}).annotate({ identifier: "TradeRatesRequest" })

/**
 * The request type.
 *
 * @since 0.1.0
 * @category models
 */
export type TradeRatesRequest = typeof TradeRatesRequest.Type

/**
 * The fee rates of a symbol, as fractions (`0.0002` is 2 bp); a maker rate may
 * be negative (a rebate).
 *
 * @since 0.1.0
 * @category models
 */
export class TradeRate extends Schema.Class<TradeRate>("TradeRate")({
  symbol: Schema.String,
  /** Named `makerFeeRate` in responses (the spec's field table says `makerRate`). */
  makerFeeRate: Decimal,
  takerFeeRate: Decimal
}) {}

/**
 * The endpoint descriptor.
 *
 * @see `tradeRates`, which calls it
 * @since 0.1.0
 * @category endpoints
 */
export const endpoint = Endpoint.get({
  name: "common.allTradeRate",
  path: "/api/v2/common/all-trade-rate",
  auth: "signed",
  rateLimit: { limit: 10, window: "1 second", scope: "uid" },
  idempotency: "idempotent",
  bounds: { enums: { businessType: businessTypes } },
  request: TradeRatesRequest,
  response: Schema.Array(TradeRate)
})

/**
 * Reads the maker and taker fee rates of every symbol of a business line (or of one symbol).
 *
 * @example
 * ```ts
 * import { TradeRates } from "@bitget-effect/core"
 * import { BigDecimal, Effect } from "effect"
 *
 * // The spot symbols whose maker rate is a rebate for this account.
 * const program = Effect.gen(function*() {
 *   const rates = yield* TradeRates.tradeRates({ businessType: "spot" })
 *   return rates.filter((rate) => BigDecimal.isNegative(rate.makerFeeRate)).map((rate) => rate.symbol)
 * })
 *
 * // The futures rates of one symbol.
 * const btc = TradeRates.tradeRates({ businessType: "mix", symbol: "BTCUSDT" })
 * ```
 *
 * @see `endpoint` for the method, path, limits and retry policy
 * @since 0.1.0
 * @category operations
 */
export const tradeRates = (
  request: TradeRatesRequest
): Effect.Effect<ReadonlyArray<TradeRate>, BitgetError, BitgetClient.BitgetClient> =>
  BitgetClient.execute(endpoint, request)
