/**
 * What a route is made of: its entry in the route table (method, path, access
 * rule, frequency limit) and its operation, which answers one call after
 * authentication. Each module of `routes/` defines one with `define`.
 *
 * @internal
 */
import type { Either } from "effect"
import type { DemoKey } from "../DemoKey.js"
import type { AccountState } from "./accounts.js"
import type { ApiFailure, Query } from "./params.js"
import type { World } from "./world.js"

/** How a route knows its caller (see `Route.Access`). */
export type Access = "public" | "signed" | "identified"

/** Who a frequency limit counts (see `Route.LimitScope`). */
export type LimitScope = "uid" | "ip"

/** One route's entry in the table. */
export interface RouteInfo<Name extends string> {
  readonly name: Name
  readonly method: "GET" | "POST"
  readonly path: `/${string}`
  readonly access: Access
  /** Calls allowed per rolling second, before `limitScale`. */
  readonly perSecond: number
  readonly scope: LimitScope
}

/** What an operation reads and changes of the running sandbox (the server passes its `State`). */
export interface Exchange {
  readonly world: World
  readonly options: { readonly rpiOpen: boolean; readonly taxTimestampPaging: boolean }
  /** The account of a key. */
  account(apiKey: string): AccountState
  /** A fresh plan order id. */
  nextPlanOrderId(): string
}

/** One call of an operation, after authentication. */
export interface Call {
  readonly query: Query
  /** The JSON body of a POST (an empty object for GET). */
  readonly body: Readonly<Record<string, unknown>>
  /** The authenticated (or, for the RPI book, identified) key. */
  readonly key: DemoKey | undefined
  /** Server time, ms. */
  readonly now: number
  readonly state: Exchange
}

/** An operation: the `data` of a success envelope, or an error answer. */
export type Handler = (call: Call) => Either.Either<unknown, ApiFailure>

/** A route: its entry in the table and its operation. */
export interface Definition<Name extends string> {
  readonly info: RouteInfo<Name>
  readonly handler: Handler
}

/** Defines a route (its name is kept as a literal type, from which `Route.RouteName` is derived). */
export const define = <const Name extends string>(info: RouteInfo<Name>, handler: Handler): Definition<Name> => ({
  info,
  handler
})

/** The API key of the caller, empty for an anonymous one. */
export const apiKeyOf = (call: Call): string => call.key?.apiKey ?? ""
