import { Symbols, TaxRecords } from "@bitget-effect/core"
import { BitgetNode } from "@bitget-effect/platform-node"
import * as NodeSdk from "@effect/opentelemetry/NodeSdk"
import { ConsoleMetricExporter, PeriodicExportingMetricReader } from "@opentelemetry/sdk-metrics"
import { BatchSpanProcessor, ConsoleSpanExporter } from "@opentelemetry/sdk-trace-base"
import { DateTime, Effect, Layer, Stream } from "effect"

// Spans and metrics printed to stdout: a span per call, per attempt and per page, and the client's metrics.
// NodeSdk flushes both when its layer closes, so the last spans and figures are printed before the process ends.
const Telemetry = NodeSdk.layer(() => ({
  resource: { serviceName: "bitget-export" },
  spanProcessor: new BatchSpanProcessor(new ConsoleSpanExporter()),
  metricReader: new PeriodicExportingMetricReader({
    exporter: new ConsoleMetricExporter(),
    exportIntervalMillis: 10_000
  })
}))

const program = Effect.gen(function*() {
  const [btc] = yield* Symbols.symbols({ symbol: "BTCUSDT" })
  const end = yield* DateTime.now
  const records = yield* TaxRecords.stream({ startTime: DateTime.subtract(end, { days: 7 }), endTime: end }).pipe(
    Stream.runCount
  )
  yield* Effect.log(`${btc?.symbol} is ${btc?.status}; ${records} tax records this week`)
}).pipe(Effect.withSpan("weekly-export")) // your own span: the client's spans become its children

program.pipe(Effect.provide(Layer.merge(BitgetNode.layerConfig(), Telemetry)), BitgetNode.runMain)
