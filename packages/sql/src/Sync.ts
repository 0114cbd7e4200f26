/**
 * Writes a stream of pages into a table, exactly once: each page's rows and
 * the stream's state (its checkpoint, its range, whether it is done) go in
 * one transaction, rows upserted by `(account, record id)`. A crash leaves the
 * table as of the last page whose checkpoint is stored, and a replay of pages
 * already written changes nothing, so a run resumed from the stored
 * checkpoint ends with every record exactly once.
 *
 * @stability unstable
 * @since 0.3.0
 */
import * as DateTime from "effect/DateTime"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type * as Schema from "effect/Schema"
import * as SqlClient from "effect/sql/SqlClient"
import type { SqlError } from "effect/sql/SqlError"
import * as Stream from "effect/Stream"
import { upsert } from "./internal/statements.js"
import { syncStateTable } from "./Migrations.js"
import type { Table } from "./Table.js"

/**
 * The span of time a run covers.
 *
 * @since 0.3.0
 * @category models
 */
export interface Range {
  readonly start: DateTime.Utc
  readonly end: DateTime.Utc
}

/**
 * One page to write: its records, the stream's checkpoint after them (any
 * JSON value; stored as given), the run's range, and whether the stream ends
 * with it.
 *
 * @since 0.3.0
 * @category models
 */
export interface Page<A> {
  readonly records: ReadonlyArray<A>
  readonly checkpoint: Schema.Json
  readonly range: Range
  readonly done: boolean
}

/**
 * What a write did. `added`, `updated` and `unchanged` count distinct keys
 * per page: rows of keys new to the table, rows whose values changed, rows
 * already as given (a replay).
 *
 * @since 0.3.0
 * @category models
 */
export interface Summary {
  readonly pages: number
  readonly added: number
  readonly updated: number
  readonly unchanged: number
}

/**
 * The stored state of a stream: the checkpoint after its last page written,
 * the run's range, whether that run is complete, and when it was written.
 *
 * @since 0.3.0
 * @category models
 */
export interface State {
  readonly account: string
  readonly stream: string
  readonly checkpoint: Schema.Json
  readonly range: Range
  readonly complete: boolean
  readonly updatedAt: DateTime.Utc
}

/**
 * Which stream of which account: `stream` names what is walked and with
 * which filters (`"tax-records"`, `"futures-history:USDT-FUTURES"`, ...).
 *
 * @since 0.3.0
 * @category models
 */
export interface StreamId {
  readonly account: string
  readonly stream: string
}

const writeState = (sql: SqlClient.SqlClient, id: StreamId, page: Page<unknown>) =>
  sql`INSERT INTO ${sql(syncStateTable)} (account, stream, checkpoint, range_start, range_end, complete, updated_at)
VALUES (${id.account}, ${id.stream}, ${JSON.stringify(page.checkpoint)}::jsonb, ${
    DateTime.toDateUtc(page.range.start)
  }, ${DateTime.toDateUtc(page.range.end)}, ${page.done}, now())
ON CONFLICT (account, stream) DO UPDATE SET checkpoint = excluded.checkpoint, range_start = excluded.range_start,
  range_end = excluded.range_end, complete = excluded.complete, updated_at = excluded.updated_at`.withoutTransform

/**
 * Writes every page of `pages` into `table` under `account`, each page and
 * the state of `stream` in one transaction, and sums up what was written.
 * Pages are pulled one at a time, after the previous one is committed.
 *
 * @example
 * ```ts
 * import type { TaxRecords } from "@bitget-effect/core"
 * import { RecordTables, Sync } from "@bitget-effect/sql"
 * import { DateTime, Stream } from "effect"
 *
 * // in a pipeline, the pages of a resumable stream of core's
 * const page: Sync.Page<TaxRecords.SpotTaxRecord> = {
 *   records: [],
 *   checkpoint: { page: 1 },
 *   range: { start: DateTime.makeUnsafe("2026-01-01T00:00:00Z"), end: DateTime.makeUnsafe("2026-02-01T00:00:00Z") },
 *   done: true
 * }
 *
 * // needs a SqlClient: BitgetSql.layer(...) connects and migrates
 * const written = Sync.write({
 *   account: "main",
 *   stream: "tax-records",
 *   table: RecordTables.taxRecords,
 *   pages: Stream.make(page)
 * })
 * ```
 *
 * @since 0.3.0
 * @category operations
 */
export const write = <A, E, R>(
  options: StreamId & {
    readonly table: Table<A>
    readonly pages: Stream.Stream<Page<A>, E, R>
  }
): Effect.Effect<Summary, E | SqlError, R | SqlClient.SqlClient> =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const id = { account: options.account, stream: options.stream }
    return yield* options.pages.pipe(
      Stream.mapEffect((page) =>
        sql.withTransaction(
          Effect.flatMap(
            upsert(sql, options.table, options.account, page.records),
            (upserted) => Effect.as(writeState(sql, id, page), upserted)
          )
        )
      ),
      Stream.runFold(
        (): Summary => ({ pages: 0, added: 0, updated: 0, unchanged: 0 }),
        (summary, page) => ({
          pages: summary.pages + 1,
          added: summary.added + page.added,
          updated: summary.updated + page.updated,
          unchanged: summary.unchanged + page.unchanged
        })
      )
    )
  })

interface StateRow {
  readonly checkpoint: Schema.Json
  readonly range_start: Date
  readonly range_end: Date
  readonly complete: boolean
  readonly updated_at: Date
}

/**
 * The stored state of a stream, if any page of it was written: resume from
 * its checkpoint while it is not `complete`; once it is, start the next run
 * at its range's end (less some overlap; the upsert absorbs the repeats).
 *
 * @example
 * ```ts
 * import { Sync } from "@bitget-effect/sql"
 * import { Effect, Option } from "effect"
 *
 * const resumeFrom = Sync.state({ account: "main", stream: "tax-records" }).pipe(
 *   Effect.map(Option.filter((state) => !state.complete)),
 *   Effect.map(Option.map((state) => state.checkpoint))
 * )
 * ```
 *
 * @since 0.3.0
 * @category operations
 */
export const state = (id: StreamId): Effect.Effect<Option.Option<State>, SqlError, SqlClient.SqlClient> =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const [row] = yield* sql<StateRow>`SELECT checkpoint, range_start, range_end, complete, updated_at FROM ${
      sql(syncStateTable)
    } WHERE account = ${id.account} AND stream = ${id.stream}`.withoutTransform
    return Option.map(Option.fromNullishOr(row), (row): State => ({
      account: id.account,
      stream: id.stream,
      checkpoint: row.checkpoint,
      range: { start: DateTime.fromDateUnsafe(row.range_start), end: DateTime.fromDateUnsafe(row.range_end) },
      complete: row.complete,
      updatedAt: DateTime.fromDateUnsafe(row.updated_at)
    }))
  })
