/**
 * What a call of `BitgetClient` tells about itself: its span and each
 * attempt's span (attributes, failure), its metrics (outcome, duration,
 * retries, errors, rate-limit refusals) and its log lines (retries,
 * refusals). The pipeline calls these at each step; none of them changes what
 * the call does or returns.
 *
 * @internal
 */
import * as Cause from "effect/Cause"
import * as Clock from "effect/Clock"
import type * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import type * as Fiber from "effect/Fiber"
import * as Metric from "effect/Metric"
import * as Option from "effect/Option"
import type * as Tracer from "effect/Tracer"
import type { BitgetError } from "../BitgetError.js"
import { isApiErrorOfKind } from "../BitgetError.js"
import type { Endpoint } from "../Endpoint.js"
import { label } from "../Endpoint.js"
import * as Internal from "../internal/telemetry.js"
import * as Retry from "../Retry.js"
import * as Telemetry from "../Telemetry.js"

/** What one call has done so far: its attempts, why it retried, how long it waited for the limiter. @internal */
export interface CallState {
  attempts: number
  waitedMillis: number
  readonly reasons: Array<string>
}

/**
 * An endpoint's names and instruments, worked out once per client: its label,
 * metrics, the call span's name and options, the attempt span's attributes.
 *
 * @internal
 */
export interface Labels {
  readonly name: string
  readonly metrics: Internal.EndpointMetrics
  readonly callSpan: string
  readonly callOptions: Tracer.SpanOptionsNoTrace
  /** The attempt span's attributes but its number. */
  readonly attemptAttributes: Readonly<Record<string, unknown>>
}

/** The names and instruments of an endpoint of a client on `baseUrl`. @internal */
export const labels = (
  endpoint: Pick<Endpoint<unknown, unknown>, "name" | "method" | "path">,
  baseUrl: string
): Labels => {
  const name = label(endpoint)
  return {
    name,
    metrics: Internal.forEndpoint(name),
    callSpan: `bitget ${endpoint.name}`,
    callOptions: {
      attributes: {
        [Telemetry.attributes.endpoint]: name,
        [Telemetry.attributes.operation]: endpoint.name,
        [Telemetry.attributes.method]: endpoint.method,
        [Telemetry.attributes.path]: endpoint.path
      }
    },
    attemptAttributes: {
      [Telemetry.attributes.endpoint]: name,
      [Telemetry.attributes.method]: endpoint.method,
      [Telemetry.attributes.url]: `${baseUrl}${endpoint.path}`
    }
  }
}

/** Marks a span with a failure's type and exchange code; returns the code (empty when there is none). */
const describeError = (span: Tracer.Span, error: BitgetError): string => {
  const code = error._tag === "BitgetApiError" ? error.code : ""
  span.attribute(Telemetry.attributes.errorType, error._tag)
  if (code !== "") span.attribute(Telemetry.attributes.errorCode, code)
  return code
}

/**
 * Records a finished call: its duration and outcome in the metrics of
 * `context`; its attempts, limiter wait, retry reasons and failure on its span.
 */
const finish = (
  labels: Labels,
  span: Tracer.Span,
  call: CallState,
  context: Context.Context<never>,
  millis: number,
  exit: Exit.Exit<unknown, BitgetError>
): void => {
  const metrics = labels.metrics
  metrics.duration.updateUnsafe(millis, context)
  span.attribute(Telemetry.attributes.attempt, call.attempts)
  span.attribute(Telemetry.attributes.rateLimitWait, call.waitedMillis)
  if (call.reasons.length > 0) span.attribute(Telemetry.attributes.retryReasons, call.reasons.join(","))
  if (Exit.isSuccess(exit)) return metrics.success.updateUnsafe(1, context)
  const failure = Cause.findErrorOption(exit.cause)
  if (Option.isSome(failure)) {
    Internal.countError(labels.name, failure.value._tag, describeError(span, failure.value), context)
    return metrics.failure.updateUnsafe(1, context)
  }
  return (Cause.hasInterruptsOnly(exit.cause) ? metrics.interrupted : metrics.failure).updateUnsafe(1, context)
}

/**
 * Runs a call in its span (no stack trace captured), handing it a fresh
 * `CallState`, and records the call once it has ended, however it ends. The
 * span ends without the call's value (`Internal.useSpan`): decoded records
 * may quote whatever the server sent.
 *
 * @internal
 */
export const call = <A, E extends BitgetError, R>(
  labels: Labels,
  run: (call: CallState) => Effect.Effect<A, E, R>
): Effect.Effect<A, E, R> =>
  Internal.useSpan(labels.callSpan, labels.callOptions, (span) =>
    Effect.withFiber((fiber) => {
      const clock = fiber.getRef(Clock.Clock)
      const started = clock.currentTimeMillisUnsafe()
      const state: CallState = { attempts: 0, waitedMillis: 0, reasons: [] }
      return run(state).pipe(
        Effect.withParentSpan(span, { captureStackTrace: false }),
        Effect.onExit((exit) =>
          Effect.sync(() => finish(labels, span, state, fiber.context, clock.currentTimeMillisUnsafe() - started, exit))
        )
      )
    }))

/**
 * Runs one attempt in a span of its own (a client span numbered from the
 * call's attempts, 1 outside a call) that holds neither headers, body nor
 * query, and ends without the attempt's value (the answer, and what scrubs
 * its echoes: `Internal.useSpan`); a failure marks it with its type and code.
 *
 * @internal
 */
export const attempt = <A, E extends BitgetError, R>(
  labels: Labels,
  call: CallState | undefined,
  run: (span: Tracer.Span) => Effect.Effect<A, E, R>
): Effect.Effect<A, E, R> =>
  Effect.suspend(() =>
    Internal.useSpan(labels.name, {
      kind: "client",
      attributes: {
        ...labels.attemptAttributes,
        [Telemetry.attributes.attempt]: call === undefined ? 1 : ++call.attempts
      }
    }, (span) =>
      run(span).pipe(
        Effect.tapError((error) => Effect.sync(() => describeError(span, error))),
        Effect.withParentSpan(span, { captureStackTrace: false })
      ))
  )

/**
 * Records how long an attempt waited for the rate limiter: on its span, in
 * its call, and for a stream that observes its pages' waits.
 *
 * @internal
 */
export const waited = (
  span: Tracer.Span,
  call: CallState | undefined,
  fiber: Fiber.Fiber<unknown, unknown>,
  millis: number
): void => {
  span.attribute(Telemetry.attributes.rateLimitWait, millis)
  if (millis > 0) {
    if (call !== undefined) call.waitedMillis += millis
    fiber.getRef(Internal.LimiterWaits)?.(millis)
  }
}

/** Records the HTTP status of an attempt's answer on its span. @internal */
export const answered = (span: Tracer.Span, status: number): void => span.attribute(Telemetry.attributes.status, status)

const isRateLimited = isApiErrorOfKind("RateLimited")

/** Fails with what an answer said, a rate-limit refusal counted and logged first. @internal */
export const refused = <E extends BitgetError>(name: string, error: E): Effect.Effect<never, E> =>
  isRateLimited(error)
    ? Effect.andThen(
      Metric.update(Metric.withAttributes(Telemetry.rateLimitRejections, { endpoint: name }), 1),
      Effect.andThen(
        Effect.logWarning(`rate limited: ${name} answered ${error.code} (HTTP ${error.status})`),
        Effect.fail(error)
      )
    )
    : Effect.fail(error)

/** Records a retry for a reason in its call and the metrics, and logs it with a detail. */
const retry = (labels: Labels, call: CallState, reason: string, detail: string): Effect.Effect<void> =>
  Effect.contextWith((context: Context.Context<never>) => {
    call.reasons.push(reason)
    Internal.countRetry(labels.name, reason, context)
    return Effect.logInfo(`retry: ${labels.name} attempt ${call.attempts + 1} ${detail}`)
  })

/** Records a retry after the exchange refused the timestamp, before the clock is synced. @internal */
export const resyncing = (labels: Labels, call: CallState, error: BitgetError): Effect.Effect<void> =>
  retry(labels, call, Retry.reason(error), "after the exchange refused the timestamp; syncing the clock")

/** Records a retry per the retry policy, `delay` after a failure. @internal */
export const retrying = (
  labels: Labels,
  call: CallState,
  error: BitgetError,
  delay: Duration.Duration
): Effect.Effect<void> => {
  const reason = Retry.reason(error)
  const millis = Math.max(0, Math.round(Duration.toMillis(delay)))
  return retry(labels, call, reason, `in ${millis} ms after ${reason}: ${error.message}`)
}
