/**
 * `GET /api/v2/p2p/orderList`: the caller's P2P orders, newest first, within
 * a 90-day range from the required `startTime` (60001 "StartTime not empty"
 * without it), paged by `idLessThan`.
 *
 * @internal
 */
import * as Result from "effect/Result"
import * as P2p from "../internal/data/p2p.js"
import * as Timeline from "../internal/data/timeline.js"
import { cursor, ordered, spanWithin } from "../internal/route/checks.js"
import { apiKeyOf, define } from "../internal/route/define.js"
import * as Params from "../internal/route/params.js"

const bounds = {
  windowDays: 90,
  pageSize: 100,
  enums: {
    status: ["pending_pay", "Paid", "Appeal", "Completed", "cancelled"],
    side: ["buy", "sell"],
    language: ["zh-CN", "en-US"]
  }
} as const

export const route = define(
  {
    name: "p2p-orders",
    method: "GET",
    path: "/api/v2/p2p/orderList",
    access: "signed",
    perSecond: 10,
    scope: "uid",
    bounds
  },
  (call) =>
    Result.gen(function*() {
      const q = call.query
      // required, as the official EN and zh-CN pages mark it and the exchange answers (60001)
      if (q.get("startTime") === undefined) return yield* Result.fail(Params.coded("60001"))
      const start = yield* Params.required("startTime", yield* Params.millis("startTime", q.get("startTime")))
      const endTime = yield* Params.millis("endTime", q.get("endTime"))
      const idLessThan = yield* cursor(q.get("idLessThan"))
      const limit = yield* Params.limit(q.get("limit"), { fallback: bounds.pageSize, max: bounds.pageSize })
      const status = yield* Params.optionalOneOf("status", q.get("status"), bounds.enums.status, {
        caseInsensitive: true
      })
      const side = yield* Params.optionalOneOf("side", q.get("side"), bounds.enums.side)
      yield* Params.optionalOneOf("language", q.get("language"), bounds.enums.language)
      yield* ordered(start, endTime)
      const end = endTime ?? call.now
      yield* spanWithin(start, end, bounds.windowDays, Params.coded("00001", bounds.windowDays))
      const set = call.state.world.p2p(apiKeyOf(call))
      const orderNo = q.get("orderNo")
      const indices = Timeline.page(set.timeline, {
        start,
        end,
        idLessThan,
        limit,
        matcher: P2p.matcher(set, { status, side, coin: q.get("coin"), fiat: q.get("fiat"), advNo: q.get("advNo") }),
        only: orderNo === undefined ? undefined : { index: P2p.indexOfOrderNo(set, orderNo) }
      })
      const orderList = indices.map((i) => P2p.record(set, i))
      return { orderList, minOrderId: orderList[orderList.length - 1]?.orderId ?? "" }
    })
)
