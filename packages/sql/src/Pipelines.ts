/**
 * Ready-made pipelines: core's record streams into their tables, one call per
 * stream and account. Each run reads the stream's stored state and walks only
 * what is missing:
 *
 * - an unfinished run stored (it stopped: a crash, a kill, a failure): it goes
 *   on from its checkpoint, over the range that run had;
 * - a finished run stored: an incremental run, from the stored range's end less
 *   `overlap` (the exchange's clock and records that arrive late; the upsert
 *   absorbs the repeats) to `endTime` (default now); a `startTime` before the
 *   stored end changes nothing, since what lies before it is in the table;
 * - nothing stored, or `full`: the whole range, from `startTime` (default: the
 *   history the exchange keeps, `defaultHistoryDays` before the end) to
 *   `endTime`.
 *
 * Each page's rows and the stream's state are written in one transaction
 * (`Sync.write`), so a run stopped anywhere and run again leaves every record
 * once. The stored range is what the table holds without a gap: an incremental
 * run extends it.
 *
 * Each account is its own `BitgetClient` (its API key): provide each run its
 * client, and runs of several accounts share the database.
 *
 * @stability unstable
 * @since 0.3.0
 */
import type * as BitgetClient from "@bitget-effect/core/BitgetClient"
import type { BitgetError } from "@bitget-effect/core/BitgetError"
import * as FuturesHistory from "@bitget-effect/core/FuturesHistory"
import * as P2pOrders from "@bitget-effect/core/P2pOrders"
import * as Resumable from "@bitget-effect/core/Resumable"
import * as TaxRecords from "@bitget-effect/core/TaxRecords"
import * as DateTime from "effect/DateTime"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import type * as SqlClient from "effect/sql/SqlClient"
import type { SqlError } from "effect/sql/SqlError"
import * as Stream from "effect/Stream"
import * as RecordTables from "./RecordTables.js"
import * as Sync from "./Sync.js"
import type { Table } from "./Table.js"

/**
 * How far before the stored range's end an incremental run starts: five
 * minutes, for the difference between the exchange's clock and ours and for
 * records the exchange lists a little after their time.
 *
 * @since 0.3.0
 * @category constants
 */
export const overlap = { minutes: 5 } as const

/**
 * How many days before its end a first run starts without `startTime`: what
 * the exchange keeps. Futures history: the 90 days the exchange keeps (asked
 * for without a start, so that no local clock can miss or overstep them). Tax
 * and P2P records: the exchange documents no limit; one year.
 *
 * @since 0.3.0
 * @category constants
 */
export const defaultHistoryDays = {
  taxRecords: 365,
  futuresHistory: FuturesHistory.historyDays,
  p2pOrders: 365
} as const

/**
 * What every pipeline takes: the account (the key of its rows and of its
 * state), the range, and `full` to walk the whole range again whatever is
 * stored.
 *
 * @since 0.3.0
 * @category models
 */
export interface Options {
  /** The account's name in the tables (`"main"`, `"desk-2"`, ...). */
  readonly account: string
  /** The start of a first (or `full`) run; an incremental run starts at the stored end unless this is later. */
  readonly startTime?: DateTime.Utc | undefined
  /** The end of the run; now by default. */
  readonly endTime?: DateTime.Utc | undefined
  /** Ignore the stored state: walk from `startTime` (or the default) to `endTime`. */
  readonly full?: boolean | undefined
}

/**
 * Tax records: optionally of one coin.
 *
 * @since 0.3.0
 * @category models
 */
export interface TaxRecordsOptions extends Options {
  readonly coin?: string | undefined
}

/**
 * Futures orders of a product type, optionally of one symbol or order source.
 *
 * @since 0.3.0
 * @category models
 */
export interface FuturesHistoryOptions extends Options {
  readonly productType: FuturesHistory.ProductType
  readonly symbol?: string | undefined
  readonly orderSource?: FuturesHistory.OrderSourceFilter | undefined
}

/**
 * P2P orders, optionally filtered as the list is.
 *
 * @since 0.3.0
 * @category models
 */
export interface P2pOrdersOptions extends Options {
  readonly status?: P2pOrders.P2pStatusFilter | undefined
  readonly side?: typeof P2pOrders.sides[number] | undefined
  readonly coin?: string | undefined
  readonly fiat?: string | undefined
  readonly advNo?: string | undefined
  readonly orderNo?: string | undefined
}

/**
 * How a run started: nothing stored (`first`), an unfinished run stored
 * (`resumed`), a finished one (`incremental`), or `full` asked for.
 *
 * @since 0.3.0
 * @category models
 */
export type Mode = "first" | "resumed" | "incremental" | "full"

/**
 * What a run did: rows added, updated and unchanged and pages written
 * (`Sync.Summary`), the stream's name, how the run started, and the range it
 * walked (the stored checkpoint's range when resumed; as the exchange's
 * history and clock cut it).
 *
 * @since 0.3.0
 * @category models
 */
export interface Summary extends Sync.Summary {
  readonly account: string
  readonly stream: string
  readonly mode: Mode
  readonly range: Sync.Range
}

/**
 * What a pipeline fails with: the exchange (or a range it cannot hold, before
 * anything is sent), the database, or a stored checkpoint that is not one.
 *
 * @since 0.3.0
 * @category errors
 */
export type PipelineError = BitgetError | SqlError | Schema.SchemaError

/** Where a run goes: on from a checkpoint, or over a range (without a start: the stream's default). */
type Walk =
  | { readonly _tag: "Resume"; readonly checkpoint: Resumable.Checkpoint }
  | { readonly _tag: "Range"; readonly start: DateTime.Utc | undefined; readonly end: DateTime.Utc }

/** One stream of one table: its name in the state, its table, its pages for a walk. */
interface Source<A> {
  readonly stream: string
  readonly table: Table<A>
  readonly pages: (walk: Walk) => Stream.Stream<Resumable.Page<A>, BitgetError, BitgetClient.BitgetClient>
}

/** A run, planned: how it started, where it goes, and where the table's gapless range starts if before the walk. */
interface Plan {
  readonly mode: Mode
  readonly walk: Walk
  readonly covered: Option.Option<DateTime.Utc>
}

/** The stream's name: its kind, then each filter given as `key=value`, sorted. */
const streamName = (kind: string, filters: Readonly<Record<string, string | undefined>>): string => {
  const given = Object.keys(filters).sort().flatMap((key) =>
    filters[key] === undefined ? [] : [`${key}=${filters[key]}`]
  )
  return [kind, ...given].join(":")
}

const decodeCheckpoint = Schema.decodeUnknownEffect(Resumable.Checkpoint)
const encodeCheckpoint = Schema.encodeSync(Resumable.Checkpoint)

/** The plan of a run from the stored state (see the module's description). */
const plan = (
  options: Options,
  stored: Option.Option<Sync.State>,
  now: DateTime.Utc
): Effect.Effect<Plan, Schema.SchemaError> => {
  const end = options.endTime ?? now
  const fresh = (mode: Mode): Plan => ({
    mode,
    walk: { _tag: "Range", start: options.startTime, end },
    covered: Option.none()
  })
  if (options.full === true) return Effect.succeed(fresh("full"))
  if (Option.isNone(stored)) return Effect.succeed(fresh("first"))
  const state = stored.value
  if (!state.complete) {
    return Effect.map(decodeCheckpoint(state.checkpoint), (checkpoint): Plan => ({
      mode: "resumed",
      walk: { _tag: "Resume", checkpoint },
      covered: Option.some(state.range.start)
    }))
  }
  // a start after the stored end leaves a gap: the table's gapless range starts again there
  const gap = options.startTime !== undefined && DateTime.isGreaterThan(options.startTime, state.range.end)
  return Effect.succeed({
    mode: "incremental",
    walk: { _tag: "Range", start: gap ? options.startTime : DateTime.subtract(state.range.end, overlap), end },
    covered: gap ? Option.none() : Option.some(state.range.start)
  })
}

/** Reads the state, plans the run and writes its pages, each page with the state in one transaction. */
const run = <A>(
  source: Source<A>,
  options: Options
): Effect.Effect<Summary, PipelineError, BitgetClient.BitgetClient | SqlClient.SqlClient> =>
  Effect.gen(function*() {
    const id = { account: options.account, stream: source.stream }
    const { covered, mode, walk } = yield* plan(options, yield* Sync.state(id), yield* DateTime.now)
    const summary = (written: Sync.Summary, range: Sync.Range): Summary => ({
      ...written,
      account: options.account,
      stream: source.stream,
      mode,
      range
    })
    // an incremental run asked to end before it starts (`endTime` before the stored end): nothing to walk
    if (
      mode === "incremental" && walk._tag === "Range" && walk.start !== undefined &&
      !DateTime.isLessThan(walk.start, walk.end)
    ) {
      return summary({ pages: 0, added: 0, updated: 0, unchanged: 0 }, { start: walk.start, end: walk.end })
    }
    let walked: Sync.Range = walk._tag === "Resume" ? walk.checkpoint : { start: walk.start ?? walk.end, end: walk.end }
    const written = yield* Sync.write({
      ...id,
      table: source.table,
      pages: Stream.map(source.pages(walk), (page): Sync.Page<A> => {
        const { checkpoint } = page
        walked = { start: checkpoint.start, end: checkpoint.end }
        return {
          records: page.records,
          checkpoint: encodeCheckpoint(checkpoint),
          range: { start: Option.getOrElse(covered, () => checkpoint.start), end: checkpoint.end },
          done: Resumable.isDone(checkpoint)
        }
      })
    })
    return summary(written, walked)
  })

const oldestFirst = { order: "oldestFirst" } as const

/** The filters given, without those left `undefined`. */
const defined = <F extends Readonly<Record<string, string | undefined>>>(
  filters: F
): { readonly [K in keyof F]?: Exclude<F[K], undefined> } =>
  Object.fromEntries(Object.entries(filters).filter(([, value]) => value !== undefined)) as {
    readonly [K in keyof F]?: Exclude<F[K], undefined>
  }

/** A range's start, or `days` before its end. */
const startOr = (walk: Extract<Walk, { _tag: "Range" }>, days: number): DateTime.Utc =>
  walk.start ?? DateTime.subtract(walk.end, { days })

/**
 * Syncs spot tax records into `bitget_tax_records`, stream `tax-records` (with
 * a coin: `tax-records:coin=USDT`).
 *
 * @example
 * ```ts
 * import type { BitgetClient } from "@bitget-effect/core"
 * import { BitgetSql, Pipelines } from "@bitget-effect/sql"
 * import { Config, Effect, type Layer } from "effect"
 *
 * // `client`: the account's client, e.g. BitgetNode.layerConfig() of @bitget-effect/platform-node
 * const sync = (client: Layer.Layer<BitgetClient.BitgetClient>) =>
 *   Pipelines.taxRecords({ account: "main" }).pipe(
 *     Effect.tap((run) => Effect.log(`${run.mode}: ${run.added} added, ${run.updated} updated, ${run.pages} pages`)),
 *     Effect.provide(client),
 *     Effect.provide(BitgetSql.layerConfig({ url: Config.Redacted("DATABASE_URL") }))
 *   )
 * ```
 *
 * @since 0.3.0
 * @category operations
 */
export const taxRecords = (
  options: TaxRecordsOptions
): Effect.Effect<Summary, PipelineError, BitgetClient.BitgetClient | SqlClient.SqlClient> =>
  run({
    stream: streamName("tax-records", { coin: options.coin }),
    table: RecordTables.taxRecords,
    pages: (walk) =>
      TaxRecords.pages({
        ...defined({ coin: options.coin }),
        ...oldestFirst,
        ...(walk._tag === "Resume"
          ? { startTime: walk.checkpoint.start, endTime: walk.checkpoint.end, resume: walk.checkpoint }
          : { startTime: startOr(walk, defaultHistoryDays.taxRecords), endTime: walk.end })
      })
  }, options)

/**
 * Syncs futures orders of a product type into `bitget_futures_orders`, stream
 * `futures-history:<productType>` (with filters: `…:symbol=BTCUSDT`). A
 * first run without `startTime` reads the 90 days the exchange keeps.
 *
 * @since 0.3.0
 * @category operations
 */
export const futuresHistory = (
  options: FuturesHistoryOptions
): Effect.Effect<Summary, PipelineError, BitgetClient.BitgetClient | SqlClient.SqlClient> => {
  const filters = defined({ symbol: options.symbol, orderSource: options.orderSource })
  return run({
    stream: streamName(`futures-history:${options.productType}`, filters),
    table: RecordTables.futuresOrders,
    pages: (walk) =>
      FuturesHistory.pages({
        productType: options.productType,
        ...filters,
        ...oldestFirst,
        ...(walk._tag === "Resume"
          ? { resume: walk.checkpoint }
          : { ...(walk.start === undefined ? {} : { startTime: walk.start }), endTime: walk.end })
      })
  }, options)
}

/**
 * Syncs the merchant's P2P orders into `bitget_p2p_orders`, stream
 * `p2p-orders` (with filters: `p2p-orders:status=Completed`).
 *
 * @since 0.3.0
 * @category operations
 */
export const p2pOrders = (
  options: P2pOrdersOptions
): Effect.Effect<Summary, PipelineError, BitgetClient.BitgetClient | SqlClient.SqlClient> => {
  const filters = defined({
    status: options.status,
    side: options.side,
    coin: options.coin,
    fiat: options.fiat,
    advNo: options.advNo,
    orderNo: options.orderNo
  })
  return run({
    stream: streamName("p2p-orders", filters),
    table: RecordTables.p2pOrders,
    pages: (walk) =>
      P2pOrders.pages({
        ...filters,
        ...oldestFirst,
        ...(walk._tag === "Resume"
          ? { startTime: walk.checkpoint.start, resume: walk.checkpoint }
          : { startTime: startOr(walk, defaultHistoryDays.p2pOrders), endTime: walk.end })
      })
  }, options)
}
