/**
 * `GET /api/v3/account/open-interest-limit`: the open interest limit of a
 * futures symbol.
 *
 * @internal
 */
import { Result } from "effect"
import type { ProductType } from "../Account.js"
import { productTypes } from "../Account.js"
import { openInterestLimit } from "../internal/market.js"
import * as Params from "../internal/params.js"
import { define } from "../internal/route.js"

export const route = define(
  {
    name: "open-interest-limit",
    method: "GET",
    path: "/api/v3/account/open-interest-limit",
    access: "signed",
    perSecond: 5,
    scope: "uid"
  },
  (call) =>
    Result.gen(function*() {
      const symbol = yield* Params.required("symbol", call.query.get("symbol"))
      const category: ProductType = yield* Params.oneOf(
        "category",
        yield* Params.required("category", call.query.get("category")),
        productTypes,
        { caseInsensitive: true }
      )
      const future = call.state.world.future(category, symbol)
      if (future === undefined) return yield* Result.fail(Params.notExist("symbol"))
      return openInterestLimit(future)
    })
)
