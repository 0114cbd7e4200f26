import { Symbols, TaxRecords } from "@bitget-effect/core"
import { BitgetNode } from "@bitget-effect/platform-node"
import * as NodeSdk from "@effect/opentelemetry/NodeSdk"
import { OTLPMetricExporter } from "@opentelemetry/exporter-metrics-otlp-http"
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http"
import { PeriodicExportingMetricReader } from "@opentelemetry/sdk-metrics"
import { BatchSpanProcessor } from "@opentelemetry/sdk-trace-base"
import { DateTime, Effect, Layer, Stream } from "effect"

// Spans and metrics to an OpenTelemetry collector over OTLP/HTTP (JSON). The exporters read the standard
// variables: OTEL_EXPORTER_OTLP_ENDPOINT (default http://localhost:4318; /v1/traces and /v1/metrics are
// appended), OTEL_EXPORTER_OTLP_HEADERS for a token, OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES.
const Telemetry = NodeSdk.layer(() => ({
  resource: { serviceName: "bitget-export" },
  spanProcessor: new BatchSpanProcessor(new OTLPTraceExporter()),
  // every 15 s, and a final collection when the layer closes (as the pending spans are flushed)
  metricReader: new PeriodicExportingMetricReader({ exporter: new OTLPMetricExporter(), exportIntervalMillis: 15_000 })
}))

const program = Effect.gen(function*() {
  const symbols = yield* Symbols.symbols()
  const end = yield* DateTime.now
  const records = yield* TaxRecords.stream({ startTime: DateTime.subtract(end, { days: 7 }), endTime: end }).pipe(
    Stream.runCount
  )
  yield* Effect.log(`${symbols.length} symbols, ${records} tax records this week`)
}).pipe(Effect.withSpan("weekly-export"))

program.pipe(Effect.provide(Layer.merge(BitgetNode.layerConfig(), Telemetry)), BitgetNode.runMain)
