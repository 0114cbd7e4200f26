/** The SQL made from a `Table`: its `CREATE TABLE`, and the upsert of a page of records. */
import * as Effect from "effect/Effect"
import type * as SqlClient from "effect/sql/SqlClient"
import type { SqlError } from "effect/sql/SqlError"
import type { SqlValue, Table } from "../Table.js"

/** The `CREATE TABLE` statement of a table: `account`, its columns, the primary key. */
export const createTable = (table: Table<never>): string =>
  [
    `CREATE TABLE ${table.name} (`,
    "  account text NOT NULL,",
    ...table.columns.map(([name, column]) => `  ${name} ${column.type}${column.nullable ? "" : " NOT NULL"},`),
    `  PRIMARY KEY (account, ${table.key.join(", ")})`,
    ")"
  ].join("\n")

/** What an upsert did: rows of new keys, rows changed, rows already as given. */
export interface Upserted {
  readonly added: number
  readonly updated: number
  readonly unchanged: number
}

/** The most parameters one statement may bind (the driver's limit; Postgres's own is 65,535). */
const maxParameters = 32_767

/** The text around a table's rows: `INSERT INTO ... VALUES`, and from `ON CONFLICT` to `RETURNING`. */
const upsertText = (table: Table<never>) => {
  const names = ["account", ...table.columns.map(([name]) => name)]
  const values = table.columns.filter(([name]) => !table.key.includes(name))
  // numerics compared as text: `1.50` replacing `1.5` is a change, however equal the numbers
  const compared = (name: string, type: string, side: string) => `${side}.${name}${type === "numeric" ? "::text" : ""}`
  const onConflict = values.length === 0 ? "NOTHING" : [
    `UPDATE SET ${values.map(([name]) => `${name} = excluded.${name}`).join(", ")}`,
    `WHERE (${values.map(([name, { type }]) => compared(name, type, "t")).join(", ")})`,
    `IS DISTINCT FROM (${values.map(([name, { type }]) => compared(name, type, "excluded")).join(", ")})`
  ].join(" ")
  return {
    columns: names.length,
    head: `INSERT INTO ${table.name} AS t (${names.join(", ")}) VALUES `,
    tail: ` ON CONFLICT (account, ${table.key.join(", ")}) DO ${onConflict} RETURNING (xmax = 0) AS inserted`,
    casts: ["text", ...table.columns.map(([, column]) => column.type)].map((type) => `::${type}`)
  }
}

/**
 * The upsert of records into a table as one multi-row `INSERT ... ON CONFLICT
 * DO UPDATE` (split only past the limit of parameters), each value cast
 * to its column's type. A row whose values are all as stored is not touched;
 * `RETURNING (xmax = 0)` tells a new row from an updated one. Of records
 * sharing a key, the last is written, and counts are of distinct keys.
 */
export const upsert = <A>(
  sql: SqlClient.SqlClient,
  table: Table<A>,
  account: string,
  records: ReadonlyArray<A>
): Effect.Effect<Upserted, SqlError> => {
  const keyColumns = table.columns.filter(([name]) => table.key.includes(name)).map(([, column]) => column)
  const byKey = new Map<string, ReadonlyArray<SqlValue>>()
  for (const record of records) {
    byKey.set(
      JSON.stringify(keyColumns.map((column) => column.value(record))),
      [account, ...table.columns.map(([, column]) => column.value(record))]
    )
  }
  const rows = [...byKey.values()]
  if (rows.length === 0) return Effect.succeed({ added: 0, updated: 0, unchanged: 0 })
  const text = upsertText(table)
  const perStatement = Math.floor(maxParameters / text.columns)
  const chunks = Array.from(
    { length: Math.ceil(rows.length / perStatement) },
    (_, i) => rows.slice(i * perStatement, (i + 1) * perStatement)
  )
  // placeholders written here (`$1::text`, ...) rather than a fragment a value: Effect's statement compiler
  // overflows the stack on a statement of thousands of rows
  const statement = (chunk: ReadonlyArray<ReadonlyArray<SqlValue>>) =>
    sql.unsafe<{ readonly inserted: boolean }>(
      text.head +
        chunk.map((row, r) => `(${row.map((_, c) => `$${r * text.columns + c + 1}${text.casts[c]}`).join(", ")})`)
          .join(", ") +
        text.tail,
      chunk.flat()
    ).withoutTransform
  return Effect.map(Effect.forEach(chunks, statement), (results) => {
    const returned = results.flat()
    const added = returned.filter((result) => result.inserted).length
    return { added, updated: returned.length - added, unchanged: rows.length - returned.length }
  })
}
