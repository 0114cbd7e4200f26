import * as Context from "effect/Context"
import * as Metric from "effect/Metric"

/** Counts that only grow, under the given name and description. */
const counter =
  (name: string, description: string) => (attributes?: Metric.Metric.AttributeSet): Metric.Counter<number> =>
    Metric.counter(name, { description, incremental: true, attributes })

/**
 * The client's metrics, each under optional fixed attributes: `Telemetry`
 * exports them without, and the client updates series with the attributes
 * bound. A series built here and `Metric.withAttributes` of the exported
 * metric are the same series (same name, description and attributes).
 *
 * @internal
 */
export const definitions = {
  requests: counter("bitget_requests", "calls of an endpoint, by outcome"),
  duration: (attributes?: Metric.Metric.AttributeSet): Metric.Histogram<number> =>
    Metric.histogram("bitget_request_duration_ms", {
      description: "time a call took, retries and rate-limit waits included",
      boundaries: Metric.exponentialBoundaries({ start: 1, factor: 2, count: 18 }),
      attributes
    }),
  retries: counter("bitget_retries", "attempts repeated after a failure, by reason"),
  errors: counter("bitget_errors", "failed calls, by error type and exchange code"),
  streamRecords: counter("bitget_stream_records", "records emitted by paginated streams"),
  streamPages: counter("bitget_stream_pages", "pages read by paginated streams"),
  streamWindows: counter("bitget_stream_windows", "time windows finished by paginated streams")
} as const

/**
 * The client's metrics for one endpoint, with their attributes bound. Each
 * is a metric of its own, so Effect computes its series key once, where a
 * `Metric.withAttributes` of a shared metric would compute it again whenever
 * the endpoint differs from the last one updated. Update them with
 * `Metric.update`, or synchronously with `updateUnsafe(input, context)`.
 *
 * @internal
 */
export interface EndpointMetrics {
  readonly success: Metric.Counter<number>
  readonly failure: Metric.Counter<number>
  readonly interrupted: Metric.Counter<number>
  readonly duration: Metric.Histogram<number>
  readonly streamRecords: Metric.Counter<number>
  readonly streamPages: Metric.Counter<number>
  readonly streamWindows: Metric.Counter<number>
}

const cache = new Map<string, EndpointMetrics>()

/** The metrics of an endpoint (by label), built once: endpoints are few. @internal */
export const forEndpoint = (endpoint: string): EndpointMetrics => {
  let known = cache.get(endpoint)
  if (known === undefined) {
    const tag = { endpoint }
    known = {
      success: definitions.requests({ endpoint, outcome: "success" }),
      failure: definitions.requests({ endpoint, outcome: "failure" }),
      interrupted: definitions.requests({ endpoint, outcome: "interrupted" }),
      duration: definitions.duration(tag),
      streamRecords: definitions.streamRecords(tag),
      streamPages: definitions.streamPages(tag),
      streamWindows: definitions.streamWindows(tag)
    }
    cache.set(endpoint, known)
  }
  return known
}

/** Counts a retry of an endpoint for a reason, in the metrics of the context. @internal */
export const countRetry = (endpoint: string, reason: string, context: Context.Context<never>): void =>
  definitions.retries({ endpoint, reason }).updateUnsafe(1, context)

/** Counts a failed call by its error's tag and exchange code, in the metrics of the context. @internal */
export const countError = (endpoint: string, type: string, code: string, context: Context.Context<never>): void =>
  definitions.errors({ endpoint, type, code }).updateUnsafe(1, context)

/**
 * Where a call adds the time it waited for the rate limiter: set by an
 * observed stream around its pages, absent otherwise.
 *
 * @internal
 */
export const LimiterWaits = Context.Reference<((millis: number) => void) | undefined>(
  "@bitget-effect/core/internal/LimiterWaits",
  { defaultValue: () => undefined }
)
