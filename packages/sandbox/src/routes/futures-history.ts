/**
 * `GET /api/v2/mix/order/orders-history`: the caller's futures orders of a
 * product type, newest first, within the last 90 days, paged by `idLessThan`.
 *
 * @internal
 */
import * as Result from "effect/Result"
import { productTypes } from "../Account.js"
import * as Futures from "../internal/data/futures.js"
import { variant } from "../internal/data/shapes.js"
import { DAY, MINUTE } from "../internal/data/time.js"
import * as Timeline from "../internal/data/timeline.js"
import { cursor, ordered, spanWithin } from "../internal/route/checks.js"
import type { Call } from "../internal/route/define.js"
import { apiKeyOf, define } from "../internal/route/define.js"
import * as Params from "../internal/route/params.js"

/** The order sources the request accepts as a filter. */
const orderSources = [
  "normal",
  "market",
  "profit_market",
  "loss_market",
  "Trader_delegate",
  "trader_profit",
  "trader_loss",
  "reverse",
  "trader_reverse",
  "profit_limit",
  "loss_limit",
  "liquidation",
  "delivery_close_long",
  "delivery_close_short",
  "pos_profit_limit",
  "pos_profit_market",
  "pos_loss_limit",
  "pos_loss_market"
] as const

const bounds = {
  windowDays: 90,
  pageSize: 100,
  enums: { productType: productTypes, orderSource: orderSources }
} as const

/** How far behind the history's horizon a start time may be, for clients whose clocks run ahead. */
const HORIZON_GRACE = MINUTE

/** Salt of the draw between the two ends of data. */
const END_SALT = 98

/**
 * The answer past the last order: `{"entrustedList":null,"endId":null}`, or
 * under `varied`, drawn per answer, `{"entrustedList":[],"endId":""}` (both
 * seen on the sibling routes; which this one sends is unknown).
 */
const endOfData = (call: Call) =>
  variant(call.state.options.shapes, call.state.world.seed, END_SALT, call.state.nextAnswer())
    ? { entrustedList: [], endId: "" }
    : { entrustedList: null, endId: null }

/** The index of the order named by `orderId` (or else `clientOid`), `undefined` when none has it. */
const lookup = (set: Futures.Dataset, orderId: string | undefined, clientOid: string | undefined) => {
  if (orderId === undefined) return clientOid === undefined ? undefined : Futures.indexOfClientOid(set, clientOid)
  const id = Timeline.parseId(orderId)
  return id === undefined ? undefined : Timeline.indexOfId(set.timeline, id)
}

export const route = define(
  {
    name: "futures-history",
    method: "GET",
    path: "/api/v2/mix/order/orders-history",
    access: "signed",
    perSecond: 10,
    scope: "uid",
    bounds,
    requestTime: "number-or-string"
  },
  (call) =>
    Result.gen(function*() {
      const q = call.query
      const productType = yield* Params.oneOf(
        "productType",
        yield* Params.required("productType", q.get("productType")),
        bounds.enums.productType,
        { caseInsensitive: true }
      )
      const orderSource = yield* Params.optionalOneOf("orderSource", q.get("orderSource"), bounds.enums.orderSource)
      const startTime = yield* Params.millis("startTime", q.get("startTime"))
      const endTime = yield* Params.millis("endTime", q.get("endTime"))
      const idLessThan = yield* cursor(q.get("idLessThan"))
      const limit = yield* Params.limit(q.get("limit"), { fallback: bounds.pageSize, max: bounds.pageSize })
      yield* ordered(startTime, endTime)
      const end = endTime ?? call.now
      const horizon = call.now - Futures.historyDays * DAY
      if (startTime !== undefined) {
        yield* spanWithin(
          startTime,
          end,
          bounds.windowDays,
          Params.coded("40705", bounds.windowDays)
        )
      }
      if ((startTime ?? end) < horizon - HORIZON_GRACE) {
        return yield* Result.fail(Params.coded("40704"))
      }
      const set = call.state.world.futuresHistory(apiKeyOf(call), productType)
      const orderId = q.get("orderId")
      const clientOid = q.get("clientOid")
      const indices = Timeline.page(set.timeline, {
        start: Math.max(startTime ?? horizon, horizon),
        end,
        idLessThan,
        limit,
        matcher: Futures.matcher(set, { symbol: q.get("symbol"), orderSource }),
        only: orderId === undefined && clientOid === undefined ? undefined : { index: lookup(set, orderId, clientOid) }
      })
      if (indices.length === 0) return endOfData(call)
      const entrustedList = indices.map((i) => Futures.record(set, i))
      return { entrustedList, endId: entrustedList[entrustedList.length - 1]?.orderId ?? null }
    })
)
