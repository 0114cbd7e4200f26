/**
 * Get RPI order book: `GET /api/v3/market/rpi-orderbook` (10/s per IP; the
 * exchange serves it only to RPI market makers, whom it tells by their key:
 * the call is signed when credentials are configured, unsigned otherwise).
 *
 * @since 0.1.0
 */
import type * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as SchemaGetter from "effect/SchemaGetter"
import * as BitgetClient from "./BitgetClient.js"
import type { BitgetError } from "./BitgetError.js"
import * as Endpoint from "./Endpoint.js"
import type { OneOf } from "./Schemas.js"
import { ClosedEnum, Decimal, IntString, NonBlank, Timestamp } from "./Schemas.js"

/** A decoded decimal (a level is built from the wire triple): as JSON, its exact digits (see `Json`). */
const DecimalValue = Schema.toType(Decimal)

/**
 * The categories the request accepts.
 *
 * @since 0.1.0
 * @category constants
 */
export const rpiCategories = ["SPOT", "USDT-FUTURES", "COIN-FUTURES", "USDC-FUTURES"] as const

/**
 * An order book category.
 *
 * @since 0.2.0
 * @category models
 */
export type RpiCategory = OneOf<typeof rpiCategories>

/**
 * An order book category (closed: anything else is rejected before sending).
 *
 * @since 0.1.0
 * @category models
 */
export const RpiCategory: Schema.refine<RpiCategory, Schema.String> = ClosedEnum("RpiCategory", rpiCategories)

/**
 * One price level with its non-RPI and RPI quantities shown apart.
 *
 * @since 0.1.0
 * @category models
 */
export class RpiLevel extends Schema.Class<RpiLevel>("RpiLevel")({
  price: DecimalValue,
  nonRpiQuantity: DecimalValue,
  rpiQuantity: DecimalValue
}) {}

/**
 * A level as the exchange sends it, `[price, nonRpiQty, rpiQty]` (strings, or
 * JSON numbers in one doc version; further elements are ignored), as an
 * `RpiLevel`. Encodes back to the string triple.
 *
 * @since 0.1.0
 * @category schemas
 */
export const RpiLevelFromTuple = Schema.TupleWithRest(Schema.Tuple([Decimal, Decimal, Decimal]), [Schema.Unknown]).pipe(
  Schema.decodeTo(RpiLevel, {
    decode: SchemaGetter.transform(([price, nonRpiQuantity, rpiQuantity]) => ({ price, nonRpiQuantity, rpiQuantity })),
    encode: SchemaGetter.transform(({ nonRpiQuantity, price, rpiQuantity }) => [price, nonRpiQuantity, rpiQuantity])
  })
)

/**
 * The RPI order book: asks by price ascending and bids by price descending,
 * in the order the exchange gives them.
 *
 * @since 0.1.0
 * @category models
 */
export class RpiOrderBook extends Schema.Class<RpiOrderBook>("RpiOrderBook")({
  /** Asks (sell levels), price ascending. */
  a: Schema.Array(RpiLevelFromTuple),
  /** Bids (buy levels), price descending. */
  b: Schema.Array(RpiLevelFromTuple),
  /** When the exchange generated the data. */
  ts: Timestamp
}) {}

/**
 * The most levels a side of the book may ask for (`limit`).
 *
 * @since 0.2.0
 * @category constants
 */
export const maxLimit = 200

/**
 * The request: category and symbol, and optionally 1 to 200 levels (the
 * exchange's default is 5).
 *
 * @since 0.1.0
 * @category models
 */
export const RpiOrderBookRequest = Schema.Struct({
  category: RpiCategory,
  symbol: NonBlank,
  limit: Schema.optional(IntString(1, maxLimit))
}).annotate({ identifier: "RpiOrderBookRequest" })

/**
 * The request type.
 *
 * @since 0.1.0
 * @category models
 */
export type RpiOrderBookRequest = typeof RpiOrderBookRequest.Type

/**
 * The endpoint descriptor.
 *
 * @see `rpiOrderBook`, which calls it
 * @since 0.1.0
 * @category endpoints
 */
export const endpoint = Endpoint.get({
  name: "market.rpiOrderBook",
  path: "/api/v3/market/rpi-orderbook",
  auth: "optional",
  rateLimit: { limit: 10, window: "1 second", scope: "ip" },
  idempotency: "idempotent",
  bounds: { pageSize: maxLimit, enums: { category: rpiCategories } },
  request: RpiOrderBookRequest,
  response: RpiOrderBook
})

/**
 * Reads the order book with RPI quantities split out.
 *
 * @example
 * ```ts
 * import { RpiOrderBook, Schemas } from "@bitget-effect/core"
 * import { BigDecimal, Effect } from "effect"
 *
 * // Signed when credentials are configured: the exchange serves it to RPI market makers.
 * const program = Effect.gen(function*() {
 *   const book = yield* RpiOrderBook.rpiOrderBook({ category: "SPOT", symbol: "BTCUSDT", limit: 20 })
 *   const [bid] = book.b
 *   const [ask] = book.a
 *   if (bid !== undefined && ask !== undefined) {
 *     const spread = Schemas.formatDecimal(BigDecimal.subtract(ask.price, bid.price))
 *     yield* Effect.log(`spread ${spread}, RPI at the best bid ${Schemas.formatDecimal(bid.rpiQuantity)}`)
 *   }
 * })
 * ```
 *
 * @see `endpoint` for the method, path, limits and retry policy
 * @since 0.1.0
 * @category operations
 */
export const rpiOrderBook = (
  request: RpiOrderBookRequest
): Effect.Effect<RpiOrderBook, BitgetError, BitgetClient.BitgetClient> => BitgetClient.execute(endpoint, request)
