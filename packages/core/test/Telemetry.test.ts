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

/** `true` when two sets of metric attributes hold the same keys and values, in any order. */
const sameAttributes = (a: Metric.Metric.AttributeSet | undefined, b: Metric.Metric.AttributeSet): boolean =>
  a !== undefined && Object.keys(a).length === Object.keys(b).length &&
  Object.entries(b).every(([key, value]) => a[key] === value)

/**
 * The series of a metric in the process-wide registry, found by the metric's name as written in
 * docs/observability.md and its attributes (the metrics are global: tests read endpoints of their own).
 */
const series = (name: string, attributes: Metric.Metric.AttributeSet) =>
  Effect.map(
    Metric.snapshot,
    (metrics) => metrics.find((metric) => metric.id === name && sameAttributes(metric.attributes, attributes))
  )

/** The count of a counter's or histogram's series, 0 while it has never been updated. */
const count = (name: string, attributes: Metric.Metric.AttributeSet) =>
  Effect.map(series(name, attributes), (metric) => {
    if (metric === undefined) return 0
    if (metric.type !== "Counter" && metric.type !== "Histogram") return assert.fail(`${name} is a ${metric.type}`)
    return Number(metric.state.count)
  })

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
        "bitget.endpoint": "GET /api/v2/test/telemetry.retried",
        "bitget.operation": "telemetry.retried",
        "http.request.method": "GET",
        "url.path": "/api/v2/test/telemetry.retried",
        "bitget.attempt": 2,
        "bitget.rate_limit.wait_ms": 0,
        "bitget.retry.reasons": "HTTP 503"
      })
      const attempts = spans.filter((span) => span.name === "GET /api/v2/test/telemetry.retried")
      assert.deepStrictEqual(attempts.map((span) => [span.parent, span.kind]), [
        ["bitget telemetry.retried", "client"],
        ["bitget telemetry.retried", "client"]
      ])
      // the attempt's own attributes: no path (its URL holds it, never the query)
      const attempt = {
        "bitget.endpoint": "GET /api/v2/test/telemetry.retried",
        "http.request.method": "GET",
        "url.full": "https://api.example.test/api/v2/test/telemetry.retried",
        "bitget.rate_limit.wait_ms": 0
      }
      assert.deepStrictEqual(attempts.map((span) => span.attributes), [
        {
          ...attempt,
          "bitget.attempt": 1,
          "http.response.status_code": 503,
          "error.type": "BitgetApiError",
          "bitget.error.code": "50000"
        },
        { ...attempt, "bitget.attempt": 2, "http.response.status_code": 200 }
      ])
      // one line per retry: reason, attempt, delay
      assert.deepStrictEqual(lines.filter((line) => line.includes("retry:")), [
        `INFO retry: ${label} attempt 2 in 200 ms after HTTP 503: ${label} failed with code 50000 (Unknown, HTTP 503): busy`
      ])
      assert.strictEqual(yield* count("bitget_retries", { endpoint: label, reason: "HTTP 503" }), 1)
      assert.strictEqual(yield* count("bitget_requests", { endpoint: label, outcome: "success" }), 1)
      assert.strictEqual(yield* count("bitget_requests", { endpoint: label, outcome: "failure" }), 0)
      const duration = yield* series("bitget_request_duration_ms", { endpoint: label })
      assert.strictEqual(duration?.type, "Histogram")
      if (duration?.type === "Histogram") {
        assert.strictEqual(duration.state.count, 1)
        // buckets doubling from 1 ms to 65,536 ms
        assert.deepStrictEqual(
          duration.state.buckets.map(([boundary]) => boundary),
          [...Array.from({ length: 17 }, (_, i) => 2 ** i), Number.POSITIVE_INFINITY]
        )
      }
    }).pipe(Effect.provide(Layer.mergeAll(layer, tracing, logging)))
  })

  it.effect("a request refused before sending is a call span of 0 attempts, without an attempt span", () => {
    const endpoint = endpointNamed("telemetry.refused")
    const label = Endpoint.label(endpoint)
    const { layer, requests } = exchange(() => ok({ value: "fine" }), {}) // a signed endpoint, no credentials
    const { layer: tracing, spans } = recordSpans()
    return Effect.gen(function*() {
      const error = yield* Effect.flip(BitgetClient.execute(endpoint, { symbol: "BTCUSDT" }))
      assert.strictEqual(error._tag, "BitgetRequestError")
      assert.strictEqual(requests.length, 0)
      assert.deepStrictEqual(spans.map((span) => span.name), ["bitget telemetry.refused"])
      assert.deepStrictEqual(spans[0]!.attributes, {
        "bitget.endpoint": "GET /api/v2/test/telemetry.refused",
        "bitget.operation": "telemetry.refused",
        "http.request.method": "GET",
        "url.path": "/api/v2/test/telemetry.refused",
        "bitget.attempt": 0,
        "bitget.rate_limit.wait_ms": 0,
        "error.type": "BitgetRequestError"
      })
      assert.strictEqual(yield* count("bitget_errors", { endpoint: label, type: "BitgetRequestError", code: "" }), 1)
      assert.strictEqual(yield* count("bitget_requests", { endpoint: label, outcome: "failure" }), 1)
    }).pipe(Effect.provide(Layer.merge(layer, tracing)))
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
      assert.strictEqual(call?.attributes["error.type"], "BitgetApiError")
      assert.strictEqual(call?.attributes["bitget.error.code"], "40009")
      assert.strictEqual(call?.attributes["bitget.attempt"], 1)
      assert.isUndefined(call?.attributes["bitget.retry.reasons"])
      const attempt = spans.find((span) => span.name === "GET /api/v2/test/telemetry.failed")
      assert.strictEqual(attempt?.attributes["error.type"], "BitgetApiError")
      assert.strictEqual(attempt?.attributes["bitget.error.code"], "40009")
      assert.strictEqual(attempt?.attributes["http.response.status_code"], 400)
      assert.strictEqual(
        yield* count("bitget_errors", { endpoint: label, type: "BitgetApiError", code: "40009" }),
        1
      )
      assert.strictEqual(yield* count("bitget_requests", { endpoint: label, outcome: "failure" }), 1)
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
      assert.strictEqual(yield* count("bitget_requests", { endpoint: label, outcome: "interrupted" }), 1)
      assert.strictEqual(yield* count("bitget_requests", { endpoint: label, outcome: "failure" }), 0)
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
      assert.strictEqual(yield* count("bitget_rate_limit_rejections", { endpoint: label }), 1)
      assert.strictEqual(yield* count("bitget_retries", { endpoint: label, reason: "RateLimited" }), 1)
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
      assert.strictEqual(call?.attributes["bitget.retry.reasons"], "ClockSkew")
      assert.strictEqual(call?.attributes["bitget.attempt"], 2)
      assert.strictEqual(yield* count("bitget_retries", { endpoint: label, reason: "ClockSkew" }), 1)
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
        count("bitget_stream_records", { endpoint }),
        count("bitget_stream_pages", { endpoint }),
        count("bitget_stream_windows", { endpoint })
      ])
      yield* Stream.runDrain(walkPages(Effect.succeed))
      const after = yield* Effect.all([
        count("bitget_stream_records", { endpoint }),
        count("bitget_stream_pages", { endpoint }),
        count("bitget_stream_windows", { endpoint })
      ])
      assert.deepStrictEqual(after.map((n, i) => n - before[i]!), [4, 4, 3])
      const pageSpans = spans.filter((span) => span.name === "bitget.stream.page")
      assert.deepStrictEqual(
        pageSpans.map((span) => [
          span.attributes["bitget.stream.window"],
          span.attributes["bitget.stream.page"],
          span.attributes["bitget.stream.records"]
        ]),
        [[0, 1, 2], [0, 2, 1], [1, 3, 1], [2, 4, 0]]
      )
      assert.deepStrictEqual(pageSpans[2]!.attributes, {
        "bitget.endpoint": endpoint,
        "bitget.stream.window": 1,
        "bitget.stream.windows": 3,
        "bitget.stream.window.start": "1970-01-02T00:00:00.000Z",
        "bitget.stream.window.end": "1970-01-02T23:59:59.999Z",
        "bitget.stream.page": 3,
        "bitget.stream.records": 1
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
        .map((span) => span.attributes["bitget.rate_limit.wait_ms"] as number)
      assert.strictEqual(waited.length, 4)
      assert.strictEqual(waited[0], 0)
      assert.isTrue(waited.slice(1).every((millis) => millis > 0))
      const total = waited.reduce((sum, millis) => sum + millis, 0)
      assert.strictEqual(Duration.toMillis(reports.at(-1)!.limiterWait), total)
      // the attempts' own waits, and the limiter's metrics: three calls waited, for as long as the spans say
      const attemptWaits = spans
        .filter((span) => span.name === "GET /api/v2/test/telemetry.walked")
        .map((span) => span.attributes["bitget.rate_limit.wait_ms"])
      assert.deepStrictEqual(attemptWaits, waited)
      const endpointOnly = { endpoint: "GET /api/v2/test/telemetry.walked" }
      assert.strictEqual(yield* count("bitget_rate_limit_waits", endpointOnly), 3)
      const waitTime = yield* series("bitget_rate_limit_wait_ms", endpointOnly)
      assert.strictEqual(waitTime?.type, "Histogram")
      if (waitTime?.type === "Histogram") {
        assert.strictEqual(waitTime.state.count, 3)
        assert.strictEqual(waitTime.state.sum, total)
        // buckets doubling from 1 ms to 16,384 ms
        assert.deepStrictEqual(
          waitTime.state.buckets.map(([boundary]) => boundary),
          [...Array.from({ length: 15 }, (_, i) => 2 ** i), Number.POSITIVE_INFINITY]
        )
      }
    }).pipe(Effect.provide(Layer.merge(layer, tracing)))
  })
})

describe("names", () => {
  // the names docs/observability.md lists, which users' dashboards and alerts rely on: written out here, so that
  // renaming a constant fails (the tests above read what the client emits under the same literal names)
  it("the span attribute keys and the page span's name are the documented ones", () => {
    assert.deepStrictEqual(Telemetry.attributes, {
      endpoint: "bitget.endpoint",
      operation: "bitget.operation",
      method: "http.request.method",
      path: "url.path",
      url: "url.full",
      attempt: "bitget.attempt",
      retryReasons: "bitget.retry.reasons",
      rateLimitWait: "bitget.rate_limit.wait_ms",
      status: "http.response.status_code",
      errorType: "error.type",
      errorCode: "bitget.error.code",
      window: "bitget.stream.window",
      windows: "bitget.stream.windows",
      windowStart: "bitget.stream.window.start",
      windowEnd: "bitget.stream.window.end",
      page: "bitget.stream.page",
      records: "bitget.stream.records"
    })
    assert.strictEqual(Telemetry.pageSpan, "bitget.stream.page")
  })

  it("the metrics are the documented ones, of the documented kinds", () => {
    const metrics = [
      Telemetry.requests,
      Telemetry.duration,
      Telemetry.retries,
      Telemetry.errors,
      Telemetry.streamRecords,
      Telemetry.streamPages,
      Telemetry.streamWindows,
      RateLimiter.waits,
      RateLimiter.waitTime,
      RateLimiter.rejections,
      RateLimiter.storeFallbacks
    ]
    assert.deepStrictEqual(metrics.map((metric) => [metric.id, metric.type]), [
      ["bitget_requests", "Counter"],
      ["bitget_request_duration_ms", "Histogram"],
      ["bitget_retries", "Counter"],
      ["bitget_errors", "Counter"],
      ["bitget_stream_records", "Counter"],
      ["bitget_stream_pages", "Counter"],
      ["bitget_stream_windows", "Counter"],
      ["bitget_rate_limit_waits", "Counter"],
      ["bitget_rate_limit_wait_ms", "Histogram"],
      ["bitget_rate_limit_rejections", "Counter"],
      ["bitget_rate_limit_store_fallbacks", "Counter"]
    ])
  })
})
