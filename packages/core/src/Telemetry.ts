/**
 * What the client tells about itself: the names of its spans and their
 * attributes, and its metrics. Every call is a span named after its
 * operation (`bitget tax.spotRecord`) with a child span per attempt (named
 * after the request, `GET /api/v2/tax/spot-record`); a paginated stream adds
 * a span per page. Metrics carry the attribute `endpoint` (the request's
 * label); read one endpoint's series with `Metric.withAttributes`. The rate
 * limiter's own metrics are in `RateLimiter` (`waits`, `rejections`,
 * `waitTime`, `storeFallbacks`).
 *
 * No span, metric or log holds a header, a body, a query value or a
 * credential: URLs are recorded without their query, and the call and
 * attempt spans end without their value (a success ends as `Exit.void`, so
 * a tracer that writes exits out shows neither the answer nor the records).
 *
 * @since 0.1.0
 */
import type * as Metric from "effect/Metric"
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
