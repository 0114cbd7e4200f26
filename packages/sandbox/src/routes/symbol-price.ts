/**
 * `GET /api/v2/mix/market/symbol-price`: the last, index and mark price of a
 * futures contract (Bitget's "Get Mark/Index/Market Prices"; public, 20/s per
 * IP). The mark price is what place-pos-tpsl checks trigger prices against.
 * No endpoint of core calls it: it is served for clients that place TP/SL.
 *
 * @internal
 */
import * as Result from "effect/Result"
import { productTypes } from "../Account.js"
import { symbolPrice } from "../internal/data/prices.js"
import { define } from "../internal/route/define.js"
import * as Params from "../internal/route/params.js"

const bounds = { enums: { productType: productTypes } } as const

export const route = define(
  {
    name: "symbol-price",
    method: "GET",
    path: "/api/v2/mix/market/symbol-price",
    access: "public",
    perSecond: 20,
    scope: "ip",
    bounds
  },
  (call) =>
    Result.gen(function*() {
      const productType = yield* Params.oneOf(
        "productType",
        yield* Params.required("productType", call.query.get("productType")),
        bounds.enums.productType,
        { caseInsensitive: true }
      )
      const symbol = yield* Params.required("symbol", call.query.get("symbol"))
      const future = call.state.world.future(productType, symbol)
      if (future === undefined) return yield* Result.fail(Params.notExist(symbol))
      return [symbolPrice(future, call.now)]
    })
)
