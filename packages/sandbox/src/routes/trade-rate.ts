/**
 * `GET /api/v2/common/all-trade-rate`: the fee rates of every symbol of a
 * business type (or of one), lower for RPI market makers.
 *
 * @internal
 */
import { Result } from "effect"
import { tradeRate } from "../internal/market.js"
import * as Params from "../internal/params.js"
import { define } from "../internal/route.js"

export const route = define(
  {
    name: "trade-rate",
    method: "GET",
    path: "/api/v2/common/all-trade-rate",
    access: "signed",
    perSecond: 10,
    scope: "uid"
  },
  (call) =>
    Result.gen(function*() {
      const business = yield* Params.oneOf(
        "businessType",
        yield* Params.required("businessType", call.query.get("businessType")),
        ["spot", "mix", "margin"]
      )
      const world = call.state.world
      const names = business === "mix"
        ? [...world.futures.values()].flatMap((list) => list.map((f) => f.symbol))
        : world.symbols.filter((s) => s.status !== "offline").map((s) => s.symbol)
      const symbol = call.query.get("symbol")
      const selected = symbol === undefined
        ? names
        : names.filter((name) => name.toUpperCase() === symbol.toUpperCase())
      if (selected.length === 0) return yield* Result.fail(Params.notExist("symbol"))
      const marketMaker = call.key?.rpiMarketMaker ?? false
      return selected.map((name) => tradeRate(world.seed, business, name, marketMaker))
    })
)
