/**
 * The tables this package creates, and their migrations (Effect's
 * `Migrator`, recorded in `bitget_migrations`): the record tables of
 * `RecordTables` and `bitget_sync_state`, where each stream's checkpoint is
 * kept. `run` first checks that the database is not migrated further than
 * this package knows (`SchemaVersionError`: nothing is read or written
 * then), then applies what is missing, in one transaction.
 *
 * A migration, once released, never changes: a column added to a table
 * later comes with a migration of its own.
 *
 * @stability unstable
 * @since 0.3.0
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Migrator from "effect/sql/Migrator"
import * as SqlClient from "effect/sql/SqlClient"
import type { SqlError } from "effect/sql/SqlError"
import { SchemaVersionError } from "./DatabaseError.js"
import { createTable } from "./internal/statements.js"
import * as RecordTables from "./RecordTables.js"

/**
 * The table recording the migrations applied.
 *
 * @since 0.3.0
 * @category constants
 */
export const migrationsTable = "bitget_migrations"

/**
 * The table of each stream's state: `(account, stream)` as key, the
 * checkpoint after the last page written (`jsonb`), the range of the run
 * (`range_start`, `range_end`), whether the run is complete, and when the
 * row was last written.
 *
 * @since 0.3.0
 * @category constants
 */
export const syncStateTable = "bitget_sync_state"

const syncState = `CREATE TABLE ${syncStateTable} (
  account text NOT NULL,
  stream text NOT NULL,
  checkpoint jsonb NOT NULL,
  range_start timestamptz NOT NULL,
  range_end timestamptz NOT NULL,
  complete boolean NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (account, stream)
)`

/**
 * The migrations, as `[id, name, statements]`: the SQL each one runs.
 *
 * @since 0.3.0
 * @category constants
 */
export const migrations: ReadonlyArray<readonly [id: number, name: string, statements: ReadonlyArray<string>]> = [
  [1, "create_tables", [...RecordTables.all.map(createTable), syncState]]
]

/**
 * The id of the last migration this package has.
 *
 * @since 0.3.0
 * @category constants
 */
export const latest: number = migrations[migrations.length - 1]![0]

const loader: Migrator.Loader = Effect.succeed(migrations.map(([id, name, statements]): Migrator.ResolvedMigration => [
  id,
  name,
  Effect.succeed(Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    for (const statement of statements) yield* sql.unsafe(statement).withoutTransform
  }))
]))

/** The last migration the database records (0 before the first). */
const applied = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const [table] = yield* sql<{ readonly name: string | null }>`SELECT to_regclass(${migrationsTable})::text AS name`
    .withoutTransform
  if (table?.name == null) return 0
  const [last] = yield* sql.unsafe<{ readonly id: number | null }>(
    `SELECT max(migration_id) AS id FROM ${migrationsTable}`
  ).withoutTransform
  return last?.id ?? 0
})

/**
 * Checks the database's version, then applies the migrations it lacks;
 * succeeds with those applied.
 *
 * @since 0.3.0
 * @category operations
 */
export const run: Effect.Effect<
  ReadonlyArray<readonly [id: number, name: string]>,
  SchemaVersionError | Migrator.MigrationError | SqlError,
  SqlClient.SqlClient
> = Effect.gen(function*() {
  const found = yield* applied
  if (found > latest) return yield* new SchemaVersionError({ found, known: latest })
  return yield* Migrator.make({})({ loader, table: migrationsTable })
})

/**
 * `run` as a layer, over a `SqlClient` of one's own.
 *
 * @example
 * ```ts
 * import { PgClient } from "@effect/sql-pg"
 * import { Migrations } from "@bitget-effect/sql"
 * import { Layer, Redacted } from "effect"
 *
 * const client = PgClient.layer({ host: "127.0.0.1", database: "ledger", password: Redacted.make("secret") })
 * const database = Layer.provideMerge(Migrations.layer, client)
 * ```
 *
 * @since 0.3.0
 * @category layers
 */
export const layer: Layer.Layer<never, SchemaVersionError | Migrator.MigrationError | SqlError, SqlClient.SqlClient> =
  Layer.effectDiscard(run)
