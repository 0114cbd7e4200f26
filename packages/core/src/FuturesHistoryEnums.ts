/**
 * The value tables and enum schemas of futures order history
 * (`FuturesHistory`): product types, order sources, trade sides, statuses and
 * the other fields of `FuturesOrder` with a known set of values.
 * `FuturesHistory` re-exports every one of them.
 *
 * @since 0.3.0
 */
import type * as Schema from "effect/Schema"
import type { OneOf } from "./Schemas.js"
import { ClosedEnum, OpenEnum } from "./Schemas.js"

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
