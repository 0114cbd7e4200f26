import { available } from "@bitget-effect/postgres-server"
import { assert, describe, layer } from "@effect/vitest"
import { Effect, Layer, Redacted } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { inspect } from "node:util"
import * as BitgetSql from "../src/BitgetSql.js"
import * as Migrations from "../src/Migrations.js"
import * as Sync from "../src/Sync.js"
import { freshDatabase, layer as postgres, options, Postgres } from "./database.js"

const secret = "s3cr3t-Pa55word-never-shown"

/** The failure of opening the database with these options. */
const openFailure = (opts: BitgetSql.Options) => Effect.flip(Layer.build(BitgetSql.layer(opts)).pipe(Effect.scoped))

/** Every way the error could be shown: message, string, JSON, inspection. */
const shown = (error: unknown) => [String(error), JSON.stringify(error), inspect(error, { depth: 10 })].join("\n")

describe.skipIf(!available && process.env.CI !== "true")("BitgetSql", () => {
  layer(postgres, { timeout: 60_000, excludeTestServices: true })((it) => {
    it.effect("opens and migrates a fresh database", () =>
      Effect.gen(function*() {
        const opts = yield* freshDatabase
        const applied = yield* Effect.scoped(
          Effect.gen(function*() {
            const sql = yield* SqlClient
            const [row] = yield* sql<{ readonly id: number }>`SELECT max(migration_id) AS id FROM bitget_migrations`
            return row!.id
          }).pipe(Effect.provide(BitgetSql.layer(opts)))
        )
        assert.strictEqual(applied, Migrations.latest)
      }))

    it.effect("an unreachable database fails with DatabaseUnreachableError naming the address", () =>
      Effect.gen(function*() {
        const server = yield* Postgres
        // a port nothing listens on: the server's, plus one, closed at once
        const error = yield* openFailure({
          ...options(server, "ledger"),
          port: 1,
          password: Redacted.make(secret),
          connectTimeout: "2 seconds"
        })
        assert.strictEqual(error._tag, "DatabaseUnreachableError")
        assert.match(error.message, /^Cannot reach the database at 127\.0\.0\.1:1\/ledger: .*ECONNREFUSED/)
        assert.notInclude(shown(error), secret)
      }))

    it.effect("a wrong password fails with DatabaseAuthenticationError, the password nowhere", () =>
      Effect.gen(function*() {
        const server = yield* Postgres
        const error = yield* openFailure({ ...options(server, "postgres"), password: Redacted.make(secret) })
        assert.strictEqual(error._tag, "DatabaseAuthenticationError")
        assert.strictEqual(
          error.message,
          `The database at 127.0.0.1:${server.port}/postgres refused the login of user "bitget" (check the user and ` +
            `its password): password authentication failed for user "bitget"`
        )
        assert.notInclude(shown(error), secret)
        // the same from a URL holding the password
        const fromUrl = yield* openFailure({
          url: Redacted.make(`postgres://bitget:${secret}@127.0.0.1:${server.port}/postgres`)
        })
        assert.strictEqual(fromUrl._tag, "DatabaseAuthenticationError")
        assert.include(fromUrl.message, `127.0.0.1:${server.port}/postgres refused the login of user "bitget"`)
        assert.notInclude(shown(fromUrl), secret)
      }))

    it.effect("a database migrated by a newer version fails with SchemaVersionError, nothing written", () =>
      Effect.gen(function*() {
        const opts = yield* freshDatabase
        // this version's tables, then a migration from the future
        yield* Effect.scoped(
          Effect.gen(function*() {
            const sql = yield* SqlClient
            yield* sql`INSERT INTO bitget_migrations (migration_id, name) VALUES (${Migrations.latest + 1}, 'future')`
          }).pipe(Effect.provide(BitgetSql.layer(opts)))
        )
        const error = yield* openFailure(opts)
        assert.strictEqual(error._tag, "SchemaVersionError")
        assert.strictEqual(
          error.message,
          `The database's bitget tables are at migration ${Migrations.latest + 1}, newer than this ` +
            `@bitget-effect/sql knows (${Migrations.latest}): upgrade @bitget-effect/sql to open it`
        )
        // a program over the layer never runs
        let ran = false
        const program = Effect.sync(() => {
          ran = true
        }).pipe(Effect.andThen(Sync.state({ account: "main", stream: "tax-records" })))
        const failed = yield* Effect.flip(Effect.scoped(Effect.provide(program, BitgetSql.layer(opts))))
        assert.strictEqual(failed._tag, "SchemaVersionError")
        assert.isFalse(ran)
      }))
  })
})
