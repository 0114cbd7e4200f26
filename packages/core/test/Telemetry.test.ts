import { assert, describe, it } from "@effect/vitest"
import { DateTime, Duration, Effect, Fiber, Layer, Logger, Metric, Option, Schema, Stream, Tracer } from "effect"
import { TestClock } from "effect/testing"
import * as BitgetClient from "../src/BitgetClient.js"
import * as Endpoint from "../src/Endpoint.js"
import { walk, windows } from "../src/paging/paginate.js"
import * as RateLimiter from "../src/RateLimiter.js"
import * as StreamProgress from "../src/StreamProgress.js"
import * as Telemetry from "../src/Telemetry.js"
import { advance, credentials, day, exchange, fail, ok } from "./support.js"

interface Recorded {
  readonly name: string
  readonly parent: string | undefined
  readonly kind: Tracer.SpanKind
  readonly attributes: Record<string, unknown>
}

/** A tracer layer that records every span's name, parent, kind and attributes. */
const recordSpans = () => {
  const spans: Array<Recorded> = []
  const layer = Layer.unwrap(Effect.map(Effect.tracer, (tracer) =>
    Layer.succeed(Tracer.Tracer, {
      ...tracer,
      span: (options) => {
        const span = tracer.span(options)
        const recorded: Recorded = {
          name: options.name,
          parent: Option.getOrUndefined(
            Option.map(options.parent, (p) => (p._tag === "Span" ? p.name : "external"))
          ),
          kind: options.kind,
          attributes: {}
        }
        spans.push(recorded)
        return Object.assign(Object.create(span), {
          attribute: (key: string, value: unknown) => {
            recorded.attributes[key] = value
            span.attribute(key, value)
          }
        })
      }
    })))
  return { spans, layer }
}

/**
 * A logger layer in place of the default logger (the tracer logger stays) that keeps each line with its level
 * (upper case, as `INFO`), the message's parts joined by spaces.
 */
const recordLogs = () => {
  const lines: Array<string> = []
  const layer = Logger.layer([
    Logger.make(({ logLevel, message }) =>
      lines.push(`${logLevel.toUpperCase()} ${Array.isArray(message) ? message.join(" ") : String(message)}`)
    ),
    Logger.tracerLogger
  ])
  return { lines, layer }
}

/** The count of a counter with these attributes (counters are global: tests read deltas on endpoints of their own). */
const count = (counter: Metric.Counter<number>, attributes: Record<string, string>) =>
  Effect.map(Metric.value(Metric.withAttributes(counter, attributes)), (state) => state.count)

const histogramCount = (endpoint: string) =>
  Effect.map(Metric.value(Metric.withAttributes(Telemetry.duration, { endpoint })), (state) => state.count)

/** An endpoint of its own per test, so that the global metrics start at zero. */
const endpointNamed = (name: string, limit = 100) =>
  Endpoint.get({
    name,
    path: `/api/v2/test/${name}`,
    auth: "signed",
    rateLimit: { limit, window: "1 second", scope: "uid" },
    idempotency: "idempotent",
    request: Schema.Struct({ symbol: Schema.String }),
    response: Schema.Struct({ value: Schema.String })
  })

const retryOptions = { maxAttempts: 3, jitter: false, baseDelay: "200 millis" } as const

describe("call spans", () => {
  it.effect("name the operation, hold method and path, and count attempts and retry reasons", () => {
    const endpoint = endpointNamed("telemetry.retried")
    const label = Endpoint.label(endpoint)
    const replies = [fail(503, "50000", "busy"), ok({ value: "fine" })]
    const { layer } = exchange(() => replies.shift()!, { credentials, retry: retryOptions })
    const { layer: tracing, spans } = recordSpans()
    const { layer: logging, lines } = recordLogs()
    return Effect.gen(function*() {
      const fiber = yield* Effect.forkChild(BitgetClient.execute(endpoint, { symbol: "BTCUSDT" }))
      yield* TestClock.adjust("1 second")
      yield* Fiber.join(fiber)
      const call = spans.find((span) => span.name === "bitget telemetry.retried")
      assert.deepStrictEqual(call?.attributes, {
        [Telemetry.attributes.endpoint]: label,
        [Telemetry.attributes.operation]: "telemetry.retried",
        [Telemetry.attributes.method]: "GET",
        [Telemetry.attributes.path]: "/api/v2/test/telemetry.retried",
        [Telemetry.attributes.attempt]: 2,
        [Telemetry.attributes.rateLimitWait]: 0,
        [Telemetry.attributes.retryReasons]: "HTTP 503"
      })
      const attempts = spans.filter((span) => span.name === label)
      assert.deepStrictEqual(attempts.map((span) => [span.parent, span.kind]), [
        ["bitget telemetry.retried", "client"],
        ["bitget telemetry.retried", "client"]
      ])
      assert.deepStrictEqual(attempts.map((span) => span.attributes[Telemetry.attributes.attempt]), [1, 2])
      assert.deepStrictEqual(attempts.map((span) => span.attributes[Telemetry.attributes.status]), [503, 200])
      assert.deepStrictEqual(attempts.map((span) => span.attributes[Telemetry.attributes.errorType]), [
        "BitgetApiError",
        undefined
      ])
      assert.strictEqual(attempts[0]!.attributes[Telemetry.attributes.url], "https://api.example.test" + endpoint.path)
      // one line per retry: reason, attempt, delay
      assert.deepStrictEqual(lines.filter((line) => line.includes("retry:")), [
        `INFO retry: ${label} attempt 2 in 200 ms after HTTP 503: ${label} failed with code 50000 (Unknown, HTTP 503): busy`
      ])
      assert.strictEqual(yield* count(Telemetry.retries, { endpoint: label, reason: "HTTP 503" }), 1)
      assert.strictEqual(yield* count(Telemetry.requests, { endpoint: label, outcome: "success" }), 1)
      assert.strictEqual(yield* count(Telemetry.requests, { endpoint: label, outcome: "failure" }), 0)
      assert.strictEqual(yield* histogramCount(label), 1)
    }).pipe(Effect.provide(Layer.mergeAll(layer, tracing, logging)))
  })

  it.effect("mark a failure with its type and the exchange's code, in spans and metrics", () => {
    const endpoint = endpointNamed("telemetry.failed")
    const label = Endpoint.label(endpoint)
    const { layer } = exchange(() => fail(400, "40009", "sign signature error"))
    const { layer: tracing, spans } = recordSpans()
    return Effect.gen(function*() {
      const error = yield* Effect.flip(BitgetClient.execute(endpoint, { symbol: "BTCUSDT" }))
      assert.strictEqual(error._tag, "BitgetApiError")
      const call = spans.find((span) => span.name === "bitget telemetry.failed")
      assert.strictEqual(call?.attributes[Telemetry.attributes.errorType], "BitgetApiError")
      assert.strictEqual(call?.attributes[Telemetry.attributes.errorCode], "40009")
      assert.strictEqual(call?.attributes[Telemetry.attributes.attempt], 1)
      assert.isUndefined(call?.attributes[Telemetry.attributes.retryReasons])
      assert.strictEqual(
        yield* count(Telemetry.errors, { endpoint: label, type: "BitgetApiError", code: "40009" }),
        1
      )
      assert.strictEqual(yield* count(Telemetry.requests, { endpoint: label, outcome: "failure" }), 1)
    }).pipe(Effect.provide(Layer.merge(layer, tracing)))
  })

  it.effect("an interrupted call counts as interrupted, not as a failure", () => {
    const endpoint = endpointNamed("telemetry.interrupted")
    const label = Endpoint.label(endpoint)
    // a 503 forever: the call sleeps between retries until interrupted
    const { layer } = exchange(() => fail(503, "50000", "busy"), { credentials, retry: retryOptions })
    return Effect.gen(function*() {
      const fiber = yield* Effect.forkChild(BitgetClient.execute(endpoint, { symbol: "BTCUSDT" }))
      yield* TestClock.adjust("100 millis")
      yield* Fiber.interrupt(fiber)
      assert.strictEqual(yield* count(Telemetry.requests, { endpoint: label, outcome: "interrupted" }), 1)
      assert.strictEqual(yield* count(Telemetry.requests, { endpoint: label, outcome: "failure" }), 0)
    }).pipe(Effect.provide(layer))
  })
})

describe("log lines", () => {
  it.effect("a 429 is logged as a warning and counted as a rejection", () => {
    const endpoint = endpointNamed("telemetry.limited")
    const label = Endpoint.label(endpoint)
    const replies = [fail(429, "429", "Too Many Requests"), ok({ value: "fine" })]
    const { layer } = exchange(() => replies.shift()!, { credentials, retry: retryOptions })
    const { layer: logging, lines } = recordLogs()
    return Effect.gen(function*() {
      const fiber = yield* Effect.forkChild(BitgetClient.execute(endpoint, { symbol: "BTCUSDT" }))
      yield* TestClock.adjust("2 seconds")
      yield* Fiber.join(fiber)
      assert.include(lines, `WARN rate limited: ${label} answered 429 (HTTP 429)`)
      assert.isTrue(
        lines.some((line) => line.startsWith(`INFO retry: ${label} attempt 2 in 1000 ms after RateLimited`))
      )
      assert.strictEqual(yield* count(RateLimiter.rejections, { endpoint: label }), 1)
      assert.strictEqual(yield* count(Telemetry.retries, { endpoint: label, reason: "RateLimited" }), 1)
    }).pipe(Effect.provide(Layer.merge(layer, logging)))
  })

  it.effect("a clock resync after 40008 is logged, and counted as a ClockSkew retry", () => {
    const endpoint = endpointNamed("telemetry.skewed")
    const label = Endpoint.label(endpoint)
    let refused = false
    const { layer } = exchange((request) => {
      if (request.url.pathname === "/api/v2/public/time") return ok({ serverTime: "1700000005000" })
      if (refused) return ok({ value: "fine" })
      refused = true
      return fail(400, "40008", "Request timestamp expired")
    })
    const { layer: logging, lines } = recordLogs()
    const { layer: tracing, spans } = recordSpans()
    return Effect.gen(function*() {
      yield* TestClock.setTime(1_700_000_000_000)
      yield* BitgetClient.execute(endpoint, { symbol: "BTCUSDT" })
      assert.include(lines, "INFO clock: synced with the exchange, offset 5000 ms")
      assert.isTrue(lines.some((line) => line.startsWith(`INFO retry: ${label} attempt 2 after the exchange refused`)))
      const call = spans.find((span) => span.name === "bitget telemetry.skewed")
      assert.strictEqual(call?.attributes[Telemetry.attributes.retryReasons], "ClockSkew")
      assert.strictEqual(call?.attributes[Telemetry.attributes.attempt], 2)
      assert.strictEqual(yield* count(Telemetry.retries, { endpoint: label, reason: "ClockSkew" }), 1)
    }).pipe(Effect.provide(Layer.mergeAll(layer, logging, tracing)))
  })
})

const at = (millis: number) => DateTime.makeUnsafe(millis)

describe("streams", () => {
  /** Three one-day windows, oldest first; the first holds a full page then a short one, the others one short page each. */
  const pages: Record<number, ReadonlyArray<ReadonlyArray<string>>> = {
    0: [["13", "12"], ["11"]],
    1: [["21"]],
    2: [[]]
  }
  const threeWindows = windows({ start: at(0), end: at(3 * day - 1) }, day - 1, "oldestFirst")
  const walkPages = <E, R>(
    fetchWith: (items: ReadonlyArray<string>) => Effect.Effect<ReadonlyArray<string>, E, R>
  ) => {
    const served = new Map<number, number>()
    return walk({
      endpoint: "GET /api/v2/test/walk",
      windows: threeWindows,
      pageSize: 2,
      id: (item: string) => item,
      time: () => at(0),
      fetch: (window) => {
        const index = Math.floor(DateTime.toEpochMillis(window.start) / day)
        const page = served.get(index) ?? 0
        served.set(index, page + 1)
        return Effect.map(
          fetchWith(pages[index]![page]!),
          (items) => ({ items, next: Option.fromUndefinedOr(items.at(-1)) })
        )
      }
    })
  }

  it.effect("report progress at each window's start, after each page and at the end", () =>
    Effect.gen(function*() {
      const reports: Array<StreamProgress.StreamProgress & { readonly consumed: number }> = []
      let consumed = 0
      const records = yield* walkPages(Effect.succeed).pipe(
        StreamProgress.observe((progress) => Effect.sync(() => reports.push({ ...progress, consumed }))),
        Stream.tap(() => Effect.sync(() => consumed++)),
        Stream.runCollect
      )
      assert.strictEqual(records.length, 4)
      const window = (i: number) => Option.some({ start: at(i * day), end: at((i + 1) * day - 1) })
      assert.deepStrictEqual(
        reports.map(({ consumed, pages, records, window, windowsDone }) => ({
          consumed,
          pages,
          records,
          window,
          windowsDone
        })),
        [
          { consumed: 0, pages: 0, records: 0, window: window(0), windowsDone: 0 },
          { consumed: 0, pages: 1, records: 2, window: window(0), windowsDone: 0 },
          { consumed: 2, pages: 2, records: 3, window: window(0), windowsDone: 0 },
          // a window's start: every record counted has been pulled by the consumer
          { consumed: 3, pages: 2, records: 3, window: window(1), windowsDone: 1 },
          { consumed: 3, pages: 3, records: 4, window: window(1), windowsDone: 1 },
          { consumed: 4, pages: 3, records: 4, window: window(2), windowsDone: 2 },
          { consumed: 4, pages: 4, records: 4, window: window(2), windowsDone: 2 },
          { consumed: 4, pages: 4, records: 4, window: Option.none(), windowsDone: 3 }
        ]
      )
      assert.isTrue(reports.every((report) => report.windowsTotal === 3 && report.endpoint === "GET /api/v2/test/walk"))
    }))

  it.effect("count records, pages and windows, and read each page in a span with its window", () => {
    const { layer: tracing, spans } = recordSpans()
    const endpoint = "GET /api/v2/test/walk"
    return Effect.gen(function*() {
      const before = yield* Effect.all([
        count(Telemetry.streamRecords, { endpoint }),
        count(Telemetry.streamPages, { endpoint }),
        count(Telemetry.streamWindows, { endpoint })
      ])
      yield* Stream.runDrain(walkPages(Effect.succeed))
      const after = yield* Effect.all([
        count(Telemetry.streamRecords, { endpoint }),
        count(Telemetry.streamPages, { endpoint }),
        count(Telemetry.streamWindows, { endpoint })
      ])
      assert.deepStrictEqual(after.map((n, i) => n - before[i]!), [4, 4, 3])
      const pageSpans = spans.filter((span) => span.name === Telemetry.pageSpan)
      assert.deepStrictEqual(
        pageSpans.map((span) => [
          span.attributes[Telemetry.attributes.window],
          span.attributes[Telemetry.attributes.page],
          span.attributes[Telemetry.attributes.records]
        ]),
        [[0, 1, 2], [0, 2, 1], [1, 3, 1], [2, 4, 0]]
      )
      assert.deepStrictEqual(pageSpans[2]!.attributes, {
        [Telemetry.attributes.endpoint]: endpoint,
        [Telemetry.attributes.window]: 1,
        [Telemetry.attributes.windows]: 3,
        [Telemetry.attributes.windowStart]: "1970-01-02T00:00:00.000Z",
        [Telemetry.attributes.windowEnd]: "1970-01-02T23:59:59.999Z",
        [Telemetry.attributes.page]: 3,
        [Telemetry.attributes.records]: 1
      })
    }).pipe(Effect.provide(tracing))
  })

  it.effect("add the calls' rate-limit waits to the progress, and to each call's span", () => {
    // one call a second: the four pages wait 0, 1, 1 and 1 s (less the limiter's spacing)
    const endpoint = endpointNamed("telemetry.walked", 1)
    const { layer } = exchange((request) => ok({ value: request.url.searchParams.get("symbol") }), {
      credentials,
      rateLimit: { enabled: true }
    })
    const { layer: tracing, spans } = recordSpans()
    return Effect.gen(function*() {
      const reports: Array<StreamProgress.StreamProgress> = []
      const fiber = yield* walkPages((items) =>
        Effect.as(BitgetClient.execute(endpoint, { symbol: items.join("") || "none" }), items)
      ).pipe(
        StreamProgress.observe((progress) => Effect.sync(() => reports.push(progress))),
        Stream.runDrain,
        Effect.forkChild
      )
      yield* advance("10 seconds")
      yield* Fiber.join(fiber)
      const waited = spans
        .filter((span) => span.name === "bitget telemetry.walked")
        .map((span) => span.attributes[Telemetry.attributes.rateLimitWait] as number)
      assert.strictEqual(waited.length, 4)
      assert.strictEqual(waited[0], 0)
      assert.isTrue(waited.slice(1).every((millis) => millis > 0))
      const total = waited.reduce((sum, millis) => sum + millis, 0)
      assert.strictEqual(Duration.toMillis(reports.at(-1)!.limiterWait), total)
    }).pipe(Effect.provide(Layer.merge(layer, tracing)))
  })
})
