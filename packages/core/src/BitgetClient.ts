/**
 * The client service: runs any endpoint descriptor through the one generic
 * pipeline: validate, wait for the rate limiter, sign (with the exchange's
 * clock), send, read the envelope, decode; retried per the endpoint's policy.
 *
 * @since 0.1.0
 */
import * as Cause from "effect/Cause"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as DateTime from "effect/DateTime"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import type { HttpClient } from "effect/http"
import * as Layer from "effect/Layer"
import * as Metric from "effect/Metric"
import * as Option from "effect/Option"
import * as Result from "effect/Result"
import * as Schedule from "effect/Schedule"
import * as Schema from "effect/Schema"
import type * as Tracer from "effect/Tracer"
import { BitgetConfig } from "./BitgetConfig.js"
import type { BitgetApiError, BitgetError, BitgetHttpError, BitgetPublicError } from "./BitgetError.js"
import { BitgetDecodeError, isApiErrorOfKind } from "./BitgetError.js"
import type { Credentials } from "./Credentials.js"
import type { Auth, Endpoint, Failure } from "./Endpoint.js"
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
  extends Context.Service<BitgetClient, BitgetClient.Service>()("@bitget-effect/core/BitgetClient")
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
    /**
     * Runs one call of an endpoint: validate, limit, sign, send, decode, with
     * retries; its failures are those of the endpoint's `auth`.
     */
    readonly execute: <I, A, EI extends object, EA, Au extends Auth>(
      endpoint: Endpoint<I, A, EI, EA, Au>,
      input: I
    ) => Effect.Effect<A, Failure<Au>>
    /** The offset added to the local clock to get the exchange's, in milliseconds. */
    readonly clockOffset: Effect.Effect<number>
    /** Reads the exchange's clock (a public call) and keeps the offset for signing. */
    readonly syncClock: Effect.Effect<number, BitgetPublicError>
  }
}

/** What one call has done so far: its attempts, why it retried, how long it waited for the limiter. */
interface CallState {
  attempts: number
  waitedMillis: number
  readonly reasons: Array<string>
}

/** What one attempt got: the answer, the `data` of its envelope, and what to scrub from text that quotes it. */
interface Answered {
  readonly answer: HttpTransport.Response
  readonly data: unknown
  readonly secrets: Redact.Scrubber
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
<A, E extends BitgetError, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  Effect.catch(self, (first) => {
    let replay = true
    return Effect.retry(
      Effect.suspend(() => {
        if (!replay) return self
        replay = false
        return Effect.fail(first)
      }),
      Schedule.tap(
        policy,
        ({ duration, input }) => onRetry(input, Math.max(0, Math.round(Duration.toMillis(duration))))
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
  { call, context, metrics, millis, name, span }: {
    readonly span: Tracer.Span
    readonly call: CallState
    readonly name: string
    readonly metrics: Internal.EndpointMetrics
    /** Where the metrics are kept. */
    readonly context: Context.Context<never>
    readonly millis: number
  },
  exit: Exit.Exit<unknown, BitgetError>
): void => {
  metrics.duration.updateUnsafe(millis, context)
  span.attribute(Telemetry.attributes.attempt, call.attempts)
  span.attribute(Telemetry.attributes.rateLimitWait, call.waitedMillis)
  if (call.reasons.length > 0) span.attribute(Telemetry.attributes.retryReasons, call.reasons.join(","))
  if (Exit.isSuccess(exit)) return metrics.success.updateUnsafe(1, context)
  const failure = Cause.findErrorOption(exit.cause)
  if (Option.isSome(failure)) {
    Internal.countError(name, failure.value._tag, describeError(span, failure.value), context)
    return metrics.failure.updateUnsafe(1, context)
  }
  return (Cause.hasInterruptsOnly(exit.cause) ? metrics.interrupted : metrics.failure).updateUnsafe(1, context)
}

/**
 * What a client works out once per endpoint rather than per call: its label,
 * metrics, retry policy, decoder, rate-limit bucket and span options.
 */
interface Plan {
  readonly name: string
  readonly metrics: Internal.EndpointMetrics
  readonly policy: Retry.Policy
  readonly decode: (data: unknown) => Result.Result<unknown, Schema.SchemaError>
  readonly bucket: Parameters<RateLimiter.Limiter["take"]>[0]
  readonly callSpan: string
  readonly callOptions: Tracer.SpanOptionsNoTrace
  /** The attempt span's attributes but its number. */
  readonly attemptAttributes: Readonly<Record<string, unknown>>
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
    /** The offset added to the local clock to get the exchange's, in milliseconds. */
    let offset = 0
    const timeoutMillis = Duration.toMillis(config.timeout)
    const frame = Request.frame(config)

    const plans = new WeakMap<object, Plan>()
    const planOf = (endpoint: Endpoint<unknown, unknown>): Plan => {
      let plan = plans.get(endpoint)
      if (plan === undefined) {
        const name = label(endpoint)
        plan = {
          name,
          metrics: Internal.forEndpoint(name),
          policy: Retry.schedule(endpoint, { ...config.retry, ...config.retry.endpoints?.[endpoint.name] }),
          decode: decoder(endpoint.response),
          bucket: { name: endpoint.name, label: name, rateLimit: endpoint.rateLimit },
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
            [Telemetry.attributes.url]: `${config.baseUrl}${endpoint.path}`
          }
        }
        plans.set(endpoint, plan)
      }
      return plan
    }

    /** Reads the envelope of an answer: its `data`, or the failure (a rate-limit refusal counted and logged). */
    const answered = (
      plan: Plan,
      answer: HttpTransport.Response,
      secrets: Redact.Scrubber
    ): Effect.Effect<Answered, BitgetApiError | BitgetHttpError | BitgetDecodeError> => {
      const data = interpret({ endpoint: plan.name, ...answer, secrets })
      if (Result.isSuccess(data)) return Effect.succeed<Answered>({ answer, data: data.success, secrets })
      const error = data.failure
      return isRateLimited(error)
        ? Effect.andThen(
          Metric.update(Metric.withAttributes(RateLimiter.rejections, { endpoint: plan.name }), 1),
          Effect.andThen(
            Effect.logWarning(`rate limited: ${plan.name} answered ${error.code} (HTTP ${error.status})`),
            Effect.fail(error)
          )
        )
        : Effect.fail(error)
    }

    /**
     * One attempt, in a span of its own that holds neither headers, body nor
     * query: wait for a slot, sign afresh, send, read the envelope. It signs
     * only with credentials, which a public endpoint is never given
     * (`Request.credentialsFor`): hence its failures are the `auth`'s.
     */
    function attempt<I, A, EI extends object, EA, Au extends Auth>(
      endpoint: Endpoint<I, A, EI, EA, Au>,
      prepared: Request.Prepared,
      credentials: Credentials | undefined,
      call: CallState | undefined
    ): Effect.Effect<Answered, Failure<Au>>
    function attempt<I, A, EI extends object, EA>(
      endpoint: Endpoint<I, A, EI, EA>,
      prepared: Request.Prepared,
      credentials: Credentials | undefined,
      call: CallState | undefined
    ): Effect.Effect<Answered, BitgetError> {
      const plan = planOf(endpoint as Endpoint<unknown, unknown>)
      return Effect.suspend(() =>
        Effect.useSpan(plan.name, {
          kind: "client",
          attributes: {
            ...plan.attemptAttributes,
            [Telemetry.attributes.attempt]: call === undefined ? 1 : ++call.attempts
          }
        }, (span) =>
          Effect.flatMap(limiter.take(plan.bucket, frame.identity), (permit) =>
            Effect.withFiber((fiber) => {
              span.attribute(Telemetry.attributes.rateLimitWait, permit.waitedMillis)
              if (permit.waitedMillis > 0) {
                if (call !== undefined) call.waitedMillis += permit.waitedMillis
                fiber.getRef(Internal.LimiterWaits)?.(permit.waitedMillis)
              }
              const timestamp = credentials === undefined
                ? 0
                : fiber.getRef(Clock.Clock).currentTimeMillisUnsafe() + offset
              const request = Request.outgoing(frame, endpoint, prepared, credentials, timestamp)
              const send = (secrets: Redact.Scrubber) =>
                Effect.map(
                  transport.send({
                    endpoint: plan.name,
                    method: endpoint.method,
                    url: request.url,
                    headers: request.headers,
                    body: request.body,
                    timeoutMillis,
                    maxBytes: config.maxResponseBytes
                  }),
                  (answer) => ({ answer, secrets })
                )
              if (request.toSign === undefined) return send(frame.secrets)
              return Effect.flatMap(signer.sign(request.toSign.key, request.toSign.prehash), (signature) => {
                request.headers["ACCESS-SIGN"] = signature
                return send(Redact.combine(frame.secrets, [signature]))
              })
            }).pipe(
              // the slot is settled however the attempt ends once it is taken: signing failed, interrupted, answered
              Effect.ensuring(permit.settle),
              Effect.flatMap(({ answer, secrets }) => {
                span.attribute(Telemetry.attributes.status, answer.status)
                return answered(plan, answer, secrets)
              })
            )).pipe(
              Effect.tapError((error) => Effect.sync(() => describeError(span, error))),
              Effect.withParentSpan(span, { captureStackTrace: false })
            ))
      )
    }

    const syncClock = Effect.gen(function*() {
      const before = yield* Clock.currentTimeMillis
      const { data } = yield* attempt(TimeEndpoint.endpoint, Request.empty, undefined, undefined)
      const after = yield* Clock.currentTimeMillis
      const server = yield* Schema.decodeUnknownEffect(TimeEndpoint.ServerTime)(data).pipe(
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
      offset = value
      yield* Effect.logInfo(`clock: synced with the exchange, offset ${value} ms`)
      return value
    })

    /** A call's attempts: refused before sending when it cannot be sent, resynced on clock skew, retried per policy. */
    function run<I, A, EI extends object, EA, Au extends Auth>(
      endpoint: Endpoint<I, A, EI, EA, Au>,
      input: I,
      plan: Plan,
      call: CallState
    ): Effect.Effect<A, Failure<Au>>
    function run<I, A, EI extends object, EA>(
      endpoint: Endpoint<I, A, EI, EA>,
      input: I,
      plan: Plan,
      call: CallState
    ): Effect.Effect<A, BitgetError> {
      const credentials = Request.credentialsFor(frame, endpoint)
      if (Result.isFailure(credentials)) return Effect.fail(credentials.failure)
      const prepared = Request.prepare(endpoint, input)
      if (Result.isFailure(prepared)) return Effect.fail(prepared.failure)
      const onRetry = (reason: string, detail: string) =>
        Effect.contextWith((context: Context.Context<never>) => {
          call.reasons.push(reason)
          Internal.countRetry(plan.name, reason, context)
          return Effect.logInfo(`retry: ${plan.name} attempt ${call.attempts + 1} ${detail}`)
        })
      const once = attempt(endpoint, prepared.success, credentials.success, call)
      return once.pipe(
        Effect.catchIf(
          isClockSkew,
          (error) =>
            onRetry(Retry.reason(error), "after the exchange refused the timestamp; syncing the clock").pipe(
              Effect.andThen(syncClock),
              Effect.andThen(once)
            )
        ),
        retrying(plan.policy, (error, delayMillis) => {
          const reason = Retry.reason(error)
          return onRetry(reason, `in ${delayMillis} ms after ${reason}: ${error.message}`)
        }),
        Effect.flatMap(({ answer, data, secrets }) => {
          const decoded = plan.decode(data)
          return Result.isSuccess(decoded)
            ? Effect.succeed(decoded.success as A)
            : Effect.fail(
              new BitgetDecodeError({
                endpoint: plan.name,
                status: answer.status,
                issue: describeParseError(decoded.failure, secrets),
                excerpt: excerpt(answer.body, secrets)
              })
            )
        })
      )
    }

    const execute = <I, A, EI extends object, EA, Au extends Auth>(
      endpoint: Endpoint<I, A, EI, EA, Au>,
      input: I
    ): Effect.Effect<A, Failure<Au>> => {
      const plan = planOf(endpoint as Endpoint<unknown, unknown>)
      return Effect.useSpan(plan.callSpan, plan.callOptions, (span) =>
        Effect.withFiber((fiber) => {
          const clock = fiber.getRef(Clock.Clock)
          const started = clock.currentTimeMillisUnsafe()
          const call: CallState = { attempts: 0, waitedMillis: 0, reasons: [] }
          return run(endpoint, input, plan, call).pipe(
            Effect.withParentSpan(span, { captureStackTrace: false }),
            Effect.onExit((exit) =>
              Effect.sync(() =>
                finish({
                  span,
                  call,
                  name: plan.name,
                  metrics: plan.metrics,
                  context: fiber.context,
                  millis: clock.currentTimeMillisUnsafe() - started
                }, exit)
              )
            )
          )
        }))
    }

    if (config.syncClockOnStart) {
      yield* syncClock.pipe(
        Effect.catch((error) => Effect.logWarning(`clock sync at start failed: ${error.message}`))
      )
    }
    return BitgetClient.of({ execute, clockOffset: Effect.sync(() => offset), syncClock })
  })

/**
 * The client as a layer, over the `HttpClient` from the context.
 *
 * Each place it is provided builds its own client. Effect shares a layer
 * across nested `Effect.provide` calls by identity, whatever it is given:
 * a client provided with other configuration (a demo account, other
 * credentials) within the scope of one already built would otherwise be
 * handed the outer one. A layer built on it once and referenced twice is
 * shared as usual.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer: Layer.Layer<BitgetClient, never, BitgetConfig | Signer | HttpClient.HttpClient> = Layer.fresh(
  Layer.effect(BitgetClient, make).pipe(Layer.provide(layerHttpClient))
)

/**
 * The client as a layer, over the `HttpTransport` from the context (as
 * `BitgetNode` provides it, straight on undici); like `layer`, built afresh
 * wherever it is provided.
 *
 * @since 0.1.0
 * @category layers
 */
export const layerTransport: Layer.Layer<BitgetClient, never, BitgetConfig | Signer | HttpTransport> = Layer.fresh(
  Layer.effect(BitgetClient, make)
)

/**
 * Runs an endpoint with the client from the context.
 *
 * @since 0.1.0
 * @category accessors
 */
export const execute = <I, A, EI extends object, EA, Au extends Auth>(
  endpoint: Endpoint<I, A, EI, EA, Au>,
  input: I
): Effect.Effect<A, Failure<Au>, BitgetClient> =>
  Effect.flatMap(BitgetClient, (client) => client.execute(endpoint, input))
