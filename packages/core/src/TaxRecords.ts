/**
 * Spot transaction records for tax reporting: `GET /api/v2/tax/spot-record`
 * (signed, 1/s per user).
 *
 * @since 0.1.0
 */
import * as DateTime from "effect/DateTime"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import * as BitgetClient from "./BitgetClient.js"
import type { BitgetError } from "./BitgetError.js"
import * as Endpoint from "./Endpoint.js"
import type * as Paginate from "./paging/paginate.js"
import * as Windowed from "./paging/windowed.js"
import type * as Resumable from "./Resumable.js"
import {
  checkWindow,
  Decimal,
  Filter,
  IntString,
  Maybe,
  NumericId,
  OpenEnum,
  QueryTimestamp,
  Timestamp
} from "./Schemas.js"

/**
 * Every record type the exchange documents, each exactly as written.
 *
 * @since 0.1.0
 * @category constants
 */
export const spotTaxTypes = [
  "Deposit",
  "Withdrawal",
  "User fees",
  "Fiat withdrawal success - Deduct",
  "Sell",
  "Buy",
  "Transaction fee deduct",
  "Strategic purchase-user accounts",
  "Subscribe to trader-user accounts",
  "System charges fees",
  "Strategic refund-User account",
  "Subscription fee refund-user account",
  "Strategic Income-Traders' accounts",
  "Crypto Voucher Distribution",
  "Copy Trade expense",
  "Judicial recall",
  "Copy Trade profit",
  "Refund Copy Trade commission",
  "Buy Crypto",
  "Deduction of judicial recall",
  "Buy with card",
  "Airdrop Reward-B",
  "Decrease due to ETF settlement",
  "Increase due to ETF settlement",
  "System lock-up",
  "User lock-up",
  "Trading fee rebate",
  "Manage background lock positions",
  "Automatic deposit",
  "Automatic withdrawal",
  "Deposit from strategy account",
  "Withdraw to strategy account",
  "Lotto rewards",
  "User contract trial fund",
  "User contract simulation fund",
  "Delegate",
  "Undelegate",
  "Rebate rewards",
  "Consumption",
  "Gains",
  "Unlock locked order",
  "Deduction",
  "Return",
  "Release",
  "Repayment",
  "Forced liquidation return",
  "The locked order is returned to the system",
  "Failed",
  "Withdrawal frozen",
  "Mirror fund",
  "Supplement fund",
  "Reduce fund",
  "Settlement out",
  "Withdrawal unfreeze",
  "Ordinary Withdrawal",
  "Fast withdrawal fee",
  "Airdrop Reward-A",
  "Subscribe",
  "Interest",
  "Penalty",
  "Redemption",
  "Activity fund(USDT-Ⓜ)",
  "Activity fund",
  "Activity fund(Coin-Ⓜ)",
  "Increase exchange rate",
  "Reduce exchange rate",
  "Transfer in",
  "Activity issuance",
  "Transfer out",
  "Super account",
  "Exchange spending",
  "Exchange income",
  "Sent",
  "Received",
  "MegaSwap Transfer in",
  "MegaSwap Transfer out",
  "Channel referral rewards",
  "System account",
  "Sell Crypto",
  "Fiat deposit"
] as const

/**
 * The type of a spot tax record: a documented value (see `spotTaxTypes`), or `Unrecognized`.
 *
 * @since 0.2.0
 * @category models
 */
export type SpotTaxType = OpenEnum<typeof spotTaxTypes[number]>

/**
 * The type of a spot tax record: a documented value, or `Unrecognized`.
 *
 * @since 0.1.0
 * @category models
 */
export const SpotTaxType: Schema.Codec<SpotTaxType, string> = OpenEnum(spotTaxTypes)

/**
 * One spot account ledger record.
 *
 * @since 0.1.0
 * @category models
 */
export class SpotTaxRecord extends Schema.Class<SpotTaxRecord>("SpotTaxRecord")({
  /** Record id; the `idLessThan` cursor of the next (older) page. */
  id: Schema.String,
  coin: Schema.String,
  spotTaxType: SpotTaxType,
  amount: Decimal,
  fee: Decimal,
  /** Total account balance after the record. */
  balance: Decimal,
  ts: Timestamp,
  /** Added by newer responses; `None` when absent or empty. */
  bizOrderId: Maybe(Schema.String)
}) {}

/**
 * The most days between `startTime` and `endTime`.
 *
 * @since 0.1.0
 * @category constants
 */
export const maxWindowDays = 30

/**
 * The largest `limit` the exchange takes, and the page size `stream` asks for by default.
 *
 * @since 0.2.0
 * @category constants
 */
export const maxLimit = 500

/**
 * The request: a window of at most 30 days (both ends required), optionally
 * one coin, a page size of 1 to 500, and the last `id` of the previous page.
 *
 * @since 0.1.0
 * @category models
 */
export const TaxRecordsRequest = Schema.Struct({
  coin: Filter,
  startTime: QueryTimestamp,
  endTime: QueryTimestamp,
  limit: Schema.optional(IntString(1, maxLimit)),
  idLessThan: Schema.optional(NumericId)
}).annotate({ identifier: "TaxRecordsRequestFields" }).check(
  Schema.makeFilter(checkWindow(maxWindowDays), { identifier: "TaxRecordsRequest" })
)

/**
 * The request type.
 *
 * @since 0.1.0
 * @category models
 */
export type TaxRecordsRequest = typeof TaxRecordsRequest.Type

/**
 * The endpoint descriptor.
 *
 * @see `spotRecords`, `stream` and `pages`, which call it
 * @since 0.1.0
 * @category endpoints
 */
export const endpoint = Endpoint.get({
  name: "tax.spotRecords",
  path: "/api/v2/tax/spot-record",
  auth: "signed",
  rateLimit: { limit: 1, window: "1 second", scope: "uid" },
  idempotency: "idempotent",
  bounds: { windowDays: maxWindowDays, pageSize: maxLimit, enums: { taxType: spotTaxTypes } },
  request: TaxRecordsRequest,
  response: Schema.Array(SpotTaxRecord)
})

/**
 * Lists one page of spot ledger records in a time window of at most 30 days.
 *
 * @example
 * ```ts
 * import { Schemas, TaxRecords } from "@bitget-effect/core"
 * import { DateTime, Effect } from "effect"
 *
 * // The newest 500 USDT records of the last week (a window is at most 30 days).
 * const program = Effect.gen(function*() {
 *   const end = yield* DateTime.now
 *   const window = { coin: "USDT", startTime: DateTime.subtract(end, { days: 7 }), endTime: end, limit: 500 }
 *   const records = yield* TaxRecords.spotRecords(window)
 *   for (const record of records) {
 *     yield* Effect.log(`${Schemas.enumText(record.spotTaxType)} ${Schemas.formatDecimal(record.amount)}`)
 *   }
 *   // The next (older) page: the same window with `idLessThan` set to the last record's `id`.
 * })
 * ```
 *
 * @see `stream` for every record of a range of any length, `pages` for it resumable
 * @see `endpoint` for the method, path, limits and retry policy
 * @since 0.1.0
 * @category operations
 */
export const spotRecords = (
  request: TaxRecordsRequest
): Effect.Effect<ReadonlyArray<SpotTaxRecord>, BitgetError, BitgetClient.BitgetClient> =>
  BitgetClient.execute(endpoint, request)

/**
 * What `stream` walks: a range of any length (split into 30-day windows), optionally one coin.
 *
 * @since 0.1.0
 * @category models
 */
export interface TaxRecordsStreamRequest extends Resumable.ResumeOptions {
  readonly coin?: string
  readonly startTime: DateTime.Utc
  readonly endTime: DateTime.Utc
  /** Records per page, 1 to 500 (default 500). */
  readonly pageSize?: number
  /** `newestFirst` (default) or `oldestFirst` across windows; records within a window stay newest first. */
  readonly order?: Paginate.WindowOrder
}

/**
 * Every spot ledger record in a range of any length, pulled lazily page by
 * page (`idLessThan` = the last `id`), each page through the rate limiter and
 * retry policy; no record is emitted twice.
 *
 * @example
 * ```ts
 * import { Schemas, TaxRecords } from "@bitget-effect/core"
 * import { DateTime, Effect, Stream } from "effect"
 *
 * // A year of records as CSV lines, in 30-day windows from the oldest.
 * const csv = (record: TaxRecords.SpotTaxRecord) =>
 *   [record.id, DateTime.formatIso(record.ts), Schemas.enumText(record.spotTaxType), Schemas.formatDecimal(record.amount)]
 *     .join(",")
 *
 * const program = Effect.gen(function*() {
 *   const end = yield* DateTime.now
 *   const records = TaxRecords.stream({ startTime: DateTime.subtract(end, { days: 365 }), endTime: end, order: "oldestFirst" })
 *   yield* Stream.runForEach(records, (record) => Effect.log(csv(record)))
 * })
 * ```
 *
 * @see `pages` for the same walk a page at a time, each with its checkpoint
 * @see `spotRecords` for one page
 * @since 0.1.0
 * @category streams
 */
export const stream = (
  request: TaxRecordsStreamRequest
): Stream.Stream<SpotTaxRecord, BitgetError, BitgetClient.BitgetClient> => paged.stream(request)

/**
 * `stream` a page at a time, each page with the checkpoint after it: store
 * the checkpoint with the page's records in one step, and a stream started
 * with `resume: checkpoint` goes on after them, neither repeating nor
 * skipping a record (see `Resumable`).
 *
 * @example
 * ```ts
 * import { Resumable, TaxRecords } from "@bitget-effect/core"
 * import { DateTime, Effect, Stream } from "effect"
 *
 * // Ninety days of records, page by page; `saved` stands for where the last run stopped.
 * const program = (saved: Resumable.Checkpoint | undefined) =>
 *   Effect.gen(function*() {
 *     const end = yield* DateTime.now
 *     const pages = TaxRecords.pages({ startTime: DateTime.subtract(end, { days: 90 }), endTime: end, resume: saved })
 *     yield* Stream.runForEach(pages, (page) =>
 *       Effect.log(`${page.records.length} records; then ${Resumable.encodeJson(page.checkpoint)}`))
 *   })
 * ```
 *
 * @see `stream` for the records alone
 * @see `Resumable` for the checkpoint
 * @since 0.3.0
 * @category streams
 */
export const pages = (
  request: TaxRecordsStreamRequest
): Stream.Stream<Resumable.Page<SpotTaxRecord>, BitgetError, BitgetClient.BitgetClient> => paged.pages(request)

/** `stream` and `pages`: the ledger in windows of 30 days, pages of up to 500, `idLessThan` the last `id`. */
const paged = Windowed.listed({
  endpoint: Endpoint.label(endpoint),
  bounds: { windowDays: maxWindowDays, pageSize: maxLimit },
  filters: (request: TaxRecordsStreamRequest) => ({ coin: request.coin }),
  id: (record: SpotTaxRecord) => record.id,
  time: (record) => record.ts,
  page: ({ coin }, window, limit, cursor) =>
    spotRecords({
      ...(coin === undefined ? {} : { coin }),
      startTime: window.start,
      endTime: window.end,
      limit,
      ...Windowed.cursorParam(cursor)
    }).pipe(Effect.map((items) => ({ items, next: Option.fromUndefinedOr(items.at(-1)?.id) })))
})
