/**
 * The open walk of a kept history (`paging/keptHistory.ts`, behind
 * `FuturesHistory.stream` and `pages` without a `startTime`): the exchange's
 * own 90 days as one window, no time sent but an end the caller set, a
 * stalled cursor narrowed, or a checkpoint holds (an end goes with the kept
 * days' start, as one page completes it). Resumed, the checkpoint's range
 * wins over the request's: an end the request names is not checked, the
 * checkpoint's is, by the page, before sending.
 */
import { assert, describe, it } from "@effect/vitest"
import { DateTime, Effect, Stream } from "effect"
import { TestClock } from "effect/testing"
import { BitgetRequestError } from "../src/BitgetError.js"
import * as FuturesHistory from "../src/FuturesHistory.js"
import * as Resumable from "../src/Resumable.js"
import type { Recorded } from "./support.js"
import { credentials, day, exchange, futuresOrder, ok } from "./support.js"

const at = (millis: number) => DateTime.makeUnsafe(millis)

/** The exchange's clock when the walks below start. */
const now0 = Date.UTC(2026, 3, 1)

interface Held {
  readonly id: string
  readonly ts: number
}

/** 250 orders over the 50 days up to 10 days before `now0`, ids rising with time. */
const held: ReadonlyArray<Held> = Array.from({ length: 250 }, (_, i) => ({
  id: String(7_000_000_000_000_000_000n + BigInt(i)),
  ts: now0 - 60 * day + i * (day / 5)
}))

/** The ids of `records`, newest first (the exchange's order). */
const newestFirst = (records: ReadonlyArray<Held>) => records.map((r) => r.id).reverse()

/**
 * The futures history as the exchange serves it: the last 90 days by its own
 * clock (`clock.now`) unless a `startTime` is sent, up to `endTime`, below
 * `idLessThan` (unless it ignores the cursor), newest first, `limit` a page.
 */
const futuresExchange = (clock: { now: number }, ignoresCursor = false) =>
  exchange((request) => {
    const q = request.url.searchParams
    const start = q.get("startTime") === null ? clock.now - 90 * day : Number(q.get("startTime"))
    const end = Number(q.get("endTime") ?? clock.now)
    const below = ignoresCursor ? null : q.get("idLessThan")
    const page = held
      .filter((r) => r.ts >= start && r.ts <= end && (below === null || BigInt(r.id) < BigInt(below)))
      .reverse()
      .slice(0, Number(q.get("limit")))
    return page.length === 0
      ? ok({ entrustedList: null, endId: null })
      : ok({ entrustedList: page.map(futuresOrder), endId: page.at(-1)!.id })
  }, { credentials })

/** A query parameter of each request, `null` where it was not sent. */
const sent = (requests: ReadonlyArray<Recorded>, name: string) =>
  requests.map((request) => request.url.searchParams.get(name))

/** The start sent with an end at `now`: the oldest time kept, plus a minute of grace. */
const keptFrom = (now: number) => String(now - 90 * day + 60_000)

/** The orders' ids of a stream. */
const idsOf = (orders: Iterable<FuturesHistory.FuturesOrder>) => Array.from(orders, (order) => order.orderId)

/** The first page of a walk and the checkpoint after it, through its JSON text as a caller stores it. */
const firstPage = (request: FuturesHistory.FuturesHistoryStreamRequest) =>
  Effect.map(Stream.runCollect(Stream.take(FuturesHistory.pages(request), 1)), (pages) => ({
    ids: idsOf(pages[0]!.records),
    checkpoint: Resumable.decodeJson(Resumable.encodeJson(pages[0]!.checkpoint))
  }))

const productType = "USDT-FUTURES"

describe("FuturesHistory.stream, open (no startTime)", () => {
  it.effect("sends no time until a stalled cursor narrows the window, then that end on every page", () => {
    const { layer, requests } = futuresExchange({ now: now0 }, true)
    return Effect.gen(function*() {
      yield* TestClock.setTime(now0)
      const out = idsOf(yield* Stream.runCollect(FuturesHistory.stream({ productType })))
      assert.deepStrictEqual(out, newestFirst(held), "every order once, newest first")
      // the exchange answers the same page for any cursor: each repeat narrows the window before its oldest order
      assert.deepStrictEqual(sent(requests, "idLessThan"), [null, held[150]!.id, null, held[50]!.id, null])
      assert.deepStrictEqual(sent(requests, "endTime"), [
        null,
        null,
        String(held[150]!.ts - 1),
        String(held[150]!.ts - 1),
        String(held[50]!.ts - 1)
      ])
      // an end sent goes with the start of the kept days, completed as one page is
      assert.deepStrictEqual(sent(requests, "startTime"), [null, null, keptFrom(now0), keptFrom(now0), keptFrom(now0)])
    }).pipe(Effect.provide(layer))
  })

  it.effect("sends the end the caller set on every page, and only the orders up to it", () => {
    const endTime = now0 - 30 * day
    const { layer, requests } = futuresExchange({ now: now0 })
    return Effect.gen(function*() {
      yield* TestClock.setTime(now0)
      const out = idsOf(
        yield* Stream.runCollect(FuturesHistory.stream({ productType, endTime: at(endTime), pageSize: 40 }))
      )
      assert.deepStrictEqual(out, newestFirst(held.filter((r) => r.ts <= endTime)))
      assert.strictEqual(requests.length, 4)
      assert.deepStrictEqual(sent(requests, "endTime"), requests.map(() => String(endTime)))
      assert.deepStrictEqual(sent(requests, "startTime"), requests.map(() => keptFrom(now0)))
    }).pipe(Effect.provide(layer))
  })

  it.effect("resumed, goes on after the checkpoint sending its window's end on every page", () => {
    const { layer, requests } = futuresExchange({ now: now0 })
    return Effect.gen(function*() {
      yield* TestClock.setTime(now0)
      const first = yield* firstPage({ productType })
      assert.deepStrictEqual(first.ids, newestFirst(held).slice(0, 100))
      assert.deepStrictEqual(sent(requests, "endTime"), [null], "a fresh open walk sends no time")
      // resumed at once: the checkpoint's end is the exchange's clock, and still sent
      const rest = idsOf(yield* Stream.runCollect(FuturesHistory.stream({ productType, resume: first.checkpoint })))
      assert.deepStrictEqual([...first.ids, ...rest], newestFirst(held), "every order once")
      const resumed = requests.slice(1)
      assert.deepStrictEqual(sent(resumed, "idLessThan"), [held[150]!.id, held[50]!.id])
      assert.deepStrictEqual(sent(resumed, "endTime"), [String(now0), String(now0)])
      assert.deepStrictEqual(sent(requests, "startTime"), [null, keptFrom(now0), keptFrom(now0)])
    }).pipe(Effect.provide(layer))
  })

  it.effect("resumed days later, asks up to the checkpoint's end, not the exchange's new now", () => {
    const clock = { now: now0 }
    const { layer, requests } = futuresExchange(clock)
    return Effect.gen(function*() {
      yield* TestClock.setTime(now0)
      const first = yield* firstPage({ productType, pageSize: 80 })
      clock.now = now0 + 3 * day
      yield* TestClock.setTime(clock.now)
      const rest = yield* Stream.runCollect(
        FuturesHistory.pages({ productType, pageSize: 80, resume: first.checkpoint })
      )
      assert.deepStrictEqual([...first.ids, ...rest.flatMap((page) => idsOf(page.records))], newestFirst(held))
      assert.deepStrictEqual(sent(requests.slice(1), "endTime"), [String(now0), String(now0), String(now0)])
      // the start sent is the exchange's kept days now, plus the grace minute
      assert.deepStrictEqual(sent(requests.slice(1), "startTime"), requests.slice(1).map(() => keptFrom(clock.now)))
      assert.isTrue(Resumable.isDone(rest.at(-1)!.checkpoint))
    }).pipe(Effect.provide(layer))
  })

  it.effect("resumed, takes the checkpoint's range over the request's, even an end before the kept days", () => {
    const { layer, requests } = futuresExchange({ now: now0 })
    return Effect.gen(function*() {
      yield* TestClock.setTime(now0)
      const first = yield* firstPage({ productType })
      // a fresh walk to that end is refused; the checkpoint's walk goes on to its own end
      const endTime = at(now0 - 100 * day)
      const refused = yield* Effect.flip(Stream.runDrain(FuturesHistory.stream({ productType, endTime })))
      assert.include(refused.message, `the range up to ${DateTime.formatIso(endTime)} ends before`)
      const rest = idsOf(
        yield* Stream.runCollect(FuturesHistory.stream({ productType, endTime, resume: first.checkpoint }))
      )
      assert.deepStrictEqual([...first.ids, ...rest], newestFirst(held))
      assert.deepStrictEqual(sent(requests.slice(1), "endTime"), [String(now0), String(now0)])
    }).pipe(Effect.provide(layer))
  })

  it.effect("resumed once the kept days have passed the end it was asked for, is refused before sending", () => {
    const endTime = at(now0 - 20 * day)
    const { layer, requests } = futuresExchange({ now: now0 })
    return Effect.gen(function*() {
      yield* TestClock.setTime(now0)
      const first = yield* firstPage({ productType, endTime, pageSize: 50 })
      assert.deepStrictEqual(first.ids, newestFirst(held.filter((r) => r.ts <= now0 - 20 * day)).slice(0, 50))
      // 75 days on, that end is 95 days old: the exchange no longer keeps what is left of the walk
      yield* TestClock.setTime(now0 + 75 * day)
      const refused = yield* Effect.flip(
        Stream.runDrain(FuturesHistory.pages({ productType, endTime, pageSize: 50, resume: first.checkpoint }))
      )
      assert.instanceOf(refused, BitgetRequestError)
      assert.strictEqual(requests.length, 1)
    }).pipe(Effect.provide(layer))
  })
})
