import * as Context from "effect/Context"
import * as Metric from "effect/Metric"
import * as MetricLabel from "effect/MetricLabel"
import * as Telemetry from "../Telemetry.js"

/**
 * The client's metrics for one endpoint, updated synchronously. Each update
 * passes the same tag array, for which Effect keeps the metric's hook: a
 * metric from `Metric.tagged` would build its key afresh on every update.
 *
 * @internal
 */
export interface EndpointMetrics {
  readonly success: (count: number) => void
  readonly failure: (count: number) => void
  readonly interrupted: (count: number) => void
  readonly duration: (millis: number) => void
  readonly streamRecords: (count: number) => void
  readonly streamPages: (count: number) => void
  readonly streamWindows: (count: number) => void
}

const cache = new Map<string, EndpointMetrics>()

const updater =
  <Type, In, Out>(metric: Metric.Metric<Type, In, Out>, tags: ReadonlyArray<MetricLabel.MetricLabel>) =>
  (input: In): void => metric.unsafeUpdate(input, tags)

/** The metrics of an endpoint (by label), with their tags built once: endpoints are few. @internal */
export const forEndpoint = (endpoint: string): EndpointMetrics => {
  let known = cache.get(endpoint)
  if (known === undefined) {
    const tag = MetricLabel.make("endpoint", endpoint)
    const outcome = (value: string) => [tag, MetricLabel.make("outcome", value)]
    known = {
      success: updater(Telemetry.requests, outcome("success")),
      failure: updater(Telemetry.requests, outcome("failure")),
      interrupted: updater(Telemetry.requests, outcome("interrupted")),
      duration: updater(Telemetry.duration, [tag]),
      streamRecords: updater(Telemetry.streamRecords, [tag]),
      streamPages: updater(Telemetry.streamPages, [tag]),
      streamWindows: updater(Telemetry.streamWindows, [tag])
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
