/**
 * `GET /api/v2/common/all-trade-rate`: the fee rates of every symbol of a
 * business type (or of one), lower for RPI market makers.
 *
 * @internal
 */
import * as Result from "effect/Result"
import { businessTypes, tradeRate } from "../internal/data/market.js"
import { sameSymbol } from "../internal/route/checks.js"
import { define } from "../internal/route/define.js"
import * as Params from "../internal/route/params.js"

const bounds = { enums: { businessType: businessTypes } } as const

export const route = define(
  {
    name: "trade-rate",
    method: "GET",
    path: "/api/v2/common/all-trade-rate",
    access: "signed",
    perSecond: 10,
    scope: "uid",
    bounds
  },
  (call) =>
    Result.gen(function*() {
      const business = yield* Params.oneOf(
        "businessType",
        yield* Params.required("businessType", call.query.get("businessType")),
        bounds.enums.businessType
      )
      const world = call.state.world
      const names = business === "mix"
        ? [...world.futures.values()].flatMap((list) => list.map((f) => f.symbol))
        : world.symbols.filter((s) => s.status !== "offline").map((s) => s.symbol)
      const symbol = call.query.get("symbol")
      const selected = symbol === undefined ? names : names.filter((name) => sameSymbol(name, symbol))
      if (selected.length === 0) return yield* Result.fail(Params.notExist(symbol ?? business))
      const marketMaker = call.key?.rpiMarketMaker ?? false
      return selected.map((name) => tradeRate(world.seed, business, name, marketMaker))
    })
)
