/**
 * What the client tells about itself: the names of its spans and their
 * attributes, and its metrics. Every call is a span named after its
 * operation (`bitget tax.spotRecord`) with a child span per attempt (named
 * after the request, `GET /api/v2/tax/spot-record`); a paginated stream adds
 * a span per page. Metrics are tagged by `endpoint` (the request's label);
 * the rate limiter's own metrics are in `RateLimiter` (`waits`,
 * `rejections`, `waitTime`, `storeFallbacks`).
 *
 * No span, metric or log holds a header, a body, a query value or a
 * credential: URLs are recorded without their query.
 *
 * @since 0.1.0
 */
import * as Metric from "effect/Metric"
import * as MetricBoundaries from "effect/MetricBoundaries"

/**
 * The attribute keys of the client's spans.
 *
 * @since 0.1.0
 * @category constants
 */
export const attributes = {
  /** The request's label, `GET /api/v2/...` (call, attempt and page spans). */
  endpoint: "bitget.endpoint",
  /** The operation's stable name, e.g. `spot.batchCancelOrders` (call span). */
  operation: "bitget.operation",
  /** The HTTP method (call and attempt spans). */
  method: "http.request.method",
  /** The request path (call span). */
  path: "url.path",
  /** Base URL and path, never the query (attempt span). */
  url: "url.full",
  /** Attempts made, the first included (call span); the attempt's number, from 1 (attempt span). */
  attempt: "bitget.attempt",
  /** Why the call was retried, one reason per retry in order, comma-separated (call span). */
  retryReasons: "bitget.retry.reasons",
  /** Time waited for the client-side rate limiter, ms (call span: all attempts; attempt span: its own). */
  rateLimitWait: "bitget.rate_limit.wait_ms",
  /** The HTTP status of the answer (attempt span). */
  status: "http.response.status_code",
  /** The error's `_tag` on failure (call and attempt spans). */
  errorType: "error.type",
  /** The exchange's error code on an API failure (call and attempt spans). */
  errorCode: "bitget.error.code",
  /** The index of the window within the stream's range, from 0 (page span). */
  window: "bitget.stream.window",
  /** Windows in the stream's range (page span). */
  windows: "bitget.stream.windows",
  /** The window's start and end, ISO 8601 (page span). */
  windowStart: "bitget.stream.window.start",
  windowEnd: "bitget.stream.window.end",
  /** The page's number within the stream, from 1 (page span). */
  page: "bitget.stream.page",
  /** Records the page held (page span). */
  records: "bitget.stream.records"
} as const

/**
 * The name of the span of one page of a paginated stream.
 *
 * @since 0.1.0
 * @category constants
 */
export const pageSpan = "bitget.stream.page"

/**
 * Calls, by `endpoint` and `outcome` (`success`, `failure` or `interrupted`);
 * a call with retries counts once.
 *
 * @since 0.1.0
 * @category metrics
 */
export const requests = Metric.counter("bitget_requests", {
  description: "calls of an endpoint, by outcome",
  incremental: true
})

/**
 * How long calls took, retries and rate-limit waits included, by `endpoint`
 * (milliseconds).
 *
 * @since 0.1.0
 * @category metrics
 */
export const duration = Metric.histogram(
  "bitget_request_duration_ms",
  MetricBoundaries.exponential({ start: 1, factor: 2, count: 18 }),
  "time a call took, retries and rate-limit waits included"
)

/**
 * Retries, by `endpoint` and `reason` (see `Retry.reason`).
 *
 * @since 0.1.0
 * @category metrics
 */
export const retries = Metric.counter("bitget_retries", {
  description: "attempts repeated after a failure, by reason",
  incremental: true
})

/**
 * Failed calls, by `endpoint`, `type` (the error's `_tag`) and `code` (the
 * exchange's code; empty for failures without one).
 *
 * @since 0.1.0
 * @category metrics
 */
export const errors = Metric.counter("bitget_errors", {
  description: "failed calls, by error type and exchange code",
  incremental: true
})

/**
 * Records emitted by paginated streams, by `endpoint`.
 *
 * @since 0.1.0
 * @category metrics
 */
export const streamRecords = Metric.counter("bitget_stream_records", {
  description: "records emitted by paginated streams",
  incremental: true
})

/**
 * Pages read by paginated streams, by `endpoint`.
 *
 * @since 0.1.0
 * @category metrics
 */
export const streamPages = Metric.counter("bitget_stream_pages", {
  description: "pages read by paginated streams",
  incremental: true
})

/**
 * Time windows finished by paginated streams, by `endpoint`.
 *
 * @since 0.1.0
 * @category metrics
 */
export const streamWindows = Metric.counter("bitget_stream_windows", {
  description: "time windows finished by paginated streams",
  incremental: true
})
