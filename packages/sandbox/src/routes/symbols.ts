/**
 * `GET /api/v2/spot/public/symbols`: every spot pair, or the one named by `symbol`.
 *
 * @internal
 */
import * as Result from "effect/Result"
import { define } from "../internal/route/define.js"
import * as Params from "../internal/route/params.js"

export const route = define(
  { name: "symbols", method: "GET", path: "/api/v2/spot/public/symbols", access: "public", perSecond: 20, scope: "ip" },
  (call) => {
    const symbol = call.query.get("symbol")
    if (symbol === undefined) return Result.succeed(call.state.world.symbols.map((s) => s.record))
    const found = call.state.world.spot(symbol)
    return found === undefined ? Result.fail(Params.notExist(symbol)) : Result.succeed([found.record])
  }
)
