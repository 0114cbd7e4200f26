/**
 * Get symbol info: `GET /api/v2/spot/public/symbols` (public, 20/s per IP).
 *
 * @since 0.1.0
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import * as BitgetClient from "./BitgetClient.js"
import type { BitgetPublicError } from "./BitgetError.js"
import * as Endpoint from "./Endpoint.js"
import { Decimal, Filter, Maybe, OpenEnum, Timestamp } from "./Schemas.js"

/**
 * Trading status of a symbol.
 *
 * @since 0.1.0
 * @category models
 */
export const SymbolStatus = OpenEnum(["offline", "gray", "online", "halt"])

/**
 * A field newer answers added: `Maybe`, and `None` when `make` is not given
 * it (so values built before it existed still build).
 */
const Later = <A, I>(schema: Schema.Codec<A, I>) =>
  Maybe(schema).pipe(Schema.withConstructorDefault(Effect.succeed(Option.none<A>())))

/**
 * A spot trading pair. Fields an older answer leaves out (`areaSymbol`,
 * `orderQuantity`, `openTime`, `offTime`, the order value caps) are `None`.
 *
 * @since 0.1.0
 * @category models
 */
export class SpotSymbol extends Schema.Class<SpotSymbol>("SpotSymbol")({
  symbol: Schema.String,
  baseCoin: Schema.String,
  quoteCoin: Schema.String,
  /** Obsolete: `minTradeUSDT` replaces it. */
  minTradeAmount: Maybe(Decimal),
  /** Obsolete: generally unlimited. */
  maxTradeAmount: Maybe(Decimal),
  takerFeeRate: Decimal,
  makerFeeRate: Decimal,
  pricePrecision: Schema.NumberFromString,
  quantityPrecision: Schema.NumberFromString,
  quotePrecision: Schema.NumberFromString,
  minTradeUSDT: Maybe(Decimal),
  status: SymbolStatus,
  buyLimitPriceRatio: Maybe(Decimal),
  sellLimitPriceRatio: Maybe(Decimal),
  orderQuantity: Maybe(Schema.NumberFromString),
  areaSymbol: Maybe(OpenEnum(["yes", "no"])),
  offTime: Maybe(Timestamp),
  /** Deprecated by the exchange. */
  openTime: Maybe(Timestamp),
  /** The largest value of one limit order, in the quote coin (newer answers only). */
  maxLimitOrderValue: Later(Decimal),
  /** The largest value of one market order, in the quote coin (newer answers only). */
  maxMarketOrderValue: Later(Decimal)
}) {}

/**
 * The request: one symbol, or all when `symbol` is left out (a blank one is
 * refused, see `Schemas.Filter`).
 *
 * @since 0.1.0
 * @category models
 */
export const SymbolsRequest = Schema.Struct({
  symbol: Filter
})

/**
 * The request type.
 *
 * @since 0.1.0
 * @category models
 */
export type SymbolsRequest = typeof SymbolsRequest.Type

/**
 * The endpoint descriptor.
 *
 * @see `symbols`, which calls it
 * @since 0.1.0
 * @category endpoints
 */
export const endpoint = Endpoint.get({
  name: "spot.symbols",
  path: "/api/v2/spot/public/symbols",
  auth: "public",
  rateLimit: { limit: 20, window: "1 second", scope: "ip" },
  idempotency: "idempotent",
  request: SymbolsRequest,
  response: Schema.Array(SpotSymbol)
})

/**
 * Lists spot trading pairs: one, or all of them when no symbol is given.
 *
 * @example
 * ```ts
 * import { Symbols } from "@bitget-effect/core"
 * import { Effect } from "effect"
 *
 * // Public: no credentials needed.
 * const program = Effect.gen(function*() {
 *   const pairs = yield* Symbols.symbols()
 *   const online = pairs.filter((pair) => pair.status === "online")
 *   yield* Effect.log(`${online.length} of ${pairs.length} spot pairs are online`)
 * })
 *
 * // One pair only.
 * const btc = Symbols.symbols({ symbol: "BTCUSDT" })
 *
 * // Both need a `BitgetClient`, e.g. `Effect.provide(BitgetNode.layer())`
 * // from @bitget-effect/platform-node.
 * ```
 *
 * @see `endpoint` for the method, path, limits and retry policy
 * @since 0.1.0
 * @category operations
 */
export const symbols = (
  request: SymbolsRequest = {}
): Effect.Effect<ReadonlyArray<SpotSymbol>, BitgetPublicError, BitgetClient.BitgetClient> =>
  BitgetClient.execute(endpoint, request)
