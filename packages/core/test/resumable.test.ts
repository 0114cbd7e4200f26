/**
 * Resumable walks: interrupted anywhere, each time resumed from the last
 * page's checkpoint (through its JSON text), a walk gives exactly the records
 * of the uninterrupted walk, in order, none twice, none missing; over random
 * data sets, ranges, spans, page sizes, orders and servers that do or do not
 * honour the cursor.
 */
import { assert, describe, it } from "@effect/vitest"
import { DateTime, Effect, Option, Schema, Stream } from "effect"
import type { Window } from "../src/paging/paginate.js"
import type { WindowedOptions } from "../src/paging/windowed.js"
import { streamName, windowed, windowedPages } from "../src/paging/windowed.js"
import * as Resumable from "../src/Resumable.js"
import { day } from "./support.js"

const at = (millis: number) => DateTime.makeUnsafe(millis)
const millisOf = DateTime.toEpochMillis

interface Item {
  readonly id: string
  readonly time: number
}

/** A small seeded generator (mulberry32), so a failing case replays from its seed. */
const generator = (seed: number) => {
  let state = seed >>> 0
  return (below: number): number => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * below)
  }
}

/** Records over `[0, length)` ms, ids rising with time, some sharing a millisecond. */
const dataset = (random: (below: number) => number, count: number, length: number): ReadonlyArray<Item> => {
  const times = Array.from({ length: count }, () => random(length)).sort((a, b) => a - b)
  // a run of records in one millisecond, so that a page can be all of one time
  for (let i = 1; i < times.length; i++) if (random(4) === 0) times[i] = times[i - 1]!
  return times.map((time, i) => ({ id: String(1_000_000 + i * 7), time }))
}

/**
 * One page of a window, newest first, below the cursor; a server that does
 * not honour the cursor sends the window's first page again (the walk then
 * narrows the window).
 */
const server = (items: ReadonlyArray<Item>, pageSize: number, honoursCursor: boolean) => {
  let calls = 0
  const fetch = (window: Window, cursor: Option.Option<string>) =>
    Effect.sync(() => {
      calls++
      const below = honoursCursor ? Option.getOrUndefined(cursor) : undefined
      const page = items
        .filter((item) =>
          item.time >= millisOf(window.start) && item.time <= millisOf(window.end) &&
          (below === undefined || BigInt(item.id) < BigInt(below))
        )
        .sort((a, b) => Number(BigInt(b.id) - BigInt(a.id)))
        .slice(0, pageSize)
      return { items: page, next: Option.fromUndefinedOr(page.at(-1)?.id) }
    })
  return { fetch, calls: () => calls }
}

interface Case {
  readonly seed: number
  readonly count: number
  readonly length: number
  readonly spanDays: number
  readonly pageSize: number
  readonly newestFirst: boolean
  readonly honoursCursor: boolean
}

const options = (
  c: Case,
  items: ReadonlyArray<Item>,
  resume?: Resumable.Checkpoint
): WindowedOptions<Item, never, never> => ({
  endpoint: "GET /test",
  stream: streamName("GET /test", { coin: "BTC" }),
  resume,
  range: { start: at(0), end: at(c.length) },
  until: at(c.length),
  maxSpanDays: c.spanDays,
  order: c.newestFirst ? "newestFirst" : "oldestFirst",
  pageSize: c.pageSize,
  id: (item) => item.id,
  time: (item) => at(item.time),
  fetch: server(items, c.pageSize, c.honoursCursor).fetch
})

/** The pages of a walk, up to `limit` of them. */
const pagesOf = (o: WindowedOptions<Item, never, never>, limit = Infinity) =>
  Stream.runCollect(Stream.take(windowedPages(o), limit))

/** A walk stopped after each of `stops` pages in turn, resumed from its checkpoint's JSON text each time. */
const interrupted = (c: Case, items: ReadonlyArray<Item>, stops: ReadonlyArray<number>) =>
  Effect.gen(function*() {
    const ids: Array<string> = []
    let checkpoint: Resumable.Checkpoint | undefined
    let runs = 0
    for (let i = 0; runs === 0 || (checkpoint !== undefined && !Resumable.isDone(checkpoint)); i++) {
      const pages = yield* pagesOf(options(c, items, checkpoint), stops[i] ?? Infinity)
      runs++
      for (const page of pages) ids.push(...page.records.map((item) => item.id))
      const last = pages.at(-1)
      if (last === undefined) break
      checkpoint = Resumable.decodeJson(Resumable.encodeJson(last.checkpoint))
    }
    return { ids, runs }
  })

const integer = (minimum: number, maximum: number) => Schema.Int.check(Schema.isBetween({ minimum, maximum }))

const caseArbitrary = Schema.Struct({
  seed: integer(0, 2 ** 31 - 1),
  count: integer(0, 120),
  length: integer(1, 200 * day),
  spanDays: integer(1, 60),
  pageSize: integer(1, 12),
  newestFirst: Schema.Boolean,
  honoursCursor: Schema.Boolean,
  stops: Schema.Array(integer(1, 6))
})

describe("a resumed walk", () => {
  let resumedRuns = 0
  it.effect.prop(
    "gives the records of the uninterrupted walk, in order, each once",
    [caseArbitrary],
    ([c]) =>
      Effect.gen(function*() {
        const items = dataset(generator(c.seed), c.count, c.length)
        const whole = yield* Stream.runCollect(windowed(options(c, items)))
        const wholeIds = whole.map((item) => item.id)
        assert.strictEqual(new Set(wholeIds).size, wholeIds.length, "the uninterrupted walk emits no record twice")
        if (c.honoursCursor) assert.strictEqual(wholeIds.length, items.length, "and, with cursors, every record")
        const resumed = yield* interrupted(c, items, c.stops)
        resumedRuns += resumed.runs - 1
        assert.deepStrictEqual(resumed.ids, wholeIds)
      }),
    { arbitrary: { runs: 150, seed: 20_261_127 } }
  )

  it("resumed at least once in most cases (the property is not vacuous)", () => {
    assert.isAbove(resumedRuns, 150)
  })
})

describe("streamName", () => {
  it("names the endpoint and the filters set, sorted", () => {
    assert.strictEqual(streamName("GET /x", { b: "2", c: undefined, a: "1" }), "GET /x a=1 b=2")
    assert.strictEqual(streamName("GET /x", {}), "GET /x")
  })
})

describe("a checkpoint", () => {
  const c: Case = {
    seed: 7,
    count: 40,
    length: 70 * day,
    spanDays: 30,
    pageSize: 5,
    newestFirst: false,
    honoursCursor: true
  }
  const items = dataset(generator(c.seed), c.count, c.length)

  it.effect("names the stream, the range it cut and where the walk goes on; null once done", () =>
    Effect.gen(function*() {
      const pages = yield* pagesOf(options(c, items))
      const first = pages[0]!.checkpoint
      assert.strictEqual(first.stream, "GET /test coin=BTC")
      assert.deepStrictEqual([millisOf(first.start), millisOf(first.end)], [0, 70 * day])
      assert.strictEqual(first.spanMillis, 30 * day)
      assert.strictEqual(first.order, "oldestFirst")
      assert.isNotNull(first.next)
      assert.deepStrictEqual(first.next?.seen, pages[0]!.records.map((item) => item.id))
      assert.isTrue(Resumable.isDone(pages.at(-1)!.checkpoint))
      assert.isFalse(pages.slice(0, -1).some((page) => Resumable.isDone(page.checkpoint)))
    }))

  it.effect("of a finished walk resumes to one empty page, and sends nothing", () =>
    Effect.gen(function*() {
      const done = (yield* pagesOf(options(c, items))).at(-1)!.checkpoint
      const again = yield* pagesOf({ ...options(c, items, done), fetch: () => Effect.die("sent") })
      assert.deepStrictEqual(again.map((page) => page.records.length), [0])
      assert.isTrue(Resumable.isDone(again[0]!.checkpoint))
      assert.deepStrictEqual(yield* Stream.runCollect(windowed(options(c, items, done))), [])
    }))

  it.effect("of another stream is refused before anything is sent", () =>
    Effect.gen(function*() {
      const checkpoint = (yield* pagesOf(options(c, items), 1))[0]!.checkpoint
      const error = yield* Effect.flip(
        Stream.runDrain(windowedPages({ ...options(c, items, checkpoint), stream: "GET /test coin=ETH" }))
      )
      assert.strictEqual(error._tag, "BitgetRequestError")
      assert.include(
        error.message,
        "the checkpoint is of another stream (GET /test coin=BTC), not of GET /test coin=ETH"
      )
    }))

  it.effect("whose window is not one of its range's is refused", () =>
    Effect.gen(function*() {
      const checkpoint = (yield* pagesOf(options(c, items), 1))[0]!.checkpoint
      const wrong = new Resumable.Checkpoint({
        ...checkpoint,
        next: new Resumable.Position({ window: 9, windowEnd: at(0), cursor: null, seen: [] })
      })
      const error = yield* Effect.flip(Stream.runDrain(windowedPages(options(c, items, wrong))))
      assert.include(error.message, "(window 9) is not one of its range's windows")
    }))

  it.effect("walks the range it holds, whatever the request's range and the clock are now", () =>
    Effect.gen(function*() {
      const firstTwo = yield* pagesOf(options(c, items), 2)
      const checkpoint = firstTwo.at(-1)!.checkpoint
      const done = firstTwo.reduce((n, page) => n + page.records.length, 0)
      const later = {
        ...options(c, items, checkpoint),
        range: { start: at(50 * day), end: at(900 * day) },
        until: at(900 * day)
      }
      const rest = yield* Stream.runCollect(Resumable.records(windowedPages(later)))
      const whole = yield* Stream.runCollect(windowed(options(c, items)))
      assert.deepStrictEqual(rest.map((item) => item.id), whole.slice(done).map((item) => item.id))
    }))

  it.effect("over a range cut to nothing (the horizon after the clock) gives one empty page, done", () =>
    Effect.gen(function*() {
      const horizon = { time: at(60), reason: "" }
      const pages = yield* pagesOf({
        ...options(c, items),
        range: { start: at(0), end: at(100) },
        until: at(50),
        horizon
      })
      assert.strictEqual(pages.length, 1)
      assert.deepStrictEqual(pages[0]!.records, [])
      assert.isTrue(Resumable.isDone(pages[0]!.checkpoint))
    }))

  it.effect("of a walk of the whole range as one window holds the range's length as its span", () =>
    Effect.gen(function*() {
      const whole = {
        ...options(c, items),
        range: { start: at(day), end: at(61 * day) },
        maxSpanDays: "whole" as const
      }
      const pages = yield* pagesOf(whole)
      assert.strictEqual(pages[0]!.checkpoint.spanMillis, 60 * day)
      assert.isTrue(pages.every((page) => page.checkpoint.next === null || page.checkpoint.next.window === 0))
      const ids = pages.flatMap((page) => page.records.map((item) => item.id))
      assert.deepStrictEqual(ids, items.filter((i) => i.time >= day && i.time <= 61 * day).map((i) => i.id).reverse())
    }))

  it("reads back from its JSON text equal, and refuses text that is not one", () => {
    const checkpoint = new Resumable.Checkpoint({
      version: 1,
      stream: "GET /test",
      start: at(0),
      end: at(day),
      spanMillis: day,
      order: "newestFirst",
      next: new Resumable.Position({ window: 0, windowEnd: at(day - 1), cursor: "1000007", seen: ["1000014"] })
    })
    const text = Resumable.encodeJson(checkpoint)
    assert.strictEqual(
      text,
      `{"version":1,"stream":"GET /test","start":"1970-01-01T00:00:00.000Z","end":"1970-01-02T00:00:00.000Z",` +
        `"spanMillis":86400000,"order":"newestFirst","next":{"window":0,"windowEnd":"1970-01-01T23:59:59.999Z",` +
        `"cursor":"1000007","seen":["1000014"]}}`
    )
    assert.deepStrictEqual(Resumable.decodeJson(text), checkpoint)
    assert.throws(() => Resumable.decodeJson(`{"version":2}`))
  })
})
