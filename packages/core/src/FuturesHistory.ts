/**
 * Get futures history orders: `GET /api/v2/mix/order/orders-history`
 * (signed, 10/s per user). Pages go from newest to oldest: pass the `endId`
 * of a page as `idLessThan` of the next.
 *
 * @since 0.1.0
 */
import type * as DateTime from "effect/DateTime"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as SchemaGetter from "effect/SchemaGetter"
import type * as Stream from "effect/Stream"
import * as BitgetClient from "./BitgetClient.js"
import type { BitgetError } from "./BitgetError.js"
import * as Endpoint from "./Endpoint.js"
import {
  EnterPointSource,
  forces,
  marginModes,
  OrderSource,
  OrderSourceFilter,
  orderSourceFilters,
  OrderStatus,
  orderTypes,
  posModes,
  posSides,
  ProductType,
  productTypes,
  reduceOnlyValues,
  sides,
  TradeSide
} from "./FuturesHistoryEnums.js"
import * as KeptHistory from "./paging/keptHistory.js"
import type * as Paginate from "./paging/paginate.js"
import * as Windowed from "./paging/windowed.js"
import type * as Resumable from "./Resumable.js"
import {
  checkWindow,
  ClientOid,
  Decimal,
  Filter,
  IntString,
  ListOrEmpty,
  Maybe,
  NumericId,
  OpenEnum,
  QueryTimestamp,
  Timestamp
} from "./Schemas.js"

/**
 * The value tables and enum schemas of the order fields and filters (they
 * live in `FuturesHistoryEnums`).
 *
 * @since 0.3.0
 */
export * from "./FuturesHistoryEnums.js"

/**
 * One historical futures order. Prices the exchange leaves unset (`""` or
 * `null`, or absent) are `Option.none()`: `price` of market orders, `priceAvg`,
 * `posAvg`, `liqPrice` and the preset take-profit and stop-loss prices.
 *
 * @since 0.1.0
 * @category models
 */
export class FuturesOrder extends Schema.Class<FuturesOrder>("FuturesOrder")({
  symbol: Schema.String,
  size: Decimal,
  orderId: Schema.String,
  clientOid: Maybe(Schema.String),
  /** Amount of coins traded. */
  baseVolume: Decimal,
  fee: Decimal,
  price: Maybe(Decimal),
  priceAvg: Maybe(Decimal),
  status: OrderStatus,
  side: OpenEnum(sides),
  force: OpenEnum(forces),
  totalProfits: Decimal,
  posSide: OpenEnum(posSides),
  marginCoin: Schema.String,
  /** Traded amount in quote coin. */
  quoteVolume: Decimal,
  leverage: Decimal,
  marginMode: OpenEnum(marginModes),
  /** Listed by the exchange but absent from some responses. */
  reduceOnly: Maybe(OpenEnum(reduceOnlyValues)),
  enterPointSource: EnterPointSource,
  tradeSide: TradeSide,
  posMode: OpenEnum(posModes),
  orderType: OpenEnum(orderTypes),
  orderSource: OrderSource,
  liqPrice: Maybe(Decimal),
  cTime: Timestamp,
  uTime: Timestamp,
  presetStopSurplusPrice: Maybe(Decimal),
  presetStopLossPrice: Maybe(Decimal),
  posAvg: Maybe(Decimal)
}) {}

/**
 * One page of history. At the end of the data the exchange sends
 * `entrustedList: null` (read as empty) and `endId` as `null` or `""` (read as
 * `None`).
 *
 * @since 0.1.0
 * @category models
 */
export class FuturesHistoryPage extends Schema.Class<FuturesHistoryPage>("FuturesHistoryPage")({
  entrustedList: ListOrEmpty(FuturesOrder),
  /** Id of the last (oldest) order of the page: the `idLessThan` of the next page. */
  endId: Maybe(Schema.String)
}) {}

/**
 * The most days between `startTime` and `endTime` in one request.
 *
 * @since 0.1.0
 * @category constants
 */
export const maxWindowDays = 90

/**
 * The days of history the exchange keeps.
 *
 * @since 0.1.0
 * @category constants
 */
export const historyDays = 90

/**
 * The largest `limit` the exchange takes, and the page size `stream` asks for by default.
 *
 * @since 0.2.0
 * @category constants
 */
export const maxLimit = 100

const RequestFields = Schema.Struct({
  productType: ProductType,
  orderId: Schema.optional(NumericId),
  clientOid: Schema.optional(ClientOid),
  symbol: Filter,
  idLessThan: Schema.optional(NumericId),
  orderSource: Schema.optional(OrderSourceFilter),
  startTime: Schema.optional(QueryTimestamp),
  endTime: Schema.optional(QueryTimestamp),
  limit: Schema.optional(IntString(1, maxLimit))
}).annotate({ identifier: "FuturesHistoryRequestFields" })

/**
 * The request: `productType` is required; `startTime` to `endTime` spans at
 * most 90 days; `limit` is 1 to 100. When both `orderId` and `clientOid` are
 * given, only `orderId` is sent (it wins on the exchange anyway); both are
 * still validated.
 *
 * @since 0.1.0
 * @category models
 */
export const FuturesHistoryRequest = RequestFields.pipe(Schema.decodeTo(
  Schema.toType(RequestFields).check(
    Schema.makeFilter(checkWindow(maxWindowDays), { identifier: "FuturesHistoryRequest" })
  ),
  {
    decode: SchemaGetter.passthrough(),
    encode: SchemaGetter.transform(({ clientOid, ...request }) =>
      request.orderId === undefined && clientOid !== undefined ? { ...request, clientOid } : request
    )
  }
))

/**
 * The request type.
 *
 * @since 0.1.0
 * @category models
 */
export type FuturesHistoryRequest = typeof FuturesHistoryRequest.Type

/**
 * The endpoint descriptor.
 *
 * @see `ordersHistory`, `stream` and `pages`, which call it
 * @since 0.1.0
 * @category endpoints
 */
export const endpoint = Endpoint.get({
  name: "mix.ordersHistory",
  path: "/api/v2/mix/order/orders-history",
  auth: "signed",
  rateLimit: { limit: 10, window: "1 second", scope: "uid" },
  idempotency: "idempotent",
  bounds: {
    windowDays: maxWindowDays,
    pageSize: maxLimit,
    enums: { productType: productTypes, orderSource: orderSourceFilters }
  },
  request: FuturesHistoryRequest,
  response: FuturesHistoryPage
})

/**
 * Lists one page of historical futures orders (newest first; at most 90 days
 * back). When both `orderId` and `clientOid` are given only `orderId` is sent;
 * a range with one end is completed (`Schemas.completeRange`), and a time
 * older than the 90 days the exchange keeps is refused before sending.
 *
 * @example
 * ```ts
 * import { FuturesHistory, Schemas } from "@bitget-effect/core"
 * import { Effect, Option } from "effect"
 *
 * const program = Effect.gen(function*() {
 *   const page = yield* FuturesHistory.ordersHistory({ productType: "USDT-FUTURES", symbol: "BTCUSDT", limit: 50 })
 *   for (const order of page.entrustedList) {
 *     const price = Option.match(order.priceAvg, { onNone: () => "-", onSome: Schemas.formatDecimal })
 *     yield* Effect.log(`${order.orderId} ${Schemas.enumText(order.status)} ${Schemas.formatDecimal(order.size)} at ${price}`)
 *   }
 *   // `page.endId` is the `idLessThan` of the next (older) page; `stream` walks them all.
 * })
 * ```
 *
 * @see `stream` for every record of a range of any length, `pages` for it resumable
 * @see `endpoint` for the method, path, limits and retry policy
 * @since 0.1.0
 * @category operations
 */
export const ordersHistory = (
  request: FuturesHistoryRequest
): Effect.Effect<FuturesHistoryPage, BitgetError, BitgetClient.BitgetClient> =>
  KeptHistory.keptPage(endpoint, request, { days: historyDays, windowDays: maxWindowDays })

/**
 * What `stream` walks: by default the exchange's own last 90 days (no time
 * sent, so a skewed local clock cannot ask for data that no longer exists);
 * with `startTime`, a range clamped to the last 90 days by the exchange's clock
 * as the client knows it (plus a minute of grace), up to `endTime` or now. A
 * range that ends before those 90 days (or starts before 1970, or after the
 * exchange's clock) fails with a `BitgetRequestError` naming it.
 *
 * @since 0.1.0
 * @category models
 */
export type FuturesHistoryStreamRequest =
  & Omit<FuturesHistoryRequest, "startTime" | "endTime" | "idLessThan" | "limit" | "orderId" | "clientOid">
  & Resumable.ResumeOptions
  & {
    readonly startTime?: DateTime.Utc
    readonly endTime?: DateTime.Utc
    /** Orders per page, 1 to 100 (default 100). */
    readonly pageSize?: number
    /** `newestFirst` (default) or `oldestFirst` across windows; orders within a window stay newest first. */
    readonly order?: Paginate.WindowOrder
  }

/**
 * Every futures order of the history in a range, pulled lazily page by page
 * (`idLessThan` = `endId`), each page through the rate limiter and retry
 * policy; no order is emitted twice.
 *
 * @example
 * ```ts
 * import { FuturesHistory, Schemas } from "@bitget-effect/core"
 * import { BigDecimal, Effect, Stream } from "effect"
 *
 * // The total fee of the USDT-M orders of the 90 days the exchange keeps.
 * const program = FuturesHistory.stream({ productType: "USDT-FUTURES" }).pipe(
 *   Stream.runFold(() => BigDecimal.fromBigInt(0n), (total, order) => BigDecimal.sum(total, order.fee)),
 *   Effect.tap((total) => Effect.log(`fees: ${Schemas.formatDecimal(total)}`))
 * )
 * ```
 *
 * @see `pages` for the same walk a page at a time, each with its checkpoint
 * @see `ordersHistory` for one page
 * @since 0.1.0
 * @category streams
 */
export const stream = (
  request: FuturesHistoryStreamRequest
): Stream.Stream<FuturesOrder, BitgetError, BitgetClient.BitgetClient> => paged.stream(request)

/**
 * `stream` a page at a time, each page with the checkpoint after it: store
 * the checkpoint with the page's orders in one step, and a stream started
 * with `resume: checkpoint` goes on after them, neither repeating nor
 * skipping an order (see `Resumable`).
 *
 * @see `stream` for the records alone
 * @see `Resumable` for the checkpoint
 * @since 0.3.0
 * @category streams
 */
export const pages = (
  request: FuturesHistoryStreamRequest
): Stream.Stream<Resumable.Page<FuturesOrder>, BitgetError, BitgetClient.BitgetClient> => paged.pages(request)

/**
 * `stream` and `pages`: the 90 days the exchange keeps (in one window, no
 * time sent, or the range's in windows of 90 days), pages of up to 100,
 * `idLessThan` the page's `endId` (see `KeptHistory.keptListed`).
 */
const paged = KeptHistory.keptListed({
  endpoint: Endpoint.label(endpoint),
  bounds: { windowDays: maxWindowDays, pageSize: maxLimit },
  kept: { days: historyDays, what: "futures history" },
  filters: (request: FuturesHistoryStreamRequest) => Windowed.rangeFilters(request),
  id: (record: FuturesOrder) => record.orderId,
  time: (record) => record.cTime,
  page: (filters, times, limit, cursor) =>
    ordersHistory({ ...filters, ...times, limit, ...Windowed.cursorParam(cursor) })
      .pipe(Effect.map((page) => ({ items: page.entrustedList, next: page.endId })))
})
