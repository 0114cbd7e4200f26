/**
 * What a route is made of: its entry in the route table (method, path, access
 * rule, frequency limit, bounds) and its operation, which answers one call
 * after authentication. Each module of `routes/` defines one with `define`;
 * the entry's type is `Route.RouteInfo`, which this module does not import
 * (`Route.ts` imports the routes, and checks each entry against it).
 *
 * @internal
 */
import type * as Result from "effect/Result"
import type { DemoKey } from "../../DemoKey.js"
import type { Shapes } from "../../Shapes.js"
import type { AccountState } from "../data/accounts.js"
import type { World } from "../data/world.js"
import type { ApiFailure, Query } from "./params.js"

/** What an operation reads and changes of the running sandbox (the server passes its `State`). */
export interface Exchange {
  readonly world: World
  readonly options: {
    readonly rpiOpen: boolean
    readonly taxTimestampPaging: boolean
    /** Whether answers vary in shape where live ones do. */
    readonly shapes: Shapes
  }
  /** The number of the next answer (for shapes drawn per answer). */
  nextAnswer(): number
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
export type Handler = (call: Call) => Result.Result<unknown, ApiFailure>

/** A route: its entry in the table (`Route.RouteInfo`, checked where the table is assembled) and its operation. */
export interface Definition<Info> {
  readonly info: Info
  readonly handler: Handler
}

/** Defines a route; its entry keeps its literal types, from which `Route.RouteName` is derived. */
export const define = <const Info>(info: Info, handler: Handler): Definition<Info> => ({ info, handler })

/** The API key of the caller, empty for an anonymous one. */
export const apiKeyOf = (call: Call): string => call.key?.apiKey ?? ""
