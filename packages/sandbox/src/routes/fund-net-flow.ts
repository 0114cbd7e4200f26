/**
 * `GET /api/v2/spot/market/fund-net-flow`: the fund flows of a spot symbol.
 *
 * @internal
 */
import { Result } from "effect"
import { netFlow } from "../internal/market.js"
import * as Params from "../internal/params.js"
import { define } from "../internal/route.js"

export const route = define(
  {
    name: "fund-net-flow",
    method: "GET",
    path: "/api/v2/spot/market/fund-net-flow",
    access: "public",
    perSecond: 1,
    scope: "ip"
  },
  (call) =>
    Result.gen(function*() {
      const symbol = yield* Params.required("symbol", call.query.get("symbol"))
      const found = call.state.world.spot(symbol)
      if (found === undefined) return yield* Result.fail(Params.notExist("symbol"))
      return netFlow(call.state.world.seed, found.symbol, call.now)
    })
)
