/**
 * `GET /api/v3/market/rpi-orderbook`: the RPI order book of a spot or futures
 * symbol, for RPI market makers only (or everyone, with `rpiOpen`).
 *
 * @internal
 */
import { Result } from "effect"
import { productTypes } from "../Account.js"
import { rpiOrderBook } from "../internal/market.js"
import * as Params from "../internal/params.js"
import { define } from "../internal/route.js"

export const route = define(
  {
    name: "rpi-orderbook",
    method: "GET",
    path: "/api/v3/market/rpi-orderbook",
    access: "identified",
    perSecond: 10,
    scope: "ip"
  },
  (call) =>
    Result.gen(function*() {
      if (!call.state.options.rpiOpen && call.key?.rpiMarketMaker !== true) {
        return yield* Result.fail(Params.failure("40014", "Incorrect permissions, need RPI market maker permissions"))
      }
      const category = yield* Params.oneOf(
        "category",
        yield* Params.required("category", call.query.get("category")),
        ["SPOT", ...productTypes],
        { caseInsensitive: true }
      )
      const symbol = yield* Params.required("symbol", call.query.get("symbol"))
      const limit = yield* Params.limit(call.query.get("limit"), { fallback: 5, max: 200 })
      const world = call.state.world
      const instrument = category === "SPOT" ? world.spot(symbol) : world.future(category, symbol)
      if (instrument === undefined) return yield* Result.fail(Params.notExist("symbol"))
      return rpiOrderBook(world.seed, instrument, call.now, limit)
    })
)
