import { assert, describe, it } from "@effect/vitest"
import { DateTime, Effect, Fiber, Result, Stream } from "effect"
import { TestClock } from "effect/testing"
import * as FuturesHistory from "../src/FuturesHistory.js"
import * as P2pOrders from "../src/P2pOrders.js"
import { windows } from "../src/paging/paginate.js"
import * as Resumable from "../src/Resumable.js"
import * as TaxRecords from "../src/TaxRecords.js"
import type { Recorded, Reply } from "./support.js"
import { advance, credentials, day, exchange, fail, futuresOrder, ok, quiesce } from "./support.js"

const t0 = Date.UTC(2026, 0, 1)
const at = (millis: number) => DateTime.makeUnsafe(millis)

/** Records spread over `days`, newest first by id, as a server would hold them. */
const dataset = (count: number, days: number) =>
  Array.from({ length: count }, (_, i) => ({
    id: String(7_000_000_000_000_000_000n + BigInt(i)),
    ts: t0 + Math.floor((i * days * day) / count)
  }))

const taxRecord = (r: { id: string; ts: number }) => ({
  id: r.id,
  coin: "USDT",
  spotTaxType: "Buy",
  amount: "1",
  fee: "0",
  balance: "10",
  ts: String(r.ts)
})

/** Pages `records` the way the exchange does: window filter, `idLessThan`, newest first, `limit`. */
const pageOf = (records: ReadonlyArray<{ id: string; ts: number }>, request: Recorded, defaultLimit: number) => {
  const q = request.url.searchParams
  const start = Number(q.get("startTime") ?? 0)
  const end = Number(q.get("endTime") ?? Number.MAX_SAFE_INTEGER)
  const below = q.get("idLessThan")
  const limit = Number(q.get("limit") ?? defaultLimit)
  return records
    .filter((r) => r.ts >= start && r.ts <= end && (below === null || BigInt(r.id) < BigInt(below)))
    .sort((a, b) => (BigInt(b.id) > BigInt(a.id) ? 1 : -1))
    .slice(0, limit)
}

const options = { credentials }

/** The `[startTime, endTime]` of each request sent, in milliseconds. */
const sentWindows = (requests: ReadonlyArray<Recorded>) =>
  requests.map((request) => [
    Number(request.url.searchParams.get("startTime")),
    Number(request.url.searchParams.get("endTime"))
  ])

describe("windows", () => {
  it("splits a range into disjoint windows of at most the span, newest first or oldest first", () => {
    const range = { start: at(t0), end: at(t0 + 100 * day) }
    const lazy = windows(range, 30 * day, "newestFirst")
    const newest = Array.from({ length: lazy.length }, (_, i) => lazy.at(i)!)
      .map((w) => [DateTime.toEpochMillis(w.start), DateTime.toEpochMillis(w.end)])
    assert.strictEqual(newest.length, 4)
    assert.deepStrictEqual(newest[0], [t0 + 70 * day, t0 + 100 * day])
    assert.deepStrictEqual(newest[1], [t0 + 40 * day - 1, t0 + 70 * day - 1])
    assert.strictEqual(newest[3]![0], t0)
    for (let i = 1; i < newest.length; i++) assert.strictEqual(newest[i]![1], newest[i - 1]![0]! - 1)
    const oldest = windows(range, 30 * day, "oldestFirst")
    assert.strictEqual(DateTime.toEpochMillis(oldest.at(0)!.start), t0)
  })
})

/** A time after every range below: streams never ask past the exchange's clock. */
const later = t0 + 1000 * day

describe("TaxRecords.stream", () => {
  it.effect("walks a multi-window range page by page with no loss and no duplicates", () => {
    const records = dataset(2300, 75)
    const { layer, requests } = exchange((request) => ok(pageOf(records, request, 500).map(taxRecord)), options)
    return Effect.gen(function*() {
      yield* TestClock.setTime(later)
      const out = yield* Stream.runCollect(
        TaxRecords.stream({ startTime: at(t0), endTime: at(t0 + 75 * day), pageSize: 200 })
      )
      const ids = out.map((r) => r.id)
      assert.strictEqual(ids.length, 2300)
      assert.strictEqual(new Set(ids).size, 2300)
      for (const request of requests) {
        const q = request.url.searchParams
        assert.isAtMost(Number(q.get("endTime")) - Number(q.get("startTime")), 30 * day)
        assert.strictEqual(q.get("limit"), "200")
      }
      assert.isAbove(requests.length, 12)
    }).pipe(Effect.provide(layer))
  })

  it.effect("pages: the stream's records a page at a time, each with its checkpoint, only the last one done", () => {
    const records = dataset(700, 45)
    const { layer } = exchange((request) => ok(pageOf(records, request, 500).map(taxRecord)), options)
    return Effect.gen(function*() {
      yield* TestClock.setTime(later)
      const request = { startTime: at(t0), endTime: at(t0 + 45 * day), pageSize: 200, coin: "USDT" }
      const pages = yield* Stream.runCollect(TaxRecords.pages(request))
      const streamed = yield* Stream.runCollect(TaxRecords.stream(request))
      assert.deepStrictEqual(pages.flatMap((page) => page.records.map((r) => r.id)), streamed.map((r) => r.id))
      assert.strictEqual(streamed.length, 700)
      assert.isAbove(pages.length, 3)
      assert.deepStrictEqual(pages.map((page) => Resumable.isDone(page.checkpoint)), [
        ...pages.slice(1).map(() => false),
        true
      ])
      assert.strictEqual(pages[0]!.checkpoint.stream, "GET /api/v2/tax/spot-record coin=USDT")
    }).pipe(Effect.provide(layer))
  })

  it.effect("asks for windows of exactly 30 days, newest or oldest first", () => {
    const { layer, requests } = exchange(() => ok([]), options)
    return Effect.gen(function*() {
      yield* TestClock.setTime(later)
      const range = { startTime: at(t0), endTime: at(t0 + 65 * day) }
      yield* Stream.runDrain(TaxRecords.stream(range))
      const newestFirst = [
        [t0 + 35 * day, t0 + 65 * day],
        [t0 + 5 * day - 1, t0 + 35 * day - 1],
        [t0, t0 + 5 * day - 2]
      ]
      assert.deepStrictEqual(sentWindows(requests), newestFirst)
      requests.length = 0
      yield* Stream.runDrain(TaxRecords.stream({ ...range, order: "oldestFirst" }))
      assert.deepStrictEqual(sentWindows(requests), [...newestFirst].reverse())
    }).pipe(Effect.provide(layer))
  })

  it.effect("pulls pages lazily", () => {
    const records = dataset(2000, 20)
    const { layer, requests } = exchange((request) => ok(pageOf(records, request, 500).map(taxRecord)), options)
    return Effect.gen(function*() {
      yield* TestClock.setTime(later)
      yield* Stream.runCollect(Stream.take(TaxRecords.stream({ startTime: at(t0), endTime: at(t0 + 20 * day) }), 10))
      assert.strictEqual(requests.length, 1)
    }).pipe(Effect.provide(layer))
  })

  it.effect("stops on a cursor that does not move instead of looping", () => {
    const records = dataset(600, 1)
    // a server that ignores idLessThan answers the same full page forever
    const { layer, requests } = exchange(() => ok(records.slice(0, 500).map(taxRecord)), options)
    return Effect.gen(function*() {
      yield* TestClock.setTime(later)
      const out = yield* Stream.runCollect(TaxRecords.stream({ startTime: at(t0), endTime: at(t0 + day) }))
      assert.strictEqual(out.length, 500)
      assert.strictEqual(requests.length, 2)
    }).pipe(Effect.provide(layer))
  })

  it.effect("treats a cursor that is not a numeric id as stalled, never as a defect", () => {
    const records = dataset(2, 1).map((r, i) => ({ ...r, id: i === 0 ? "abc" : "x-1" }))
    const { layer, requests } = exchange(() => ok(records.map(taxRecord)), options)
    return Effect.gen(function*() {
      yield* TestClock.setTime(later)
      const out = yield* Stream.runCollect(
        TaxRecords.stream({ startTime: at(t0), endTime: at(t0 + day), pageSize: 2 })
      )
      // the full page's cursor "x-1" is not sent back; the window narrows before the page instead
      assert.strictEqual(out.length, 2)
      assert.isTrue(requests.every((request) => request.url.searchParams.get("idLessThan") === null))
    }).pipe(Effect.provide(layer))
  })

  it.effect("walks on before a timestamp the cursor stalls at, keeping every older record", () => {
    const burstTime = t0 + 5 * day
    const burst = Array.from({ length: 700 }, (_, i) => ({ id: String(9_000_000 + i), ts: burstTime }))
    const older = Array.from({ length: 300 }, (_, i) => ({ id: String(1_000_000 + i), ts: t0 + i * 1000 }))
    const all = [...burst, ...older]
    // the reported defect: idLessThan resolves to the cursor's timestamp, inclusive
    const { layer, requests } = exchange((request) => {
      const q = request.url.searchParams
      const end = Number(q.get("endTime"))
      const below = q.get("idLessThan")
      const cursorTime = below === null ? end : all.find((r) => r.id === below)!.ts
      return ok(
        all.filter((r) => r.ts >= Number(q.get("startTime")) && r.ts <= Math.min(end, cursorTime))
          .sort((a, b) => (BigInt(b.id) > BigInt(a.id) ? 1 : -1))
          .slice(0, 500)
          .map(taxRecord)
      )
    }, options)
    return Effect.gen(function*() {
      yield* TestClock.setTime(later)
      const out = yield* Stream.runCollect(TaxRecords.stream({ startTime: at(t0), endTime: at(t0 + 10 * day) }))
      const ids = new Set(out.map((r) => r.id))
      assert.strictEqual(ids.size, out.length)
      assert.strictEqual(out.length, 800)
      assert.isTrue(older.every((r) => ids.has(r.id)))
      assert.strictEqual(requests.length, 3)
      assert.strictEqual(Number(requests[2]!.url.searchParams.get("endTime")), burstTime - 1)
    }).pipe(Effect.provide(layer))
  })

  it.effect("skips empty windows and drops a record repeated at a window edge", () => {
    const edge = { id: "5000", ts: t0 + 40 * day }
    const { layer } = exchange((request) => {
      const start = Number(request.url.searchParams.get("startTime"))
      // both windows around the edge return the edge record; one window is empty
      if (start >= t0 + 40 * day) return ok([taxRecord({ id: "6000", ts: t0 + 50 * day }), taxRecord(edge)])
      if (start >= t0 + 10 * day - 1) return ok([taxRecord(edge), taxRecord({ id: "4000", ts: t0 + 20 * day })])
      return ok([])
    }, options)
    return Effect.gen(function*() {
      yield* TestClock.setTime(later)
      const out = yield* Stream.runCollect(TaxRecords.stream({ startTime: at(t0), endTime: at(t0 + 70 * day) }))
      assert.deepStrictEqual(out.map((r) => r.id), ["6000", "5000", "4000"])
    }).pipe(Effect.provide(layer))
  })

  it.effect("fails with a typed error mid-way, after emitting earlier pages exactly once", () => {
    const records = dataset(1500, 10)
    let calls = 0
    const { layer } = exchange(
      (request): Reply =>
        ++calls === 3 ? fail(400, "40009", "sign signature error") : ok(pageOf(records, request, 500).map(taxRecord)),
      options
    )
    return Effect.gen(function*() {
      yield* TestClock.setTime(later)
      const seen: Array<string> = []
      const result = yield* Effect.result(Stream.runForEach(
        TaxRecords.stream({ startTime: at(t0), endTime: at(t0 + 10 * day) }),
        (r) => Effect.sync(() => seen.push(r.id))
      ))
      assert.isTrue(Result.isFailure(result) && result.failure._tag === "BitgetApiError")
      assert.strictEqual(seen.length, 1000)
      assert.strictEqual(new Set(seen).size, 1000)
    }).pipe(Effect.provide(layer))
  })

  it.effect("refuses a range whose start is after its end, sending nothing", () => {
    const { layer, requests } = exchange(() => ok([]), options)
    return Effect.gen(function*() {
      yield* TestClock.setTime(later)
      const error = yield* Effect.flip(
        Stream.runCollect(TaxRecords.stream({ startTime: at(t0 + day), endTime: at(t0) }))
      )
      assert.strictEqual(error._tag, "BitgetRequestError")
      assert.strictEqual(requests.length, 0)
    }).pipe(Effect.provide(layer))
  })

  it.effect("waits for the 1/s limit between pages when the limiter is on", () => {
    const records = dataset(1500, 5)
    const { layer, requests } = exchange((request) => ok(pageOf(records, request, 500).map(taxRecord)), {
      credentials,
      rateLimit: {}
    })
    return Effect.gen(function*() {
      yield* TestClock.setTime(later)
      const fiber = yield* Effect.forkChild(
        Stream.runCollect(TaxRecords.stream({ startTime: at(t0), endTime: at(t0 + 5 * day) }))
      )
      yield* quiesce
      yield* TestClock.adjust("1001 millis")
      assert.strictEqual(requests.length, 1)
      yield* TestClock.adjust("1 millis")
      assert.strictEqual(requests.length, 2)
      yield* advance("5 seconds")
      assert.strictEqual((yield* Fiber.await(fiber))._tag, "Success")
      assert.strictEqual(requests.length, 4)
    }).pipe(Effect.provide(layer))
  })
})

describe("P2pOrders.stream", () => {
  const order = (r: { id: string; ts: number }) => ({
    orderId: r.id,
    orderNo: `N${r.id}`,
    advNo: "A1",
    side: "buy",
    count: "1",
    coin: "USDT",
    price: "7.1",
    fiat: "CNY",
    withdrawTime: "",
    representTime: "",
    releaseTime: "",
    paymentTime: "",
    amount: "7.1",
    status: "completed",
    buyerRealName: "",
    sellerRealName: "",
    ctime: String(r.ts),
    utime: String(r.ts),
    paymentInfo: null
  })

  it.effect("pages by minOrderId across 90-day windows", () => {
    const records = dataset(1234, 200)
    const { layer, requests } = exchange((request) => {
      const page = pageOf(records, request, 100)
      return ok({ orderList: page.map(order), minOrderId: page.at(-1)?.id ?? "" })
    }, options)
    return Effect.gen(function*() {
      yield* TestClock.setTime(later)
      const out = yield* Stream.runCollect(
        P2pOrders.stream({ startTime: at(t0), endTime: at(t0 + 200 * day), coin: "USDT" })
      )
      assert.strictEqual(new Set(out.map((o) => o.orderId)).size, 1234)
      assert.strictEqual(out.length, 1234)
      assert.isTrue(requests.every((r) => r.url.searchParams.get("coin") === "USDT"))
      assert.isAtLeast(requests.length, 13)
    }).pipe(Effect.provide(layer))
  })

  it.effect("asks for windows of exactly 90 days", () => {
    const { layer, requests } = exchange(() => ok({ orderList: [], minOrderId: "" }), options)
    return Effect.gen(function*() {
      yield* TestClock.setTime(later)
      yield* Stream.runDrain(P2pOrders.stream({ startTime: at(t0), endTime: at(t0 + 200 * day) }))
      assert.deepStrictEqual(sentWindows(requests), [
        [t0 + 110 * day, t0 + 200 * day],
        [t0 + 20 * day - 1, t0 + 110 * day - 1],
        [t0, t0 + 20 * day - 2]
      ])
    }).pipe(Effect.provide(layer))
  })
})

describe("FuturesHistory.stream", () => {
  it.effect("asks for the exchange's own 90 days by default and stops at the end-of-data shape", () => {
    const now = t0 + 400 * day
    const records = dataset(450, 400)
    const { layer, requests } = exchange((request) => {
      // the exchange keeps 90 days by its own clock
      const q = request.url.searchParams
      const horizon = q.get("startTime") === null ? now - 90 * day : Number(q.get("startTime"))
      const page = pageOf(records.filter((r) => r.ts >= horizon), request, 100)
      return page.length === 0
        ? ok({ entrustedList: null, endId: null })
        : ok({ entrustedList: page.map(futuresOrder), endId: page.at(-1)!.id })
    }, options)
    return Effect.gen(function*() {
      yield* TestClock.setTime(now)
      const out = yield* Stream.runCollect(FuturesHistory.stream({ productType: "USDT-FUTURES" }))
      assert.strictEqual(out.length, records.filter((r) => r.ts >= now - 90 * day).length)
      assert.isNull(requests[0]!.url.searchParams.get("startTime"))
      assert.isNull(requests[0]!.url.searchParams.get("endTime"))
    }).pipe(Effect.provide(layer))
  })

  it.effect("clamps an older start to the last 90 days (plus a minute of grace)", () => {
    const now = t0 + 400 * day
    const { layer, requests } = exchange(() => ok({ entrustedList: [], endId: "" }), options)
    return Effect.gen(function*() {
      yield* TestClock.setTime(now)
      yield* Stream.runCollect(FuturesHistory.stream({ productType: "USDT-FUTURES", startTime: at(t0) }))
      assert.strictEqual(Number(requests[0]!.url.searchParams.get("startTime")), now - 90 * day + 60_000)
      assert.strictEqual(Number(requests[0]!.url.searchParams.get("endTime")), now)
    }).pipe(Effect.provide(layer))
  })

  it.effect("refuses a range that ends before those 90 days, with or without a start, sending nothing", () => {
    const now = t0 + 400 * day
    const { layer, requests } = exchange(() => ok({ entrustedList: [], endId: "" }), options)
    return Effect.gen(function*() {
      yield* TestClock.setTime(now)
      const refused = (request: FuturesHistory.FuturesHistoryStreamRequest) =>
        Effect.map(Effect.flip(Stream.runDrain(FuturesHistory.stream(request))), (error) => error.message)
      const ranged = yield* refused({ productType: "USDT-FUTURES", startTime: at(t0), endTime: at(t0 + day) })
      assert.include(
        ranged,
        `the range [${DateTime.formatIso(at(t0))}, ${DateTime.formatIso(at(t0 + day))}] ends before`
      )
      assert.include(ranged, "the exchange keeps 90 days of futures history, so it can hold no record")
      const refusedPages = yield* Effect.flip(
        Stream.runDrain(FuturesHistory.pages({ productType: "USDT-FUTURES", startTime: at(t0), endTime: at(t0 + day) }))
      )
      assert.strictEqual(refusedPages.message, ranged, "pages refuses as the stream does")
      const endOnly = yield* refused({ productType: "USDT-FUTURES", endTime: at(t0 + day) })
      assert.include(endOnly, `the range up to ${DateTime.formatIso(at(t0 + day))} ends before`)
      assert.strictEqual(requests.length, 0)
    }).pipe(Effect.provide(layer))
  })
})
