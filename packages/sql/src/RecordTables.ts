/**
 * The tables of core's record streams, one column per field of the record
 * (snake case), keyed by `account` and the record's id:
 *
 * - `bitget_tax_records`: `TaxRecords.SpotTaxRecord`, key `(account, id)`;
 * - `bitget_futures_orders`: `FuturesHistory.FuturesOrder`, key
 *   `(account, order_id)` (order ids are unique across product types);
 * - `bitget_p2p_orders`: `P2pOrders.P2pOrder`, key `(account, order_id)`, its
 *   payment information as `jsonb` in the exchange's own shape.
 *
 * @stability unstable
 * @since 0.3.0
 */
import type { FuturesOrder } from "@bitget-effect/core/FuturesHistory"
import { type P2pOrder, PaymentInfo } from "@bitget-effect/core/P2pOrders"
import { enumText } from "@bitget-effect/core/Schemas"
import type { SpotTaxRecord } from "@bitget-effect/core/TaxRecords"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import * as Table from "./Table.js"

/**
 * `bitget_tax_records`: spot tax records, key `(account, id)`.
 *
 * @since 0.3.0
 * @category constants
 */
export const taxRecords: Table.Table<SpotTaxRecord> = Table.make<SpotTaxRecord>({
  name: "bitget_tax_records",
  key: ["id"],
  columns: {
    id: Table.column(Table.text, (record) => record.id),
    coin: Table.column(Table.text, (record) => record.coin),
    spot_tax_type: Table.column(Table.text, (record) => enumText(record.spotTaxType)),
    amount: Table.column(Table.decimal, (record) => record.amount),
    fee: Table.column(Table.decimal, (record) => record.fee),
    balance: Table.column(Table.decimal, (record) => record.balance),
    ts: Table.column(Table.timestamp, (record) => record.ts),
    biz_order_id: Table.orNull(Table.text, (record) => record.bizOrderId)
  }
})

/**
 * `bitget_futures_orders`: historical futures orders, key `(account, order_id)`.
 *
 * @since 0.3.0
 * @category constants
 */
export const futuresOrders: Table.Table<FuturesOrder> = Table.make<FuturesOrder>({
  name: "bitget_futures_orders",
  key: ["order_id"],
  columns: {
    order_id: Table.column(Table.text, (order) => order.orderId),
    symbol: Table.column(Table.text, (order) => order.symbol),
    size: Table.column(Table.decimal, (order) => order.size),
    client_oid: Table.orNull(Table.text, (order) => order.clientOid),
    base_volume: Table.column(Table.decimal, (order) => order.baseVolume),
    fee: Table.column(Table.decimal, (order) => order.fee),
    price: Table.orNull(Table.decimal, (order) => order.price),
    price_avg: Table.orNull(Table.decimal, (order) => order.priceAvg),
    status: Table.column(Table.text, (order) => enumText(order.status)),
    side: Table.column(Table.text, (order) => enumText(order.side)),
    force: Table.column(Table.text, (order) => enumText(order.force)),
    total_profits: Table.column(Table.decimal, (order) => order.totalProfits),
    pos_side: Table.column(Table.text, (order) => enumText(order.posSide)),
    margin_coin: Table.column(Table.text, (order) => order.marginCoin),
    quote_volume: Table.column(Table.decimal, (order) => order.quoteVolume),
    leverage: Table.column(Table.decimal, (order) => order.leverage),
    margin_mode: Table.column(Table.text, (order) => enumText(order.marginMode)),
    reduce_only: Table.orNull(Table.text, (order) => Option.map(order.reduceOnly, enumText)),
    enter_point_source: Table.column(Table.text, (order) => enumText(order.enterPointSource)),
    trade_side: Table.column(Table.text, (order) => enumText(order.tradeSide)),
    pos_mode: Table.column(Table.text, (order) => enumText(order.posMode)),
    order_type: Table.column(Table.text, (order) => enumText(order.orderType)),
    order_source: Table.column(Table.text, (order) => enumText(order.orderSource)),
    liq_price: Table.orNull(Table.decimal, (order) => order.liqPrice),
    c_time: Table.column(Table.timestamp, (order) => order.cTime),
    u_time: Table.column(Table.timestamp, (order) => order.uTime),
    preset_stop_surplus_price: Table.orNull(Table.decimal, (order) => order.presetStopSurplusPrice),
    preset_stop_loss_price: Table.orNull(Table.decimal, (order) => order.presetStopLossPrice),
    pos_avg: Table.orNull(Table.decimal, (order) => order.posAvg)
  }
})

/** Payment information into `jsonb`, in the exchange's own shape. */
const paymentInfo: Table.Kind<PaymentInfo> = {
  type: "jsonb",
  encode: Schema.encodeSync(Schema.fromJsonString(PaymentInfo))
}

/**
 * `bitget_p2p_orders`: P2P orders of the merchant, key `(account, order_id)`.
 *
 * @since 0.3.0
 * @category constants
 */
export const p2pOrders: Table.Table<P2pOrder> = Table.make<P2pOrder>({
  name: "bitget_p2p_orders",
  key: ["order_id"],
  columns: {
    order_id: Table.column(Table.text, (order) => order.orderId),
    order_no: Table.column(Table.text, (order) => order.orderNo),
    adv_no: Table.column(Table.text, (order) => order.advNo),
    side: Table.column(Table.text, (order) => enumText(order.side)),
    count: Table.column(Table.decimal, (order) => order.count),
    coin: Table.column(Table.text, (order) => order.coin),
    price: Table.column(Table.decimal, (order) => order.price),
    fiat: Table.column(Table.text, (order) => order.fiat),
    withdraw_time: Table.orNull(Table.timestamp, (order) => order.withdrawTime),
    represent_time: Table.orNull(Table.timestamp, (order) => order.representTime),
    release_time: Table.orNull(Table.timestamp, (order) => order.releaseTime),
    payment_time: Table.orNull(Table.timestamp, (order) => order.paymentTime),
    amount: Table.column(Table.decimal, (order) => order.amount),
    status: Table.column(Table.text, (order) => enumText(order.status)),
    buyer_real_name: Table.orNull(Table.text, (order) => order.buyerRealName),
    seller_real_name: Table.orNull(Table.text, (order) => order.sellerRealName),
    ctime: Table.column(Table.timestamp, (order) => order.ctime),
    utime: Table.column(Table.timestamp, (order) => order.utime),
    payment_info: Table.orNull(paymentInfo, (order) => order.paymentInfo)
  }
})

/**
 * Every table of this package's records, in the order the first migration
 * creates them.
 *
 * @since 0.3.0
 * @category constants
 */
export const all: ReadonlyArray<Table.Table<never>> = [taxRecords, futuresOrders, p2pOrders]
