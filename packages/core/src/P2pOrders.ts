/**
 * Get merchant P2P orders: `GET /api/v2/p2p/orderList` (signed, 10/s per UID).
 *
 * @since 0.1.0
 */
import * as DateTime from "effect/DateTime"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as SchemaGetter from "effect/SchemaGetter"
import * as SchemaTransformation from "effect/SchemaTransformation"
import * as Stream from "effect/Stream"
import * as BitgetClient from "./BitgetClient.js"
import type { BitgetError } from "./BitgetError.js"
import * as Endpoint from "./Endpoint.js"
import type * as Paginate from "./paging/paginate.js"
import * as Windowed from "./paging/windowed.js"
import type * as Resumable from "./Resumable.js"
import type { OneOf } from "./Schemas.js"
import {
  checkWindow,
  completeRange,
  Decimal,
  Filter,
  IntString,
  isAbsent,
  ListOrEmpty,
  Maybe,
  NumericId,
  OpenEnum,
  OptionalObject,
  QueryTimestamp,
  Timestamp
} from "./Schemas.js"

/**
 * The most days between `startTime` and `endTime`.
 *
 * @since 0.1.0
 * @category constants
 */
export const maxWindowDays = 90

/**
 * The largest `limit` the library sends. The exchange documents the default
 * (100) but not the maximum; 100 is assumed.
 *
 * @since 0.1.0
 * @category constants
 */
export const maxLimit = 100

/**
 * The documented statuses of a P2P order, spelled as the status filter takes
 * them (the exchange's list mixes cases).
 *
 * @since 0.2.0
 * @category constants
 */
export const p2pStatuses = ["pending_pay", "Paid", "Appeal", "Completed", "cancelled"] as const

/**
 * The sides of a P2P order.
 *
 * @since 0.2.0
 * @category constants
 */
export const sides = ["buy", "sell"] as const

/**
 * The values of the `language` parameter.
 *
 * @since 0.2.0
 * @category constants
 */
export const languages = ["zh-CN", "en-US"] as const

/**
 * The status filter type.
 *
 * @since 0.1.0
 * @category models
 */
export type P2pStatusFilter = OneOf<typeof p2pStatuses>

/**
 * The status filter, sent exactly as written.
 *
 * @since 0.1.0
 * @category models
 */
export const P2pStatusFilter: Schema.Literals<ReadonlyArray<P2pStatusFilter>> = Schema.Literals(p2pStatuses)

/**
 * The status of a P2P order: a documented status, or `Unrecognized`.
 *
 * @since 0.2.0
 * @category models
 */
export type P2pOrderStatus = OpenEnum<P2pStatusFilter>

/**
 * The status of a P2P order, decoded case-insensitively (`cancelled`, `PAID`
 * and `Paid` are known values).
 *
 * @since 0.1.0
 * @category models
 */
export const P2pOrderStatus: Schema.Codec<P2pOrderStatus, string> = OpenEnum(p2pStatuses, { caseInsensitive: true })

/**
 * The request; every field is optional (`p2pOrders` fills in `startTime`,
 * which the exchange requires).
 *
 * @since 0.1.0
 * @category models
 */
export const P2pOrdersRequest = Schema.Struct({
  startTime: Schema.optional(QueryTimestamp),
  /** At most 90 days after `startTime`. */
  endTime: Schema.optional(QueryTimestamp),
  /** The `minOrderId` of the previous page: returns older orders. */
  idLessThan: Schema.optional(NumericId),
  /** 1 to 100 (the exchange's default is 100; its maximum is undocumented, 100 assumed). */
  limit: Schema.optional(IntString(1, maxLimit)),
  status: Schema.optional(P2pStatusFilter),
  advNo: Filter,
  side: Schema.optional(Schema.Literals(sides)),
  coin: Filter,
  language: Schema.optional(Schema.Literals(languages)),
  fiat: Filter,
  orderNo: Filter
}).annotate({ identifier: "P2pOrdersFields" }).check(
  Schema.makeFilter(checkWindow(maxWindowDays), { identifier: "P2pOrdersRequest" })
)

/**
 * The request type.
 *
 * @since 0.1.0
 * @category models
 */
export type P2pOrdersRequest = typeof P2pOrdersRequest.Type

/**
 * One payment detail of a payment method.
 *
 * @since 0.1.0
 * @category models
 */
export class PaymethodItem extends Schema.Class<PaymethodItem>("PaymethodItem")({
  name: Schema.String,
  required: OpenEnum(["yes", "no"]),
  /** The exchange says to ignore this field; it may be missing. */
  type: Maybe(OpenEnum(["number", "file"])),
  /** A masked value or a file address. */
  value: Maybe(Schema.String)
}) {}

/**
 * The payment information of an order.
 *
 * @since 0.1.0
 * @category models
 */
export class PaymentInfo extends Schema.Class<PaymentInfo>("PaymentInfo")({
  paymethodName: Maybe(Schema.String),
  paymethodId: Maybe(Schema.String),
  paymethodInfo: ListOrEmpty(PaymethodItem)
}) {}

/**
 * A P2P order of the merchant. Unset times are `Option.none()`; the real names
 * are personal data and may be empty.
 *
 * @since 0.1.0
 * @category models
 */
export class P2pOrder extends Schema.Class<P2pOrder>("P2pOrder")({
  orderId: Schema.String,
  orderNo: Schema.String,
  advNo: Schema.String,
  side: OpenEnum(sides),
  /** Amount of digital currency. */
  count: Decimal,
  /** The digital currency. */
  coin: Schema.String,
  price: Decimal,
  /** The fiat currency. */
  fiat: Schema.String,
  withdrawTime: Maybe(Timestamp),
  /** Appeal time. */
  representTime: Maybe(Timestamp),
  releaseTime: Maybe(Timestamp),
  paymentTime: Maybe(Timestamp),
  /** Order amount in fiat. */
  amount: Decimal,
  status: P2pOrderStatus,
  buyerRealName: Maybe(Schema.String),
  sellerRealName: Maybe(Schema.String),
  /** Creation time (`ctime`; `cTime` is read when only it is present). */
  ctime: Timestamp,
  /** Update time (`utime`; `uTime` is read when only it is present). */
  utime: Timestamp,
  paymentInfo: OptionalObject(PaymentInfo)
}) {}

/** An object as the exchange sends it, with every field kept. */
const WireObject = Schema.Record(Schema.String, Schema.Unknown)

/** Reads the upper-case spellings `cTime`/`uTime` when the real lower-case fields are missing. */
const TimeSpellings = WireObject.pipe(
  Schema.decodeTo(WireObject, {
    decode: SchemaGetter.transform((record) => {
      const out: Record<string, unknown> = { ...record }
      if (isAbsent(out.ctime) && !isAbsent(out.cTime)) out.ctime = out.cTime
      if (isAbsent(out.utime) && !isAbsent(out.uTime)) out.utime = out.uTime
      return out
    }),
    encode: SchemaGetter.passthrough()
  })
).annotate({ identifier: "P2pOrderTimes" })

/**
 * A P2P order as the exchange sends it.
 *
 * @since 0.1.0
 * @category models
 */
export const P2pOrderFromWire: Schema.Codec<P2pOrder, { readonly [key: string]: unknown }> = TimeSpellings.pipe(
  Schema.decodeTo(P2pOrder, SchemaTransformation.passthrough({ strict: false }))
).annotate({ identifier: "P2pOrderFromWire" })

/**
 * A page of P2P orders; `minOrderId` is the cursor for the next (older) page.
 *
 * @since 0.1.0
 * @category models
 */
export class P2pOrderPage extends Schema.Class<P2pOrderPage>("P2pOrderPage")({
  orderList: ListOrEmpty(P2pOrderFromWire),
  minOrderId: Maybe(NumericId)
}) {}

/**
 * The endpoint descriptor.
 *
 * @see `p2pOrders`, `stream` and `pages`, which call it
 * @since 0.1.0
 * @category endpoints
 */
export const endpoint = Endpoint.get({
  name: "p2p.orderList",
  path: "/api/v2/p2p/orderList",
  auth: "signed",
  rateLimit: { limit: 10, window: "1 second", scope: "uid" },
  idempotency: "idempotent",
  bounds: {
    windowDays: maxWindowDays,
    pageSize: maxLimit,
    enums: { status: p2pStatuses, side: sides, language: languages }
  },
  request: P2pOrdersRequest,
  response: P2pOrderPage
})

/** The earliest start a completed range takes (a clock within 90 days of 1970 is a test's). */
const epoch = DateTime.makeUnsafe(0)

/** A request with neither end of the range ends it now (`completeRange` then starts it 90 days earlier). */
const withRange = (request: P2pOrdersRequest, now: DateTime.Utc): P2pOrdersRequest =>
  request.startTime === undefined && request.endTime === undefined ? { ...request, endTime: now } : request

/**
 * Lists one page of the merchant's P2P orders, newest first (assumed).
 *
 * The request never goes without `startTime`: the exchange's current EN and
 * zh-CN pages mark it required and answer 60001 "StartTime not empty"
 * without it. When the caller gives none, it sends `endTime` − 90 days, or,
 * without `endTime` either, now − 90 days to now: the 90 days the exchange
 * serves by default per the older doc. A range with only its start is
 * completed to now (`Schemas.completeRange`), so only a `startTime` more than
 * 90 days back is refused before sending.
 *
 * @example
 * ```ts
 * import { P2pOrders, Schemas } from "@bitget-effect/core"
 * import { DateTime, Effect } from "effect"
 *
 * const program = Effect.gen(function*() {
 *   const end = yield* DateTime.now
 *   const page = yield* P2pOrders.p2pOrders({
 *     startTime: DateTime.subtract(end, { days: 30 }),
 *     endTime: end,
 *     status: "Completed"
 *   })
 *   for (const order of page.orderList) {
 *     yield* Effect.log(`${order.orderNo}: ${Schemas.formatDecimal(order.amount)} ${order.fiat}`)
 *   }
 *   // `page.minOrderId` is the `idLessThan` of the next (older) page; `stream` walks them all.
 * })
 * ```
 *
 * @see `stream` for every record of a range of any length, `pages` for it resumable
 * @see `endpoint` for the method, path, limits and retry policy
 * @since 0.1.0
 * @category operations
 */
export const p2pOrders = (
  request: P2pOrdersRequest = {}
): Effect.Effect<P2pOrderPage, BitgetError, BitgetClient.BitgetClient> =>
  Effect.flatMap(
    Windowed.exchangeNow,
    (now) => BitgetClient.execute(endpoint, completeRange(withRange(request, now), now, maxWindowDays, epoch))
  )

/**
 * What `stream` walks: a range of any length (split into 90-day windows;
 * `endTime` defaults to now) with the list's filters.
 *
 * @since 0.1.0
 * @category models
 */
export type P2pOrdersStreamRequest =
  & Omit<P2pOrdersRequest, "startTime" | "endTime" | "idLessThan" | "limit">
  & Resumable.ResumeOptions
  & {
    readonly startTime: DateTime.Utc
    readonly endTime?: DateTime.Utc
    /** Orders per page, 1 to 100 (default 100). */
    readonly pageSize?: number
    /** `newestFirst` (default) or `oldestFirst` across windows; orders within a window stay newest first. */
    readonly order?: Paginate.WindowOrder
  }

/**
 * Every merchant P2P order in a range, pulled lazily page by page
 * (`idLessThan` = `minOrderId`), each page through the rate limiter and retry
 * policy; no order is emitted twice.
 *
 * @example
 * ```ts
 * import { P2pOrders } from "@bitget-effect/core"
 * import { DateTime, Effect, Stream } from "effect"
 *
 * // A year of completed orders, in 90-day windows from the oldest, 100 orders a page.
 * const program = Effect.gen(function*() {
 *   const now = yield* DateTime.now
 *   const orders = P2pOrders.stream({
 *     startTime: DateTime.subtract(now, { days: 365 }),
 *     status: "Completed",
 *     order: "oldestFirst"
 *   })
 *   const count = yield* Stream.runCount(orders)
 *   yield* Effect.log(`${count} completed P2P orders in the last year`)
 * })
 * ```
 *
 * @see `pages` for the same walk a page at a time, each with its checkpoint
 * @see `p2pOrders` for one page
 * @since 0.1.0
 * @category streams
 */
export const stream = (
  request: P2pOrdersStreamRequest
): Stream.Stream<P2pOrder, BitgetError, BitgetClient.BitgetClient> => paged.stream(request)

/**
 * `stream` a page at a time, each page with the checkpoint after it: store
 * the checkpoint with the page's orders in one step, and a stream started
 * with `resume: checkpoint` goes on after them, neither repeating nor
 * skipping an order (see `Resumable`).
 *
 * @see `stream` for the records alone
 * @see `Resumable` for the checkpoint
 * @since 0.3.0
 * @category streams
 */
export const pages = (
  request: P2pOrdersStreamRequest
): Stream.Stream<Resumable.Page<P2pOrder>, BitgetError, BitgetClient.BitgetClient> => paged.pages(request)

/** `stream` and `pages`: the orders in windows of 90 days, pages of up to 100, `idLessThan` the page's `minOrderId`. */
const paged = Windowed.listed({
  endpoint: Endpoint.label(endpoint),
  bounds: { windowDays: maxWindowDays, pageSize: maxLimit },
  filters: (request: P2pOrdersStreamRequest) => Windowed.rangeFilters(request),
  id: (record: P2pOrder) => record.orderId,
  time: (record) => record.ctime,
  page: (filters, window, limit, cursor) =>
    p2pOrders({ ...filters, startTime: window.start, endTime: window.end, limit, ...Windowed.cursorParam(cursor) })
      .pipe(Effect.map((page) => ({ items: page.orderList, next: page.minOrderId })))
})
