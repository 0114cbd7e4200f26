import { available } from "@bitget-effect/postgres-server"
import { assert, describe, layer } from "@effect/vitest"
import { DateTime, Effect, Fiber, Latch, Option, Stream } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { createHash } from "node:crypto"
import * as Migrations from "../src/Migrations.js"
import * as RecordTables from "../src/RecordTables.js"
import * as Sync from "../src/Sync.js"
import type { Table } from "../src/Table.js"
import { futuresOrder, layer as postgres, migrated, p2pOrder, taxRecord } from "./database.js"

const range = {
  start: DateTime.makeUnsafe("2026-01-01T00:00:00.000Z"),
  end: DateTime.makeUnsafe("2026-02-01T00:00:00.000Z")
}

const page = <A>(records: ReadonlyArray<A>, checkpoint: Sync.Page<A>["checkpoint"], done = false): Sync.Page<A> => ({
  records,
  checkpoint,
  range,
  done
})

const writeTax = (account: string, ...pages: ReadonlyArray<Sync.Page<ReturnType<typeof taxRecord>>>) =>
  Sync.write({ account, stream: "tax-records", table: RecordTables.taxRecords, pages: Stream.fromIterable(pages) })

/** The rows of a table as text (numerics exactly as stored, times to the microsecond in UTC), by key. */
const rows = (table: Table<never>) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient
    yield* sql`SET TIME ZONE 'UTC'`
    const columns = ["account", ...table.columns.map(([name]) => name)]
    return yield* sql.unsafe<Record<string, string | null>>(
      `SELECT ${columns.map((name) => `${name}::text AS ${name}`).join(", ")} FROM ${table.name} ORDER BY ${
        ["account", ...table.key].join(", ")
      }`
    ).withoutTransform
  })

const count = (table: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient
    const [row] = yield* sql.unsafe<{ readonly n: number }>(`SELECT count(*)::int AS n FROM ${table}`)
    return row!.n
  })

describe.skipIf(!available && process.env.CI !== "true")("Sync", () => {
  layer(postgres, { timeout: 60_000, excludeTestServices: true })((it) => {
    it.effect("migrations create the tables with typed columns, and a second run applies nothing", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient
        const columns = yield* sql<
          { readonly table_name: string; readonly column_name: string; readonly data_type: string }
        >`
          SELECT table_name, column_name, data_type FROM information_schema.columns
          WHERE table_name LIKE 'bitget_%' ORDER BY table_name, ordinal_position`
        const of = (table: string) =>
          columns.filter((c) => c.table_name === table).map((c) => `${c.column_name} ${c.data_type}`)
        assert.deepStrictEqual(of("bitget_tax_records"), [
          "account text",
          "id text",
          "coin text",
          "spot_tax_type text",
          "amount numeric",
          "fee numeric",
          "balance numeric",
          "ts timestamp with time zone",
          "biz_order_id text"
        ])
        assert.deepStrictEqual(of("bitget_sync_state"), [
          "account text",
          "stream text",
          "checkpoint jsonb",
          "range_start timestamp with time zone",
          "range_end timestamp with time zone",
          "complete boolean",
          "updated_at timestamp with time zone"
        ])
        assert.strictEqual(of("bitget_futures_orders").length, 1 + RecordTables.futuresOrders.columns.length)
        assert.include(of("bitget_p2p_orders"), "payment_info jsonb")
        const keys = yield* sql<{ readonly table_name: string; readonly key: string }>`
          SELECT tc.table_name, string_agg(kcu.column_name, ',' ORDER BY kcu.ordinal_position) AS key
          FROM information_schema.table_constraints tc
          JOIN information_schema.key_column_usage kcu USING (constraint_name, table_name)
          WHERE tc.constraint_type = 'PRIMARY KEY' AND tc.table_name LIKE 'bitget_%'
          GROUP BY tc.table_name ORDER BY tc.table_name`
        assert.deepStrictEqual(keys.map((k) => `${k.table_name}(${k.key})`), [
          "bitget_futures_orders(account,order_id)",
          "bitget_migrations(migration_id)",
          "bitget_p2p_orders(account,order_id)",
          "bitget_sync_state(account,stream)",
          "bitget_tax_records(account,id)"
        ])
        assert.deepStrictEqual(yield* Migrations.run, [])
      }).pipe(Effect.provide(migrated)))

    it.effect("migration 1 is what was released (a changed table needs a migration of its own)", () =>
      Effect.sync(() => {
        const [, name, statements] = Migrations.migrations[0]!
        assert.strictEqual(name, "create_tables")
        assert.strictEqual(
          statements[0],
          [
            "CREATE TABLE bitget_tax_records (",
            "  account text NOT NULL,",
            "  id text NOT NULL,",
            "  coin text NOT NULL,",
            "  spot_tax_type text NOT NULL,",
            "  amount numeric NOT NULL,",
            "  fee numeric NOT NULL,",
            "  balance numeric NOT NULL,",
            "  ts timestamptz NOT NULL,",
            "  biz_order_id text,",
            "  PRIMARY KEY (account, id)",
            ")"
          ].join("\n")
        )
        assert.strictEqual(
          createHash("sha256").update(statements.join("\n")).digest("hex").slice(0, 16),
          "869b8e8b7cbbbe60",
          "migration 1 changed: add a migration instead (a released migration never changes)"
        )
      }))

    it.effect("a page is stored exactly: decimals to the last digit, times to the millisecond, NULL for none", () =>
      Effect.gen(function*() {
        const summary = yield* writeTax(
          "main",
          page([taxRecord("1"), taxRecord("2", "-1e-30", Option.some("order-9"))], { page: 1 }, true)
        )
        assert.deepStrictEqual(summary, { pages: 1, added: 2, updated: 0, unchanged: 0 })
        assert.deepStrictEqual(yield* rows(RecordTables.taxRecords), [
          {
            account: "main",
            id: "1",
            coin: "USDT",
            spot_tax_type: "Buy",
            amount: "123456789012345678.901234567891",
            fee: "-0.00000001",
            balance: "1000",
            ts: "2026-01-01 00:00:00.124+00",
            biz_order_id: null
          },
          {
            account: "main",
            id: "2",
            coin: "USDT",
            spot_tax_type: "Buy",
            amount: "123456789012345678.901234567891",
            fee: "-0.000000000000000000000000000001",
            balance: "1000",
            ts: "2026-01-01 00:00:00.125+00",
            biz_order_id: "order-9"
          }
        ])
      }).pipe(Effect.provide(migrated)))

    it.effect("futures and P2P orders fill their tables: NULL prices, enums as sent, payment info as jsonb", () =>
      Effect.gen(function*() {
        const futures = yield* Sync.write({
          account: "main",
          stream: "futures-history:USDT-FUTURES",
          table: RecordTables.futuresOrders,
          pages: Stream.make(page([futuresOrder("1300000000000000001")], { endId: "1300000000000000001" }, true))
        })
        const p2p = yield* Sync.write({
          account: "main",
          stream: "p2p-orders",
          table: RecordTables.p2pOrders,
          pages: Stream.make(page([p2pOrder("88")], { minOrderId: "88" }, true))
        })
        assert.strictEqual(futures.added + p2p.added, 2)
        const [order] = yield* rows(RecordTables.futuresOrders)
        assert.deepInclude(order, {
          order_id: "1300000000000000001",
          price: null,
          price_avg: "86804.1",
          fee: "-0.0000434",
          client_oid: null,
          reduce_only: "NO",
          liq_price: null,
          enter_point_source: "API",
          c_time: "2026-01-01 00:00:00.001+00",
          u_time: "2026-01-01 00:00:00.999+00"
        })
        const [p2pRow] = yield* rows(RecordTables.p2pOrders)
        assert.deepInclude(p2pRow, {
          order_id: "88",
          price: "7.12",
          withdraw_time: null,
          release_time: "2026-01-01 00:00:00.5+00",
          buyer_real_name: null,
          status: "Completed"
        })
        assert.deepStrictEqual(JSON.parse(p2pRow!.payment_info!), {
          paymethodName: "Bank",
          paymethodId: "7",
          paymethodInfo: [{ name: "Account", required: "yes", type: "number", value: "****1234" }]
        })
      }).pipe(Effect.provide(migrated)))

    it.effect("writing the same page again changes nothing; a changed record counts as updated", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient
        const first = page([taxRecord("1"), taxRecord("2"), taxRecord("3")], { page: 1 })
        yield* writeTax("main", first)
        const [before] = yield* sql<{ readonly versions: string }>`
          SELECT string_agg(xmin::text, ',' ORDER BY id) AS versions FROM bitget_tax_records`
        assert.deepStrictEqual(yield* writeTax("main", first), { pages: 1, added: 0, updated: 0, unchanged: 3 })
        const [after] = yield* sql<{ readonly versions: string }>`
          SELECT string_agg(xmin::text, ',' ORDER BY id) AS versions FROM bitget_tax_records`
        assert.strictEqual(after!.versions, before!.versions, "no row was rewritten")
        const changed = page([taxRecord("2", "-0.5"), taxRecord("3"), taxRecord("4")], { page: 2 })
        assert.deepStrictEqual(yield* writeTax("main", changed), { pages: 1, added: 1, updated: 1, unchanged: 1 })
        assert.strictEqual(yield* count("bitget_tax_records"), 4)
        // a page holding one key twice keeps the last
        const twice = page([taxRecord("5", "-1"), taxRecord("5", "-2")], { page: 3 })
        assert.deepStrictEqual(yield* writeTax("main", twice), { pages: 1, added: 1, updated: 0, unchanged: 0 })
        const [five] = yield* sql<
          { readonly fee: string }
        >`SELECT fee::text AS fee FROM bitget_tax_records WHERE id = '5'`
        assert.strictEqual(five!.fee, "-2")
      }).pipe(Effect.provide(migrated)))

    it.effect("a page larger than one statement's parameters goes in whole", () =>
      Effect.gen(function*() {
        // 9 columns a row: 3,640 rows a statement at most, so three statements in one transaction
        const records = Array.from({ length: 8_000 }, (_, i) => taxRecord(String(i)))
        assert.deepStrictEqual(yield* writeTax("main", page(records, { page: 1 })), {
          pages: 1,
          added: 8_000,
          updated: 0,
          unchanged: 0
        })
        assert.strictEqual((yield* writeTax("main", page(records, { page: 1 }))).unchanged, 8_000)
        assert.strictEqual(yield* count("bitget_tax_records"), 8_000)
      }).pipe(Effect.provide(migrated)), 30_000)

    it.effect("a page whose transaction fails leaves neither its rows nor its checkpoint", () =>
      Effect.gen(function*() {
        yield* writeTax("main", page([taxRecord("1")], { page: 1 }))
        // the rows go in first; then jsonb refuses the checkpoint (\u0000), and the whole page is rolled back
        const failed = yield* Effect.flip(
          writeTax("main", page([taxRecord("2"), taxRecord("3")], { page: 2, bad: "\u0000" }))
        )
        assert.strictEqual(failed._tag, "SqlError")
        assert.strictEqual(yield* count("bitget_tax_records"), 1)
        const state = yield* Sync.state({ account: "main", stream: "tax-records" })
        assert.deepStrictEqual(Option.map(state, (s) => s.checkpoint), Option.some({ page: 1 }))
        // the failed page, written again as it should have been, goes in whole
        assert.strictEqual((yield* writeTax("main", page([taxRecord("2"), taxRecord("3")], { page: 2 }))).added, 2)
      }).pipe(Effect.provide(migrated)))

    it.effect("an interrupted page leaves neither its rows nor its checkpoint", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient
        // another transaction holds the state table: the page's rows go in, then its state write waits
        const unlock = yield* Latch.make(false)
        const locked = yield* Latch.make(false)
        const holder = yield* sql.withTransaction(
          Effect.andThen(sql`LOCK TABLE bitget_sync_state IN EXCLUSIVE MODE`, Effect.andThen(locked.open, unlock.await))
        ).pipe(Effect.forkChild)
        yield* locked.await
        const writer = yield* writeTax("main", page([taxRecord("1"), taxRecord("2")], { page: 1 })).pipe(
          Effect.forkChild
        )
        // wait until the writer's state write is the one waiting for the lock
        yield* Effect.repeat(
          sql<{ readonly n: number }>`SELECT count(*)::int AS n FROM pg_locks WHERE NOT granted`,
          { until: ([row]) => row!.n > 0 }
        )
        const interrupted = yield* Effect.forkChild(Fiber.interrupt(writer))
        yield* unlock.open
        yield* Fiber.join(holder)
        yield* Fiber.join(interrupted)
        assert.strictEqual(yield* count("bitget_tax_records"), 0)
        assert.isTrue(Option.isNone(yield* Sync.state({ account: "main", stream: "tax-records" })))
      }).pipe(Effect.provide(migrated)))

    it.effect("two accounts in one database keep their rows and states apart", () =>
      Effect.gen(function*() {
        yield* writeTax("alice", page([taxRecord("1", "-1"), taxRecord("2", "-1")], { at: "alice" }, true))
        yield* writeTax("bob", page([taxRecord("1", "-2")], { at: "bob" }))
        const stored = yield* rows(RecordTables.taxRecords)
        assert.deepStrictEqual(stored.map((row) => `${row.account}:${row.id}:${row.fee}`), [
          "alice:1:-1",
          "alice:2:-1",
          "bob:1:-2"
        ])
        const alice = yield* Sync.state({ account: "alice", stream: "tax-records" })
        const bob = yield* Sync.state({ account: "bob", stream: "tax-records" })
        assert.deepStrictEqual(
          Option.map(alice, (s) => [s.checkpoint, s.complete]),
          Option.some([{ at: "alice" }, true])
        )
        assert.deepStrictEqual(Option.map(bob, (s) => [s.checkpoint, s.complete]), Option.some([{ at: "bob" }, false]))
      }).pipe(Effect.provide(migrated)))

    it.effect("the state read back is the one written last", () =>
      Effect.gen(function*() {
        assert.isTrue(Option.isNone(yield* Sync.state({ account: "main", stream: "tax-records" })))
        const checkpoint = {
          version: 1,
          stream: "GET /api/v2/tax/spot-record",
          start: "2026-01-01T00:00:00.000Z",
          next: { window: 2, cursor: "1234567890123456789", seen: ["1", "2"] },
          ratio: -0.5,
          none: null
        }
        const start = yield* DateTime.now
        const written = {
          records: [taxRecord("1")],
          checkpoint,
          range: {
            start: DateTime.makeUnsafe("2025-12-31T23:59:59.999Z"),
            end: DateTime.makeUnsafe(1_767_225_600_007)
          },
          done: false
        }
        const summary = yield* Sync.write({
          account: "main",
          stream: "tax-records",
          table: RecordTables.taxRecords,
          pages: Stream.make(page([], { first: true }), written)
        })
        assert.strictEqual(summary.pages, 2)
        const state = Option.getOrThrow(yield* Sync.state({ account: "main", stream: "tax-records" }))
        assert.deepStrictEqual(state.checkpoint, checkpoint)
        assert.isTrue(DateTime.Equivalence(state.range.start, written.range.start))
        assert.isTrue(DateTime.Equivalence(state.range.end, written.range.end))
        assert.isFalse(state.complete)
        assert.strictEqual(state.stream, "tax-records")
        assert.isTrue(DateTime.toEpochMillis(state.updatedAt) >= DateTime.toEpochMillis(start) - 1_000)
      }).pipe(Effect.provide(migrated)))
  })
})
