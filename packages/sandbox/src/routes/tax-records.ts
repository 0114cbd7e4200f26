/**
 * `GET /api/v2/tax/spot-record`: the caller's spot tax records, newest first,
 * within a 30-day range, paged by `idLessThan` (or, with
 * `taxTimestampPaging`, by the timestamp of that id, as the reported defect).
 *
 * @internal
 */
import * as Result from "effect/Result"
import * as Tax from "../internal/data/tax.js"
import * as Timeline from "../internal/data/timeline.js"
import { cursor, ordered, spanWithin } from "../internal/route/checks.js"
import { apiKeyOf, define } from "../internal/route/define.js"
import * as Params from "../internal/route/params.js"

const bounds = { windowDays: 30, pageSize: 500, enums: { taxType: Tax.spotTaxTypes } } as const

export const route = define(
  {
    name: "tax-records",
    method: "GET",
    path: "/api/v2/tax/spot-record",
    access: "signed",
    perSecond: 1,
    scope: "uid",
    bounds
  },
  (call) =>
    Result.gen(function*() {
      const q = call.query
      const startTime = yield* Params.required("startTime", yield* Params.millis("startTime", q.get("startTime")))
      const endTime = yield* Params.required("endTime", yield* Params.millis("endTime", q.get("endTime")))
      const limit = yield* Params.limit(q.get("limit"), { fallback: bounds.pageSize, max: bounds.pageSize })
      const idLessThan = yield* cursor(q.get("idLessThan"))
      yield* ordered(startTime, endTime)
      yield* spanWithin(
        startTime,
        endTime,
        bounds.windowDays,
        Params.coded("70008", bounds.windowDays)
      )
      const set = call.state.world.tax(apiKeyOf(call))
      const tl = set.timeline
      let after = 0
      if (idLessThan !== undefined) {
        const exact = call.state.options.taxTimestampPaging ? Timeline.indexOfId(tl, idLessThan) : undefined
        after = exact === undefined
          ? Timeline.firstIdBelow(tl, idLessThan)
          : Timeline.firstAtOrBefore(tl, Timeline.timeAt(tl, exact))
      }
      const from = Math.max(Timeline.firstAtOrBefore(tl, endTime), after)
      const to = Timeline.firstBefore(tl, startTime)
      return Timeline.collect(from, to, limit, Tax.matcher(set, q.get("coin"))).map((i) => Tax.record(set, i))
    })
)
