/**
 * Get open interest limit: `GET /api/v3/account/open-interest-limit`
 * (signed, 5/s per user).
 *
 * @since 0.1.0
 */
import type * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as BitgetClient from "./BitgetClient.js"
import type { BitgetError } from "./BitgetError.js"
import * as Endpoint from "./Endpoint.js"
import type { OneOf } from "./Schemas.js"
import { ClosedEnum, Decimal, NonBlank } from "./Schemas.js"

/**
 * The futures categories the request accepts.
 *
 * @since 0.1.0
 * @category constants
 */
export const futuresCategories = ["USDT-FUTURES", "COIN-FUTURES", "USDC-FUTURES"] as const

/**
 * A futures category.
 *
 * @since 0.2.0
 * @category models
 */
export type FuturesCategory = OneOf<typeof futuresCategories>

/**
 * A futures category (closed: anything else is rejected before sending).
 *
 * @since 0.1.0
 * @category models
 */
export const FuturesCategory: Schema.refine<FuturesCategory, Schema.String> = ClosedEnum(
  "FuturesCategory",
  futuresCategories
)

/**
 * The open interest limits of one futures symbol, as quantities.
 *
 * @since 0.1.0
 * @category models
 */
export class OpenInterestLimit extends Schema.Class<OpenInterestLimit>("OpenInterestLimit")({
  symbol: Schema.String,
  /** Limit for a single user. */
  singleUserLimit: Decimal,
  /** Limit for a main account together with its sub-accounts. */
  masterSubLimit: Decimal,
  /** Total quota for market makers. */
  marketMakerLimit: Decimal
}) {}

/**
 * The request: a symbol and its category, both required.
 *
 * @since 0.1.0
 * @category models
 */
export const OpenInterestLimitRequest = Schema.Struct({
  symbol: NonBlank,
  category: FuturesCategory
}).annotate({ identifier: "OpenInterestLimitRequest" })

/**
 * The request type.
 *
 * @since 0.1.0
 * @category models
 */
export type OpenInterestLimitRequest = typeof OpenInterestLimitRequest.Type

/**
 * The endpoint descriptor.
 *
 * @see `openInterestLimit`, which calls it
 * @since 0.1.0
 * @category endpoints
 */
export const endpoint = Endpoint.get({
  name: "account.openInterestLimit",
  path: "/api/v3/account/open-interest-limit",
  auth: "signed",
  rateLimit: { limit: 5, window: "1 second", scope: "uid" },
  idempotency: "idempotent",
  bounds: { enums: { category: futuresCategories } },
  request: OpenInterestLimitRequest,
  response: OpenInterestLimit
})

/**
 * Reads the open interest limits of a futures symbol.
 *
 * @example
 * ```ts
 * import { OpenInterestLimit, Schemas } from "@bitget-effect/core"
 * import { Effect } from "effect"
 *
 * const program = Effect.gen(function*() {
 *   const limits = yield* OpenInterestLimit.openInterestLimit({ symbol: "BTCUSDT", category: "USDT-FUTURES" })
 *   yield* Effect.log(`${limits.symbol}: at most ${Schemas.formatDecimal(limits.singleUserLimit)} per user`)
 * })
 * ```
 *
 * @see `endpoint` for the method, path, limits and retry policy
 * @since 0.1.0
 * @category operations
 */
export const openInterestLimit = (
  request: OpenInterestLimitRequest
): Effect.Effect<OpenInterestLimit, BitgetError, BitgetClient.BitgetClient> => BitgetClient.execute(endpoint, request)
