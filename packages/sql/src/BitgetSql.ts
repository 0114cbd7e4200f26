/**
 * The database in one layer: a pool of connections to Postgres
 * (`@effect/sql-pg`), opened and migrated (`Migrations.run`) when the layer is
 * built, so a database that cannot be used fails the program before anything
 * is fetched: `DatabaseUnreachableError`, `DatabaseAuthenticationError`,
 * `SchemaVersionError`.
 *
 * @stability unstable
 * @since 0.3.0
 */
import * as PgClient from "@effect/sql-pg/PgClient"
import * as Config from "effect/Config"
import * as Effect from "effect/Effect"
import type * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import type * as Migrator from "effect/sql/Migrator"
import * as SqlClient from "effect/sql/SqlClient"
import type { SqlError } from "effect/sql/SqlError"
import { DatabaseAuthenticationError, DatabaseUnreachableError, type SchemaVersionError } from "./DatabaseError.js"
import * as Migrations from "./Migrations.js"

/**
 * The options of the connection pool (`@effect/sql-pg`'s): `host`, `port`,
 * `database`, `username`, `password` (`Redacted`), or a `url`; `ssl`,
 * `maxConnections`, `connectTimeout` (5 seconds by default), ...
 *
 * @since 0.3.0
 * @category models
 */
export type Options = PgClient.PgPoolConfig

/**
 * What opening the database may fail with.
 *
 * @since 0.3.0
 * @category errors
 */
export type OpenError =
  | DatabaseUnreachableError
  | DatabaseAuthenticationError
  | SchemaVersionError
  | Migrator.MigrationError
  | SqlError

/** What a message about these options may name (`host:port/database`, the user), and the passwords it must not. */
const describe = (options: Options) => {
  const url = options.url === undefined ? undefined : URL.parse(Redacted.value(options.url))
  const decoded = (
    text: string | undefined
  ) => (text === undefined || text === "" ? undefined : decodeURIComponent(text))
  const username = options.username ?? decoded(url?.username) ?? process.env.USER ?? ""
  const host = options.host ?? decoded(url?.hostname) ?? "localhost"
  const port = options.port ?? (url?.port ? Number(url.port) : 5432)
  const database = options.database ?? decoded(url?.pathname.slice(1)) ?? username
  const passwords = [
    Redacted.isRedacted(options.password) ? Redacted.value(options.password) : undefined,
    url?.password,
    decoded(url?.password)
  ].filter((secret): secret is string => secret !== undefined && secret !== "")
  return { address: `${host}:${port}/${database}`, username, passwords }
}

/**
 * A connection or login failure as the error that says so; any other as it
 * came. Drivers' messages do not hold the password; should one ever, it is
 * cut out.
 */
const openError = (options: Options) => (error: OpenError): OpenError => {
  if (error._tag !== "SqlError") return error
  const reason = error.reason._tag
  if (reason !== "ConnectionError" && reason !== "AuthenticationError") return error
  const { address, passwords, username } = describe(options)
  const cause = error.reason.cause
  const detail = passwords.reduce(
    (text, secret) => text.replaceAll(secret, "<redacted>"),
    cause instanceof Error ? cause.message : error.message
  )
  return reason === "ConnectionError"
    ? new DatabaseUnreachableError({ address, detail })
    : new DatabaseAuthenticationError({ address, username, detail })
}

/** Connects (the pool closed with the scope), checks the version and migrates. */
const open = (options: Options) =>
  Effect.gen(function*() {
    const client = yield* PgClient.make(options)
    yield* Effect.provideService(Migrations.run, SqlClient.SqlClient, client)
    return client
  }).pipe(Effect.mapError(openError(options)))

/**
 * Postgres, connected and migrated, as `SqlClient` (and `PgClient`) for
 * `Sync`.
 *
 * @example
 * ```ts
 * import { BitgetSql, Sync } from "@bitget-effect/sql"
 * import { Effect, Redacted } from "effect"
 *
 * const database = BitgetSql.layer({
 *   host: "127.0.0.1",
 *   database: "ledger",
 *   username: "bitget",
 *   password: Redacted.make("secret")
 * })
 * const state = Sync.state({ account: "main", stream: "tax-records" }).pipe(Effect.provide(database))
 * ```
 *
 * @since 0.3.0
 * @category layers
 */
export const layer = (options: Options): Layer.Layer<PgClient.PgClient | SqlClient.SqlClient, OpenError> =>
  PgClient.layerFrom(open(options))

/**
 * `layer` with its options from `Config`.
 *
 * @example
 * ```ts
 * import { BitgetSql } from "@bitget-effect/sql"
 * import { Config } from "effect"
 *
 * // the whole address, password included, from DATABASE_URL (a secret)
 * const database = BitgetSql.layerConfig({ url: Config.Redacted("DATABASE_URL") })
 * ```
 *
 * @since 0.3.0
 * @category layers
 */
export const layerConfig = (
  config: Config.Wrap<Options>
): Layer.Layer<PgClient.PgClient | SqlClient.SqlClient, OpenError | Config.ConfigError> =>
  PgClient.layerFrom(Effect.flatMap(Config.unwrap(config), open))
