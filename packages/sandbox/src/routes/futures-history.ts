/**
 * `GET /api/v2/mix/order/orders-history`: the caller's futures orders of a
 * product type, newest first, within the last 90 days, paged by `idLessThan`.
 *
 * @internal
 */
import { Result } from "effect"
import type { ProductType } from "../Account.js"
import { productTypes } from "../Account.js"
import { cursor, ordered } from "../internal/checks.js"
import * as Futures from "../internal/futures.js"
import * as Params from "../internal/params.js"
import { DAY } from "../internal/params.js"
import { apiKeyOf, define } from "../internal/route.js"
import * as Timeline from "../internal/timeline.js"

/** How far behind the 90-day horizon a start time may be, for clients whose clocks run ahead. */
const HORIZON_GRACE = 60_000

export const route = define(
  {
    name: "futures-history",
    method: "GET",
    path: "/api/v2/mix/order/orders-history",
    access: "signed",
    perSecond: 10,
    scope: "uid"
  },
  (call) =>
    Result.gen(function*() {
      const q = call.query
      const productType: ProductType = yield* Params.oneOf(
        "productType",
        yield* Params.required("productType", q.get("productType")),
        productTypes,
        { caseInsensitive: true }
      )
      const orderSource = yield* Params.optionalOneOf("orderSource", q.get("orderSource"), Futures.filterSources)
      const startTime = yield* Params.millis("startTime", q.get("startTime"))
      const endTime = yield* Params.millis("endTime", q.get("endTime"))
      const idLessThan = yield* cursor(q.get("idLessThan"))
      const limit = yield* Params.limit(q.get("limit"), { fallback: 100, max: 100 })
      yield* ordered(startTime, endTime)
      const end = endTime ?? call.now
      const horizon = call.now - 90 * DAY
      if (startTime !== undefined && end - startTime > 90 * DAY) {
        return yield* Result.fail(Params.failure("40705", "start and end time cannot exceed 90 days"))
      }
      if ((startTime ?? end) < horizon - HORIZON_GRACE) {
        return yield* Result.fail(Params.failure("40704", "Only supports querying data within the last three months"))
      }
      const start = Math.max(startTime ?? horizon, horizon)
      const set = call.state.world.futuresHistory(apiKeyOf(call), productType)
      const tl = set.timeline
      const matcher = Futures.matcher(set, { symbol: q.get("symbol"), orderSource })
      const from = Math.max(
        Timeline.firstAtOrBefore(tl, end),
        idLessThan === undefined ? 0 : Timeline.firstIdBelow(tl, idLessThan)
      )
      const to = Timeline.firstBefore(tl, start)
      const orderId = q.get("orderId")
      const clientOid = q.get("clientOid")
      let indices: ReadonlyArray<number>
      if (orderId !== undefined || clientOid !== undefined) {
        const id = orderId === undefined ? undefined : Timeline.parseId(orderId)
        const index = orderId !== undefined
          ? id === undefined ? undefined : Timeline.indexOfId(tl, id)
          : Futures.indexOfClientOid(set, clientOid as string)
        indices = index === undefined || index < from || index >= to
          ? []
          : Timeline.collect(index, index + 1, 1, matcher)
      } else {
        indices = Timeline.collect(from, to, limit, matcher)
      }
      if (indices.length === 0) return { entrustedList: null, endId: null }
      const entrustedList = indices.map((i) => Futures.record(set, i))
      return { entrustedList, endId: entrustedList[entrustedList.length - 1]?.orderId ?? null }
    })
)
