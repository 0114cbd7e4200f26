/**
 * `GET /api/v2/p2p/orderList`: the caller's P2P orders, newest first, within
 * a 90-day range, paged by `idLessThan`.
 *
 * @internal
 */
import { Result } from "effect"
import { cursor, ordered } from "../internal/checks.js"
import * as P2p from "../internal/p2p.js"
import * as Params from "../internal/params.js"
import { DAY } from "../internal/params.js"
import { apiKeyOf, define } from "../internal/route.js"
import * as Timeline from "../internal/timeline.js"

export const route = define(
  { name: "p2p-orders", method: "GET", path: "/api/v2/p2p/orderList", access: "signed", perSecond: 10, scope: "uid" },
  (call) =>
    Result.gen(function*() {
      const q = call.query
      const startTime = yield* Params.millis("startTime", q.get("startTime"))
      const endTime = yield* Params.millis("endTime", q.get("endTime"))
      const idLessThan = yield* cursor(q.get("idLessThan"))
      const limit = yield* Params.limit(q.get("limit"), { fallback: 100, max: 100 })
      const status = yield* Params.optionalOneOf(
        "status",
        q.get("status"),
        ["pending_pay", "Paid", "Appeal", "Completed", "cancelled"],
        { caseInsensitive: true }
      )
      const side = yield* Params.optionalOneOf("side", q.get("side"), ["buy", "sell"])
      yield* Params.optionalOneOf("language", q.get("language"), ["zh-CN", "en-US"])
      yield* ordered(startTime, endTime)
      const end = endTime ?? call.now
      const start = startTime ?? end - 90 * DAY
      if (end - start > 90 * DAY) {
        return yield* Result.fail(
          Params.failure("00001", "startTime and endTime interval cannot be greater than 90 days")
        )
      }
      const set = call.state.world.p2p(apiKeyOf(call))
      const tl = set.timeline
      const matcher = P2p.matcher(set, {
        status,
        side,
        coin: q.get("coin"),
        fiat: q.get("fiat"),
        advNo: q.get("advNo")
      })
      const from = Math.max(
        Timeline.firstAtOrBefore(tl, end),
        idLessThan === undefined ? 0 : Timeline.firstIdBelow(tl, idLessThan)
      )
      const to = Timeline.firstBefore(tl, start)
      const orderNo = q.get("orderNo")
      let indices: ReadonlyArray<number>
      if (orderNo !== undefined) {
        const index = P2p.indexOfOrderNo(set, orderNo)
        indices = index === undefined || index < from || index >= to
          ? []
          : Timeline.collect(index, index + 1, 1, matcher)
      } else {
        indices = Timeline.collect(from, to, limit, matcher)
      }
      const orderList = indices.map((i) => P2p.record(set, i))
      return { orderList, minOrderId: orderList[orderList.length - 1]?.orderId ?? "" }
    })
)
