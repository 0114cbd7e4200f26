import { Endpoint, Symbols, Telemetry } from "@bitget-effect/core"
import { BitgetNode } from "@bitget-effect/platform-node"
import { Effect, Metric, MetricState } from "effect"

// The client's metrics are Effect metrics: read them in-process, no OpenTelemetry needed.
const symbols = Endpoint.label(Symbols.endpoint) // "GET /api/v2/spot/public/symbols", the `endpoint` tag
const succeeded = Telemetry.requests.pipe(Metric.tagged("endpoint", symbols), Metric.tagged("outcome", "success"))
const took = Metric.tagged(Telemetry.duration, "endpoint", symbols)

const program = Effect.gen(function*() {
  yield* Effect.all([Symbols.symbols({ symbol: "BTCUSDT" }), Symbols.symbols({ symbol: "ETHUSDT" })])

  const calls = yield* Metric.value(succeeded) // MetricState.Counter
  const duration = yield* Metric.value(took) // MetricState.Histogram: count, sum, min, max, buckets
  yield* Effect.log(`${calls.count} symbols calls succeeded, slowest ${duration.max} ms`)

  // every bitget_* metric with its tags, e.g. for a health page or a metrics endpoint of your own
  for (const { metricKey, metricState } of yield* Metric.snapshot) {
    if (!metricKey.name.startsWith("bitget_")) continue
    const tags = metricKey.tags.map((tag) => `${tag.key}="${tag.value}"`).join(",")
    const value = MetricState.isCounterState(metricState)
      ? String(metricState.count)
      : MetricState.isHistogramState(metricState)
      ? `count ${metricState.count}, sum ${metricState.sum}`
      : "…"
    yield* Effect.log(`${metricKey.name}{${tags}} ${value}`)
  }
})

program.pipe(Effect.provide(BitgetNode.layerConfig()), BitgetNode.runMain)
