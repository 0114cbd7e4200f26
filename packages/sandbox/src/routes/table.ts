/**
 * The route table: one module per route (its entry, parameter checks and
 * operation), in the order of the spec, then the routes the sandbox serves
 * beyond it (symbol-price: the mark price TP/SL triggers are checked against).
 * `Route.ts` checks every entry against `RouteInfo` and publishes the
 * entries; the server serves the operations.
 *
 * @internal
 */
import * as BatchCancel from "./batch-cancel.js"
import * as FundNetFlow from "./fund-net-flow.js"
import * as FuturesHistory from "./futures-history.js"
import * as OpenInterestLimit from "./open-interest-limit.js"
import * as P2pOrders from "./p2p-orders.js"
import * as PlacePosTpsl from "./place-pos-tpsl.js"
import * as RpiOrderbook from "./rpi-orderbook.js"
import * as SymbolPrice from "./symbol-price.js"
import * as Symbols from "./symbols.js"
import * as TaxRecords from "./tax-records.js"
import * as Time from "./time.js"
import * as TradeRate from "./trade-rate.js"

export const table = [
  Time.route,
  BatchCancel.route,
  Symbols.route,
  P2pOrders.route,
  PlacePosTpsl.route,
  TradeRate.route,
  FundNetFlow.route,
  TaxRecords.route,
  OpenInterestLimit.route,
  RpiOrderbook.route,
  FuturesHistory.route,
  SymbolPrice.route
] as const
