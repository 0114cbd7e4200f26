/**
 * `GET /api/v2/spot/market/fund-net-flow`: the fund flows of a spot symbol,
 * 24 hourly records, newest first.
 *
 * @internal
 */
import * as Result from "effect/Result"
import { fixed } from "../internal/data/format.js"
import { Draw, hash, hashString } from "../internal/data/hash.js"
import { HOUR } from "../internal/data/time.js"
import { define } from "../internal/route/define.js"
import * as Params from "../internal/route/params.js"

/** 24 hourly net-flow records of a symbol, newest first. */
const netFlow = (
  seed: number,
  symbol: string,
  now: number
): ReadonlyArray<{ readonly netFlow: string; readonly ts: string }> => {
  const latest = Math.floor(now / HOUR) * HOUR
  const scale = 10 ** (3 + (hash(seed, 31, hashString(symbol)) % 4))
  return Array.from({ length: 24 }, (_, k) => {
    const ts = latest - k * HOUR
    const draw = Draw.at(seed, 32, hash(hashString(symbol), ts / HOUR))
    return { netFlow: fixed(draw.between(-1, 1) * scale, 4), ts: String(ts) }
  })
}

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
      if (found === undefined) return yield* Result.fail(Params.notExist(symbol))
      return netFlow(call.state.world.seed, found.symbol, call.now)
    })
)
