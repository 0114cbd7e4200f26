/**
 * What a sandbox holds, read without HTTP: the records its routes serve,
 * computed from the same seed, anchor and sizes by the same data model. Use it
 * to compare what a client (or an export) produced with the truth rather than
 * with another walk through the same server.
 *
 * @since 0.1.0
 */
import type { ProductType } from "./Account.js"
import * as Futures from "./internal/data/futures.js"
import { openInterestLimit, tradeRate } from "./internal/data/market.js"
import * as P2p from "./internal/data/p2p.js"
import * as Tax from "./internal/data/tax.js"
import * as Timeline from "./internal/data/timeline.js"
import { World } from "./internal/data/world.js"
import type { Shapes } from "./Shapes.js"
import type { Sizes } from "./Sizes.js"

/**
 * A spot symbol as the symbols route serves it (every field a string).
 *
 * @since 0.1.0
 * @category models
 */
export type SymbolRecord = Readonly<Record<string, string>>

/**
 * A tax record as the tax route serves it.
 *
 * @since 0.1.0
 * @category models
 */
export type TaxRecord = ReturnType<typeof Tax.record>

/**
 * A P2P order as the P2P route serves it.
 *
 * @since 0.1.0
 * @category models
 */
export type P2pOrder = ReturnType<typeof P2p.record>

/**
 * A historical futures order as the futures history route serves it.
 *
 * @since 0.1.0
 * @category models
 */
export type FuturesOrder = ReturnType<typeof Futures.record>

/**
 * The fee rates of one symbol as the trade-rate route serves them.
 *
 * @since 0.1.0
 * @category models
 */
export type TradeRate = ReturnType<typeof tradeRate>

/**
 * The open interest limits of one contract as the route serves them.
 *
 * @since 0.1.0
 * @category models
 */
export type OpenInterestLimit = ReturnType<typeof openInterestLimit>

/**
 * A time range in ms, both ends included; an absent end is unbounded.
 *
 * @since 0.1.0
 * @category models
 */
export interface Range {
  readonly start?: number
  readonly end?: number
}

/**
 * The data of a sandbox.
 *
 * @since 0.1.0
 * @category models
 */
export interface Dataset {
  /** Every spot symbol, in the order the symbols route lists them. */
  readonly symbols: ReadonlyArray<SymbolRecord>
  /** The fee rates a key sees for a symbol of a business line. */
  readonly tradeRate: (
    businessType: "spot" | "margin" | "mix",
    symbol: string,
    options?: { readonly marketMaker?: boolean }
  ) => TradeRate
  /** The open interest limits of a contract, or `undefined` for an unknown one. */
  readonly openInterestLimit: (category: ProductType, symbol: string) => OpenInterestLimit | undefined
  /** A key's tax records in a range, newest first. */
  readonly taxRecords: (apiKey: string, range?: Range) => ReadonlyArray<TaxRecord>
  /** The time shared by a key's burst of tax records (`Sizes.taxBurst`), if it has one. */
  readonly taxBurstTime: (apiKey: string) => number | undefined
  /** A key's P2P orders in a range, newest first. */
  readonly p2pOrders: (apiKey: string, range?: Range) => ReadonlyArray<P2pOrder>
  /** A key's historical futures orders of a product type in a range, newest first. */
  readonly futuresOrders: (apiKey: string, productType: ProductType, range?: Range) => ReadonlyArray<FuturesOrder>
}

/** Record `i` for every `i` whose time lies in the range, newest first. */
const inRange = <A>(timeline: Timeline.Timeline, range: Range, record: (i: number) => A): ReadonlyArray<A> => {
  const from = range.end === undefined ? 0 : Timeline.firstAtOrBefore(timeline, range.end)
  const to = range.start === undefined ? timeline.size : Timeline.firstBefore(timeline, range.start)
  const out: Array<A> = []
  for (let i = from; i < to; i++) out.push(record(i))
  return out
}

/**
 * The data of a sandbox with this seed, anchor and sizes (those of a running
 * `Sandbox` service fit directly: `Dataset.make(sandbox)`).
 *
 * @example
 * ```ts
 * import { Dataset, DemoKey, Sizes } from "@bitget-effect/sandbox"
 * import { Duration } from "effect"
 *
 * // What a sandbox started with `seed: 1` and this anchor serves, without a server.
 * const anchor = Date.UTC(2025, 0, 1)
 * const data = Dataset.make({ seed: 1, anchor, sizes: Sizes.defaultSizes })
 * const lastWeek = data.taxRecords(DemoKey.hmac.apiKey, { start: anchor - Duration.toMillis("7 days"), end: anchor })
 * assert.strictEqual(data.symbols.length, 400)
 * assert.strictEqual(lastWeek.length, 249) // the same seed and anchor always hold the same records
 *
 * // In a test, from the running sandbox: `Dataset.make(yield* Sandbox.Sandbox)`.
 * ```
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (source: {
  readonly seed: number
  readonly anchor: number
  readonly sizes: Sizes
  /** As the sandbox was started with; `varied` by default. */
  readonly shapes?: Shapes | undefined
}): Dataset => {
  const world = new World(source.seed, source.anchor, source.sizes, source.shapes)
  return {
    symbols: world.symbols.map((symbol) => symbol.record),
    tradeRate: (businessType, symbol, options) =>
      tradeRate(source.seed, businessType, symbol, options?.marketMaker === true),
    openInterestLimit: (category, symbol) => {
      const future = world.future(category, symbol)
      return future === undefined ? undefined : openInterestLimit(future)
    },
    taxRecords: (apiKey, range = {}) => {
      const set = world.tax(apiKey)
      return inRange(set.timeline, range, (i) => Tax.record(set, i))
    },
    taxBurstTime: (apiKey) => {
      const timeline = world.tax(apiKey).timeline
      return timeline.run === undefined ? undefined : Timeline.timeAt(timeline, timeline.run.start)
    },
    p2pOrders: (apiKey, range = {}) => {
      const set = world.p2p(apiKey)
      return inRange(set.timeline, range, (i) => P2p.record(set, i))
    },
    futuresOrders: (apiKey, productType, range = {}) => {
      const set = world.futuresHistory(apiKey, productType)
      return inRange(set.timeline, range, (i) => Futures.record(set, i))
    }
  }
}
