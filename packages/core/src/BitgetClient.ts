/**
 * The client service: runs any endpoint descriptor through the one generic
 * pipeline: validate, wait for the rate limiter, sign (with the exchange's
 * clock), send, read the envelope, decode; retried per the endpoint's policy.
 *
 * @since 0.1.0
 */
import type * as HttpClient from "@effect/platform/HttpClient"
import * as Cause from "effect/Cause"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as DateTime from "effect/DateTime"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as Metric from "effect/Metric"
import * as Option from "effect/Option"
import * as Ref from "effect/Ref"
import * as Schedule from "effect/Schedule"
import * as ScheduleIntervals from "effect/ScheduleIntervals"
import * as Schema from "effect/Schema"
import type * as Tracer from "effect/Tracer"
import { BitgetConfig } from "./BitgetConfig.js"
import type { BitgetError } from "./BitgetError.js"
import { BitgetDecodeError, isApiErrorOfKind } from "./BitgetError.js"
import type { Credentials } from "./Credentials.js"
import type { Endpoint } from "./Endpoint.js"
import { label } from "./Endpoint.js"
import { HttpTransport, layerHttpClient } from "./HttpTransport.js"
import { decoder } from "./internal/decoder.js"
import { describeParseError, excerpt, interpret } from "./internal/envelope.js"
import * as Redact from "./internal/redact.js"
import * as Request from "./internal/request.js"
import * as TimeEndpoint from "./internal/serverTime.js"
import * as Internal from "./internal/telemetry.js"
import * as Transport from "./internal/transport.js"
import * as RateLimiter from "./RateLimiter.js"
import * as Retry from "./Retry.js"
import { Signer } from "./Signer.js"
import * as Telemetry from "./Telemetry.js"

/**
 * Header names that carry credentials; they are redacted from spans and logs.
 *
 * @since 0.1.0
 * @category constants
 */
export const credentialHeaders: ReadonlyArray<string> = Transport.credentialHeaders

/**
 * The Bitget client.
 *
 * @since 0.1.0
 * @category services
 */
export class BitgetClient
  extends Context.Tag("@bitget-effect/core/BitgetClient")<BitgetClient, BitgetClient.Service>()
{}

/**
 * The types that belong to the `BitgetClient` service.
 *
 * @since 0.1.0
 * @category models
 */
export declare namespace BitgetClient {
  /**
   * What the client does: run an endpoint, and read or sync the exchange's clock.
   *
   * @since 0.1.0
   * @category models
   */
  export interface Service {
    /** Runs one call of an endpoint: validate, limit, sign, send, decode, with retries. */
    readonly execute: <I, A, EI extends object, EA>(
      endpoint: Endpoint<I, A, EI, EA>,
      input: I
    ) => Effect.Effect<A, BitgetError>
    /** The offset added to the local clock to get the exchange's, in milliseconds. */
    readonly clockOffset: Effect.Effect<number>
    /** Reads the exchange's clock and keeps the offset for signing. */
    readonly syncClock: Effect.Effect<number, BitgetError>
  }
}

/** What one call has done so far: its attempts, why it retried, how long it waited for the limiter. */
interface CallState {
  attempts: number
  waitedMillis: number
  readonly reasons: Array<string>
}

/**
 * Retries an effect per a policy, building the schedule's state only once it
 * has failed (most calls succeed at once): the first failure is the
 * schedule's first input, as with `Effect.retry`. `onRetry` hears of each
 * retry with the failure and the delay before it.
 */
const retrying = (
  policy: Retry.Policy,
  onRetry: (error: BitgetError, delayMillis: number) => Effect.Effect<void>
) =>
<A, R>(self: Effect.Effect<A, BitgetError, R>) =>
  Effect.catchAll(self, (first) => {
    let replay = true
    let last = first
    return Effect.retry(
      Effect.suspend(() => {
        if (!replay) return self
        replay = false
        return Effect.fail(first)
      }),
      policy.pipe(
        Schedule.tapInput((error: BitgetError) => Effect.sync(() => (last = error))),
        Schedule.onDecision((_, decision) =>
          decision._tag === "Continue"
            ? Effect.flatMap(
              Clock.currentTimeMillis,
              (now) => onRetry(last, Math.max(0, Math.round(ScheduleIntervals.start(decision.intervals) - now)))
            )
            : Effect.void
        )
      )
    )
  })

const isClockSkew = isApiErrorOfKind("ClockSkew")
const isRateLimited = isApiErrorOfKind("RateLimited")

/** Marks a span with a failure's type and exchange code; returns the code (empty when there is none). */
const describeError = (span: Tracer.Span, error: BitgetError): string => {
  const code = error._tag === "BitgetApiError" ? error.code : ""
  span.attribute(Telemetry.attributes.errorType, error._tag)
  if (code !== "") span.attribute(Telemetry.attributes.errorCode, code)
  return code
}

/**
 * Records a finished call: its duration and outcome in the metrics; its
 * attempts, limiter wait, retry reasons and failure on its span.
 */
const finish = (
  { call, metrics, millis, name, span }: {
    readonly span: Tracer.Span
    readonly call: CallState
    readonly name: string
    readonly metrics: Internal.EndpointMetrics
    readonly millis: number
  },
  exit: Exit.Exit<unknown, BitgetError>
): void => {
  metrics.duration(millis)
  span.attribute(Telemetry.attributes.attempt, call.attempts)
  span.attribute(Telemetry.attributes.rateLimitWait, call.waitedMillis)
  if (call.reasons.length > 0) span.attribute(Telemetry.attributes.retryReasons, call.reasons.join(","))
  if (Exit.isSuccess(exit)) return metrics.success(1)
  const failure = Cause.failureOption(exit.cause)
  if (Option.isSome(failure)) {
    Internal.countError(name, failure.value._tag, describeError(span, failure.value))
    return metrics.failure(1)
  }
  return (Cause.isInterruptedOnly(exit.cause) ? metrics.interrupted : metrics.failure)(1)
}

/**
 * Builds the client from its configuration, a `Signer` and an `HttpTransport`;
 * rate limits are kept in the `RateLimiterStore` from the context when there is
 * one, else in memory.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make: Effect.Effect<BitgetClient.Service, never, BitgetConfig | Signer | HttpTransport> = Effect
  .gen(function*() {
    const config = yield* BitgetConfig
    const signer = yield* Signer
    const transport = yield* HttpTransport
    const store = yield* Effect.serviceOption(RateLimiter.RateLimiterStore).pipe(
      Effect.flatMap(Option.match({
        onNone: () => RateLimiter.makeMemoryStore,
        onSome: Effect.succeed
      }))
    )
    const limiter = yield* RateLimiter.make(config.rateLimit).pipe(
      Effect.provideService(RateLimiter.RateLimiterStore, store)
    )
    const offset = yield* Ref.make(0)
    const timeoutMillis = Duration.toMillis(config.timeout)
    const frame = Request.frame(config)

    /**
     * One attempt, in a span of its own that holds neither headers, body nor
     * query: wait for a slot, sign afresh, send, read the envelope.
     */
    const attempt = <I, A, EI extends object, EA>(
      endpoint: Endpoint<I, A, EI, EA>,
      prepared: Request.Prepared,
      credentials: Credentials | undefined,
      call: CallState | undefined
    ) => {
      const name = label(endpoint)
      return Effect.suspend(() =>
        Effect.useSpan(name, {
          kind: "client",
          attributes: {
            [Telemetry.attributes.endpoint]: name,
            [Telemetry.attributes.method]: endpoint.method,
            [Telemetry.attributes.url]: `${config.baseUrl}${endpoint.path}`,
            [Telemetry.attributes.attempt]: call === undefined ? 1 : ++call.attempts
          },
          captureStackTrace: false
        }, (span) =>
          Effect.gen(function*() {
            const permit = yield* limiter.take(
              { name: endpoint.name, label: name, rateLimit: endpoint.rateLimit },
              frame.identity
            )
            span.attribute(Telemetry.attributes.rateLimitWait, permit.waitedMillis)
            if (permit.waitedMillis > 0) {
              if (call !== undefined) call.waitedMillis += permit.waitedMillis
              ;(yield* Internal.LimiterWaits)?.(permit.waitedMillis)
            }
            const timestamp = credentials === undefined
              ? 0
              : (yield* Clock.currentTimeMillis) + (yield* Ref.get(offset))
            const request = Request.outgoing(frame, endpoint, prepared, credentials, timestamp)
            let scrubber = frame.secrets
            if (request.toSign !== undefined) {
              const signature = yield* signer.sign(request.toSign.key, request.toSign.prehash)
              request.headers["ACCESS-SIGN"] = signature
              scrubber = Redact.combine(frame.secrets, [signature])
            }
            const answer = yield* transport.send({
              endpoint: name,
              method: endpoint.method,
              url: request.url,
              headers: request.headers,
              body: request.body,
              timeoutMillis,
              maxBytes: config.maxResponseBytes
            }).pipe(Effect.ensuring(permit.settle))
            span.attribute(Telemetry.attributes.status, answer.status)
            const data = yield* interpret({ endpoint: name, ...answer, secrets: scrubber }).pipe(
              Effect.tapError((error) =>
                isRateLimited(error)
                  ? Effect.zipRight(
                    Metric.increment(Metric.tagged(RateLimiter.rejections, "endpoint", name)),
                    Effect.logWarning(`rate limited: ${name} answered ${error.code} (HTTP ${error.status})`)
                  )
                  : Effect.void
              )
            )
            return { answer, data, secrets: scrubber }
          }).pipe(
            Effect.tapError((error) => Effect.sync(() => describeError(span, error))),
            Effect.withParentSpan(span)
          ))
      )
    }

    const syncClock = Effect.gen(function*() {
      const before = yield* Clock.currentTimeMillis
      const { data } = yield* attempt(TimeEndpoint.endpoint, Request.empty, undefined, undefined)
      const after = yield* Clock.currentTimeMillis
      const server = yield* Schema.decodeUnknown(TimeEndpoint.ServerTime)(data).pipe(
        Effect.mapError((error) =>
          new BitgetDecodeError({
            endpoint: label(TimeEndpoint.endpoint),
            status: 200,
            issue: describeParseError(error, frame.secrets),
            excerpt: ""
          })
        )
      )
      const value = DateTime.toEpochMillis(server.serverTime) - Math.round((before + after) / 2)
      yield* Ref.set(offset, value)
      yield* Effect.logInfo(`clock: synced with the exchange, offset ${value} ms`)
      return value
    })

    const policies = new WeakMap<object, Retry.Policy>()
    const policy = (endpoint: Pick<Endpoint<unknown, unknown>, "name" | "idempotency" | "rateLimit">): Retry.Policy => {
      let known = policies.get(endpoint)
      if (known === undefined) {
        known = Retry.schedule(endpoint, { ...config.retry, ...config.retry.endpoints?.[endpoint.name] })
        policies.set(endpoint, known)
      }
      return known
    }

    const execute = <I, A, EI extends object, EA>(endpoint: Endpoint<I, A, EI, EA>, input: I) => {
      const name = label(endpoint)
      const run = (call: CallState) => {
        const onRetry = (reason: string, detail: string) =>
          Effect.suspend(() => {
            call.reasons.push(reason)
            Internal.countRetry(name, reason)
            return Effect.logInfo(`retry: ${name} attempt ${call.attempts + 1} ${detail}`)
          })
        return Effect.gen(function*() {
          const credentials = yield* Request.credentialsFor(frame, endpoint)
          const prepared = yield* Request.prepare(endpoint, input)
          const once = attempt(endpoint, prepared, credentials, call)
          const { answer, data, secrets: scrubber } = yield* once.pipe(
            Effect.catchIf(
              isClockSkew,
              (error) =>
                onRetry(Retry.reason(error), "after the exchange refused the timestamp; syncing the clock").pipe(
                  Effect.zipRight(syncClock),
                  Effect.zipRight(once)
                )
            ),
            retrying(policy(endpoint), (error, delayMillis) => {
              const reason = Retry.reason(error)
              return onRetry(reason, `in ${delayMillis} ms after ${reason}: ${error.message}`)
            })
          )
          return yield* decoder(endpoint.response)(data).pipe(
            Either.mapLeft((error) =>
              new BitgetDecodeError({
                endpoint: name,
                status: answer.status,
                issue: describeParseError(error, scrubber),
                excerpt: excerpt(answer.body, scrubber)
              })
            )
          )
        })
      }
      const metrics = Internal.forEndpoint(name)
      return Effect.useSpan(`bitget ${endpoint.name}`, {
        attributes: {
          [Telemetry.attributes.endpoint]: name,
          [Telemetry.attributes.operation]: endpoint.name,
          [Telemetry.attributes.method]: endpoint.method,
          [Telemetry.attributes.path]: endpoint.path
        },
        captureStackTrace: false
      }, (span) => {
        const call: CallState = { attempts: 0, waitedMillis: 0, reasons: [] }
        return Effect.flatMap(Clock.currentTimeMillis, (started) =>
          run(call).pipe(
            Effect.withParentSpan(span),
            Effect.onExit((exit) =>
              Effect.map(Clock.currentTimeMillis, (now) =>
                finish({ span, call, name, metrics, millis: now - started }, exit))
            )
          ))
      })
    }

    if (config.syncClockOnStart) {
      yield* syncClock.pipe(
        Effect.catchAll((error) => Effect.logWarning(`clock sync at start failed: ${error.message}`))
      )
    }
    return BitgetClient.of({ execute, clockOffset: Ref.get(offset), syncClock })
  })

/**
 * The client as a layer.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer: Layer.Layer<BitgetClient, never, BitgetConfig | Signer | HttpClient.HttpClient> = Layer.effect(
  BitgetClient,
  make
).pipe(Layer.provide(layerHttpClient))

/**
 * The client as a layer, over the `HttpTransport` from the context (as
 * `BitgetNode` provides it, straight on undici).
 *
 * @since 0.1.0
 * @category layers
 */
export const layerTransport: Layer.Layer<BitgetClient, never, BitgetConfig | Signer | HttpTransport> = Layer.effect(
  BitgetClient,
  make
)

/**
 * Runs an endpoint with the client from the context.
 *
 * @since 0.1.0
 * @category accessors
 */
export const execute = <I, A, EI extends object, EA>(
  endpoint: Endpoint<I, A, EI, EA>,
  input: I
): Effect.Effect<A, BitgetError, BitgetClient> =>
  Effect.flatMap(BitgetClient, (client) => client.execute(endpoint, input))
