import { Endpoint, Symbols, Telemetry } from "@bitget-effect/core"
import { BitgetNode } from "@bitget-effect/platform-node"
import { Effect, Metric } from "effect"

// The client's metrics are Effect metrics: read them in-process, no OpenTelemetry needed.
const endpoint = Endpoint.label(Symbols.endpoint) // "GET /api/v2/spot/public/symbols", the `endpoint` attribute
const succeeded = Metric.withAttributes(Telemetry.requests, { endpoint, outcome: "success" })
const took = Metric.withAttributes(Telemetry.duration, { endpoint })

const program = Effect.gen(function*() {
  yield* Effect.all([Symbols.symbols({ symbol: "BTCUSDT" }), Symbols.symbols({ symbol: "ETHUSDT" })])

  const calls = yield* Metric.value(succeeded) // Metric.CounterState
  const duration = yield* Metric.value(took) // Metric.HistogramState: count, sum, min, max, buckets
  yield* Effect.log(`${calls.count} symbols calls succeeded, slowest ${duration.max} ms`)

  // every bitget_* metric with its attributes, e.g. for a health page or a metrics endpoint of your own
  for (const metric of yield* Metric.snapshot) {
    if (!metric.id.startsWith("bitget_")) continue
    const attributes = Object.entries(metric.attributes ?? {}).map(([key, value]) => `${key}="${value}"`).join(",")
    const value = metric.type === "Counter"
      ? String(metric.state.count)
      : metric.type === "Histogram"
      ? `count ${metric.state.count}, sum ${metric.state.sum}`
      : "…"
    yield* Effect.log(`${metric.id}{${attributes}} ${value}`)
  }
})

program.pipe(Effect.provide(BitgetNode.layerConfig()), BitgetNode.runMain)
