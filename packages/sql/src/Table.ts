/**
 * How records become rows: a table is its name, its key and one column per
 * field, each column stating its SQL type and how to read its value from a
 * record. The migration's `CREATE TABLE` and the upsert of a page are both
 * made from it, so the two cannot disagree.
 *
 * Every table also has an `account` column (first, and first in the key): the
 * rows of several accounts share a table and never mix.
 *
 * Values are written exactly: decimals as their fixed-point text into
 * `numeric` (no float, no exponent, every digit and the scale kept),
 * instants as `timestamptz` (microseconds, so milliseconds are kept), open
 * enum values as the text the exchange sent, and `Option.none()` as `NULL`.
 *
 * @stability unstable
 * @since 0.3.0
 */
import { formatDecimal } from "@bitget-effect/core/Schemas"
import type * as Arr from "effect/Array"
import type * as BigDecimal from "effect/BigDecimal"
import * as DateTime from "effect/DateTime"
import * as Option from "effect/Option"
import type * as Schema from "effect/Schema"

/**
 * A column's SQL type.
 *
 * @since 0.3.0
 * @category models
 */
export type SqlType = "text" | "numeric" | "timestamptz" | "jsonb"

/**
 * A value as it is sent: text (cast to the column's type by the statement),
 * an instant, or `null`.
 *
 * @since 0.3.0
 * @category models
 */
export type SqlValue = string | Date | null

/**
 * One column: its SQL type, whether it may be `NULL`, and the value of a
 * record as it is sent.
 *
 * @since 0.3.0
 * @category models
 */
export interface Column<in A> {
  readonly type: SqlType
  readonly nullable: boolean
  readonly value: (record: A) => SqlValue
}

/**
 * A table of records: its name, the columns of its key (after `account`) and
 * every column by name, in order.
 *
 * @since 0.3.0
 * @category models
 */
export interface Table<in A> {
  readonly name: string
  readonly key: Arr.NonEmptyReadonlyArray<string>
  readonly columns: ReadonlyArray<readonly [name: string, column: Column<A>]>
}

/**
 * A kind of value and how it is written: its SQL type, and the value as sent.
 *
 * @since 0.3.0
 * @category models
 */
export interface Kind<in V> {
  readonly type: SqlType
  readonly encode: (value: V) => Exclude<SqlValue, null>
}

/**
 * Text, into `text` (for an open enum value, its text: `Schemas.enumText`).
 *
 * @since 0.3.0
 * @category constants
 */
export const text: Kind<string> = { type: "text", encode: (value) => value }

/**
 * A decimal, into `numeric` as its exact fixed-point text.
 *
 * @since 0.3.0
 * @category constants
 */
export const decimal: Kind<BigDecimal.BigDecimal> = { type: "numeric", encode: formatDecimal }

/**
 * An instant, into `timestamptz`.
 *
 * @since 0.3.0
 * @category constants
 */
export const timestamp: Kind<DateTime.Utc> = { type: "timestamptz", encode: DateTime.toDateUtc }

/**
 * A JSON value, into `jsonb`.
 *
 * @since 0.3.0
 * @category constants
 */
export const json: Kind<Schema.Json> = { type: "jsonb", encode: (value) => JSON.stringify(value) }

/**
 * A column that is never `NULL`: the kind of its values and how to read one
 * from a record.
 *
 * @since 0.3.0
 * @category constructors
 */
export const column = <A, V>(kind: Kind<V>, get: (record: A) => V): Column<A> => ({
  type: kind.type,
  nullable: false,
  value: (record) => kind.encode(get(record))
})

/**
 * A column that may be `NULL`, for a field that is an `Option` (`NULL` for
 * `Option.none()`).
 *
 * @example
 * ```ts
 * import { FuturesHistory } from "@bitget-effect/core"
 * import { Table } from "@bitget-effect/sql"
 *
 * const price = Table.orNull(Table.decimal, (order: FuturesHistory.FuturesOrder) => order.price)
 * ```
 *
 * @since 0.3.0
 * @category constructors
 */
export const orNull = <A, V>(kind: Kind<V>, get: (record: A) => Option.Option<V>): Column<A> => ({
  type: kind.type,
  nullable: true,
  value: (record) => Option.match(get(record), { onNone: () => null, onSome: kind.encode })
})

const identifier = /^[a-z_][a-z0-9_]{0,62}$/

/**
 * A table from its name, key and columns (in the order they are created).
 * Names are lower-case SQL identifiers; `account` is added by the table
 * itself. A name that is not, or a key that is not a column, throws.
 *
 * @example
 * ```ts
 * import { TaxRecords } from "@bitget-effect/core"
 * import { Table } from "@bitget-effect/sql"
 *
 * // only some fields of each record, in a table of one's own
 * const ledger = Table.make<TaxRecords.SpotTaxRecord>({
 *   name: "my_ledger",
 *   key: ["id"],
 *   columns: {
 *     id: Table.column(Table.text, (record) => record.id),
 *     coin: Table.column(Table.text, (record) => record.coin),
 *     amount: Table.column(Table.decimal, (record) => record.amount),
 *     ts: Table.column(Table.timestamp, (record) => record.ts)
 *   }
 * })
 * ```
 *
 * @since 0.3.0
 * @category constructors
 */
export const make = <A>(options: {
  readonly name: string
  readonly key: Arr.NonEmptyReadonlyArray<string>
  readonly columns: Readonly<Record<string, Column<A>>>
}): Table<A> => {
  const columns = Object.entries(options.columns)
  const bad = [options.name, ...columns.map(([name]) => name)].find((name) =>
    !identifier.test(name) || name === "account"
  )
  if (bad !== undefined) throw new Error(`Table.make: "${bad}" is not a lower-case SQL identifier other than account`)
  const missing = options.key.find((name) => options.columns[name] === undefined)
  if (missing !== undefined) throw new Error(`Table.make: the key column "${missing}" is not a column`)
  return { name: options.name, key: options.key, columns }
}
