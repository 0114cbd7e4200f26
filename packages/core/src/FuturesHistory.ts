/**
 * Get futures history orders: `GET /api/v2/mix/order/orders-history`
 * (signed, 10/s per user). Pages go from newest to oldest: pass the `endId`
 * of a page as `idLessThan` of the next.
 *
 * @since 0.1.0
 */
import * as DateTime from "effect/DateTime"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import * as SchemaGetter from "effect/SchemaGetter"
import * as Stream from "effect/Stream"
import * as BitgetClient from "./BitgetClient.js"
import type { BitgetError } from "./BitgetError.js"
import { BitgetRequestError } from "./BitgetError.js"
import * as Endpoint from "./Endpoint.js"
import { fastClass } from "./internal/decoder.js"
import type * as Paginate from "./paging/paginate.js"
import * as Windowed from "./paging/windowed.js"
import type * as Resumable from "./Resumable.js"
import type { OneOf } from "./Schemas.js"
import {
  checkWindow,
  ClientOid,
  ClosedEnum,
  completeRange,
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
 * The product types the request accepts.
 *
 * @since 0.1.0
 * @category constants
 */
export const productTypes = ["USDT-FUTURES", "COIN-FUTURES", "USDC-FUTURES"] as const

/**
 * A futures product type.
 *
 * @since 0.2.0
 * @category models
 */
export type ProductType = OneOf<typeof productTypes>

/**
 * A futures product type (closed: anything else is rejected before sending).
 *
 * @since 0.1.0
 * @category models
 */
export const ProductType: Schema.refine<ProductType, Schema.String> = ClosedEnum("ProductType", productTypes)

/**
 * The only `orderSource` values the request accepts as a filter.
 *
 * @since 0.1.0
 * @category constants
 */
export const orderSourceFilters = [
  "normal",
  "market",
  "profit_market",
  "loss_market",
  "Trader_delegate",
  "trader_profit",
  "trader_loss",
  "reverse",
  "trader_reverse",
  "profit_limit",
  "loss_limit",
  "liquidation",
  "delivery_close_long",
  "delivery_close_short",
  "pos_profit_limit",
  "pos_profit_market",
  "pos_loss_limit",
  "pos_loss_market"
] as const

/**
 * An `orderSource` filter of the request.
 *
 * @since 0.2.0
 * @category models
 */
export type OrderSourceFilter = OneOf<typeof orderSourceFilters>

/**
 * An `orderSource` filter (closed: anything else is rejected before sending).
 *
 * @since 0.1.0
 * @category models
 */
export const OrderSourceFilter: Schema.refine<OrderSourceFilter, Schema.String> = ClosedEnum(
  "OrderSourceFilter",
  orderSourceFilters,
  "the orderSource filter values (see orderSourceFilters)"
)

/**
 * Every `orderSource` value documented in responses.
 *
 * @since 0.1.0
 * @category constants
 */
export const orderSources = [
  ...orderSourceFilters,
  "profit_chase",
  "loss_chase",
  "follower_delegate",
  "reduce_offset",
  "market_risk",
  "plan_limit",
  "plan_market",
  "strategy_positive",
  "strategy_reverse",
  "strategy_unlimited",
  "move_limit",
  "move_market",
  "tracking_limit",
  "tracking_market",
  "strategy_dca_positive",
  "strategy_dca_reverse",
  "strategy_oco_limit",
  "strategy_oco_trigger",
  "modify_order_limit",
  "strategy_regular_buy",
  "strategy_grid_middle"
] as const

/**
 * The source of an order in a response: a documented value (see `orderSources`), or `Unrecognized`.
 *
 * @since 0.2.0
 * @category models
 */
export type OrderSource = OpenEnum<typeof orderSources[number]>

/**
 * The source of an order in a response (open).
 *
 * @since 0.1.0
 * @category models
 */
export const OrderSource: Schema.Codec<OrderSource, string> = OpenEnum(orderSources)

/**
 * Every documented `tradeSide`: `open`/`close` in hedge mode, the `_single`
 * names in one-way mode.
 *
 * @since 0.1.0
 * @category constants
 */
export const tradeSides = [
  "close",
  "open",
  "reduce_close_long",
  "reduce_close_short",
  "burst_close_long",
  "burst_close_short",
  "offset_close_long",
  "offset_close_short",
  "delivery_close_long",
  "delivery_close_short",
  "dte_sys_adl_close_long",
  "dte_sys_adl_close_short",
  "buy_single",
  "sell_single",
  "reduce_buy_single",
  "reduce_sell_single",
  "burst_buy_single",
  "burst_sell_single",
  "delivery_sell_single",
  "delivery_buy_single",
  "dte_sys_adl_buy_in_single_side_mode",
  "dte_sys_adl_sell_in_single_side_mode"
] as const

/**
 * The direction or close kind of an order: a documented value (see `tradeSides`), or `Unrecognized`.
 *
 * @since 0.2.0
 * @category models
 */
export type TradeSide = OpenEnum<typeof tradeSides[number]>

/**
 * The direction or close kind of an order (open).
 *
 * @since 0.1.0
 * @category models
 */
export const TradeSide: Schema.Codec<TradeSide, string> = OpenEnum(tradeSides)

/**
 * Where an order was entered, as documented (upper case).
 *
 * @since 0.1.0
 * @category constants
 */
export const enterPointSources = ["WEB", "API", "SYS", "ANDROID", "IOS"] as const

/**
 * Where an order was entered: a documented value (see `enterPointSources`), or `Unrecognized`.
 *
 * @since 0.2.0
 * @category models
 */
export type EnterPointSource = OpenEnum<typeof enterPointSources[number]>

/**
 * Where an order was entered (open); read case-insensitively, since this
 * endpoint answers in lower case (`web` decodes as `WEB`).
 *
 * @since 0.1.0
 * @category models
 */
export const EnterPointSource: Schema.Codec<EnterPointSource, string> = OpenEnum(enterPointSources, {
  caseInsensitive: true
})

/**
 * Documented order statuses of this endpoint (`canceled` with one l).
 *
 * @since 0.1.0
 * @category constants
 */
export const orderStatuses = ["filled", "canceled"] as const

/**
 * The status of a historical order: a documented value (see `orderStatuses`), or `Unrecognized`.
 *
 * @since 0.2.0
 * @category models
 */
export type OrderStatus = OpenEnum<typeof orderStatuses[number]>

/**
 * The status of a historical order (open: further values are kept as `Unrecognized`).
 *
 * @since 0.1.0
 * @category models
 */
export const OrderStatus: Schema.Codec<OrderStatus, string> = OpenEnum(orderStatuses)

/**
 * Order sides.
 *
 * @since 0.1.0
 * @category constants
 */
export const sides = ["buy", "sell"] as const

/**
 * Time-in-force values.
 *
 * @since 0.1.0
 * @category constants
 */
export const forces = ["ioc", "fok", "gtc", "post_only"] as const

/**
 * Position sides: two-way long or short, or one-way `net`.
 *
 * @since 0.1.0
 * @category constants
 */
export const posSides = ["long", "short", "net"] as const

/**
 * Margin modes.
 *
 * @since 0.1.0
 * @category constants
 */
export const marginModes = ["isolated", "crossed"] as const

/**
 * Position modes.
 *
 * @since 0.1.0
 * @category constants
 */
export const posModes = ["one_way_mode", "hedge_mode"] as const

/**
 * Order types.
 *
 * @since 0.1.0
 * @category constants
 */
export const orderTypes = ["limit", "market"] as const

/**
 * Values of the `reduceOnly` flag.
 *
 * @since 0.1.0
 * @category constants
 */
export const reduceOnlyValues = ["YES", "NO"] as const

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
}, fastClass) {}

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
}, fastClass) {}

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

/** Why nothing older than the horizon exists, as a refused range names it. */
const kept = `the exchange keeps ${historyDays} days of futures history`

/** The oldest time the exchange keeps history for, at `now`. */
const horizon = (now: DateTime.Utc): DateTime.Utc => DateTime.subtract(now, { days: historyDays })

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
  Effect.flatMap(Windowed.exchangeNow, (now) => {
    const earliest = horizon(now)
    const filled = completeRange(request, now, maxWindowDays, DateTime.add(earliest, Windowed.grace))
    const first = request.startTime ?? request.endTime
    return first !== undefined && DateTime.isLessThan(first, earliest)
      ? Effect.fail(
        new BitgetRequestError({
          endpoint: Endpoint.label(endpoint),
          issue: `${request.startTime === undefined ? "endTime" : "startTime"}: the exchange keeps ${historyDays} ` +
            `days of history, so it must not be before ${DateTime.formatIso(earliest)}`
        })
      )
      : BitgetClient.execute(endpoint, filled)
  })

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
 * The walk of `stream` and `pages`, given the exchange's clock: without
 * `startTime`, the exchange's own last 90 days as one window (no time sent
 * but an end the caller set or a stalled cursor narrowed); with it, the range
 * in windows. An end older than the history the exchange keeps is refused
 * (as `windowed` refuses such a range).
 */
const walkOf: Windowed.WalkOf<FuturesHistoryStreamRequest, FuturesOrder> = (request, now) => {
  const { endTime, order, pageSize = maxLimit, resume, startTime, ...filters } = request
  const oldest = { time: DateTime.add(horizon(now), Windowed.grace), reason: kept }
  const label = Endpoint.label(endpoint)
  const page = (
    times: { readonly startTime?: DateTime.Utc; readonly endTime?: DateTime.Utc },
    cursor: Option.Option<string>
  ) =>
    ordersHistory({ ...filters, ...times, limit: pageSize, ...Windowed.cursorParam(cursor) })
      .pipe(Effect.map((result) => ({ items: result.entrustedList, next: result.endId })))
  const common = {
    endpoint: label,
    stream: Windowed.streamName(label, filters),
    resume,
    until: DateTime.add(now, Windowed.grace),
    order,
    pageSize,
    id: (record: FuturesOrder) => record.orderId,
    time: (record: FuturesOrder) => record.cTime
  }
  if (startTime !== undefined) {
    return {
      ...common,
      range: { start: startTime, end: endTime ?? now },
      horizon: oldest,
      maxSpanDays: maxWindowDays,
      fetch: (window: Paginate.Window, cursor: Option.Option<string>) =>
        page({ startTime: window.start, endTime: window.end }, cursor)
    }
  }
  if (resume === undefined && endTime !== undefined && DateTime.isLessThan(endTime, oldest.time)) {
    return Windowed.endsBefore(`up to ${DateTime.formatIso(endTime)}`, oldest)
  }
  const open = resume === undefined ? { start: horizon(now), end: endTime ?? now } : undefined
  return {
    ...common,
    range: open ?? { start: horizon(now), end: now },
    maxSpanDays: "whole" as const,
    // the window's end is sent only when the caller set it, a stalled cursor narrowed it, or the walk is resumed
    fetch: (window: Paginate.Window, cursor: Option.Option<string>) =>
      page(
        endTime === undefined && open !== undefined && DateTime.Equivalence(window.end, open.end)
          ? {}
          : { endTime: window.end },
        cursor
      )
  }
}

/** `stream` and `pages`: see `walkOf`. */
const paged = Windowed.paged(Endpoint.label(endpoint), walkOf)
