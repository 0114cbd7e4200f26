/**
 * Bitget record streams into Postgres, exactly once: each page's rows and the
 * stream's checkpoint in one transaction.
 *
 * `BitgetSql`: Postgres connected and migrated, as one layer.
 *
 * @since 0.3.0
 */
export * as BitgetSql from "./BitgetSql.js"

/**
 * The failures of opening the database: unreachable, login refused, tables of a newer version.
 *
 * @since 0.3.0
 */
export * as DatabaseError from "./DatabaseError.js"

/**
 * The tables this package creates, and their migrations.
 *
 * @since 0.3.0
 */
export * as Migrations from "./Migrations.js"

/**
 * Ready-made pipelines: tax records, futures orders and P2P orders into their tables, resumed or incremental.
 *
 * @since 0.3.0
 */
export * as Pipelines from "./Pipelines.js"

/**
 * The tables of core's record streams: tax records, futures orders, P2P orders.
 *
 * @since 0.3.0
 */
export * as RecordTables from "./RecordTables.js"

/**
 * Writes a stream of pages into a table, each page and its checkpoint in one transaction.
 *
 * @since 0.3.0
 */
export * as Sync from "./Sync.js"

/**
 * How records become rows: a table's name, key and typed columns.
 *
 * @since 0.3.0
 */
export * as Table from "./Table.js"
