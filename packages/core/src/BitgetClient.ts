/**
 * The client service: runs any endpoint descriptor through the one generic
 * pipeline: validate, wait for the rate limiter, sign (with the exchange's
 * clock), send, read the envelope, decode; retried per the endpoint's policy.
 *
 * @since 0.1.0
 */
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import type { HttpClient } from "effect/http"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Ref from "effect/Ref"
import * as Result from "effect/Result"
import type * as Tracer from "effect/Tracer"
import type { BitgetOptions } from "./BitgetConfig.js"
import { BitgetConfig } from "./BitgetConfig.js"
import type {
  BitgetApiError,
  BitgetError,
  BitgetHttpError,
  BitgetPublicError,
  BitgetSignerError,
  BitgetTransportError
} from "./BitgetError.js"
import { BitgetDecodeError } from "./BitgetError.js"
import { describeParseError, excerpt, interpret } from "./client/envelope.js"
import * as Instrumentation from "./client/instrumentation.js"
import * as Plan from "./client/plan.js"
import * as Request from "./client/request.js"
import * as Retrying from "./client/retrying.js"
import * as ServerTime from "./client/serverTime.js"
import type { Credentials } from "./Credentials.js"
import type { Auth, Endpoint, Failure } from "./Endpoint.js"
import { HttpTransport, layerHttpClient } from "./HttpTransport.js"
import * as Redact from "./internal/redact.js"
import * as Transport from "./internal/transport.js"
import * as RateLimiter from "./RateLimiter.js"
import { Signer } from "./Signer.js"

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

/**
 * What an attempt sent: the answer, and what to scrub from text that quotes
 * it (which shows no secret however it is written out). The attempt's span
 * ends without it (`Instrumentation.attempt`).
 */
interface Sent {
  readonly answer: HttpTransport.Response
  readonly secrets: Redact.Scrubber
}

/** What an attempt read: the answer, the `data` of its envelope, and what to scrub from text that quotes it. */
interface Answered extends Sent {
  readonly data: unknown
}

/** The client's limiter, over the `RateLimiterStore` from the context when there is one, else in memory. */
const limiterOf = (options: RateLimiter.RateLimitOptions): Effect.Effect<RateLimiter.Limiter> =>
  Effect.serviceOption(RateLimiter.RateLimiterStore).pipe(
    Effect.flatMap(Option.match({ onNone: () => RateLimiter.makeMemoryStore, onSome: Effect.succeed })),
    Effect.flatMap((store) =>
      RateLimiter.make(options).pipe(Effect.provideService(RateLimiter.RateLimiterStore, store))
    )
  )

/**
 * Signs a request when it carries a prehash (a signed endpoint's), then sends
 * it within the configured deadline and size cap.
 */
const sender = (
  config: BitgetOptions,
  frame: Request.Frame,
  signer: Signer["Service"],
  transport: HttpTransport["Service"]
) => {
  const timeoutMillis = Duration.toMillis(config.timeout)
  const send = (name: string, method: "GET" | "POST", request: Request.Outgoing, secrets: Redact.Scrubber) =>
    Effect.map(
      transport.send({
        endpoint: name,
        method,
        url: request.url,
        headers: request.headers,
        body: request.body,
        timeoutMillis,
        maxBytes: config.maxResponseBytes
      }),
      (answer): Sent => ({ answer, secrets })
    )
  return (
    name: string,
    method: "GET" | "POST",
    request: Request.Outgoing
  ): Effect.Effect<Sent, BitgetTransportError | BitgetDecodeError | BitgetSignerError> => {
    if (request.toSign === undefined) return send(name, method, request, frame.secrets)
    return Effect.flatMap(
      signer.sign(request.toSign.key, request.toSign.prehash),
      (signature) =>
        send(
          name,
          method,
          { ...request, headers: { ...request.headers, "ACCESS-SIGN": signature } },
          frame.secrets.including([signature])
        )
    )
  }
}

/** Reads an answer's envelope (its status on the attempt's span): its `data`, or the failure it holds. */
const read = (
  plan: Plan.Plan,
  span: Tracer.Span,
  { answer, secrets }: Sent
): Effect.Effect<Answered, BitgetApiError | BitgetHttpError | BitgetDecodeError> => {
  Instrumentation.answered(span, answer.status)
  const data = interpret({ endpoint: plan.name, ...answer, secrets })
  return Result.isSuccess(data)
    ? Effect.succeed<Answered>({ answer, data: data.success, secrets })
    : Instrumentation.refused(plan.name, data.failure)
}

/** Decodes the `data` of an answer with the endpoint's decoder. */
const decode = <A>(plan: Plan.Plan, { answer, data, secrets }: Answered): Effect.Effect<A, BitgetDecodeError> => {
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
}

/** What a client's calls share, worked out once when it is built. */
interface Wiring {
  readonly frame: Request.Frame
  readonly limiter: RateLimiter.Limiter
  readonly planOf: (endpoint: Endpoint<unknown, unknown>) => Plan.Plan
  readonly signAndSend: ReturnType<typeof sender>
  /** The offset added to the local clock to get the exchange's, in milliseconds (set by `syncClock`). */
  readonly offset: Ref.Ref<number>
}

/**
 * One attempt, in a span of its own: limit, build (timestamped with the
 * exchange's clock), sign, send, read. It signs only with credentials, which a
 * public endpoint is never given (`Request.credentialsFor`): hence its
 * failures are the `auth`'s.
 */
function attempt<I, A, EI extends object, EA, Au extends Auth>(
  client: Wiring,
  plan: Plan.Plan,
  endpoint: Endpoint<I, A, EI, EA, Au>,
  prepared: Request.Prepared,
  credentials: Credentials | undefined,
  call: Instrumentation.CallState | undefined
): Effect.Effect<Answered, Failure<Au>>
function attempt<I, A, EI extends object, EA>(
  client: Wiring,
  plan: Plan.Plan,
  endpoint: Endpoint<I, A, EI, EA>,
  prepared: Request.Prepared,
  credentials: Credentials | undefined,
  call: Instrumentation.CallState | undefined
): Effect.Effect<Answered, BitgetError> {
  const steps = (span: Tracer.Span) =>
    Effect.flatMap(client.limiter.take(plan.bucket, client.frame.identity), (permit) =>
      Effect.withFiber((fiber) => {
        Instrumentation.waited(span, call, fiber, permit.waitedMillis)
        const now = credentials === undefined
          ? 0
          : fiber.getRef(Clock.Clock).currentTimeMillisUnsafe() + Ref.getUnsafe(client.offset)
        const request = Request.outgoing(client.frame, endpoint, prepared, credentials, now)
        return client.signAndSend(plan.name, endpoint.method, request)
      }).pipe(
        // the slot is settled however the attempt ends once it is taken: signing failed, interrupted, answered
        Effect.ensuring(permit.settle),
        Effect.flatMap((sent) => read(plan, span, sent))
      ))
  return Instrumentation.attempt(plan, call, steps)
}

/**
 * One call, in its span: build the request (refused before sending when it
 * cannot be sent), then its attempts (resynced on clock skew, retried per the
 * endpoint's policy), then decode the answer.
 */
function run<I, A, EI extends object, EA, Au extends Auth>(
  client: Wiring,
  syncClock: Effect.Effect<unknown, BitgetError>,
  endpoint: Endpoint<I, A, EI, EA, Au>,
  input: I
): Effect.Effect<A, Failure<Au>>
function run<I, A, EI extends object, EA>(
  client: Wiring,
  syncClock: Effect.Effect<unknown, BitgetError>,
  endpoint: Endpoint<I, A, EI, EA>,
  input: I
): Effect.Effect<A, BitgetError> {
  const plan = client.planOf(endpoint as Endpoint<unknown, unknown>)
  return Instrumentation.call(plan, (call): Effect.Effect<A, BitgetError> => {
    const credentials = Request.credentialsFor(client.frame, endpoint)
    if (Result.isFailure(credentials)) return Effect.fail(credentials.failure)
    const prepared = Request.prepare(endpoint, input)
    if (Result.isFailure(prepared)) return Effect.fail(prepared.failure)
    const once = attempt(client, plan, endpoint, prepared.success, credentials.success, call)
    return Effect.flatMap(Retrying.retried(once, plan, call, syncClock), (answered) => decode<A>(plan, answered))
  })
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
    const frame = Request.frame(config)
    const client: Wiring = {
      frame,
      signAndSend: sender(config, frame, yield* Signer, yield* HttpTransport),
      limiter: yield* limiterOf(config.rateLimit),
      planOf: Plan.planner(config),
      offset: Ref.makeUnsafe(0)
    }
    const syncClock = ServerTime.sync(
      attempt(client, client.planOf(ServerTime.endpoint), ServerTime.endpoint, Request.empty, undefined, undefined),
      frame.secrets,
      client.offset
    )
    if (config.syncClockOnStart) {
      yield* syncClock.pipe(
        Effect.catch((error) => Effect.logWarning(`clock sync at start failed: ${error.message}`))
      )
    }
    return BitgetClient.of({
      execute: (endpoint, input) => run(client, syncClock, endpoint, input),
      clockOffset: Ref.get(client.offset),
      syncClock
    })
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
