/**
 * `GET /api/v2/tax/spot-record`: the caller's spot tax records, newest first,
 * within a 30-day range, paged by `idLessThan` (or, with
 * `taxTimestampPaging`, by the timestamp of that id, as the reported defect).
 *
 * @internal
 */
import { Result } from "effect"
import { cursor, ordered } from "../internal/checks.js"
import * as Params from "../internal/params.js"
import { DAY } from "../internal/params.js"
import { apiKeyOf, define } from "../internal/route.js"
import * as Tax from "../internal/tax.js"
import * as Timeline from "../internal/timeline.js"

export const route = define(
  { name: "tax-records", method: "GET", path: "/api/v2/tax/spot-record", access: "signed", perSecond: 1, scope: "uid" },
  (call) =>
    Result.gen(function*() {
      const q = call.query
      const startTime = yield* Params.required("startTime", yield* Params.millis("startTime", q.get("startTime")))
      const endTime = yield* Params.required("endTime", yield* Params.millis("endTime", q.get("endTime")))
      const limit = yield* Params.limit(q.get("limit"), { fallback: 500, max: 500 })
      const idLessThan = yield* cursor(q.get("idLessThan"))
      yield* ordered(startTime, endTime)
      if (endTime - startTime > 30 * DAY) {
        return yield* Result.fail(
          Params.failure("70008", "The time interval between startTime and endTime must be within 30 days")
        )
      }
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
