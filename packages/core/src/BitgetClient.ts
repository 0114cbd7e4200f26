/**
 * The client service: runs any endpoint descriptor through the one generic
 * pipeline: validate, wait for the rate limiter, sign (with the exchange's
 * clock), send, read the envelope, decode; retried per the endpoint's policy.
 *
 * @since 0.1.0
 */
import * as Headers from "@effect/platform/Headers"
import * as HttpBody from "@effect/platform/HttpBody"
import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import {
  Clock,
  Context,
  DateTime,
  Duration,
  Effect,
  FiberRef,
  Layer,
  Metric,
  Option,
  Redacted,
  Ref,
  Schema
} from "effect"
import { BitgetConfig } from "./BitgetConfig.js"
import type { BitgetError } from "./BitgetError.js"
import { BitgetDecodeError, BitgetRequestError, BitgetTransportError } from "./BitgetError.js"
import type { Credentials } from "./Credentials.js"
import type { Endpoint } from "./Endpoint.js"
import { label } from "./Endpoint.js"
import { describeParseError, excerpt, interpret, requestError } from "./internal/envelope.js"
import * as TimeEndpoint from "./internal/serverTime.js"
import { fromHttpClientError } from "./internal/transport.js"
import * as RateLimiter from "./RateLimiter.js"
import * as Retry from "./Retry.js"
import { canonicalQuery, prehash, Signer } from "./Signer.js"

/**
 * Header names that carry credentials; they are redacted from spans and logs.
 *
 * @since 0.1.0
 * @category constants
 */
export const credentialHeaders: ReadonlyArray<string> = ["access-key", "access-sign", "access-passphrase"]

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

interface Prepared {
  readonly query: { readonly signed: string; readonly sent: string }
  readonly body: string
}

const prepare = <I, A, EI extends object, EA>(
  endpoint: Endpoint<I, A, EI, EA>,
  input: I
): Effect.Effect<Prepared, BitgetRequestError> =>
  Schema.encode(endpoint.request)(input, { errors: "all" }).pipe(
    Effect.mapError(requestError(endpoint)),
    Effect.map((encoded): Prepared => {
      if (endpoint.method === "POST") return { query: { signed: "", sent: "" }, body: JSON.stringify(encoded) }
      const params: Record<string, string> = {}
      for (const [key, value] of Object.entries(encoded)) {
        if (typeof value === "string") params[key] = value
      }
      return { query: canonicalQuery(params), body: "" }
    })
  )

const isClockSkew = (error: BitgetError): boolean => error._tag === "BitgetApiError" && error.code === "40008"

/**
 * Builds the client from its configuration, a `Signer` and an `HttpClient`;
 * rate limits are kept in the `RateLimiterStore` from the context when there is
 * one, else in memory.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make: Effect.Effect<BitgetClient.Service, never, BitgetConfig | Signer | HttpClient.HttpClient> = Effect
  .gen(function*() {
    const config = yield* BitgetConfig
    const signer = yield* Signer
    const redactedNames = yield* FiberRef.get(Headers.currentRedactedNames)
    const http = (yield* HttpClient.HttpClient).pipe(
      HttpClient.withTracerPropagation(false),
      HttpClient.transformResponse(
        Effect.locally(Headers.currentRedactedNames, [...redactedNames, ...credentialHeaders])
      )
    )
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
    const baseHeaders: Record<string, string> = { locale: config.locale }
    if (config.demoTrading) baseHeaders.paptrading = "1"
    if (Option.isSome(config.channelApiCode)) baseHeaders["X-CHANNEL-API-CODE"] = config.channelApiCode.value
    const identity = Option.match(config.credentials, { onNone: () => "", onSome: (c) => Redacted.value(c.apiKey) })

    const send = (endpoint: string, request: HttpClientRequest.HttpClientRequest) =>
      http.execute(request).pipe(
        Effect.flatMap((response) =>
          Effect.map(response.text, (body) => ({ status: response.status, headers: response.headers, body }))
        ),
        Effect.scoped,
        Effect.mapError((error) => fromHttpClientError(endpoint, error)),
        Effect.timeoutFail({
          duration: config.timeout,
          onTimeout: () =>
            new BitgetTransportError({
              endpoint,
              reason: "Timeout",
              sent: true,
              description: `no complete answer within ${Duration.format(config.timeout)}`
            })
        })
      )

    /** One attempt: wait for a slot, sign afresh, send, read the envelope. */
    const attempt = <I, A, EI extends object, EA>(
      endpoint: Endpoint<I, A, EI, EA>,
      { body, query }: Prepared,
      credentials: Credentials | undefined
    ) =>
      Effect.gen(function*() {
        const name = label(endpoint)
        const permit = yield* limiter.take(
          { name: endpoint.name, label: name, rateLimit: endpoint.rateLimit },
          identity
        )
        const url = `${config.baseUrl}${endpoint.path}${query.sent === "" ? "" : `?${query.sent}`}`
        const headers: Record<string, string> = { ...baseHeaders }
        if (endpoint.method === "POST" || credentials !== undefined) headers["Content-Type"] = "application/json"
        if (credentials !== undefined) {
          const timestamp = String((yield* Clock.currentTimeMillis) + (yield* Ref.get(offset)))
          headers["ACCESS-KEY"] = Redacted.value(credentials.apiKey)
          headers["ACCESS-PASSPHRASE"] = Redacted.value(credentials.passphrase)
          headers["ACCESS-TIMESTAMP"] = timestamp
          headers["ACCESS-SIGN"] = yield* signer.sign(
            credentials.signingKey,
            prehash({ timestamp, method: endpoint.method, path: endpoint.path, query: query.signed, body })
          )
        }
        const request = endpoint.method === "POST"
          ? HttpClientRequest.post(url, { headers, body: HttpBody.text(body, "application/json") })
          : HttpClientRequest.get(url, { headers })
        const answer = yield* send(name, request).pipe(Effect.ensuring(permit.settle))
        const data = yield* interpret({ endpoint: name, ...answer }).pipe(
          Effect.tapError((error) =>
            error._tag === "BitgetApiError" && error.kind === "RateLimited"
              ? Metric.increment(Metric.tagged(RateLimiter.rejections, "endpoint", name))
              : Effect.void
          )
        )
        return { answer, data }
      })

    const syncClock = Effect.gen(function*() {
      const before = yield* Clock.currentTimeMillis
      const { data } = yield* attempt(TimeEndpoint.endpoint, { query: { signed: "", sent: "" }, body: "" }, undefined)
      const after = yield* Clock.currentTimeMillis
      const server = yield* Schema.decodeUnknown(TimeEndpoint.ServerTime)(data).pipe(
        Effect.mapError((error) =>
          new BitgetDecodeError({
            endpoint: label(TimeEndpoint.endpoint),
            status: 200,
            issue: describeParseError(error),
            excerpt: ""
          })
        )
      )
      const value = DateTime.toEpochMillis(server.serverTime) - Math.round((before + after) / 2)
      yield* Ref.set(offset, value)
      yield* Effect.logDebug(`clock: offset to the exchange is ${value} ms`)
      return value
    })

    const execute = <I, A, EI extends object, EA>(endpoint: Endpoint<I, A, EI, EA>, input: I) => {
      const name = label(endpoint)
      const decode = Schema.decodeUnknown(endpoint.response)
      const policy = Retry.schedule(endpoint, { ...config.retry, ...config.retry.endpoints?.[endpoint.name] })
      return Effect.gen(function*() {
        const credentials = endpoint.auth === "public"
          ? undefined
          : endpoint.auth === "optional"
          ? Option.getOrUndefined(config.credentials)
          : yield* Option.match(config.credentials, {
            onNone: () =>
              Effect.fail(
                new BitgetRequestError({
                  endpoint: name,
                  reason: "NoCredentials",
                  issue: "this operation is signed and needs credentials"
                })
              ),
            onSome: Effect.succeed
          })
        const prepared = yield* prepare(endpoint, input)
        const once = attempt(endpoint, prepared, credentials)
        const { answer, data } = yield* once.pipe(
          Effect.catchIf(isClockSkew, () => Effect.zipRight(syncClock, once)),
          Effect.retry(policy)
        )
        return yield* decode(data).pipe(
          Effect.mapError((error) =>
            new BitgetDecodeError({
              endpoint: name,
              status: answer.status,
              issue: describeParseError(error),
              excerpt: excerpt(answer.body)
            })
          )
        )
      }).pipe(Effect.withSpan(`bitget ${endpoint.name}`, { kind: "client", attributes: { "bitget.endpoint": name } }))
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
