/**
 * What the client tells about itself: the names of its spans and their
 * attributes, and its metrics. Every call is a span named after its
 * operation (`bitget tax.spotRecord`) with a child span per attempt (named
 * after the request, `GET /api/v2/tax/spot-record`); a paginated stream adds
 * a span per page. Metrics carry the attribute `endpoint` (the request's
 * label); read one endpoint's series with `Metric.withAttributes`. The rate
 * limiter's metrics are here too (`rateLimitWaits`, `rateLimitRejections`,
 * `rateLimitWaitTime`, `rateLimitStoreFallbacks`).
 *
 * No span, metric or log holds a header, a body, a query value or a
 * credential: URLs are recorded without their query, and the call and
 * attempt spans end without their value (a success ends as `Exit.void`, so
 * a tracer that writes exits out shows neither the answer nor the records).
 *
 * @since 0.1.0
 */
import * as Metric from "effect/Metric"
import { definitions } from "./internal/telemetry.js"

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
 * Calls (`bitget_requests`), by `endpoint` and `outcome` (`success`,
 * `failure` or `interrupted`); a call with retries counts once.
 *
 * @since 0.1.0
 * @category metrics
 */
export const requests: Metric.Counter<number> = definitions.requests()

/**
 * How long calls took (`bitget_request_duration_ms`), retries and rate-limit
 * waits included, by `endpoint` (milliseconds).
 *
 * @since 0.1.0
 * @category metrics
 */
export const duration: Metric.Histogram<number> = definitions.duration()

/**
 * Retries (`bitget_retries`), by `endpoint` and `reason` (see `Retry.reason`).
 *
 * @since 0.1.0
 * @category metrics
 */
export const retries: Metric.Counter<number> = definitions.retries()

/**
 * Failed calls (`bitget_errors`), by `endpoint`, `type` (the error's `_tag`)
 * and `code` (the exchange's code; empty for failures without one).
 *
 * @since 0.1.0
 * @category metrics
 */
export const errors: Metric.Counter<number> = definitions.errors()

/**
 * Records emitted by paginated streams (`bitget_stream_records`), by `endpoint`.
 *
 * @since 0.1.0
 * @category metrics
 */
export const streamRecords: Metric.Counter<number> = definitions.streamRecords()

/**
 * Pages read by paginated streams (`bitget_stream_pages`), by `endpoint`.
 *
 * @since 0.1.0
 * @category metrics
 */
export const streamPages: Metric.Counter<number> = definitions.streamPages()

/**
 * Time windows finished by paginated streams (`bitget_stream_windows`), by
 * `endpoint`.
 *
 * @since 0.1.0
 * @category metrics
 */
export const streamWindows: Metric.Counter<number> = definitions.streamWindows()

/**
 * Calls that had to wait for their turn in the client-side rate limiter
 * (`bitget_rate_limit_waits`), by `endpoint`.
 *
 * @since 0.3.0
 * @category metrics
 */
export const rateLimitWaits: Metric.Counter<number> = Metric.counter("bitget_rate_limit_waits", {
  description: "calls delayed by the client-side rate limiter",
  incremental: true
})

/**
 * Answers of the exchange that said "too many requests" (HTTP 429 and the
 * "too frequent" codes; `bitget_rate_limit_rejections`), by `endpoint`.
 *
 * @since 0.3.0
 * @category metrics
 */
export const rateLimitRejections: Metric.Counter<number> = Metric.counter("bitget_rate_limit_rejections", {
  description: "answers of the exchange refusing a call as too frequent",
  incremental: true
})

/**
 * The time calls spent waiting for their turn in the client-side rate
 * limiter (`bitget_rate_limit_wait_ms`), by `endpoint` (milliseconds).
 *
 * @since 0.3.0
 * @category metrics
 */
export const rateLimitWaitTime: Metric.Histogram<number> = Metric.histogram("bitget_rate_limit_wait_ms", {
  description: "time calls waited for the client-side rate limiter",
  boundaries: Metric.exponentialBoundaries({ start: 1, factor: 2, count: 16 })
})

/**
 * Slots (one per bucket a call takes) that a shared store granted from its
 * in-process fallback because the store itself was unavailable (the Redis
 * store with `onUnavailable: "memory"`; `bitget_rate_limit_store_fallbacks`),
 * by `store`.
 *
 * @since 0.3.0
 * @category metrics
 */
export const rateLimitStoreFallbacks: Metric.Counter<number> = Metric.counter("bitget_rate_limit_store_fallbacks", {
  description: "rate-limit slots taken from an in-process fallback because the shared store was unavailable",
  incremental: true
})
