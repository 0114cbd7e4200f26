/**
 * The routes the sandbox serves: the operations of the spec plus the
 * server-time endpoint, with their access rule and frequency limit. Faults are
 * aimed at routes by name (`"tax-records"`) or by path.
 *
 * @since 0.1.0
 */
import type { Definition } from "./internal/route.js"
import * as BatchCancel from "./routes/batch-cancel.js"
import * as FundNetFlow from "./routes/fund-net-flow.js"
import * as FuturesHistory from "./routes/futures-history.js"
import * as OpenInterestLimit from "./routes/open-interest-limit.js"
import * as P2pOrders from "./routes/p2p-orders.js"
import * as PlacePosTpsl from "./routes/place-pos-tpsl.js"
import * as RpiOrderbook from "./routes/rpi-orderbook.js"
import * as Symbols from "./routes/symbols.js"
import * as TaxRecords from "./routes/tax-records.js"
import * as Time from "./routes/time.js"
import * as TradeRate from "./routes/trade-rate.js"

// one module per route (its entry, parameter checks and operation), in the order of the spec
const table = [
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
  FuturesHistory.route
] as const

/**
 * The short name of a route, e.g. `"tax-records"` (`routes` lists them all).
 *
 * @since 0.1.0
 * @category models
 */
export type RouteName = (typeof table)[number]["info"]["name"]

/**
 * How a route knows its caller: `public` routes need no credentials, `signed`
 * routes verify the four `ACCESS-*` headers, and `identified` (the RPI order
 * book) reads the caller from `ACCESS-KEY` when present (see the docs).
 *
 * @since 0.1.0
 * @category models
 */
export type Access = "public" | "signed" | "identified"

/**
 * Who a frequency limit counts: the API key (`uid`) or the client address (`ip`).
 *
 * @since 0.1.0
 * @category models
 */
export type LimitScope = "uid" | "ip"

/**
 * One served route.
 *
 * @since 0.1.0
 * @category models
 */
export interface RouteInfo {
  readonly name: RouteName
  readonly method: "GET" | "POST"
  readonly path: `/${string}`
  readonly access: Access
  /** Calls allowed per rolling second, before `limitScale`. */
  readonly perSecond: number
  readonly scope: LimitScope
}

/**
 * Every route with its operation, for the server; each route's entry is
 * checked against `RouteInfo` here.
 *
 * @internal
 */
export const definitions: ReadonlyArray<Definition<RouteInfo>> = table

/**
 * Every route, in the order of the spec (server time first).
 *
 * @since 0.1.0
 * @category constants
 */
export const routes: ReadonlyArray<RouteInfo> = definitions.map((definition) => definition.info)

/**
 * The overall ceiling per client address across all routes, per rolling minute.
 *
 * @since 0.1.0
 * @category constants
 */
export const ipCeilingPerMinute = 6000

/**
 * Finds a route by name or by path.
 *
 * @since 0.1.0
 * @category lookups
 */
export const find = (nameOrPath: string): RouteInfo | undefined =>
  routes.find((route) => route.name === nameOrPath || route.path === nameOrPath)
