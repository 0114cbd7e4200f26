/**
 * Shapes: under `varied` the sandbox sends every shape the live exchange
 * sends (drawn from the seed, per answer or per record), so one run meets
 * each; under `canonical` it sends one fixed shape, the doc example's.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import * as Dataset from "../src/Dataset.js"
import * as Sandbox from "../src/Sandbox.js"
import type { Shapes } from "../src/Shapes.js"
import type { Reply } from "./support.js"
import { code, data, paths, publicGet, signedGet, signedPost } from "./support.js"

const sizes = { symbols: 200, futuresOrders: 1_000 }

/** Answers drawn per route: enough that a 50/50 draw shows both sides. */
const ANSWERS = 40

/** A sandbox of a shape mode for the test's scope (the RPI book open to every caller). */
const start = (shapes: Shapes, anchor?: number) =>
  Sandbox.make({ seed: 3, shapes, limits: false, rpiOpen: true, sizes, ...(anchor === undefined ? {} : { anchor }) })

/** An effect run `n` times, one after another. */
const times = <A, E, R>(n: number, effect: Effect.Effect<A, E, R>) =>
  Effect.forEach(Array.from({ length: n }), () => effect)

/** The calls of the routes whose shapes vary. */
const calls = (sandbox: Sandbox.Sandbox.Service) => ({
  futures: signedGet(sandbox, sandbox.credentials.hmac, paths.futures, [["productType", "USDT-FUTURES"]]),
  /** A batch of two orders that do not exist: every item fails. */
  cancelUnknown: signedPost(sandbox, sandbox.credentials.hmac, paths.batchCancel, {
    symbol: "BTCUSDT",
    orderList: [{ orderId: "1234567890123456789" }, { orderId: "1234567890123456788" }]
  }),
  rpi: publicGet(sandbox, paths.rpi, [["category", "SPOT"], ["symbol", "BTCUSDT"], ["limit", "10"]]),
  symbols: publicGet(sandbox, paths.symbols),
  time: publicGet(sandbox, paths.time),
  tradeRate: signedGet(sandbox, sandbox.credentials.hmac, paths.tradeRate, [["businessType", "spot"]])
})

/** The JSON types of the replies' `requestTime`. */
const requestTimeTypes = (replies: ReadonlyArray<Reply>): ReadonlyArray<string> =>
  [...new Set(replies.map((reply) => typeof reply.json?.requestTime))].sort()

interface Book {
  readonly a: ReadonlyArray<ReadonlyArray<unknown>>
  readonly b: ReadonlyArray<ReadonlyArray<unknown>>
  readonly ts: string
}

/** The JSON types of the values of a book's levels. */
const levelTypes = (reply: Reply): ReadonlyArray<string> => {
  const book = data<Book>(reply)
  return [...new Set([...book.a, ...book.b].flatMap((level) => level.map((value) => typeof value)))].sort()
}

interface FailureItem {
  readonly orderId: string
  readonly clientOid: string
  readonly errorMsg: string
  readonly errorCode?: string
}

interface CancelResult {
  readonly successList: ReadonlyArray<unknown>
  readonly failureList: ReadonlyArray<FailureItem>
}

/** The keys older symbol records lack. */
const newerSymbolKeys = [
  "areaSymbol",
  "orderQuantity",
  "openTime",
  "offTime",
  "maxLimitOrderValue",
  "maxMarketOrderValue"
]

const decimal = /^\d+(\.\d+)?$/

describe("shapes", () => {
  it.effect("requestTime: a string on some answers of orders-history, batch cancel and the RPI book, else a number", () =>
    Effect.scoped(Effect.gen(function*() {
      for (const shapes of ["varied", "canonical"] as const) {
        const sandbox = yield* start(shapes)
        const call = calls(sandbox)
        for (const route of ["futures", "cancelUnknown", "rpi"] as const) {
          const replies = yield* times(ANSWERS, call[route])
          const expected = shapes === "varied" ? ["number", "string"] : ["number"]
          assert.deepStrictEqual(requestTimeTypes(replies), expected, `${shapes} ${route}`)
          for (const reply of replies) {
            assert.match(String(reply.json?.requestTime), /^\d{13}$/, `${shapes} ${route}: server time in ms`)
          }
        }
        for (const route of ["symbols", "time", "tradeRate"] as const) {
          const replies = yield* times(ANSWERS / 4, call[route])
          assert.deepStrictEqual(requestTimeTypes(replies), ["number"], `${shapes} ${route}`)
        }
      }
    })))

  it.effect("futures history: market orders have price \"\"; posAvg is left out of some records under varied", () =>
    Effect.scoped(Effect.gen(function*() {
      for (const shapes of ["varied", "canonical"] as const) {
        const sandbox = yield* start(shapes)
        const orders = Dataset.make(sandbox).futuresOrders(sandbox.credentials.hmac.apiKey, "USDT-FUTURES")
        const market = orders.filter((o) => o.orderType === "market")
        assert.isAbove(market.length, 100)
        assert.isTrue(market.every((o) => o.price === ""), `${shapes}: a market order has no price`)
        assert.isTrue(orders.every((o) => o.orderType === "market" || decimal.test(o.price)), shapes)
        const withPosAvg = orders.filter((o) => "posAvg" in o)
        assert.isTrue(withPosAvg.every((o) => o.posAvg === "" || decimal.test(o.posAvg ?? "")), shapes)
        if (shapes === "varied") {
          assert.isAbove(withPosAvg.length, orders.length * 0.3, "varied: posAvg present on some records")
          assert.isBelow(withPosAvg.length, orders.length * 0.7, "varied: posAvg left out of others")
        } else {
          assert.strictEqual(withPosAvg.length, orders.length, "canonical: posAvg on every record")
        }
        // the server serves exactly the dataset's records, the absent keys included
        const page = data<{ entrustedList: ReadonlyArray<unknown> }>(yield* calls(sandbox).futures)
        assert.deepStrictEqual(page.entrustedList, orders.slice(0, 100))
      }
    })))

  it.effect("futures history: a hedge-mode close names the position's side and is reduce-only; one-way unchanged", () =>
    Effect.scoped(Effect.gen(function*() {
      const sandbox = yield* start("varied")
      const dataset = Dataset.make(sandbox)
      const apiKey = sandbox.credentials.hmac.apiKey
      const hedge = dataset.futuresOrders(apiKey, "USDT-FUTURES")
      assert.isTrue(hedge.every((o) => o.posMode === "hedge_mode"))
      for (const o of hedge) {
        const at = `${o.orderId} ${o.posSide} ${o.tradeSide}`
        assert.strictEqual(o.side, o.posSide === "long" ? "buy" : "sell", at)
        if ("reduceOnly" in o) assert.strictEqual(o.reduceOnly, o.tradeSide === "open" ? "NO" : "YES", at)
      }
      const closes = hedge.filter((o) => o.tradeSide === "close").map((o) => `${o.side} ${o.posSide}`)
      assert.includeMembers(closes, ["buy long", "sell short"], "closes of longs (buy) and of shorts (sell)")

      const oneWay = dataset.futuresOrders(apiKey, "COIN-FUTURES")
      assert.isTrue(oneWay.every((o) => o.posMode === "one_way_mode" && o.posSide === "net"))
      for (const o of oneWay) {
        const at = `${o.orderId} ${o.side} ${o.tradeSide}`
        assert.oneOf(o.tradeSide, [`${o.side}_single`, `reduce_${o.side}_single`, `burst_${o.side}_single`], at)
        if ("reduceOnly" in o) assert.strictEqual(o.reduceOnly, o.tradeSide === `${o.side}_single` ? "NO" : "YES", at)
      }
      assert.includeMembers(oneWay.map((o) => o.tradeSide), ["reduce_buy_single", "reduce_sell_single"])
    })))

  it.effect("futures history: reduceOnly left out of some records and the end of data in both forms under varied", () =>
    Effect.scoped(Effect.gen(function*() {
      for (const shapes of ["varied", "canonical"] as const) {
        const sandbox = yield* start(shapes)
        const orders = Dataset.make(sandbox).futuresOrders(sandbox.credentials.hmac.apiKey, "USDT-FUTURES")
        const withReduceOnly = orders.filter((o) => "reduceOnly" in o).length
        if (shapes === "varied") {
          assert.isAbove(withReduceOnly, orders.length * 0.7, "varied: reduceOnly on most records")
          assert.isBelow(withReduceOnly, orders.length * 0.9, "varied: left out of some, as in the doc example")
        } else {
          assert.strictEqual(withReduceOnly, orders.length, "canonical: reduceOnly on every record")
        }
        const past = signedGet(sandbox, sandbox.credentials.hmac, paths.futures, [
          ["productType", "USDT-FUTURES"],
          ["idLessThan", "1000000000000000000"]
        ])
        const ends = (yield* times(ANSWERS / 2, past)).map((reply) => JSON.stringify(data(reply)))
        const expected = shapes === "varied"
          ? ["{\"entrustedList\":[],\"endId\":\"\"}", "{\"entrustedList\":null,\"endId\":null}"]
          : ["{\"entrustedList\":null,\"endId\":null}"]
        assert.deepStrictEqual([...new Set(ends)].sort(), expected, `${shapes}: the end of data`)
      }
    })))

  it.effect("symbols: the order value caps; under varied some records in the older shape, without six keys", () =>
    Effect.scoped(Effect.gen(function*() {
      for (const shapes of ["varied", "canonical"] as const) {
        const sandbox = yield* start(shapes)
        const served = data<ReadonlyArray<Readonly<Record<string, string>>>>(yield* calls(sandbox).symbols)
        assert.deepStrictEqual(served, Dataset.make(sandbox).symbols, `${shapes}: the dataset's records`)
        const older = served.filter((s) => newerSymbolKeys.every((key) => !(key in s)))
        const newer = served.filter((s) => newerSymbolKeys.every((key) => key in s))
        assert.strictEqual(older.length + newer.length, served.length, `${shapes}: each record wholly of one shape`)
        if (shapes === "varied") {
          assert.isAbove(older.length, served.length * 0.15, "varied: some records in the older shape")
          assert.isAbove(newer.length, served.length * 0.5, "varied: most in the current one")
        } else {
          assert.strictEqual(older.length, 0, "canonical: the current shape only")
        }
        for (const s of newer) {
          const at = `${shapes} ${s.symbol}`
          assert.match(s.maxLimitOrderValue ?? "", decimal, at)
          assert.match(s.maxMarketOrderValue ?? "", decimal, at)
          assert.isAbove(Number(s.maxMarketOrderValue), 0, at)
          assert.isAtLeast(Number(s.maxLimitOrderValue), Number(s.maxMarketOrderValue), at)
          assert.match(s.openTime ?? "", /^\d{13}$/, at)
          if (s.status === "online") assert.strictEqual(s.offTime, "", at)
          else assert.match(s.offTime ?? "", /^(\d{13})?$/, at)
        }
      }
    })))

  it.effect("batch cancel: failure items with or without errorCode; an all-failed batch refused (43001) or listed", () =>
    Effect.scoped(Effect.gen(function*() {
      for (const shapes of ["varied", "canonical"] as const) {
        const sandbox = yield* start(shapes)
        const replies = yield* times(ANSWERS, calls(sandbox).cancelUnknown)
        const refused = replies.filter((reply) => reply.status === 400)
        const listed = replies.filter((reply) => reply.status === 200)
        assert.strictEqual(refused.length + listed.length, replies.length)
        assert.isTrue(refused.every((reply) => code(reply) === "43001" && reply.json?.data === null), shapes)
        const withCode: Array<boolean> = []
        for (const reply of listed) {
          assert.strictEqual(code(reply), "00000")
          const { failureList, successList } = data<CancelResult>(reply)
          assert.deepStrictEqual(successList, [])
          assert.deepStrictEqual(failureList.map((f) => [f.orderId, f.clientOid, f.errorMsg]), [
            ["1234567890123456789", "", "The order does not exist"],
            ["1234567890123456788", "", "The order does not exist"]
          ])
          const coded = failureList.map((f) => f.errorCode)
          assert.oneOf(JSON.stringify(coded), [
            JSON.stringify(["43001", "43001"]),
            JSON.stringify([undefined, undefined])
          ])
          withCode.push(coded[0] === "43001")
        }
        if (shapes === "varied") {
          assert.isAbove(refused.length, 0, "varied: some refused with a top-level 43001")
          assert.isAbove(listed.length, 0, "varied: some answered 00000 with every item failed")
          assert.deepStrictEqual([...new Set(withCode)].sort(), [false, true], "varied: errorCode present or not")
        } else {
          assert.strictEqual(listed.length, replies.length, "canonical: 00000 with every item in failureList")
          assert.isTrue(withCode.every(Boolean), "canonical: errorCode on every failure item")
        }
      }
    })))

  it.effect("RPI book: levels as strings, or under varied as JSON numbers, per answer", () =>
    Effect.scoped(Effect.gen(function*() {
      for (const shapes of ["varied", "canonical"] as const) {
        const sandbox = yield* start(shapes)
        const replies = yield* times(ANSWERS, calls(sandbox).rpi)
        const kinds = replies.map(levelTypes)
        assert.isTrue(kinds.every((kind) => kind.length === 1), `${shapes}: one type per answer`)
        const books = replies.map((reply) => data<Book>(reply))
        assert.isTrue(books.every((book) => book.a.length === 10 && typeof book.ts === "string"), shapes)
        for (const book of books) {
          const asks = book.a.map((level) => Number(level[0]))
          assert.isTrue(
            asks.every((price, i) => price > 0 && (i === 0 || price > (asks[i - 1] ?? 0))),
            "asks ascending"
          )
        }
        assert.deepStrictEqual(
          [...new Set(kinds.flat())].sort(),
          shapes === "varied" ? ["number", "string"] : ["string"],
          shapes
        )
      }
    })))

  it.effect("is deterministic: the same seed, anchor and shapes answer the same, again after a reset", () =>
    Effect.scoped(Effect.gen(function*() {
      const anchor = Math.floor(Date.now() / 60_000) * 60_000
      /** What a run of calls answers: statuses, codes and requestTime types, the data (book levels by type). */
      const run = (sandbox: Sandbox.Sandbox.Service) =>
        Effect.gen(function*() {
          const call = calls(sandbox)
          const replies = [
            yield* call.symbols,
            ...(yield* times(10, call.futures)),
            ...(yield* times(10, call.cancelUnknown)),
            ...(yield* times(10, call.rpi))
          ]
          return replies.map((reply, i) => [
            reply.status,
            code(reply),
            typeof reply.json?.requestTime,
            i > 20 ? levelTypes(reply) : reply.json?.data
          ])
        })
      const first = yield* start("varied", anchor)
      const a = yield* run(first)
      const b = yield* run(yield* start("varied", anchor))
      yield* first.reset
      const again = yield* run(first)
      assert.deepStrictEqual(a, b)
      assert.deepStrictEqual(again, a)
      assert.notDeepEqual(yield* run(yield* start("canonical", anchor)), a)
    })))
})
