import { assert, describe, it } from "@effect/vitest"
import { DateTime, Duration, Effect, Logger, Metric, Option, Stream } from "effect"
import { TestClock } from "effect/testing"
import type * as Tracer from "effect/Tracer"
import * as BitgetClient from "../src/BitgetClient.js"
import * as Internal from "../src/internal/telemetry.js"
import type { Page, Window, Windows } from "../src/paging/paginate.js"
import { walk, windows } from "../src/paging/paginate.js"
import { cursorParam, exchangeNow, windowed } from "../src/paging/windowed.js"
import * as StreamProgress from "../src/StreamProgress.js"
import { day } from "./support.js"

const at = (millis: number) => DateTime.makeUnsafe(millis)

/** Three one-day windows, oldest first. */
const threeDays = windows({ start: at(0), end: at(3 * day - 1) }, day - 1, "oldestFirst")

/** No window at all: a range that ends before it starts. */
const none = windows({ start: at(1), end: at(0) }, day, "oldestFirst")

/** A record: its id, and its time in milliseconds. */
interface Item {
  readonly id: string
  readonly ms: number
}

/** A fetch as the walk asked for it: the window (start and end, in milliseconds) and the cursor. */
interface Fetched {
  readonly window: ReadonlyArray<number>
  readonly cursor: Option.Option<string>
}

/**
 * A walk over `ws` serving, for the window starting at day `i`, the pages `pages[i]` in turn, each with the id of
 * its last record as the cursor; each call reports `waited` ms of rate-limit wait, as the client does, when the
 * stream is observed.
 */
const walkOf = (
  endpoint: string,
  ws: Windows,
  pages: Record<number, ReadonlyArray<ReadonlyArray<Item>>>,
  waited = 0
) => {
  const fetched: Array<Fetched> = []
  const served = new Map<number, number>()
  const stream = walk({
    endpoint,
    windows: ws,
    pageSize: 2,
    id: (item: Item) => item.id,
    time: (item: Item) => at(item.ms),
    fetch: (window: Window, cursor) =>
      Effect.gen(function*() {
        fetched.push({ window: [DateTime.toEpochMillis(window.start), DateTime.toEpochMillis(window.end)], cursor })
        const waits = yield* Internal.LimiterWaits
        waits?.(waited)
        const index = Math.floor(DateTime.toEpochMillis(window.start) / day)
        const page = served.get(index) ?? 0
        served.set(index, page + 1)
        const items = pages[index]?.[page] ?? []
        return { items, next: Option.fromUndefinedOr(items.at(-1)?.id) } satisfies Page<Item>
      })
  })
  return { fetched, stream }
}

/** A record of day `d`, at a time of its own (`id` milliseconds into the day). */
const item = (id: number, d = 0) => ({ id: String(id), ms: d * day + id })

/** The count of a counter's series in the process-wide registry (0 before its first update). */
const counted = (name: string, endpoint: string) =>
  Effect.map(Metric.snapshot, (metrics) => {
    const found = metrics.find((metric) => metric.id === name && metric.attributes?.["endpoint"] === endpoint)
    return found?.type === "Counter" ? Number(found.state.count) : 0
  })

describe("walk", () => {
  it.effect("reports each window's start once, every page with its records and waits, then the end", () =>
    Effect.gen(function*() {
      const endpoint = "GET /paging/progress"
      const { stream } = walkOf(endpoint, threeDays, {
        0: [[item(13), item(12)], [item(11)]],
        1: [[item(21, 1)]],
        2: [[]]
      }, 5)
      const reports: Array<StreamProgress.StreamProgress> = []
      const records = yield* stream.pipe(
        StreamProgress.observe((progress) => Effect.sync(() => reports.push(progress))),
        Stream.runCollect
      )
      assert.deepStrictEqual(records.map((r) => r.id), ["13", "12", "11", "21"])
      const window = (i: number) => Option.some({ start: at(i * day), end: at((i + 1) * day - 1) })
      const report = (
        pages: number,
        records: number,
        windowsDone: number,
        window: StreamProgress.StreamProgress["window"]
      ) => ({
        endpoint,
        records,
        pages,
        windowsDone,
        windowsTotal: 3,
        window,
        limiterWait: Duration.millis(5 * pages)
      })
      assert.deepStrictEqual(reports, [
        report(0, 0, 0, window(0)),
        report(1, 2, 0, window(0)),
        report(2, 3, 0, window(0)),
        report(2, 3, 1, window(1)),
        report(3, 4, 1, window(1)),
        report(3, 4, 2, window(2)),
        report(4, 4, 2, window(2)),
        report(4, 4, 3, Option.none())
      ])
    }))

  it.effect("gives a call no place to report waits when nobody observes the stream", () =>
    Effect.gen(function*() {
      let reporter: unknown = "unread"
      yield* Stream.runDrain(walk({
        endpoint: "GET /paging/unobserved",
        windows: threeDays,
        pageSize: 2,
        id: (item: Item) => item.id,
        time: (item: Item) => at(item.ms),
        fetch: () =>
          Effect.gen(function*() {
            reporter = yield* Internal.LimiterWaits
            return { items: [], next: Option.none() }
          })
      }))
      assert.isUndefined(reporter)
    }))

  it.effect("over no window, fetches nothing and reports only the end when observed", () =>
    Effect.gen(function*() {
      const observed = walkOf("GET /paging/none", none, {})
      const reports: Array<StreamProgress.StreamProgress> = []
      const out = yield* observed.stream.pipe(
        StreamProgress.observe((progress) => Effect.sync(() => reports.push(progress))),
        Stream.runCollect
      )
      assert.deepStrictEqual(out, [])
      assert.deepStrictEqual(reports, [{
        endpoint: "GET /paging/none",
        records: 0,
        pages: 0,
        windowsDone: 0,
        windowsTotal: 0,
        window: Option.none(),
        limiterWait: Duration.zero
      }])
      const unobserved = walkOf("GET /paging/none", none, {})
      assert.deepStrictEqual(yield* Stream.runCollect(unobserved.stream), [])
      assert.deepStrictEqual([...observed.fetched, ...unobserved.fetched], [])
    }))

  it.effect("counts the records emitted (a repeated one once), the pages read and the windows finished", () =>
    Effect.gen(function*() {
      const endpoint = "GET /paging/metrics"
      // window 0: a full page, then a page repeating its last record; window 1: one record
      const { stream } = walkOf(endpoint, threeDays, {
        0: [[item(13), item(12)], [item(12), item(11)], [item(10)]],
        1: [[item(21, 1)]]
      })
      const names = ["bitget_stream_records", "bitget_stream_pages", "bitget_stream_windows"]
      const before = yield* Effect.forEach(names, (name) => counted(name, endpoint))
      const out = yield* Stream.runCollect(stream)
      const after = yield* Effect.forEach(names, (name) => counted(name, endpoint))
      assert.deepStrictEqual(out.map((r) => r.id), ["13", "12", "11", "10", "21"])
      assert.deepStrictEqual(after.map((n, i) => n - before[i]!), [5, 5, 3])
    }))

  it.effect("reads each page in a span naming its window and page, and the page's records once read", () =>
    Effect.gen(function*() {
      const spans: Array<Tracer.Span> = []
      const endpoint = "GET /paging/spans"
      yield* Stream.runDrain(walk({
        endpoint,
        windows: threeDays,
        pageSize: 2,
        id: (item: Item) => item.id,
        time: (item: Item) => at(item.ms),
        fetch: (window) =>
          Effect.map(Effect.currentSpan, (span) => {
            spans.push(span)
            const first = DateTime.toEpochMillis(window.start) === 0
            return { items: first ? [item(1)] : [], next: Option.none() }
          })
      }))
      assert.deepStrictEqual(spans.map((span) => span.name), Array(3).fill("bitget.stream.page"))
      assert.deepStrictEqual(Object.fromEntries(spans[1]!.attributes), {
        "bitget.endpoint": endpoint,
        "bitget.stream.window": 1,
        "bitget.stream.windows": 3,
        "bitget.stream.window.start": "1970-01-02T00:00:00.000Z",
        "bitget.stream.window.end": "1970-01-02T23:59:59.999Z",
        "bitget.stream.page": 2,
        "bitget.stream.records": 0
      })
      assert.deepStrictEqual(
        spans.map((span) => [span.attributes.get("bitget.stream.page"), span.attributes.get("bitget.stream.records")]),
        [[1, 1], [2, 0], [3, 0]]
      )
    }))

  it.effect("sends back each cursor that moves down, keeping the window whole", () =>
    Effect.gen(function*() {
      const { fetched, stream } = walkOf("GET /paging/cursor", threeDays, {
        0: [[item(30), item(29)], [item(28), item(27)], [item(26)]]
      })
      yield* Stream.runDrain(stream)
      const dayOne = [0, day - 1]
      assert.deepStrictEqual(fetched.slice(0, 3), [
        { window: dayOne, cursor: Option.none() },
        { window: dayOne, cursor: Option.some("29") },
        { window: dayOne, cursor: Option.some("27") }
      ])
    }))

  it.effect("warns, naming the time it goes on before, when a full page's cursor does not move", () =>
    Effect.gen(function*() {
      const warnings: Array<string> = []
      const logger = Logger.make(({ logLevel, message }) => {
        if (logLevel === "Warn") warnings.push(Array.isArray(message) ? message.join(" ") : String(message))
      })
      // the server ignores the cursor: the same full page again
      const { fetched, stream } = walkOf("GET /paging/stalled", threeDays, {
        0: [[item(6), item(5)], [item(6), item(5)]]
      })
      yield* Stream.runDrain(stream).pipe(Effect.provide(Logger.layer([logger])))
      assert.deepStrictEqual(fetched[2], { window: [0, 4], cursor: Option.none() })
      assert.deepStrictEqual(warnings, [
        "pagination: the cursor did not move; continuing before 1970-01-01T00:00:00.005Z " +
        "(records sharing that millisecond beyond one page may be missing)"
      ])
    }))
})

describe("windowed refuses, naming why", () => {
  const refusal = (range: Window, until: number) =>
    windowed({
      endpoint: "test",
      range,
      until: at(until),
      maxSpanDays: 30,
      order: undefined,
      pageSize: 10,
      id: (item: string) => item,
      time: () => at(0),
      fetch: () => Effect.succeed({ items: [], next: Option.none() })
    }).pipe(Stream.runDrain, Effect.flip, Effect.map((error) => error.issue))

  it.effect("a range that starts after it ends", () =>
    Effect.gen(function*() {
      assert.strictEqual(
        yield* refusal({ start: at(2 * day), end: at(day) }, 3 * day),
        "startTime must not be after endTime"
      )
    }))

  it.effect("a range that starts after the exchange's clock", () =>
    Effect.gen(function*() {
      assert.strictEqual(
        yield* refusal({ start: at(2 * day), end: at(3 * day) }, day),
        "the range [1970-01-03T00:00:00.000Z, 1970-01-04T00:00:00.000Z] starts after the exchange's clock " +
          "(1970-01-02T00:00:00.000Z), so it can hold no record yet"
      )
    }))
})

describe("cursorParam", () => {
  it("sends no idLessThan on a window's first page, the cursor after", () => {
    assert.deepStrictEqual(cursorParam(Option.none()), {})
    assert.deepStrictEqual(cursorParam(Option.some("42")), { idLessThan: "42" })
  })
})

describe("exchangeNow", () => {
  it.effect("is the local clock plus the offset read from the exchange", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(10_000)
      const now = yield* exchangeNow.pipe(Effect.provideService(
        BitgetClient.BitgetClient,
        BitgetClient.BitgetClient.of({
          execute: () => Effect.die("not called"),
          clockOffset: Effect.succeed(1_500),
          syncClock: Effect.succeed(1_500)
        })
      ))
      assert.strictEqual(DateTime.toEpochMillis(now), 11_500)
    }))
})
