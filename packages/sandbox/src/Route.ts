/**
 * The routes the sandbox serves: the ten operations of the spec plus the
 * server-time endpoint, with their access rule and frequency limit. Faults are
 * aimed at routes by name (`"tax-records"`) or by path.
 *
 * @since 0.1.0
 */

/**
 * The short name of a route.
 *
 * @since 0.1.0
 * @category models
 */
export type RouteName =
  | "time"
  | "batch-cancel"
  | "symbols"
  | "p2p-orders"
  | "place-pos-tpsl"
  | "trade-rate"
  | "fund-net-flow"
  | "tax-records"
  | "open-interest-limit"
  | "rpi-orderbook"
  | "futures-history"

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
 * Every route, in the order of the spec (server time first).
 *
 * @since 0.1.0
 * @category constants
 */
export const routes: ReadonlyArray<RouteInfo> = [
  { name: "time", method: "GET", path: "/api/v2/public/time", access: "public", perSecond: 20, scope: "ip" },
  {
    name: "batch-cancel",
    method: "POST",
    path: "/api/v2/spot/trade/batch-cancel-order",
    access: "signed",
    perSecond: 10,
    scope: "uid"
  },
  { name: "symbols", method: "GET", path: "/api/v2/spot/public/symbols", access: "public", perSecond: 20, scope: "ip" },
  { name: "p2p-orders", method: "GET", path: "/api/v2/p2p/orderList", access: "signed", perSecond: 10, scope: "uid" },
  {
    name: "place-pos-tpsl",
    method: "POST",
    path: "/api/v2/mix/order/place-pos-tpsl",
    access: "signed",
    perSecond: 10,
    scope: "uid"
  },
  {
    name: "trade-rate",
    method: "GET",
    path: "/api/v2/common/all-trade-rate",
    access: "signed",
    perSecond: 10,
    scope: "uid"
  },
  {
    name: "fund-net-flow",
    method: "GET",
    path: "/api/v2/spot/market/fund-net-flow",
    access: "public",
    perSecond: 1,
    scope: "ip"
  },
  { name: "tax-records", method: "GET", path: "/api/v2/tax/spot-record", access: "signed", perSecond: 1, scope: "uid" },
  {
    name: "open-interest-limit",
    method: "GET",
    path: "/api/v3/account/open-interest-limit",
    access: "signed",
    perSecond: 5,
    scope: "uid"
  },
  {
    name: "rpi-orderbook",
    method: "GET",
    path: "/api/v3/market/rpi-orderbook",
    access: "identified",
    perSecond: 10,
    scope: "ip"
  },
  {
    name: "futures-history",
    method: "GET",
    path: "/api/v2/mix/order/orders-history",
    access: "signed",
    perSecond: 10,
    scope: "uid"
  }
]

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
