/**
 * The telemetry contract of docs/observability.md, checked through
 * `@effect/opentelemetry` as users wire it (`NodeSdk.layer`, in-memory
 * exporters), with real calls over HTTP: span names and parents, attributes,
 * metrics and their attributes, and that no exported byte holds a credential or a
 * signature, even from a server that echoes them. Then the guide's two
 * exporter examples run as programs against a sandbox: the OTLP one to a
 * local receiver standing in for a collector, the console one to stdout.
 */
import type { BitgetConfig } from "@bitget-effect/core"
import { Credentials, P2pOrders, StreamProgress, Symbols, TaxRecords, Telemetry } from "@bitget-effect/core"
import { BitgetNode } from "@bitget-effect/platform-node"
import { Fault, Sandbox } from "@bitget-effect/sandbox"
import * as NodeSdk from "@effect/opentelemetry/NodeSdk"
import { assert, describe, it } from "@effect/vitest"
import { SpanKind, SpanStatusCode } from "@opentelemetry/api"
import type { ResourceMetrics } from "@opentelemetry/sdk-metrics"
import {
  AggregationTemporality,
  DataPointType,
  InMemoryMetricExporter,
  PeriodicExportingMetricReader
} from "@opentelemetry/sdk-metrics"
import type { ReadableSpan } from "@opentelemetry/sdk-trace-base"
import { InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base"
import { DateTime, Effect, Exit, Logger, Metric, Stream } from "effect"
import { execFile } from "node:child_process"
import type { IncomingMessage, ServerResponse } from "node:http"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { fileURLToPath } from "node:url"

const A = Telemetry.attributes
const symbolsLabel = "GET /api/v2/spot/public/symbols"
const taxLabel = "GET /api/v2/tax/spot-record"
const p2pLabel = "GET /api/v2/p2p/orderList"
const DAY = 86_400_000

/** A sandbox with small data sets and no server-side limits (the client's own limiter still runs). */
const sandbox = Sandbox.make({
  limits: false,
  sizes: { taxRecords: 400, taxDays: 60, taxBurst: 0, p2pOrders: 10, futuresOrders: 10 }
})

/** What one scenario exported: its spans, and every metric collection (the first before it ran, the last at shutdown). */
interface Exported<A, E> {
  readonly exit: Exit.Exit<A, E>
  readonly spans: ReadonlyArray<ReadableSpan>
  readonly metrics: ReadonlyArray<ResourceMetrics>
}

/**
 * Runs a scenario with `NodeSdk.layer` wired to in-memory exporters, as a
 * user's test would; metrics are collected once before the scenario (a
 * baseline: Effect's metric registry is global and cumulative) and once when
 * the layer closes.
 */
const observed = <A, E, R>(scenario: Effect.Effect<A, E, R>) =>
  Effect.gen(function*() {
    const spans = new InMemorySpanExporter()
    const metrics = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE)
    const reader = new PeriodicExportingMetricReader({ exporter: metrics, exportIntervalMillis: 3_600_000 })
    // the spans are taken before the layer closes (shutting the exporter down empties it)
    const [exit, finished] = yield* Effect.promise(() => reader.forceFlush()).pipe(
      Effect.andThen(Effect.exit(scenario)),
      Effect.map((exit) => [exit, [...spans.getFinishedSpans()]] as const),
      Effect.provide(NodeSdk.layer(() => ({
        resource: { serviceName: "telemetry-check" },
        spanProcessor: new SimpleSpanProcessor(spans),
        metricReader: reader
      }))),
      // log lines stay span events, but are not printed
      Effect.provide(Logger.layer([Logger.tracerLogger]))
    )
    const exported: Exported<A, E> = { exit, spans: finished, metrics: metrics.getMetrics() }
    assert.isAtLeast(exported.metrics.length, 2, "a baseline collection and a final one at shutdown")
    return exported
  })

/** The value of each exported data point, keyed `name{key=value,...}` (attributes sorted); histograms by their count. */
const points = (collection: ResourceMetrics | undefined): Map<string, { value: number; sum?: number }> => {
  const out = new Map<string, { value: number; sum?: number }>()
  for (const scope of collection?.scopeMetrics ?? []) {
    for (const metric of scope.metrics) {
      for (const point of metric.dataPoints) {
        const attributes = Object.entries(point.attributes).map(([k, v]) => `${k}=${String(v)}`).sort().join(",")
        const key = `${metric.descriptor.name}{${attributes}}`
        if (metric.dataPointType === DataPointType.HISTOGRAM) {
          const value = point.value as { count: number; sum?: number }
          out.set(key, value.sum === undefined ? { value: value.count } : { value: value.count, sum: value.sum })
        } else {
          out.set(key, { value: point.value as number })
        }
      }
    }
  }
  return out
}

/** How much a data point grew during the scenario (by its name and exact attributes). */
const delta = (
  exported: Exported<unknown, unknown>,
  name: string,
  attributes: Readonly<Record<string, string>>,
  field: "value" | "sum" = "value"
): number => {
  const key = `${name}{${Object.entries(attributes).map(([k, v]) => `${k}=${v}`).sort().join(",")}}`
  const after = points(exported.metrics.at(-1)).get(key)
  assert.isDefined(after, `no data point ${key} was exported`)
  return (after![field] ?? 0) - (points(exported.metrics[0]).get(key)?.[field] ?? 0)
}

/** The metric names of the final collection. */
const metricNames = (exported: Exported<unknown, unknown>): ReadonlyArray<string> =>
  (exported.metrics.at(-1)?.scopeMetrics ?? []).flatMap((scope) => scope.metrics.map((m) => m.descriptor.name))

const named = (spans: ReadonlyArray<ReadableSpan>, name: string) => spans.filter((span) => span.name === name)
const idOf = (span: ReadableSpan) => span.spanContext().spanId
const childrenOf = (spans: ReadonlyArray<ReadableSpan>, parent: ReadableSpan) =>
  spans.filter((span) => span.parentSpanContext?.spanId === idOf(parent))
const byStart = (spans: ReadonlyArray<ReadableSpan>) =>
  [...spans].sort((a, b) => a.startTime[0] - b.startTime[0] || a.startTime[1] - b.startTime[1])

/** Everything a span exports that text could hide in, as JSON. */
const spanJson = (spans: ReadonlyArray<ReadableSpan>): string =>
  JSON.stringify(spans.map((span) => ({
    name: span.name,
    attributes: span.attributes,
    events: span.events.map((event) => ({ name: event.name, attributes: event.attributes })),
    status: span.status,
    links: span.links,
    resource: span.resource.attributes
  })))

/** Every exported byte of a scenario, spans and metrics, as JSON. */
const everything = (exported: Exported<unknown, unknown>): string =>
  spanJson(exported.spans) + JSON.stringify(exported.metrics.map((collection) => collection.scopeMetrics))

/** Every spelling of a value a server might echo, or a careless recorder might store. */
const spellings = (value: string): ReadonlyArray<string> => [
  value,
  JSON.stringify(value).slice(1, -1),
  encodeURIComponent(value),
  encodeURIComponent(value).replace(/%[0-9A-F]{2}/g, (s) => s.toLowerCase())
]

const assertNoSecret = (text: string, secrets: ReadonlyArray<string>, what: string) => {
  for (const secret of secrets) {
    for (const spelling of spellings(secret)) {
      assert.isFalse(text.includes(spelling), `${what} holds a secret (${secret.slice(0, 6)}…)`)
    }
  }
}

/** The real client over undici, pointed at a base URL. */
const client = (baseUrl: string, options: Omit<BitgetConfig.BitgetOptionsInput, "baseUrl"> = {}) =>
  BitgetNode.layer({ retry: { baseDelay: "10 millis" }, ...options, baseUrl })

describe("telemetry through @effect/opentelemetry", () => {
  it.live("a call: a call span, its attempt span as a child, the attributes and metrics documented", () =>
    Effect.gen(function*() {
      const exchange = yield* sandbox
      // the same counter read in-process, with attributes as the guide shows (no OpenTelemetry needed)
      const inProcess = Metric.withAttributes(Telemetry.requests, { endpoint: symbolsLabel, outcome: "success" })
      const before = (yield* Metric.value(inProcess)).count
      const exported = yield* observed(
        Symbols.symbols({ symbol: "ETHUSDT" }).pipe(Effect.provide(client(exchange.url)))
      )
      assert.strictEqual((yield* Metric.value(inProcess)).count - before, 1, "Metric.value of the series")
      assert.isTrue(Exit.isSuccess(exported.exit))
      const [call, ...more] = named(exported.spans, "bitget spot.symbols")
      assert.isDefined(call)
      assert.lengthOf(more, 0)
      assert.deepStrictEqual(call!.attributes, {
        [A.endpoint]: symbolsLabel,
        [A.operation]: "spot.symbols",
        [A.method]: "GET",
        [A.path]: "/api/v2/spot/public/symbols",
        [A.attempt]: 1,
        [A.rateLimitWait]: 0
      })
      assert.strictEqual(call!.kind, SpanKind.INTERNAL)
      assert.strictEqual(call!.status.code, SpanStatusCode.OK)

      const attempts = childrenOf(exported.spans, call!)
      assert.deepStrictEqual(attempts.map((span) => span.name), [symbolsLabel])
      const attempt = attempts[0]!
      assert.strictEqual(attempt.kind, SpanKind.CLIENT)
      assert.deepStrictEqual(attempt.attributes, {
        [A.endpoint]: symbolsLabel,
        [A.method]: "GET",
        [A.url]: `${exchange.url}/api/v2/spot/public/symbols`, // no query
        [A.attempt]: 1,
        [A.rateLimitWait]: 0,
        [A.status]: 200
      })
      assert.notInclude(everything(exported), "ETHUSDT", "a query value was recorded")

      assert.strictEqual(delta(exported, "bitget_requests", { endpoint: symbolsLabel, outcome: "success" }), 1)
      assert.strictEqual(delta(exported, "bitget_request_duration_ms", { endpoint: symbolsLabel }), 1)
    }))

  it.live("a retried call: attempts 2, reasons \"HTTP 503\", two attempt spans, bitget_retries by reason", () =>
    Effect.gen(function*() {
      const exchange = yield* sandbox
      yield* exchange.inject("symbols", Fault.httpError(503))
      const exported = yield* observed(Symbols.symbols().pipe(Effect.provide(client(exchange.url))))
      assert.isTrue(Exit.isSuccess(exported.exit))
      const [call] = named(exported.spans, "bitget spot.symbols")
      assert.strictEqual(call!.attributes[A.attempt], 2)
      assert.strictEqual(call!.attributes[A.retryReasons], "HTTP 503")
      assert.isUndefined(call!.attributes[A.errorType], "the call succeeded")

      const attempts = byStart(childrenOf(exported.spans, call!))
      assert.deepStrictEqual(attempts.map((span) => span.name), [symbolsLabel, symbolsLabel])
      assert.deepStrictEqual(attempts.map((span) => span.attributes[A.attempt]), [1, 2])
      assert.deepStrictEqual(attempts.map((span) => span.attributes[A.status]), [503, 200])
      assert.strictEqual(attempts[0]!.attributes[A.errorType], "BitgetHttpError")
      assert.strictEqual(attempts[0]!.status.code, SpanStatusCode.ERROR)
      assert.strictEqual(attempts[1]!.status.code, SpanStatusCode.OK)

      // the retry's log line is an event of the call span, at INFO
      const retry = call!.events.find((event) => event.name.startsWith(`retry: ${symbolsLabel} attempt 2 in `))
      assert.isDefined(retry, JSON.stringify(call!.events.map((e) => e.name)))
      assert.strictEqual(retry!.attributes?.["effect.logLevel"], "INFO")

      assert.strictEqual(delta(exported, "bitget_retries", { endpoint: symbolsLabel, reason: "HTTP 503" }), 1)
      assert.strictEqual(delta(exported, "bitget_requests", { endpoint: symbolsLabel, outcome: "success" }), 1)
    }))

  it.live("a failed call: error.type and bitget.error.code on both spans, bitget_errors by type and code", () =>
    Effect.gen(function*() {
      const exchange = yield* sandbox
      yield* exchange.inject("symbols", Fault.errorCode("40009"))
      const exported = yield* observed(Symbols.symbols().pipe(Effect.provide(client(exchange.url))))
      assert.isTrue(Exit.isFailure(exported.exit))
      const [call] = named(exported.spans, "bitget spot.symbols")
      assert.strictEqual(call!.status.code, SpanStatusCode.ERROR)
      assert.include(call!.attributes, { [A.errorType]: "BitgetApiError", [A.errorCode]: "40009", [A.attempt]: 1 })
      assert.isUndefined(call!.attributes[A.retryReasons], "not retried")
      const [attempt, ...more] = childrenOf(exported.spans, call!)
      assert.lengthOf(more, 0)
      assert.include(attempt!.attributes, { [A.errorType]: "BitgetApiError", [A.errorCode]: "40009", [A.status]: 200 })

      assert.strictEqual(
        delta(exported, "bitget_errors", { endpoint: symbolsLabel, type: "BitgetApiError", code: "40009" }),
        1
      )
      assert.strictEqual(delta(exported, "bitget_requests", { endpoint: symbolsLabel, outcome: "failure" }), 1)
    }))

  it.live("a refused timestamp: a clock-sync span under the call, reason ClockSkew, the two log lines", () =>
    Effect.gen(function*() {
      const exchange = yield* sandbox
      yield* exchange.setClockOffset(120_000) // the exchange's clock two minutes ahead: 40008, sync, retry
      const exported = yield* observed(
        P2pOrders.p2pOrders().pipe(
          Effect.provide(client(exchange.url, { credentials: Credentials.hmac(exchange.credentials.hmac) }))
        )
      )
      assert.isTrue(Exit.isSuccess(exported.exit))
      const [call] = named(exported.spans, "bitget p2p.orderList")
      assert.include(call!.attributes, { [A.attempt]: 2, [A.retryReasons]: "ClockSkew" })
      const children = byStart(childrenOf(exported.spans, call!))
      assert.deepStrictEqual(children.map((span) => span.name), [p2pLabel, "GET /api/v2/public/time", p2pLabel])
      assert.include(children[0]!.attributes, { [A.attempt]: 1, [A.errorCode]: "40008" })
      assert.include(children[2]!.attributes, { [A.attempt]: 2, [A.status]: 200 })
      const lines = call!.events.map((event) => event.name)
      assert.isTrue(
        lines.some((line) =>
          line === `retry: ${p2pLabel} attempt 2 after the exchange refused the timestamp; syncing the clock`
        ),
        lines.join("\n")
      )
      assert.isTrue(lines.some((line) => line.startsWith("clock: synced with the exchange, offset ")), lines.join("\n"))
      assert.strictEqual(delta(exported, "bitget_retries", { endpoint: p2pLabel, reason: "ClockSkew" }), 1)
    }))

  it.live("a request refused before sending: attempts 0, no attempt span, bitget_errors with an empty code", () =>
    Effect.gen(function*() {
      const exchange = yield* sandbox
      const exported = yield* observed(
        Symbols.symbols({ symbol: "BTC\nUSDT" }).pipe(Effect.provide(client(exchange.url)))
      )
      assert.isTrue(Exit.isFailure(exported.exit))
      const [call] = named(exported.spans, "bitget spot.symbols")
      assert.include(call!.attributes, { [A.attempt]: 0, [A.errorType]: "BitgetRequestError" })
      assert.isUndefined(call!.attributes[A.errorCode])
      assert.lengthOf(childrenOf(exported.spans, call!), 0)
      assert.strictEqual(
        delta(exported, "bitget_errors", { endpoint: symbolsLabel, type: "BitgetRequestError", code: "" }),
        1
      )
      assert.lengthOf(yield* exchange.requests, 0, "nothing was sent")
    }))

  it.live("a burst on a limited route: the wait on call and attempt spans, bitget_rate_limit_* metrics", () =>
    Effect.gen(function*() {
      const exchange = yield* sandbox
      const limited = client(exchange.url, {
        rateLimit: { overrides: { "spot.symbols": { limit: 1, window: "150 millis" } } }
      })
      const exported = yield* observed(
        Effect.all([1, 2, 3].map(() => Symbols.symbols()), { concurrency: "unbounded" }).pipe(Effect.provide(limited))
      )
      assert.isTrue(Exit.isSuccess(exported.exit))
      const calls = named(exported.spans, "bitget spot.symbols")
      assert.lengthOf(calls, 3)
      const waits = calls.map((call) => {
        const wait = call.attributes[A.rateLimitWait] as number
        const [attempt] = childrenOf(exported.spans, call)
        assert.strictEqual(attempt!.attributes[A.rateLimitWait], wait, "one attempt: its wait is the call's")
        return wait
      })
      const waited = waits.filter((wait) => wait > 0)
      assert.isAtLeast(waited.length, 2, `waits: ${waits}`)
      assert.isAtLeast(Math.max(...waited), 250, `waits: ${waits}`) // the third call waits two windows

      assert.strictEqual(delta(exported, "bitget_rate_limit_waits", { endpoint: symbolsLabel }), waited.length)
      assert.strictEqual(delta(exported, "bitget_rate_limit_wait_ms", { endpoint: symbolsLabel }), waited.length)
      assert.closeTo(
        delta(exported, "bitget_rate_limit_wait_ms", { endpoint: symbolsLabel }, "sum"),
        waited.reduce((a, b) => a + b, 0),
        1
      )
    }))

  it.live("a stream: a span per page, parent of the page's call span; bitget_stream_*; progress agrees", () =>
    Effect.gen(function*() {
      const exchange = yield* sandbox
      const demo = exchange.credentials.hmac
      const reports: Array<StreamProgress.StreamProgress> = []
      const exported = yield* observed(
        TaxRecords.stream({
          startTime: DateTime.makeUnsafe(exchange.anchor - 50 * DAY),
          endTime: DateTime.makeUnsafe(exchange.anchor),
          pageSize: 100
        }).pipe(
          StreamProgress.observe((progress) => Effect.sync(() => reports.push(progress))),
          Stream.runCount,
          Effect.withSpan("export-job"),
          Effect.provide(client(exchange.url, {
            credentials: Credentials.hmac(demo),
            rateLimit: { overrides: { "tax.spotRecords": { limit: 100, window: "1 second" } } }
          }))
        )
      )
      assert.isTrue(Exit.isSuccess(exported.exit))
      const records = Exit.isSuccess(exported.exit) ? exported.exit.value : 0
      assert.isAbove(records, 200)

      const [job] = named(exported.spans, "export-job")
      const pages = byStart(named(exported.spans, Telemetry.pageSpan))
      assert.isAtLeast(pages.length, 4)
      assert.isTrue(pages.every((page) => page.parentSpanContext?.spanId === idOf(job!)), "pages under the caller")
      assert.deepStrictEqual(pages.map((page) => page.attributes[A.page]), pages.map((_, i) => i + 1))
      assert.deepStrictEqual([...new Set(pages.map((page) => page.attributes[A.window]))], [0, 1])
      for (const page of pages) {
        assert.strictEqual(page.attributes[A.endpoint], taxLabel)
        assert.strictEqual(page.attributes[A.windows], 2)
        const start = Date.parse(page.attributes[A.windowStart] as string)
        const end = Date.parse(page.attributes[A.windowEnd] as string)
        assert.isTrue(start < end && end <= exchange.anchor && start >= exchange.anchor - 50 * DAY)
        assert.isNumber(page.attributes[A.records])
        // each page is one call, with one attempt
        const [call, ...more] = childrenOf(exported.spans, page)
        assert.lengthOf(more, 0)
        assert.strictEqual(call!.name, "bitget tax.spotRecords")
        assert.deepStrictEqual(childrenOf(exported.spans, call!).map((span) => span.name), [taxLabel])
      }
      assert.lengthOf(named(exported.spans, "bitget tax.spotRecords"), pages.length, "no call outside a page")
      const emitted = pages.reduce((sum, page) => sum + (page.attributes[A.records] as number), 0)
      assert.strictEqual(emitted, records, "no duplicates at the edges here: every record read was emitted")

      assert.strictEqual(delta(exported, "bitget_stream_records", { endpoint: taxLabel }), records)
      assert.strictEqual(delta(exported, "bitget_stream_pages", { endpoint: taxLabel }), pages.length)
      assert.strictEqual(delta(exported, "bitget_stream_windows", { endpoint: taxLabel }), 2)
      assert.strictEqual(delta(exported, "bitget_requests", { endpoint: taxLabel, outcome: "success" }), pages.length)

      const last = reports.at(-1)!
      assert.deepInclude(last, { endpoint: taxLabel, records, pages: pages.length, windowsDone: 2, windowsTotal: 2 })

      // signed calls: the demo key, its secret and passphrase appear nowhere
      assertNoSecret(everything(exported), [demo.apiKey, demo.secret, demo.passphrase], "the exported data")
    }))

  it.live("an exchange echoing every header in every spelling: no credential or signature is exported", () =>
    Effect.gen(function*() {
      const apiKey = "bg_echoed_api_key_123"
      const secret = "echoed-hmac-secret-0123456789abcdef"
      const passphrase = "pass/phrase+\"quoted\" &more"
      const signatures: Array<string> = []
      const headerNames: Array<string> = []
      let answered = 0
      // 503 with an HTML page, then 429, then 200 with code 40009: each echoing every request header
      const echo = (request: IncomingMessage, response: ServerResponse) => {
        const echoed = Object.entries(request.headers).flatMap(([name, value]) =>
          spellings(String(value)).map((spelling) => `${name}=${spelling}`)
        )
        signatures.push(String(request.headers["access-sign"]))
        headerNames.push(...Object.keys(request.headers))
        const header = { "x-echo": encodeURIComponent(echoed.join(";")) }
        answered += 1
        if (answered === 1) {
          response.writeHead(503, { ...header, "content-type": "text/html" })
          return response.end(`<html><body>gateway: ${echoed.join(" ")}</body></html>`)
        }
        const code = answered === 2 ? "429" : "40009"
        const wait = answered === 2 ? { "retry-after": "0" } : {}
        response.writeHead(answered === 2 ? 429 : 200, { ...header, ...wait, "content-type": "application/json" })
        response.end(JSON.stringify({ code, msg: `bad request ${echoed.join(" ")}`, requestTime: 0, data: echoed }))
      }
      const server = yield* Effect.acquireRelease(
        Effect.callback<ReturnType<typeof createServer>>((resume) => {
          const started = createServer(echo).listen(0, "127.0.0.1", () => resume(Effect.succeed(started)))
        }),
        (started) =>
          Effect.callback<void>((resume) => {
            started.close(() => resume(Effect.void))
          })
      )
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
      const exported = yield* observed(
        P2pOrders.p2pOrders().pipe(
          Effect.provide(client(url, { credentials: Credentials.hmac({ apiKey, secret, passphrase }) }))
        )
      )
      assert.isTrue(Exit.isFailure(exported.exit))
      assert.strictEqual(answered, 3)
      const [call] = named(exported.spans, "bitget p2p.orderList")
      assert.include(call!.attributes, {
        [A.attempt]: 3,
        [A.retryReasons]: "HTTP 503,RateLimited",
        [A.errorCode]: "40009"
      })
      assert.lengthOf(childrenOf(exported.spans, call!), 3)
      // the echo reached what is exported, scrubbed
      const text = everything(exported)
      assert.include(text, "<redacted>")
      assert.include(call!.events.map((event) => event.name).join("\n"), "retry: GET /api/v2/p2p/orderList attempt 2")
      assert.strictEqual(delta(exported, "bitget_rate_limit_rejections", { endpoint: p2pLabel }), 1)
      assert.strictEqual(delta(exported, "bitget_retries", { endpoint: p2pLabel, reason: "RateLimited" }), 1)
      assert.lengthOf(signatures, 3)
      for (const name of ["traceparent", "tracestate", "b3", "x-b3-traceid"]) {
        assert.notInclude(headerNames, name, "no trace propagation to the exchange")
      }
      assertNoSecret(text, [apiKey, secret, passphrase, ...signatures], "the exported data")
      assert.includeMembers([...metricNames(exported)], ["bitget_requests", "bitget_errors", "bitget_retries"])
    }))
})

describe("the guide's exporter examples, run against a sandbox", () => {
  const packageDir = fileURLToPath(new URL("../..", import.meta.url))

  /** Runs an example of src/ as a program; yields its exit code and output. */
  const run = (example: string, env: Readonly<Record<string, string>>) =>
    Effect.callback<{ readonly code: number | null; readonly stdout: string; readonly stderr: string }>((resume) => {
      execFile(
        process.execPath,
        ["--conditions=@bitget-effect/source", "--import", "tsx", `src/${example}.ts`],
        { cwd: packageDir, env: { PATH: process.env.PATH, ...env }, timeout: 30_000, maxBuffer: 16 * 1024 * 1024 },
        (error, stdout, stderr) =>
          resume(Effect.succeed({ code: error === null ? 0 : error.code as number | null, stdout, stderr }))
      )
    })

  it.live(
    "otel-otlp sends spans and metrics to a collector; otel-console prints them",
    () =>
      Effect.gen(function*() {
        const exchange = yield* Sandbox.make()
        const demo = exchange.credentials.hmac
        // a stand-in for an OpenTelemetry collector: OTLP/HTTP JSON on /v1/traces and /v1/metrics
        const received: Record<string, Array<string>> = { "/v1/traces": [], "/v1/metrics": [] }
        const collector = yield* Effect.acquireRelease(
          Effect.callback<ReturnType<typeof createServer>>((resume) => {
            const started = createServer((request, response) => {
              let body = ""
              request.on("data", (chunk: Buffer) => (body += chunk.toString()))
              request.on("end", () => {
                const bucket = request.method === "POST" ? received[request.url ?? ""] : undefined
                bucket?.push(body)
                response.writeHead(bucket === undefined ? 404 : 200, { "content-type": "application/json" })
                response.end("{}")
              })
            }).listen(0, "127.0.0.1", () => resume(Effect.succeed(started)))
          }),
          (started) =>
            Effect.callback<void>((resume) => {
              started.close(() => resume(Effect.void))
            })
        )
        const env = {
          BITGET_BASE_URL: exchange.url,
          BITGET_API_KEY: demo.apiKey,
          BITGET_API_SECRET: demo.secret,
          BITGET_API_PASSPHRASE: demo.passphrase,
          OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${(collector.address() as AddressInfo).port}`
        }
        const [otlp, console] = yield* Effect.all([run("otel-otlp", env), run("otel-console", env)], {
          concurrency: "unbounded"
        })

        assert.strictEqual(otlp.code, 0, otlp.stderr)
        const traces = received["/v1/traces"]!.map((body) =>
          JSON.parse(body) as { resourceSpans: Array<{ scopeSpans: Array<{ spans: Array<{ name: string }> }> }> }
        )
        const spanNames = new Set(
          traces.flatMap((t) => t.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans.map((x) => x.name))))
        )
        for (const name of ["weekly-export", "bitget spot.symbols", symbolsLabel, "bitget.stream.page", taxLabel]) {
          assert.isTrue(spanNames.has(name), `the collector got no ${name} span: ${[...spanNames]}`)
        }
        const metrics = received["/v1/metrics"]!.join("\n")
        for (const name of ["bitget_requests", "bitget_request_duration_ms", "bitget_stream_records"]) {
          assert.include(metrics, `"${name}"`)
        }
        assertNoSecret(
          received["/v1/traces"]!.join("\n") + metrics,
          [demo.apiKey, demo.secret, demo.passphrase],
          "what the collector received"
        )

        assert.strictEqual(console.code, 0, console.stderr)
        assert.include(console.stdout, "name: 'bitget spot.symbols'")
        assert.include(console.stdout, "name: 'bitget.stream.page'")
        assert.include(console.stdout, "name: 'bitget_requests'")
        assertNoSecret(console.stdout, [demo.apiKey, demo.secret, demo.passphrase], "the console output")
      }),
    40_000
  )
})
