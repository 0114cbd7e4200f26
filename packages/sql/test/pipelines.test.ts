/**
 * The pipelines against a real Postgres and a mock exchange (core's
 * `BitgetMock`, answering from a data set as the exchange pages: newest
 * first, `idLessThan`, at most `limit`): a first sync leaves exactly the data
 * set, a second adds nothing and walks only the overlap, a run stopped after
 * some pages and run again leaves every record once, two accounts sync at
 * once into one database.
 */
import { BitgetError, BitgetMock, FuturesHistory, P2pOrders, TaxRecords } from "@bitget-effect/core"
import { available } from "@bitget-effect/postgres-server"
import { assert, describe, layer } from "@effect/vitest"
import { BigDecimal, DateTime, Effect, Fiber, Option, Ref, Schedule, Schema } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import * as Pipelines from "../src/Pipelines.js"
import * as Sync from "../src/Sync.js"
import { futuresOrder, layer as postgres, migrated } from "./database.js"

const DAY = 86_400_000
const now = Date.now()

/** `count` tax records of `account`, spread over the last 200 days (the newest two minutes ago), ids rising with time. */
const taxData = (prefix: number, count: number): ReadonlyArray<TaxRecords.SpotTaxRecord> =>
  Array.from({ length: count }, (_, i) =>
    TaxRecords.SpotTaxRecord.make({
      id: String(prefix * 1_000_000 + i),
      coin: i % 3 === 0 ? "BTC" : "USDT",
      spotTaxType: "Buy",
      amount: BigDecimal.fromStringUnsafe(`${i}.000000001`),
      fee: BigDecimal.fromStringUnsafe("-0.1"),
      balance: BigDecimal.fromStringUnsafe("1000"),
      ts: DateTime.makeUnsafe(now - 120_000 - Math.floor((count - 1 - i) * (200 * DAY / count))),
      bizOrderId: Option.none()
    }))

/**
 * The tax endpoint over `data`, as the exchange answers: the window's records
 * below the cursor, newest first, at most `limit`. On call `stopAt` (counting
 * from 1) it never answers.
 */
const taxExchange = (data: ReadonlyArray<TaxRecords.SpotTaxRecord>, calls: Ref.Ref<number>, stopAt = Infinity) =>
  BitgetMock.layer(BitgetMock.on(TaxRecords.endpoint, (request) =>
    Effect.gen(function*() {
      const call = yield* Ref.updateAndGet(calls, (n) => n + 1)
      if (call >= stopAt) return yield* Effect.never
      const newestFirst = data.filter((record) =>
        !DateTime.isLessThan(record.ts, request.startTime) && !DateTime.isGreaterThan(record.ts, request.endTime) &&
        (request.idLessThan === undefined || BigInt(record.id) < BigInt(request.idLessThan)) &&
        (request.coin === undefined || record.coin === request.coin)
      ).sort((a, b) => (BigInt(b.id) > BigInt(a.id) ? 1 : -1))
      return newestFirst.slice(0, Number(request.limit ?? 100))
    })))

/** The ids of an account's tax rows, in order, and how many rows it has. */
const taxIds = (account: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient
    const rows = yield* sql<{ readonly id: string }>`
      SELECT id FROM bitget_tax_records WHERE account = ${account} ORDER BY id::numeric`
    return rows.map((row) => row.id)
  })

const idsOf = (data: ReadonlyArray<{ readonly id: string }>) =>
  data.map((record) => record.id).sort((a, b) => (BigInt(a) > BigInt(b) ? 1 : -1))

describe.skipIf(!available && process.env.CI !== "true")("Pipelines", () => {
  layer(postgres, { timeout: 60_000, excludeTestServices: true })((it) => {
    it.effect("a first sync leaves the data set; a second adds nothing and walks only the overlap", () =>
      Effect.gen(function*() {
        const data = taxData(1, 3_000)
        const calls = yield* Ref.make(0)
        const exchange = taxExchange(data, calls)
        const first = yield* Effect.provide(Pipelines.taxRecords({ account: "main" }), exchange)
        assert.strictEqual(first.mode, "first")
        assert.strictEqual(first.stream, "tax-records")
        assert.strictEqual(first.added, data.length)
        assert.deepStrictEqual([first.updated, first.unchanged], [0, 0])
        assert.deepStrictEqual(yield* taxIds("main"), idsOf(data))
        // one year back by default, to now
        const span = DateTime.toEpochMillis(first.range.end) - DateTime.toEpochMillis(first.range.start)
        assert.approximately(span, Pipelines.defaultHistoryDays.taxRecords * DAY, 60_000)
        const firstCalls = yield* Ref.get(calls)
        assert.strictEqual(first.pages, firstCalls, "one page per request")

        const second = yield* Effect.provide(Pipelines.taxRecords({ account: "main" }), exchange)
        const secondCalls = (yield* Ref.get(calls)) - firstCalls
        assert.strictEqual(second.mode, "incremental")
        assert.strictEqual(second.added, 0)
        assert.strictEqual(second.updated, 0)
        // the newest record (two minutes old) lies within the five minutes of overlap: read again, unchanged
        assert.strictEqual(second.unchanged, 1)
        assert.strictEqual(secondCalls, 1, "one request: the overlap is one window of one page")
        assert.deepStrictEqual(second.range.start, DateTime.subtract(first.range.end, Pipelines.overlap))
        assert.deepStrictEqual(yield* taxIds("main"), idsOf(data))
        // the stored range is the table's gapless range: from the first run's start to the second's end
        const state = Option.getOrThrow(yield* Sync.state({ account: "main", stream: "tax-records" }))
        assert.isTrue(state.complete)
        assert.deepStrictEqual(state.range, { start: first.range.start, end: second.range.end })
        yield* Effect.logInfo(
          `pipelines: first sync ${first.added} rows in ${first.pages} pages (${firstCalls} requests); ` +
            `second ${second.added} added, ${second.unchanged} unchanged, ${secondCalls} request`
        )

        // --full walks the whole range again, changing nothing
        const full = yield* Effect.provide(Pipelines.taxRecords({ account: "main", full: true }), exchange)
        assert.strictEqual(full.mode, "full")
        assert.deepStrictEqual([full.added, full.updated, full.unchanged], [0, 0, data.length])
      }).pipe(Effect.provide(migrated)))

    it.effect("a run stopped after some pages, run again, leaves every record once", () =>
      Effect.gen(function*() {
        const data = taxData(2, 3_000)
        const calls = yield* Ref.make(0)
        // the tenth request never answers: nine pages are committed (six empty windows of the year, three of the
        // data), then the run is interrupted
        const fiber = yield* Effect.forkChild(
          Effect.provide(Pipelines.taxRecords({ account: "main" }), taxExchange(data, calls, 10))
        )
        yield* Effect.repeat(Ref.get(calls), { until: (n) => n >= 10, schedule: Schedule.spaced("10 millis") })
        yield* Fiber.interrupt(fiber)
        const stopped = Option.getOrThrow(yield* Sync.state({ account: "main", stream: "tax-records" }))
        assert.isFalse(stopped.complete)
        const kept = yield* taxIds("main")
        assert.isAbove(kept.length, 0)
        assert.isBelow(kept.length, data.length)

        const again = yield* Effect.provide(Pipelines.taxRecords({ account: "main" }), taxExchange(data, calls))
        assert.strictEqual(again.mode, "resumed")
        assert.strictEqual(again.added, data.length - kept.length, "only the records not yet stored are added")
        assert.deepStrictEqual(yield* taxIds("main"), idsOf(data))
        // the resumed run walked the stopped run's range
        assert.deepStrictEqual(again.range.start, stopped.range.start)
        assert.isTrue(Option.getOrThrow(yield* Sync.state({ account: "main", stream: "tax-records" })).complete)
      }).pipe(Effect.provide(migrated)))

    it.effect("two accounts, each with its own client, sync at once into one database", () =>
      Effect.gen(function*() {
        const alice = taxData(3, 2_000)
        const bob = taxData(4, 1_500)
        const [a, b] = yield* Effect.all([
          Effect.provide(Pipelines.taxRecords({ account: "alice" }), taxExchange(alice, yield* Ref.make(0))),
          Effect.provide(Pipelines.taxRecords({ account: "bob" }), taxExchange(bob, yield* Ref.make(0)))
        ], { concurrency: 2 })
        assert.deepStrictEqual([a.added, b.added], [alice.length, bob.length])
        assert.deepStrictEqual(yield* taxIds("alice"), idsOf(alice))
        assert.deepStrictEqual(yield* taxIds("bob"), idsOf(bob))
      }).pipe(Effect.provide(migrated)))

    it.effect("filters name their own stream; a later --from than the stored end leaves a gap, and says so", () =>
      Effect.gen(function*() {
        const data = taxData(5, 600)
        const calls = yield* Ref.make(0)
        const exchange = taxExchange(data, calls)
        const btc = yield* Effect.provide(Pipelines.taxRecords({ account: "main", coin: "BTC" }), exchange)
        assert.strictEqual(btc.stream, "tax-records:coin=BTC")
        assert.strictEqual(btc.added, data.filter((record) => record.coin === "BTC").length)
        const end = DateTime.subtract(DateTime.makeUnsafe(now), { days: 100 })
        const older = yield* Effect.provide(Pipelines.taxRecords({ account: "main", endTime: end }), exchange)
        assert.strictEqual(older.mode, "first")
        // an end before the stored one less the overlap: nothing to walk
        const none = yield* Effect.provide(
          Pipelines.taxRecords({ account: "main", endTime: DateTime.subtract(end, { minutes: 10 }) }),
          exchange
        )
        assert.deepStrictEqual([none.mode, none.pages], ["incremental", 0])
        const later = DateTime.subtract(DateTime.makeUnsafe(now), { days: 10 })
        const gap = yield* Effect.provide(Pipelines.taxRecords({ account: "main", startTime: later }), exchange)
        assert.deepStrictEqual(gap.range.start, later)
        const state = Option.getOrThrow(yield* Sync.state({ account: "main", stream: "tax-records" }))
        assert.deepStrictEqual(state.range.start, later, "the table's gapless range starts after the gap")
      }).pipe(Effect.provide(migrated)))

    it.effect("futures orders: the exchange's 90 days without a start; P2P orders: a year", () =>
      Effect.gen(function*() {
        const order = (i: number) =>
          Schema.decodeUnknownSync(FuturesHistory.FuturesOrder)({
            ...Schema.encodeSync(FuturesHistory.FuturesOrder)(futuresOrder("1")),
            orderId: String(10_000 - i),
            cTime: String(now - i * DAY),
            uTime: String(now - i * DAY + 1)
          })
        const orders = Array.from({ length: 50 }, (_, i) => order(i * 2))
        const asked = yield* Ref.make<ReadonlyArray<FuturesHistory.FuturesHistoryRequest>>([])
        const futures = BitgetMock.layer(BitgetMock.on(FuturesHistory.endpoint, (request) =>
          Effect.as(
            Ref.update(asked, (all) => [...all, request]),
            FuturesHistory.FuturesHistoryPage.make({
              entrustedList: orders.filter((o) =>
                (request.idLessThan === undefined || BigInt(o.orderId) < BigInt(request.idLessThan)) &&
                // without a start, the exchange's own 90 days
                !DateTime.isLessThan(o.cTime, request.startTime ?? DateTime.makeUnsafe(Date.now() - 90 * DAY)) &&
                (request.endTime === undefined || !DateTime.isGreaterThan(o.cTime, request.endTime))
              ).sort((a, b) => Number(b.orderId) - Number(a.orderId)).slice(0, Number(request.limit ?? 100)),
              endId: Option.none()
            })
          )))
        const synced = yield* Effect.provide(
          Pipelines.futuresHistory({ account: "main", productType: "COIN-FUTURES", symbol: "BTCUSD" }),
          futures
        )
        assert.strictEqual(synced.stream, "futures-history:COIN-FUTURES:symbol=BTCUSD")
        // the orders of the last 90 days (every other day: 0, 2, ... 88), none older
        assert.strictEqual(synced.added, 45)
        const [first] = yield* Ref.get(asked)
        assert.strictEqual(first?.symbol, "BTCUSD")

        const p2p = BitgetMock.layer(BitgetMock.on(P2pOrders.endpoint, (request) =>
          request.status === "Completed"
            ? Effect.succeed(P2pOrders.P2pOrderPage.make({ orderList: [], minOrderId: Option.none() }))
            : Effect.fail(BitgetError.apiError({ endpoint: "p2p", code: "40015", msg: "maintenance" }))))
        const completed = yield* Effect.provide(Pipelines.p2pOrders({ account: "main", status: "Completed" }), p2p)
        assert.strictEqual(completed.stream, "p2p-orders:status=Completed")
        const span = DateTime.toEpochMillis(completed.range.end) - DateTime.toEpochMillis(completed.range.start)
        assert.approximately(span, Pipelines.defaultHistoryDays.p2pOrders * DAY, 60_000)
        const failed = yield* Effect.flip(Effect.provide(Pipelines.p2pOrders({ account: "main" }), p2p))
        assert.strictEqual(failed._tag, "BitgetApiError")
        assert.isTrue(Option.isNone(yield* Sync.state({ account: "main", stream: "p2p-orders" })), "nothing stored")
      }).pipe(Effect.provide(migrated)))
  })
})
