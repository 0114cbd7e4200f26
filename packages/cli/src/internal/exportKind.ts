/**
 * What can be exported: tax records, futures orders and P2P orders, each
 * with its column table (CSV), its record schema (NDJSON, through core's
 * `Json`) and the core stream that walks it a page at a time, oldest window
 * first, each page with its checkpoint (`Resumable`).
 *
 * @since 0.1.0
 */
import type * as BitgetClient from "@bitget-effect/core/BitgetClient"
import type { BitgetError } from "@bitget-effect/core/BitgetError"
import type * as Endpoint from "@bitget-effect/core/Endpoint"
import * as FuturesHistory from "@bitget-effect/core/FuturesHistory"
import * as P2pOrders from "@bitget-effect/core/P2pOrders"
import type * as Resumable from "@bitget-effect/core/Resumable"
import * as TaxRecords from "@bitget-effect/core/TaxRecords"
import type * as DateTime from "effect/DateTime"
import * as Effect from "effect/Effect"
import type * as Schema from "effect/Schema"
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
 * The records of one page, written: their lines, how many they are, and the
 * stream's checkpoint after them.
 *
 * @since 0.1.0
 * @category models
 */
export interface Batch {
  readonly text: string
  readonly records: number
  readonly checkpoint: Resumable.Checkpoint
}

/**
 * What to walk: a range (both ends included), for futures the product type,
 * and the checkpoint to go on after (an interrupted export's).
 *
 * @since 0.1.0
 * @category models
 */
export interface Walk {
  readonly start: DateTime.Utc
  readonly end: DateTime.Utc
  readonly productType: ProductType
  readonly resume: Resumable.Checkpoint | undefined
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
 * stream emits them, an empty page included).
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
  ) => Stream.Stream<Batch, BitgetError | Schema.SchemaError, BitgetClient.BitgetClient>
}

const make = <A, I>(options: {
  readonly kind: Kind
  readonly table: Columns.Table<A>
  readonly schema: Schema.Codec<A, I>
  readonly endpoint: Source
  readonly futures: boolean
  readonly pages: (walk: Walk) => Stream.Stream<Resumable.Page<A>, BitgetError, BitgetClient.BitgetClient>
}): ExportKind => ({
  kind: options.kind,
  columns: Columns.names(options.table),
  endpoint: options.endpoint,
  futures: options.futures,
  header: (format) => Format.make(format, options).header,
  batches: (walk, format) => {
    const writer = Format.make(format, options)
    // one string per page, so the output takes one write per page
    return Stream.mapEffect(options.pages(walk), (page) =>
      Effect.map(
        Effect.fromResult(writer.lines(page.records)),
        (text): Batch => ({ text, records: page.records.length, checkpoint: page.checkpoint })
      ))
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
    schema: TaxRecords.SpotTaxRecord,
    endpoint: TaxRecords.endpoint,
    futures: false,
    pages: (walk) =>
      TaxRecords.pages({ startTime: walk.start, endTime: walk.end, order: "oldestFirst", resume: walk.resume })
  }),
  "futures-orders": make({
    kind: "futures-orders",
    table: Columns.futuresOrders,
    schema: FuturesHistory.FuturesOrder,
    endpoint: FuturesHistory.endpoint,
    futures: true,
    pages: (walk) =>
      FuturesHistory.pages({
        productType: walk.productType,
        startTime: walk.start,
        endTime: walk.end,
        order: "oldestFirst",
        resume: walk.resume
      })
  }),
  "p2p-orders": make({
    kind: "p2p-orders",
    table: Columns.p2pOrders,
    schema: P2pOrders.P2pOrder,
    endpoint: P2pOrders.endpoint,
    futures: false,
    pages: (walk) =>
      P2pOrders.pages({ startTime: walk.start, endTime: walk.end, order: "oldestFirst", resume: walk.resume })
  })
}
