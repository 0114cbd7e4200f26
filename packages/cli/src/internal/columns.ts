/**
 * The columns of each export: one table per record type, naming every
 * field of the decoded record exactly as the exchange (and the record's
 * class) names it, with how its value is written as text. `Format` turns a
 * table into CSV lines (NDJSON is written by core's `Json`, in the same forms).
 *
 * @since 0.1.0
 */
import type * as FuturesHistory from "@bitget-effect/core/FuturesHistory"
import type * as P2pOrders from "@bitget-effect/core/P2pOrders"
import * as Schemas from "@bitget-effect/core/Schemas"
import type * as TaxRecords from "@bitget-effect/core/TaxRecords"
import type * as BigDecimal from "effect/BigDecimal"
import * as DateTime from "effect/DateTime"
import * as Option from "effect/Option"

/**
 * An object inside a list cell: text values, `null` where absent.
 *
 * @since 0.1.0
 * @category models
 */
export type Item = { readonly [name: string]: string | null }

/**
 * One value as written: text, `null` for an absent value (an empty CSV
 * cell), or a list of objects (a CSV cell holding their JSON).
 *
 * @since 0.1.0
 * @category models
 */
export type Cell = string | null | ReadonlyArray<Item>

/**
 * A column: its name and how a record's cell is read.
 *
 * @since 0.1.0
 * @category models
 */
export interface Column<A> {
  readonly name: string
  readonly cell: (record: A) => Cell
}

/**
 * The columns of a record type, in order.
 *
 * @since 0.1.0
 * @category models
 */
export type Table<A> = ReadonlyArray<Column<A>>

/**
 * How a field's value is written.
 *
 * @since 0.1.0
 * @category models
 */
export type Writer<V> = (value: V) => Cell

/**
 * A field holding an optional object, written as one column per field of
 * the object (`paymentInfo.paymethodName`), each `null` when the object is
 * absent.
 *
 * @since 0.1.0
 * @category models
 */
export interface Nested<V> {
  readonly _tag: "Nested"
  readonly table: Table<V>
}

/**
 * How each field of a record is written: every field of the record must be
 * named (a field the exchange adds fails to compile until it has a column).
 *
 * @since 0.1.0
 * @category models
 */
export type Fields<A> = {
  readonly [K in keyof A]-?: Writer<A[K]> | (A[K] extends Option.Option<infer V> ? Nested<V> : never)
}

/**
 * Text, as it is.
 *
 * @since 0.1.0
 * @category formatting
 */
export const text = (value: string): string => value

/**
 * An exact decimal in fixed point with the digits the exchange sent
 * (`25000.00000000`, `0.00000001`, never `1e-8`), as `Json` writes it.
 *
 * @since 0.1.0
 * @category formatting
 */
export const decimal: (value: BigDecimal.BigDecimal) => string = Schemas.formatDecimalWithScale

/**
 * A time in ISO 8601, UTC, with milliseconds (`2025-01-01T00:00:00.000Z`).
 *
 * @since 0.1.0
 * @category formatting
 */
export const time: (value: DateTime.Utc) => string = DateTime.formatIso

/**
 * An open enum's text: a known value as the library spells it, an unknown one
 * as the exchange sent it.
 *
 * @since 0.1.0
 * @category formatting
 */
export const enumeration = <L extends string>(value: Schemas.OpenEnum<L>): string => Schemas.enumText(value)

/**
 * An optional value: `null` when absent, else written by `writer`.
 *
 * @since 0.1.0
 * @category formatting
 */
export const optional = <V>(writer: (value: V) => string) => (value: Option.Option<V>): string | null =>
  Option.isSome(value) ? writer(value.value) : null

/**
 * A list of objects, each field written by `fields` (text or `null`).
 *
 * @since 0.1.0
 * @category formatting
 */
export const list =
  <V>(fields: { readonly [K in keyof V]-?: (value: V[K]) => string | null }): Writer<ReadonlyArray<V>> => (values) => {
    const names = Object.keys(fields) as Array<keyof V & string>
    return values.map((value) => {
      const item: Record<string, string | null> = {}
      for (const name of names) item[name] = fields[name](value[name])
      return item
    })
  }

/**
 * An optional object written as one column per field (see `Nested`).
 *
 * @since 0.1.0
 * @category formatting
 */
export const nested = <V>(fields: Fields<V>): Nested<V> => ({ _tag: "Nested", table: table(fields) })

const isNested = (entry: unknown): entry is Nested<unknown> =>
  typeof entry === "object" && entry !== null && (entry as { readonly _tag?: unknown })._tag === "Nested"

/**
 * The table of a record type from how each of its fields is written, in the
 * order given.
 *
 * @since 0.1.0
 * @category constructors
 */
export const table = <A>(fields: Fields<A>): Table<A> =>
  (Object.keys(fields) as Array<keyof A & string>).flatMap((name): Table<A> => {
    const entry: unknown = fields[name]
    if (isNested(entry)) {
      return entry.table.map((column) => ({
        name: `${name}.${column.name}`,
        cell: (record: A) => {
          const value = record[name] as Option.Option<unknown>
          return Option.isSome(value) ? column.cell(value.value) : null
        }
      }))
    }
    const writer = entry as Writer<A[keyof A]>
    return [{ name, cell: (record: A) => writer(record[name]) }]
  })

/**
 * The column names of a table, in order.
 *
 * @since 0.1.0
 * @category accessors
 */
export const names = <A>(self: Table<A>): ReadonlyArray<string> => self.map((column) => column.name)

/**
 * Spot tax records (`GET /api/v2/tax/spot-record`).
 *
 * @since 0.1.0
 * @category constants
 */
export const taxRecords: Table<TaxRecords.SpotTaxRecord> = table<TaxRecords.SpotTaxRecord>({
  id: text,
  coin: text,
  spotTaxType: enumeration,
  amount: decimal,
  fee: decimal,
  balance: decimal,
  ts: time,
  bizOrderId: optional(text)
})

/**
 * Futures history orders (`GET /api/v2/mix/order/orders-history`).
 *
 * @since 0.1.0
 * @category constants
 */
export const futuresOrders: Table<FuturesHistory.FuturesOrder> = table<FuturesHistory.FuturesOrder>({
  symbol: text,
  size: decimal,
  orderId: text,
  clientOid: optional(text),
  baseVolume: decimal,
  fee: decimal,
  price: optional(decimal),
  priceAvg: optional(decimal),
  status: enumeration,
  side: enumeration,
  force: enumeration,
  totalProfits: decimal,
  posSide: enumeration,
  marginCoin: text,
  quoteVolume: decimal,
  leverage: decimal,
  marginMode: enumeration,
  reduceOnly: optional(Schemas.enumText),
  enterPointSource: enumeration,
  tradeSide: enumeration,
  posMode: enumeration,
  orderType: enumeration,
  orderSource: enumeration,
  liqPrice: optional(decimal),
  cTime: time,
  uTime: time,
  presetStopSurplusPrice: optional(decimal),
  presetStopLossPrice: optional(decimal),
  posAvg: optional(decimal)
})

/**
 * Merchant P2P orders (`GET /api/v2/p2p/orderList`); the payment information
 * as `paymentInfo.paymethodName`, `paymentInfo.paymethodId` and
 * `paymentInfo.paymethodInfo` (a list of `{name, required, type, value}`).
 *
 * @since 0.1.0
 * @category constants
 */
export const p2pOrders: Table<P2pOrders.P2pOrder> = table<P2pOrders.P2pOrder>({
  orderId: text,
  orderNo: text,
  advNo: text,
  side: enumeration,
  count: decimal,
  coin: text,
  price: decimal,
  fiat: text,
  withdrawTime: optional(time),
  representTime: optional(time),
  releaseTime: optional(time),
  paymentTime: optional(time),
  amount: decimal,
  status: enumeration,
  buyerRealName: optional(text),
  sellerRealName: optional(text),
  ctime: time,
  utime: time,
  paymentInfo: nested<P2pOrders.PaymentInfo>({
    paymethodName: optional(text),
    paymethodId: optional(text),
    paymethodInfo: list<P2pOrders.PaymethodItem>({
      name: text,
      required: Schemas.enumText,
      type: optional(Schemas.enumText),
      value: optional(text)
    })
  })
})
