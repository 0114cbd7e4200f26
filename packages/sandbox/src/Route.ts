/**
 * The routes the sandbox serves: the operations of the spec plus the
 * server-time endpoint, with their access rule, frequency limit and bounds
 * (time range, page size, closed value sets). Faults are aimed at routes by
 * name (`"tax-records"`) or by path.
 *
 * @since 0.1.0
 */
import type { Definition } from "./internal/route/define.js"
import { table } from "./routes/table.js"

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
 * What a route accepts, as the sandbox checks it: the longest time range
 * (`startTime` to `endTime`, in days), the largest `limit`, and the closed
 * value sets by field name: of its parameters, which its checks read from
 * here, and, for tax records, of its records (`taxType`: the tax types the
 * sandbox generates).
 *
 * @since 0.2.0
 * @category models
 */
export interface Bounds {
  readonly windowDays?: number
  readonly pageSize?: number
  readonly enums?: { readonly [field: string]: ReadonlyArray<string> }
}

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
  /** What the route accepts; absent when it takes no range, `limit` or closed set. */
  readonly bounds?: Bounds
  /**
   * How its envelope's `requestTime` is sent: a JSON number, or (where live
   * answers were captured with a string) either, drawn per answer under
   * `Shapes` `varied`. A number when absent.
   */
  readonly requestTime?: "number" | "number-or-string"
}

// each route's entry is checked against `RouteInfo` here
const definitions: ReadonlyArray<Definition<RouteInfo>> = table

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
 * How long an address that crossed the ceiling is refused, ms: 5 minutes, as
 * on the live exchange since 2025-08-11 (Bitget's changelog).
 *
 * @since 0.2.0
 * @category constants
 */
export const ipLockoutMillis = 5 * 60_000

/**
 * Finds a route by name or by path.
 *
 * @since 0.1.0
 * @category accessors
 */
export const find = (nameOrPath: string): RouteInfo | undefined =>
  routes.find((route) => route.name === nameOrPath || route.path === nameOrPath)
