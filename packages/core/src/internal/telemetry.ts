import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import type * as Fiber from "effect/Fiber"
import * as Metric from "effect/Metric"
import * as References from "effect/References"
import type * as Tracer from "effect/Tracer"

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
 * The one channel from a call back up to the stream that made it: where the
 * call adds the time it waited for the rate limiter. An observed stream sets
 * it around each page's fetch (`paging/paginate.ts`, to its progress
 * tracker); the call's instrumentation adds to it once its permit is taken
 * (`client/instrumentation.ts`). Absent outside an observed stream.
 *
 * @internal
 */
export const LimiterWaits = Context.Reference<((millis: number) => void) | undefined>(
  "@bitget-effect/core/internal/LimiterWaits",
  { defaultValue: () => undefined }
)

/** Ends a span (once, at the fiber's clock) with how an effect ended, but never with its value: a success is `Exit.void`. */
const endSpan = (span: Tracer.Span, exit: Exit.Exit<unknown, unknown>, fiber: Fiber.Fiber<unknown, unknown>): void => {
  if (span.status._tag === "Ended") return
  const time = fiber.getRef(References.TracerTimingEnabled) ? fiber.getRef(Clock.Clock).currentTimeNanosUnsafe() : 0n
  span.end(time, Exit.isSuccess(exit) ? Exit.void : exit)
}

/**
 * Runs an effect in a span of its own, as `Effect.useSpan` does, but ends the
 * span without the effect's value: a success as `Exit.void`, a failure with
 * its cause (the client's failures quote no secret). A value the client
 * works with (an answer, what it needs to scrub its echoes, the caller's
 * decoded records) is thus never handed to a tracer, which may write out
 * whatever exit it gets. The span is ended however the effect ends,
 * interrupted included, synchronously (no effect per span end).
 *
 * @internal
 */
export const useSpan = <A, E, R>(
  name: string,
  options: Tracer.SpanOptionsNoTrace,
  evaluate: (span: Tracer.Span) => Effect.Effect<A, E, R>
): Effect.Effect<A, E, R> =>
  Effect.uninterruptibleMask((restore) =>
    Effect.withFiber((fiber) =>
      Effect.flatMap(
        Effect.makeSpan(name, options),
        (span) =>
          Effect.onExitPrimitive(restore(evaluate(span)), (exit) => {
            endSpan(span, exit, fiber)
            return undefined
          }, true)
      )
    )
  )
