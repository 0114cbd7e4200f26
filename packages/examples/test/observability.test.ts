import { Symbols, Telemetry } from "@bitget-effect/core"
import { BitgetNode } from "@bitget-effect/platform-node"
import { Fault, Sandbox } from "@bitget-effect/sandbox"
import * as NodeSdk from "@effect/opentelemetry/NodeSdk"
import { assert, it } from "@effect/vitest"
import {
  AggregationTemporality,
  InMemoryMetricExporter,
  PeriodicExportingMetricReader
} from "@opentelemetry/sdk-metrics"
import { InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base"
import { Effect } from "effect"

it.live("a call that rode out a 503 reports two attempts and one retry", () =>
  Effect.gen(function*() {
    const sandbox = yield* Sandbox.make() // a real exchange on loopback, closed with the test's scope
    yield* sandbox.inject("symbols", Fault.httpError(503))

    const spans = new InMemorySpanExporter()
    const metrics = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE)
    const reader = new PeriodicExportingMetricReader({ exporter: metrics, exportIntervalMillis: 60_000 })
    const [finished, exported] = yield* Symbols.symbols().pipe(
      Effect.provide(BitgetNode.layer({ baseUrl: sandbox.url, retry: { baseDelay: "10 millis" } })),
      Effect.andThen(Effect.promise(() => reader.forceFlush())), // export the metrics now
      Effect.map(() => [spans.getFinishedSpans(), metrics.getMetrics()] as const), // before the layer shuts down
      Effect.provide(NodeSdk.layer(() => ({ spanProcessor: new SimpleSpanProcessor(spans), metricReader: reader })))
    )

    const call = finished.find((span) => span.name === "bitget spot.symbols")!
    assert.strictEqual(call.attributes[Telemetry.attributes.attempt], 2)
    assert.strictEqual(call.attributes[Telemetry.attributes.retryReasons], "HTTP 503")
    const attempts = finished.filter((span) => span.parentSpanContext?.spanId === call.spanContext().spanId)
    assert.deepStrictEqual(
      attempts.map((span) => [span.name, span.attributes[Telemetry.attributes.status]]),
      [["GET /api/v2/spot/public/symbols", 503], ["GET /api/v2/spot/public/symbols", 200]]
    )

    const retries = exported.at(-1)!.scopeMetrics
      .flatMap((scope) => scope.metrics)
      .find((metric) => metric.descriptor.name === "bitget_retries")!
    const after503 = retries.dataPoints.find((point) => point.attributes.reason === "HTTP 503")
    assert.deepStrictEqual(after503?.attributes, { endpoint: "GET /api/v2/spot/public/symbols", reason: "HTTP 503" })
    assert.strictEqual(after503?.value, 1) // cumulative over the process: Effect's metric registry is global
  }))
