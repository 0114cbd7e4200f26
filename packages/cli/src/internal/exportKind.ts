/**
 * What can be exported: tax records, futures orders and P2P orders, each
 * with its column table and the core stream that walks it (oldest window
 * first, so that an interrupted export can resume from a time).
 *
 * @since 0.1.0
 */
import type * as BitgetClient from "@bitget-effect/core/BitgetClient"
import type { BitgetError } from "@bitget-effect/core/BitgetError"
import type * as Endpoint from "@bitget-effect/core/Endpoint"
import * as FuturesHistory from "@bitget-effect/core/FuturesHistory"
import * as P2pOrders from "@bitget-effect/core/P2pOrders"
import * as TaxRecords from "@bitget-effect/core/TaxRecords"
import type * as DateTime from "effect/DateTime"
import * as Stream from "effect/Stream"
import * as Columns from "./columns.js"
import * as Format from "./format.js"

/**
 * The export names, as the command takes them.
 *
 * @since 0.1.0
 * @category constants
 */
export const kinds = ["tax-records", "futures-orders", "p2p-orders"] as const

/**
 * An export name.
 *
 * @since 0.1.0
 * @category models
 */
export type Kind = typeof kinds[number]

/**
 * A futures product type (`--product-type`).
 *
 * @since 0.1.0
 * @category models
 */
export type ProductType = typeof FuturesHistory.productTypes[number]

/**
 * The product type a futures export uses when none is given.
 *
 * @since 0.1.0
 * @category constants
 */
export const defaultProductType: ProductType = "USDT-FUTURES"

/**
 * The records of one page, written: their lines and how many they are.
 *
 * @since 0.1.0
 * @category models
 */
export interface Batch {
  readonly text: string
  readonly records: number
}

/**
 * What to walk: a range (both ends included) and, for futures, the product type.
 *
 * @since 0.1.0
 * @category models
 */
export interface Walk {
  readonly start: DateTime.Utc
  readonly end: DateTime.Utc
  readonly productType: ProductType
}

/**
 * What an export needs to know of the endpoint it reads: its label, whether
 * it is signed, and what the client retries.
 *
 * @since 0.2.0
 * @category models
 */
export type Source = Pick<Endpoint.Endpoint<unknown, unknown>, "method" | "path" | "auth" | "idempotency">

/**
 * One export: its columns, the endpoint it reads, whether it takes a product
 * type, and its records as written batches (one per page, in the order the
 * stream emits them).
 *
 * @since 0.1.0
 * @category models
 */
export interface ExportKind {
  readonly kind: Kind
  /** The endpoint the records come from. */
  readonly endpoint: Source
  readonly columns: ReadonlyArray<string>
  readonly futures: boolean
  /** What the output starts with in a format: the CSV header line, or nothing. */
  readonly header: (format: Format.Format) => string
  readonly batches: (
    walk: Walk,
    format: Format.Format
  ) => Stream.Stream<Batch, BitgetError, BitgetClient.BitgetClient>
}

const make = <A>(options: {
  readonly kind: Kind
  readonly table: Columns.Table<A>
  readonly endpoint: Source
  readonly futures: boolean
  readonly stream: (walk: Walk) => Stream.Stream<A, BitgetError, BitgetClient.BitgetClient>
}): ExportKind => ({
  kind: options.kind,
  columns: Columns.names(options.table),
  endpoint: options.endpoint,
  futures: options.futures,
  header: (format) => Format.make(format, options.table).header,
  batches: (walk, format) => {
    const writer = Format.make(format, options.table)
    // one string per chunk (a page), so the output takes one write per page
    return Stream.mapArray(
      options.stream(walk),
      (records): readonly [Batch] => [{ text: writer.lines(records), records: records.length }]
    )
  }
})

/**
 * Every export by name.
 *
 * @since 0.1.0
 * @category constants
 */
export const byKind: { readonly [K in Kind]: ExportKind } = {
  "tax-records": make({
    kind: "tax-records",
    table: Columns.taxRecords,
    endpoint: TaxRecords.endpoint,
    futures: false,
    stream: (walk) => TaxRecords.stream({ startTime: walk.start, endTime: walk.end, order: "oldestFirst" })
  }),
  "futures-orders": make({
    kind: "futures-orders",
    table: Columns.futuresOrders,
    endpoint: FuturesHistory.endpoint,
    futures: true,
    stream: (walk) =>
      FuturesHistory.stream({
        productType: walk.productType,
        startTime: walk.start,
        endTime: walk.end,
        order: "oldestFirst"
      })
  }),
  "p2p-orders": make({
    kind: "p2p-orders",
    table: Columns.p2pOrders,
    endpoint: P2pOrders.endpoint,
    futures: false,
    stream: (walk) => P2pOrders.stream({ startTime: walk.start, endTime: walk.end, order: "oldestFirst" })
  })
}
