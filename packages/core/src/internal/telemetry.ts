import * as Context from "effect/Context"
import * as Metric from "effect/Metric"
import * as MetricLabel from "effect/MetricLabel"
import * as Telemetry from "../Telemetry.js"

/** The client's metrics tagged with one endpoint, updated synchronously (`unsafeUpdate`). @internal */
export interface EndpointMetrics {
  readonly success: Metric.Metric.Counter<number>
  readonly failure: Metric.Metric.Counter<number>
  readonly interrupted: Metric.Metric.Counter<number>
  readonly duration: Metric.Metric.Histogram<number>
  readonly streamRecords: Metric.Metric.Counter<number>
  readonly streamPages: Metric.Metric.Counter<number>
  readonly streamWindows: Metric.Metric.Counter<number>
}

const cache = new Map<string, EndpointMetrics>()

/** The metrics of an endpoint (by label), tagged once and kept: endpoints are few. @internal */
export const forEndpoint = (endpoint: string): EndpointMetrics => {
  let known = cache.get(endpoint)
  if (known === undefined) {
    const requests = Metric.tagged(Telemetry.requests, "endpoint", endpoint)
    known = {
      success: Metric.tagged(requests, "outcome", "success"),
      failure: Metric.tagged(requests, "outcome", "failure"),
      interrupted: Metric.tagged(requests, "outcome", "interrupted"),
      duration: Metric.tagged(Telemetry.duration, "endpoint", endpoint),
      streamRecords: Metric.tagged(Telemetry.streamRecords, "endpoint", endpoint),
      streamPages: Metric.tagged(Telemetry.streamPages, "endpoint", endpoint),
      streamWindows: Metric.tagged(Telemetry.streamWindows, "endpoint", endpoint)
    }
    cache.set(endpoint, known)
  }
  return known
}

/** Counts a retry of an endpoint for a reason. @internal */
export const countRetry = (endpoint: string, reason: string): void =>
  Telemetry.retries.unsafeUpdate(1, [MetricLabel.make("endpoint", endpoint), MetricLabel.make("reason", reason)])

/** Counts a failed call by its error's tag and exchange code. @internal */
export const countError = (endpoint: string, type: string, code: string): void =>
  Telemetry.errors.unsafeUpdate(1, [
    MetricLabel.make("endpoint", endpoint),
    MetricLabel.make("type", type),
    MetricLabel.make("code", code)
  ])

/**
 * Where a call adds the time it waited for the rate limiter: set by an
 * observed stream around its pages, absent otherwise.
 *
 * @internal
 */
export class LimiterWaits extends Context.Reference<LimiterWaits>()("@bitget-effect/core/internal/LimiterWaits", {
  defaultValue: (): ((millis: number) => void) | undefined => undefined
}) {}
