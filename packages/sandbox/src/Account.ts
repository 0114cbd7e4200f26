/**
 * The mutable trading state of each demo key: open spot orders that batch
 * cancel removes, futures positions, and the TP/SL plans placed on them.
 * `Sandbox.reset` restores the seeded state.
 *
 * @since 0.1.0
 */

/**
 * An open spot order.
 *
 * @since 0.1.0
 * @category models
 */
export interface SpotOrder {
  readonly orderId: string
  readonly clientOid: string
  readonly symbol: string
  readonly side: "buy" | "sell"
  readonly price: string
  readonly size: string
  readonly cTime: string
}

/**
 * The futures product types, in the exchange's spelling.
 *
 * @since 0.1.0
 * @category constants
 */
export const productTypes = ["USDT-FUTURES", "COIN-FUTURES", "USDC-FUTURES"] as const

/**
 * Futures product types. The `S`-prefixed demo types exist, but hold no positions.
 *
 * @since 0.1.0
 * @category models
 */
export type ProductType = (typeof productTypes)[number]

/**
 * An open futures position. In `hedge_mode` positions are `long` or `short`; in
 * `one_way_mode` they are `buy` or `sell`, and a TP/SL must name them so.
 *
 * @since 0.1.0
 * @category models
 */
export interface Position {
  readonly productType: ProductType
  readonly symbol: string
  readonly marginCoin: string
  readonly holdSide: "long" | "short" | "buy" | "sell"
  readonly posMode: "hedge_mode" | "one_way_mode"
  readonly size: string
}

/**
 * A take-profit or stop-loss plan placed by place-pos-tpsl. `profit_plan` and
 * `loss_plan` carry a size; `pos_profit` and `pos_loss` cover the whole position.
 *
 * @since 0.1.0
 * @category models
 */
export interface PlanOrder {
  readonly orderId: string
  readonly clientOid: string
  readonly planType: "profit_plan" | "pos_profit" | "loss_plan" | "pos_loss"
  readonly productType: ProductType
  readonly symbol: string
  readonly marginCoin: string
  readonly holdSide: Position["holdSide"]
  readonly triggerPrice: string
  readonly triggerType: "fill_price" | "mark_price"
  /** `""` or `"0"` for a market-price execution. */
  readonly executePrice: string
  /** `""` for the whole position. */
  readonly size: string
  readonly cTime: string
}
