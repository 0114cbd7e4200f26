/**
 * Retry policy per endpoint, built from `Schedule`: exponential backoff with
 * jitter, capped attempts and total time. What is retried depends on the
 * endpoint's idempotency:
 *
 * - idempotent endpoints (reads, cancels): network failures, timeouts, 5xx,
 *   and the exchange's codes of the kinds `RateLimited` (429, "too frequent")
 *   and `Maintenance` ("try again later"), as `BitgetError.classify` sorts them;
 * - unsafe endpoints (placing TP/SL): only failures that prove the request was
 *   not acted on: a connection that was never made, and `RateLimited` codes.
 *
 * Auth, permission, parameter and not-found errors are never retried, nor an
 * `Unexpected` transport failure (not a network failure: a bug, or a runtime
 * the transport does not support, which trying again cannot mend). A 429
 * waits for `Retry-After` when present, else at least the endpoint's window.
 * Every attempt passes the rate limiter and is signed afresh.
 *
 * @since 0.1.0
 */
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Schedule from "effect/Schedule"
import type { BitgetError } from "./BitgetError.js"
import { isApiErrorOfKind } from "./BitgetError.js"
import type { Endpoint, Idempotency, RateLimit } from "./Endpoint.js"

/**
 * Retry settings; every field has a default.
 *
 * @since 0.1.0
 * @category models
 */
export interface RetryOptions {
  /** Attempts in all, the first included (default 4; 1 disables retries). */
  readonly maxAttempts?: number
  /** First backoff delay (default 200 ms), doubled each attempt. */
  readonly baseDelay?: Duration.Input
  /** Largest backoff delay (default 5 s). */
  readonly maxDelay?: Duration.Input
  /** Give up once this much time has passed since the first failure (default 30 s). */
  readonly maxElapsed?: Duration.Input
  /** Randomise each delay by ±20% (default true). */
  readonly jitter?: boolean
}

const isTooFrequent = isApiErrorOfKind("RateLimited")

/**
 * Whether a failure may be retried for an endpoint of the given idempotency.
 *
 * @since 0.1.0
 * @category predicates
 */
export const isRetryable = (idempotency: Idempotency) => (error: BitgetError): boolean => {
  switch (error._tag) {
    case "BitgetTransportError":
      // an unsafe call is retried only when it provably never left: a timed-out one may have reached the
      // exchange, whatever the transport says it sent, and a retry would place a second order
      return error.reason !== "Unexpected" &&
        (idempotency === "idempotent" || (!error.sent && error.reason !== "Timeout"))
    case "BitgetHttpError":
      return idempotency === "idempotent" && (error.status >= 500 || error.status === 408)
    case "BitgetApiError":
      return error.kind === "RateLimited" ||
        (idempotency === "idempotent" && (error.kind === "Maintenance" || error.status >= 500))
    default:
      return false
  }
}

/**
 * Why a failure was retried, in a word or two (a metric attribute and a
 * span attribute): the transport's reason (`Timeout`, `Connect`, `Network`), the
 * error code's family (`RateLimited`, `Maintenance`, `ClockSkew`, ...), or
 * the HTTP status (`HTTP 503`) when neither tells.
 *
 * @since 0.1.0
 * @category predicates
 */
export const reason = (error: BitgetError): string => {
  switch (error._tag) {
    case "BitgetTransportError":
      return error.reason
    case "BitgetHttpError":
      return `HTTP ${error.status}`
    case "BitgetApiError":
      return error.kind === "Unknown" ? `HTTP ${error.status}` : error.kind
    default:
      return error._tag
  }
}

/**
 * The least wait before retrying a failure: `Retry-After` when the exchange
 * sent one, else a whole window of the endpoint's limit for a 429.
 *
 * @since 0.1.0
 * @category accessors
 */
export const minimumDelay = (rateLimit: RateLimit) => (error: BitgetError): Duration.Duration => {
  if (!isTooFrequent(error)) return Duration.zero
  return error.retryAfter._tag === "Some" ? error.retryAfter.value : Duration.fromInputUnsafe(rateLimit.window)
}

/**
 * A retry schedule: fed each failure, it says whether and when to try again.
 *
 * @since 0.1.0
 * @category models
 */
export type Policy = Schedule.Schedule<unknown, BitgetError>

/**
 * The retry schedule of an endpoint: input is the failure, and the delay is
 * the backoff or the failure's minimum delay, whichever is longer. A failure
 * whose minimum delay (a server's `Retry-After`) exceeds `maxElapsed` is not
 * retried.
 *
 * @since 0.1.0
 * @category constructors
 */
export const schedule = (
  endpoint: Pick<Endpoint<unknown, unknown>, "idempotency" | "rateLimit">,
  options: RetryOptions = {}
): Policy => {
  const maxDelay = Duration.fromInputUnsafe(options.maxDelay ?? "5 seconds")
  const backoff = Schedule.exponential(options.baseDelay ?? "200 millis", 2)
  const maxElapsed = Duration.fromInputUnsafe(options.maxElapsed ?? "30 seconds")
  const floor = minimumDelay(endpoint.rateLimit)
  const retryable = isRetryable(endpoint.idempotency)
  return (options.jitter === false ? backoff : Schedule.jittered(backoff)).pipe(
    Schedule.setInputType<BitgetError>(),
    // a wait the exchange asks for beyond the whole retry budget is not waited: the error (with its
    // `retryAfter`) goes to the caller at once
    Schedule.while(({ input }) => retryable(input) && Duration.isLessThanOrEqualTo(floor(input), maxElapsed)),
    Schedule.modifyDelay(({ duration, input }) =>
      Effect.succeed(Duration.max(Duration.min(duration, maxDelay), floor(input)))
    ),
    Schedule.upTo({ times: Math.max(0, (options.maxAttempts ?? 4) - 1), duration: maxElapsed })
  )
}
