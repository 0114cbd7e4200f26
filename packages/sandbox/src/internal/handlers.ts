/**
 * The operations: parameter validation with the exchange's codes, then the
 * answer from the data sets or the accounts.
 *
 * @internal
 */
import { Either } from "effect"
import type { ProductType } from "../Account.js"
import type { DemoKey } from "../DemoKey.js"
import type { RouteName } from "../Route.js"
import * as Accounts from "./accounts.js"
import * as Futures from "./futures.js"
import { netFlow, openInterestLimit, rpiOrderBook, tradeRate } from "./market.js"
import * as P2p from "./p2p.js"
import type { ApiFailure, Query } from "./params.js"
import * as Params from "./params.js"
import { DAY } from "./params.js"
import type { State } from "./state.js"
import * as Tax from "./tax.js"
import * as Timeline from "./timeline.js"

/** One call of an operation, after authentication. */
export interface Call {
  readonly query: Query
  /** The JSON body of a POST (an empty object for GET). */
  readonly body: Readonly<Record<string, unknown>>
  /** The authenticated (or, for the RPI book, identified) key. */
  readonly key: DemoKey | undefined
  /** Server time, ms. */
  readonly now: number
  readonly state: State
}

/** An operation: the `data` of a success envelope, or an error answer. */
export type Handler = (call: Call) => Either.Either<unknown, ApiFailure>

const keyOf = (call: Call): string => call.key?.apiKey ?? ""

const cursor = (value: string | undefined): Either.Either<bigint | undefined, ApiFailure> => {
  if (value === undefined) return Either.right(undefined)
  const id = Timeline.parseId(value)
  return id === undefined ? Either.left(Params.invalid("idLessThan")) : Either.right(id)
}

const ordered = (
  start: number | undefined,
  end: number | undefined
): Either.Either<void, ApiFailure> =>
  start !== undefined && end !== undefined && start > end
    ? Either.left(Params.verification("startTime must not be after endTime"))
    : Either.right(undefined)

const time: Handler = (call) => Either.right({ serverTime: String(call.now) })

const symbols: Handler = (call) => {
  const symbol = call.query.get("symbol")
  if (symbol === undefined) return Either.right(call.state.world.symbols.map((s) => s.record))
  const found = call.state.world.spot(symbol)
  return found === undefined ? Either.left(Params.notExist("symbol")) : Either.right([found.record])
}

const p2pOrders: Handler = (call) =>
  Either.gen(function*() {
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
      return yield* Either.left(
        Params.failure("00001", "startTime and endTime interval cannot be greater than 90 days")
      )
    }
    const set = call.state.world.p2p(keyOf(call))
    const tl = set.timeline
    const matcher = P2p.matcher(set, { status, side, coin: q.get("coin"), fiat: q.get("fiat"), advNo: q.get("advNo") })
    const from = Math.max(
      Timeline.firstAtOrBefore(tl, end),
      idLessThan === undefined ? 0 : Timeline.firstIdBelow(tl, idLessThan)
    )
    const to = Timeline.firstBefore(tl, start)
    const orderNo = q.get("orderNo")
    let indices: ReadonlyArray<number>
    if (orderNo !== undefined) {
      const index = P2p.indexOfOrderNo(set, orderNo)
      indices = index === undefined || index < from || index >= to ? [] : Timeline.collect(index, index + 1, 1, matcher)
    } else {
      indices = Timeline.collect(from, to, limit, matcher)
    }
    const orderList = indices.map((i) => P2p.record(set, i))
    return { orderList, minOrderId: orderList[orderList.length - 1]?.orderId ?? "" }
  })

const taxRecords: Handler = (call) =>
  Either.gen(function*() {
    const q = call.query
    const startTime = yield* Params.required("startTime", yield* Params.millis("startTime", q.get("startTime")))
    const endTime = yield* Params.required("endTime", yield* Params.millis("endTime", q.get("endTime")))
    const limit = yield* Params.limit(q.get("limit"), { fallback: 500, max: 500 })
    const idLessThan = yield* cursor(q.get("idLessThan"))
    yield* ordered(startTime, endTime)
    if (endTime - startTime > 30 * DAY) {
      return yield* Either.left(
        Params.failure("70008", "The time interval between startTime and endTime must be within 30 days")
      )
    }
    const set = call.state.world.tax(keyOf(call))
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

const futuresProductTypes = ["USDT-FUTURES", "COIN-FUTURES", "USDC-FUTURES"] as const

/** How far behind the 90-day horizon a start time may be, for clients whose clocks run ahead. */
const HORIZON_GRACE = 60_000

const futuresHistory: Handler = (call) =>
  Either.gen(function*() {
    const q = call.query
    const productType: ProductType = yield* Params.oneOf(
      "productType",
      yield* Params.required("productType", q.get("productType")),
      futuresProductTypes,
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
      return yield* Either.left(Params.failure("40705", "start and end time cannot exceed 90 days"))
    }
    if ((startTime ?? end) < horizon - HORIZON_GRACE) {
      return yield* Either.left(Params.failure("40704", "Only supports querying data within the last three months"))
    }
    const start = Math.max(startTime ?? horizon, horizon)
    const set = call.state.world.futuresHistory(keyOf(call), productType)
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
      indices = index === undefined || index < from || index >= to ? [] : Timeline.collect(index, index + 1, 1, matcher)
    } else {
      indices = Timeline.collect(from, to, limit, matcher)
    }
    if (indices.length === 0) return { entrustedList: null, endId: null }
    const entrustedList = indices.map((i) => Futures.record(set, i))
    return { entrustedList, endId: entrustedList[entrustedList.length - 1]?.orderId ?? null }
  })

const tradeRates: Handler = (call) =>
  Either.gen(function*() {
    const business = yield* Params.oneOf(
      "businessType",
      yield* Params.required("businessType", call.query.get("businessType")),
      ["spot", "mix", "margin"]
    )
    const world = call.state.world
    const names = business === "mix"
      ? [...world.futures.values()].flatMap((list) => list.map((f) => f.symbol))
      : world.symbols.filter((s) => s.status !== "offline").map((s) => s.symbol)
    const symbol = call.query.get("symbol")
    const selected = symbol === undefined ? names : names.filter((name) => name.toUpperCase() === symbol.toUpperCase())
    if (selected.length === 0) return yield* Either.left(Params.notExist("symbol"))
    const marketMaker = call.key?.rpiMarketMaker ?? false
    return selected.map((name) => tradeRate(world.seed, business, name, marketMaker))
  })

const fundNetFlow: Handler = (call) =>
  Either.gen(function*() {
    const symbol = yield* Params.required("symbol", call.query.get("symbol"))
    const found = call.state.world.spot(symbol)
    if (found === undefined) return yield* Either.left(Params.notExist("symbol"))
    return netFlow(call.state.world.seed, found.symbol, call.now)
  })

const openInterest: Handler = (call) =>
  Either.gen(function*() {
    const symbol = yield* Params.required("symbol", call.query.get("symbol"))
    const category: ProductType = yield* Params.oneOf(
      "category",
      yield* Params.required("category", call.query.get("category")),
      futuresProductTypes,
      { caseInsensitive: true }
    )
    const future = call.state.world.future(category, symbol)
    if (future === undefined) return yield* Either.left(Params.notExist("symbol"))
    return openInterestLimit(future)
  })

const rpiBook: Handler = (call) =>
  Either.gen(function*() {
    if (!call.state.options.rpiOpen && call.key?.rpiMarketMaker !== true) {
      return yield* Either.left(Params.failure("40014", "Incorrect permissions, need RPI market maker permissions"))
    }
    const category = yield* Params.oneOf(
      "category",
      yield* Params.required("category", call.query.get("category")),
      ["SPOT", ...futuresProductTypes],
      { caseInsensitive: true }
    )
    const symbol = yield* Params.required("symbol", call.query.get("symbol"))
    const limit = yield* Params.limit(call.query.get("limit"), { fallback: 5, max: 200 })
    const world = call.state.world
    const instrument = category === "SPOT" ? world.spot(symbol) : world.future(category, symbol)
    if (instrument === undefined) return yield* Either.left(Params.notExist("symbol"))
    return rpiOrderBook(world.seed, instrument, call.now, limit)
  })

const batchCancel: Handler = (call) => Accounts.batchCancel(call.state.account(keyOf(call)), call.body)

const placePosTpsl: Handler = (call) =>
  Accounts.placePosTpsl(call.state.account(keyOf(call)), call.body, {
    now: call.now,
    nextOrderId: () => call.state.nextPlanOrderId()
  })

/** The operation of every route. */
export const handlers: Readonly<Record<RouteName, Handler>> = {
  "time": time,
  "batch-cancel": batchCancel,
  "symbols": symbols,
  "p2p-orders": p2pOrders,
  "place-pos-tpsl": placePosTpsl,
  "trade-rate": tradeRates,
  "fund-net-flow": fundNetFlow,
  "tax-records": taxRecords,
  "open-interest-limit": openInterest,
  "rpi-orderbook": rpiBook,
  "futures-history": futuresHistory
}
