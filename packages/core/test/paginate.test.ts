import { assert, describe, it } from "@effect/vitest"
import { DateTime, Effect, Option, Schema, Stream } from "effect"
import { TestClock } from "effect/testing"
import type { Window, WindowOrder, Windows } from "../src/paging/paginate.js"
import { walk, windows } from "../src/paging/paginate.js"
import { windowed } from "../src/paging/windowed.js"
import * as TaxRecords from "../src/TaxRecords.js"
import { day, exchange, ok } from "./support.js"

const span = 30 * day
const at = (millis: number) => DateTime.makeUnsafe(millis)
const millis = (w: Window | undefined) =>
  w === undefined ? undefined : [DateTime.toEpochMillis(w.start), DateTime.toEpochMillis(w.end)]
const list = (ws: Windows) => Array.from({ length: ws.length }, (_, i) => millis(ws.at(i)))

/** The widest range a `DateTime` allows. */
const widest = { start: at(-8.64e15), end: at(8.64e15) }
/** Windows of `span` over `widest`: the oldest is the short one, ending here. */
const widestCount = 6_666_667
const oldestEnd = -8_639_998_278_666_666

/** The widest range a stream takes: from 1970 to the end of `DateTime`. */
const sinceEpoch = { start: at(0), end: widest.end }

/** More than any of these computations needs, far less than building every window of `widest` (over 1 GB). */
const heapBound = 50 * 2 ** 20
const heapUsed = () => process.memoryUsage().heapUsed

/** The windows as the eager implementation built them, in exact (`bigint`) arithmetic. */
const reference = (start: bigint, end: bigint, span: bigint, order: WindowOrder) => {
  const out: Array<Array<number>> = []
  for (let last = end; last >= start; last -= span + 1n) {
    out.push([Number(last - span < start ? start : last - span), Number(last)])
  }
  return order === "newestFirst" ? out : out.reverse()
}

const empty = { items: [], next: Option.none() }

describe("windows", () => {
  it("derives the windows of the widest range without building them", () => {
    const before = heapUsed()
    const newest = windows(widest, span, "newestFirst")
    const oldest = windows(widest, span, "oldestFirst")
    const firstThree = [0, 1, 2].map((i) => [millis(newest.at(i)), millis(oldest.at(i))])
    assert.isBelow(heapUsed() - before, heapBound)
    assert.strictEqual(newest.length, widestCount)
    assert.strictEqual(oldest.length, widestCount)
    const end = 8.64e15
    assert.deepStrictEqual(firstThree.map(([w]) => w), [
      [end - span, end],
      [end - 2 * span - 1, end - span - 1],
      [end - 3 * span - 2, end - 2 * span - 2]
    ])
    assert.deepStrictEqual(firstThree.map(([, w]) => w), [
      [-8.64e15, oldestEnd],
      [oldestEnd + 1, oldestEnd + 1 + span],
      [oldestEnd + span + 2, oldestEnd + 2 * span + 2]
    ])
    // the last of one order is the first of the other
    assert.deepStrictEqual(millis(newest.at(widestCount - 1)), [-8.64e15, oldestEnd])
    assert.deepStrictEqual(millis(oldest.at(widestCount - 1)), [end - span, end])
    for (const index of [-1, widestCount, 0.5, Number.NaN]) {
      assert.isUndefined(newest.at(index))
      assert.isUndefined(oldest.at(index))
    }
  })

  it("has no window for a range that ends before it starts", () => {
    assert.strictEqual(windows({ start: at(1), end: at(0) }, span, "newestFirst").length, 0)
    assert.isUndefined(windows({ start: at(1), end: at(0) }, span, "oldestFirst").at(0))
  })

  const bigIntBetween = (minimum: bigint, maximum: bigint) =>
    Schema.BigInt.check(Schema.isBetweenBigInt({ minimum, maximum }))
  const instant = bigIntBetween(-8_640_000_000_000_000n, 8_640_000_000_000_000n)

  it.prop(
    "matches the eager windows on small ranges",
    [instant, bigIntBetween(0n, 5_000n), bigIntBetween(0n, 1_000n), Schema.Boolean],
    ([start, length, span, newestFirst]) => {
      const order = newestFirst ? "newestFirst" : "oldestFirst"
      const end = start + length > 8_640_000_000_000_000n ? 8_640_000_000_000_000n : start + length
      assert.deepStrictEqual(
        list(windows({ start: at(Number(start)), end: at(Number(end)) }, Number(span), order)),
        reference(start, end, span, order)
      )
    },
    { arbitrary: { runs: 500, seed: 20_251_123 } }
  )

  it.prop(
    "matches the eager windows on ranges across all of DateTime, past exact numbers",
    [
      instant,
      instant,
      Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 500 })),
      bigIntBetween(0n, 1_000_000n),
      Schema.Boolean
    ],
    ([a, b, most, extra, newestFirst]) => {
      const order = newestFirst ? "newestFirst" : "oldestFirst"
      const [start, end] = a <= b ? [a, b] : [b, a]
      // at most `most` windows, so the reference stays small; a span is a number of milliseconds, so both
      // sides get the span as a number holds it (past 2^53 it is rounded)
      const span = BigInt(Number((end - start) / BigInt(most) + extra))
      assert.deepStrictEqual(
        list(windows({ start: at(Number(start)), end: at(Number(end)) }, Number(span), order)),
        reference(start, end, span, order)
      )
    },
    { arbitrary: { runs: 500, seed: 20_251_123 } }
  )
})

describe("walk", () => {
  it.effect("walks any number of empty windows in constant stack and memory", () =>
    Effect.gen(function*() {
      const count = 100_000
      let fetched = 0
      yield* Stream.runDrain(walk({
        endpoint: "GET /test",
        // one window a millisecond, oldest first: window i is [i, i]
        windows: windows({ start: at(0), end: at(count - 1) }, 0, "oldestFirst"),
        pageSize: 100,
        id: (item: string) => item,
        time: () => at(0),
        fetch: (window) =>
          Effect.sync(() => {
            if (DateTime.toEpochMillis(window.start) !== fetched || DateTime.toEpochMillis(window.end) !== fetched) {
              throw new Error(`window ${fetched} is ${JSON.stringify(millis(window))}`)
            }
            fetched++
            return empty
          })
      }))
      assert.strictEqual(fetched, count)
    }), 60_000) // about 3 s alone; it checks stack and memory, not speed, so a loaded machine must not fail it
})

describe("windowed", () => {
  for (const order of ["newestFirst", "oldestFirst"] as const) {
    it.effect(`builds a stream over the widest range and pulls its first record in constant memory (${order})`, () =>
      Effect.gen(function*() {
        const fetched: Array<ReturnType<typeof millis>> = []
        const before = heapUsed()
        const stream = windowed({
          endpoint: "test",
          range: sinceEpoch,
          until: sinceEpoch.end,
          maxSpanDays: 30,
          order,
          pageSize: 10,
          id: (item: string) => item,
          time: () => at(0),
          fetch: (window) =>
            Effect.sync(() => {
              fetched.push(millis(window))
              return fetched.length < 3 ? empty : { items: ["a"], next: Option.none() }
            })
        })
        const first = yield* Stream.runHead(stream)
        assert.isBelow(heapUsed() - before, heapBound)
        assert.deepStrictEqual(first, Option.some("a"))
        assert.deepStrictEqual(
          fetched,
          [0, 1, 2].map((i) => millis(windows(sinceEpoch, span, order).at(i)))
        )
      }))
  }
})

describe("windowed refuses a range that can hold no record, before sending", () => {
  const refused = (range: Window, options: { readonly until?: number; readonly horizon?: number } = {}) =>
    Effect.gen(function*() {
      let fetched = 0
      const error = yield* windowed({
        endpoint: "test",
        range,
        until: at(options.until ?? 100 * day),
        horizon: options.horizon === undefined ? undefined : {
          time: at(options.horizon),
          reason: "the exchange keeps 90 days of history"
        },
        maxSpanDays: 30,
        order: undefined,
        pageSize: 10,
        id: (item: string) => item,
        time: () => at(0),
        fetch: () => Effect.sync(() => (fetched++, empty))
      }).pipe(Stream.runDrain, Effect.flip)
      assert.strictEqual(fetched, 0, "nothing is asked for")
      assert.strictEqual(error._tag, "BitgetRequestError")
      return error.message
    })

  it.effect("one that starts before 1970 (a range computed from a clock at 0)", () =>
    Effect.gen(function*() {
      const message = yield* refused({ start: at(-60 * day), end: at(0) })
      assert.include(message, "[1969-11-02T00:00:00.000Z, 1970-01-01T00:00:00.000Z] starts before 1970-01-01")
      assert.include(message, "TestClock")
    }))

  it.effect("one that ends before the horizon, with the horizon's reason", () =>
    Effect.gen(function*() {
      const message = yield* refused({ start: at(day), end: at(2 * day) }, { horizon: 10 * day })
      assert.include(message, "ends before 1970-01-11T00:00:00.000Z, and the exchange keeps 90 days of history")
    }))

  it.effect("one that starts after the exchange's clock", () =>
    Effect.gen(function*() {
      const message = yield* refused({ start: at(3 * day), end: at(4 * day) }, { until: 2 * day })
      assert.include(message, "starts after the exchange's clock (1970-01-03T00:00:00.000Z)")
    }))

  it.effect("and cuts one only partly outside to the horizon and the clock", () =>
    Effect.gen(function*() {
      const fetched: Array<ReturnType<typeof millis>> = []
      yield* windowed({
        endpoint: "test",
        range: { start: at(0), end: at(50 * day) },
        until: at(40 * day),
        horizon: { time: at(20 * day), reason: "" },
        maxSpanDays: 30,
        order: "oldestFirst",
        pageSize: 10,
        id: (item: string) => item,
        time: () => at(0),
        fetch: (window) => Effect.sync(() => (fetched.push(millis(window)), empty))
      }).pipe(Stream.runDrain)
      assert.deepStrictEqual(fetched, [[20 * day, 40 * day]])
    }))
})

describe("TaxRecords.stream", () => {
  it.effect("fails, sending nothing, over the last 60 days of a TestClock never set (1970)", () => {
    const { layer, requests } = exchange(() => ok([]))
    return Effect.gen(function*() {
      const end = yield* DateTime.now
      const error = yield* TaxRecords.stream({ startTime: DateTime.subtract(end, { days: 60 }), endTime: end })
        .pipe(Stream.runDrain, Effect.flip)
      assert.strictEqual(error._tag, "BitgetRequestError")
      assert.include(error.message, "starts before 1970-01-01")
      assert.strictEqual(requests.length, 0)
    }).pipe(Effect.provide(layer))
  })

  it.effect("sends one request for the first record over the widest range", () => {
    const record = {
      id: "1",
      coin: "USDT",
      spotTaxType: "Buy",
      amount: "1",
      fee: "0",
      balance: "10",
      ts: "1700000000000"
    }
    const { layer, requests } = exchange(() => ok([record]))
    return Effect.gen(function*() {
      // the exchange's clock at the end of time: the range holds 3.3 million 30-day windows from 1970
      yield* TestClock.setTime(DateTime.toEpochMillis(widest.end) - 60_000)
      const before = heapUsed()
      const first = yield* Stream.runHead(
        TaxRecords.stream({ startTime: sinceEpoch.start, endTime: widest.end, order: "oldestFirst" })
      )
      assert.isBelow(heapUsed() - before, heapBound)
      assert.strictEqual(Option.map(first, (r) => r.id).pipe(Option.getOrNull), "1")
      assert.strictEqual(requests.length, 1)
      const q = requests[0]!.url.searchParams
      assert.strictEqual(q.get("startTime"), "0")
      assert.isAtMost(Number(q.get("endTime")), 30 * day)
    }).pipe(Effect.provide(layer))
  })
})
