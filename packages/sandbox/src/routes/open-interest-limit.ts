/**
 * `GET /api/v3/account/open-interest-limit`: the open interest limit of a
 * futures symbol.
 *
 * @internal
 */
import * as Result from "effect/Result"
import { productTypes } from "../Account.js"
import { openInterestLimit } from "../internal/data/market.js"
import { define } from "../internal/route/define.js"
import * as Params from "../internal/route/params.js"

const bounds = { enums: { category: productTypes } } as const

export const route = define(
  {
    name: "open-interest-limit",
    method: "GET",
    path: "/api/v3/account/open-interest-limit",
    access: "signed",
    perSecond: 5,
    scope: "uid",
    bounds
  },
  (call) =>
    Result.gen(function*() {
      const symbol = yield* Params.required("symbol", call.query.get("symbol"))
      const category = yield* Params.oneOf(
        "category",
        yield* Params.required("category", call.query.get("category")),
        bounds.enums.category,
        { caseInsensitive: true }
      )
      const future = call.state.world.future(category, symbol)
      if (future === undefined) return yield* Result.fail(Params.notExist(symbol))
      return openInterestLimit(future)
    })
)
