/**
 * `bitget sync` end to end: the command run as a subprocess from source
 * against a sandbox and a real Postgres started here (packages/sql's
 * harness), the tables compared with the sandbox's dataset: a first run, a
 * second that adds nothing and walks only the overlap, `--full`, the exit
 * codes of a database that cannot be used (never printing its password), and
 * a run killed at a random moment then run again.
 */
import { available } from "@bitget-effect/postgres-server"
import { Dataset, Sandbox } from "@bitget-effect/sandbox"
import { assert, describe, layer } from "@effect/vitest"
import { Effect, Layer, Schedule } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import * as BitgetSql from "../../sql/src/BitgetSql.js"
import { freshDatabase, layer as postgres, Postgres } from "../../sql/test/database.js"
import { DAY } from "../src/internal/timeRange.js"
import { assertNoSecret, envOf, type Ran, run, start } from "./support.js"

const sizes = { taxRecords: 3_000, taxDays: 300, taxBurst: 200, p2pOrders: 300, p2pDays: 300, futuresOrders: 300 }

/** The role the command logs in as; its password must never be printed. */
const role = { username: "syncer", password: "Pg-s3cret-7Zq" }

/** A fresh database owned by `role`, its URL, and a client on it for the assertions. */
const database = Effect.gen(function*() {
  const server = yield* Postgres
  const options = yield* freshDatabase
  const admin = Layer.fresh(BitgetSql.layer(options))
  yield* Effect.provide(
    Effect.gen(function*() {
      const sql = yield* SqlClient
      yield* sql.unsafe(`DO $$ BEGIN CREATE ROLE ${role.username} LOGIN SUPERUSER PASSWORD '${role.password}';
        EXCEPTION WHEN duplicate_object THEN NULL; END $$`)
      yield* sql.unsafe(`ALTER DATABASE ${options.database} OWNER TO ${role.username}`)
    }),
    admin
  )
  const url = `postgres://${role.username}:${role.password}@${server.host}:${server.port}/${options.database}`
  return { url, options, admin, server }
})

/** The ids in a table, sorted. */
const ids = (table: string, id: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient
    const rows = yield* sql.unsafe<{ readonly id: string }>(`SELECT ${id} AS id FROM ${table} ORDER BY ${id}::numeric`)
    return rows.map((row) => row.id)
  })

const sorted = (values: ReadonlyArray<string>) => [...values].sort((a, b) => (BigInt(a) > BigInt(b) ? 1 : -1))

/** Asserts a run printed neither the API key's secrets nor the database's password. */
const assertNothingSecret = (ran: Ran, sandbox: Sandbox.Sandbox.Service) => {
  assertNoSecret(ran, sandbox)
  assert.notInclude(ran.stdout + ran.stderr, role.password)
}

/** The requests the sandbox received on a path. */
const requestsTo = (sandbox: Sandbox.Sandbox.Service, path: string) =>
  Effect.map(sandbox.requests, (requests) => requests.filter((request) => request.path === path).length)

const taxPath = "/api/v2/tax/spot-record"

describe.skipIf(!available && process.env.CI !== "true")("bitget sync", () => {
  layer(Layer.merge(Sandbox.layer({ seed: 21, sizes, limits: false }), postgres), {
    timeout: 120_000,
    excludeTestServices: true
  })((it) => {
    it.effect(
      "a first run stores the dataset; a second adds nothing and walks the overlap; --full changes nothing",
      () =>
        Effect.gen(function*() {
          const sandbox = yield* Sandbox.Sandbox
          const { admin, url } = yield* database
          const expected = sorted(Dataset.make(sandbox).taxRecords(sandbox.credentials.hmac.apiKey).map((r) => r.id))
          const args = ["sync", "tax-records", "--database", url]
          yield* sandbox.clearRequests
          const first = yield* run(args, sandbox)
          assertNothingSecret(first, sandbox)
          assert.strictEqual(first.code, 0, first.stderr)
          assert.match(first.stdout, /^tax-records of key-[0-9a-f]{8}: /)
          assert.include(first.stdout, `${expected.length.toLocaleString("en-US")} rows added, 0 updated, 0 unchanged`)
          assert.include(first.stdout, "(first run)")
          assert.include(first.stdout, `:***@`)
          assert.deepStrictEqual(yield* Effect.provide(ids("bitget_tax_records", "id"), admin), expected)
          const firstRequests = yield* requestsTo(sandbox, taxPath)

          yield* sandbox.clearRequests
          const second = yield* run(args, sandbox)
          assertNothingSecret(second, sandbox)
          assert.strictEqual(second.code, 0, second.stderr)
          assert.include(second.stdout, "0 rows added, 0 updated")
          assert.include(second.stdout, "(incremental)")
          const secondRequests = yield* requestsTo(sandbox, taxPath)
          assert.strictEqual(secondRequests, 1, "the overlap: one window, one page")

          const full = yield* run([...args, "--full", "--quiet"], sandbox)
          assert.strictEqual(full.code, 0, full.stderr)
          assert.strictEqual(full.stderr, "", "--quiet")
          assert.include(full.stdout, `0 rows added, 0 updated, ${expected.length.toLocaleString("en-US")} unchanged`)
          assert.include(full.stdout, "(full)")
          assert.deepStrictEqual(yield* Effect.provide(ids("bitget_tax_records", "id"), admin), expected)
          yield* Effect.logInfo(
            `bitget sync: first run ${expected.length} rows in ${firstRequests} requests; second run ${secondRequests} ` +
              `request\n${first.stdout}${second.stdout}${full.stdout}`
          )

          // futures and P2P, the URL from BITGET_DATABASE_URL, an account of one's own
          const env = { BITGET_DATABASE_URL: url }
          const futures = yield* run(["sync", "futures-orders", "--account", "desk-2"], sandbox, env)
          assert.strictEqual(futures.code, 0, futures.stderr)
          assert.match(futures.stdout, /^futures-orders of desk-2: /)
          const p2p = yield* run(["sync", "p2p-orders", "--account", "desk-2", "--quiet"], sandbox, env)
          assert.strictEqual(p2p.code, 0, p2p.stderr)
          const data = Dataset.make(sandbox)
          const apiKey = sandbox.credentials.hmac.apiKey
          assert.deepStrictEqual(
            yield* Effect.provide(ids("bitget_p2p_orders", "order_id"), admin),
            sorted(data.p2pOrders(apiKey).map((o) => o.orderId))
          )
          const kept = { start: sandbox.anchor - 89 * DAY, end: sandbox.anchor }
          const futuresIds = yield* Effect.provide(ids("bitget_futures_orders", "order_id"), admin)
          for (const order of data.futuresOrders(apiKey, "USDT-FUTURES", kept)) {
            assert.include(futuresIds, order.orderId)
          }
          // run again: nothing added, the same rows
          for (const kind of ["futures-orders", "p2p-orders"]) {
            const again = yield* run(["sync", kind, "--account", "desk-2"], sandbox, env)
            assert.strictEqual(again.code, 0, again.stderr)
            assert.match(again.stdout, new RegExp(`^${kind} of desk-2: 0 rows added, .*\\(incremental\\)`), kind)
          }
          assert.deepStrictEqual(yield* Effect.provide(ids("bitget_futures_orders", "order_id"), admin), futuresIds)
          assert.strictEqual(
            (yield* Effect.provide(ids("bitget_p2p_orders", "order_id"), admin)).length,
            data.p2pOrders(apiKey).length
          )
        }),
      90_000
    )

    it.effect(
      "a database that cannot be used: exit 2 before anything is fetched, the password never shown",
      () =>
        Effect.gen(function*() {
          const sandbox = yield* Sandbox.Sandbox
          const { server, url } = yield* database
          yield* sandbox.clearRequests
          const wrong = url.replace(role.password, "Not-the-pw-42")
          const cases: ReadonlyArray<readonly [string, string]> = [
            [
              `postgres://${role.username}:${role.password}@127.0.0.1:9/nowhere`,
              "Cannot reach the database at 127.0.0.1:9"
            ],
            [wrong, `refused the login of user "${role.username}"`],
            [`mysql://${role.username}:${role.password}@${server.host}/x`, "--database: expected postgres://"],
            ["not a url", "--database: expected postgres://"]
          ]
          yield* Effect.forEach(cases, ([database, message]) =>
            Effect.gen(function*() {
              const ran = yield* run(["sync", "tax-records", "--database", database], sandbox)
              assertNothingSecret(ran, sandbox)
              assert.notInclude(ran.stderr, "Not-the-pw-42")
              assert.strictEqual(ran.code, 2, ran.stderr)
              assert.include(ran.stderr, message)
              assert.strictEqual(ran.stdout, "")
            }), { concurrency: 4 })
          const missing = yield* run(["sync", "tax-records"], sandbox)
          assert.strictEqual(missing.code, 2, missing.stderr)
          assert.include(missing.stderr, "BITGET_DATABASE_URL")
          assert.include(missing.stderr, "hint: bitget sync --help")
          const old = yield* run(["sync", "futures-orders", "--database", url, "--to", "2020-01-01"], sandbox)
          assert.strictEqual(old.code, 2, old.stderr)
          assert.include(old.stderr, "keeps 90 days")
          assert.deepStrictEqual(yield* sandbox.requests, [], "nothing was fetched")
        }),
      60_000
    )

    it.effect(
      "killed (SIGKILL) at a random moment, then run again: exactly the dataset, no record twice",
      () =>
        Effect.gen(function*() {
          const sandbox = yield* Sandbox.Sandbox
          const { admin, url } = yield* database
          const expected = sorted(Dataset.make(sandbox).taxRecords(sandbox.credentials.hmac.apiKey).map((r) => r.id))
          const args = ["sync", "tax-records", "--database", url]
          const stored = Effect.provide(ids("bitget_tax_records", "id"), admin)
          const kills: Array<number> = []
          for (let round = 0; round < 2; round++) {
            // with the client's 1/s limit on the tax route, a run takes over ten seconds
            const killed = yield* Effect.scoped(Effect.gen(function*() {
              const before = (yield* stored).length
              const started = yield* start(args, envOf(sandbox, { BITGET_RATE_LIMIT: "true" }))
              // once this run has committed a page of records, a random moment later
              yield* Effect.repeat(stored, {
                until: (rows) => rows.length > before,
                schedule: Schedule.spaced("50 millis")
              }).pipe(Effect.timeout("60 seconds"))
              yield* Effect.sleep(`${Math.floor(Math.random() * 1_500)} millis`)
              started.child.kill("SIGKILL")
              return yield* started.ended
            }))
            assert.strictEqual(killed.signal, "SIGKILL", killed.stderr)
            const rows = yield* stored
            assert.strictEqual(new Set(rows).size, rows.length)
            kills.push(rows.length)
          }
          const last = yield* run(args, sandbox)
          assertNothingSecret(last, sandbox)
          assert.strictEqual(last.code, 0, last.stderr)
          assert.include(last.stdout, "(resumed)")
          assert.include(last.stdout, `${(expected.length - kills.at(-1)!).toLocaleString("en-US")} rows added`)
          assert.deepStrictEqual(yield* stored, expected)
          yield* Effect.logInfo(
            `bitget sync killed twice: rows stored at each kill ${kills.join(", ")} of ${expected.length}`
          )
        }),
      150_000
    )
  })
})
