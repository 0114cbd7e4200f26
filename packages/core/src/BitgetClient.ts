/**
 * The client service: runs any endpoint descriptor through the one generic
 * pipeline: validate, wait for the rate limiter, sign (with the exchange's
 * clock), send, read the envelope, decode; retried per the endpoint's policy.
 *
 * @since 0.1.0
 */
import type * as HttpClient from "@effect/platform/HttpClient"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as DateTime from "effect/DateTime"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Metric from "effect/Metric"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Ref from "effect/Ref"
import * as Schema from "effect/Schema"
import { BitgetConfig } from "./BitgetConfig.js"
import type { BitgetError } from "./BitgetError.js"
import { BitgetDecodeError, BitgetRequestError } from "./BitgetError.js"
import type { Credentials } from "./Credentials.js"
import type { Endpoint } from "./Endpoint.js"
import { label } from "./Endpoint.js"
import { HttpTransport, layerHttpClient } from "./HttpTransport.js"
import { decoder } from "./internal/decoder.js"
import { describeParseError, excerpt, interpret, requestError } from "./internal/envelope.js"
import * as Redact from "./internal/redact.js"
import * as TimeEndpoint from "./internal/serverTime.js"
import * as Transport from "./internal/transport.js"
import * as RateLimiter from "./RateLimiter.js"
import * as Retry from "./Retry.js"
import { isSendable } from "./Schemas.js"
import { canonicalQuery, prehash, Signer } from "./Signer.js"

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

interface Prepared {
  readonly query: { readonly signed: string; readonly sent: string }
  readonly body: string
}

/**
 * Retries an effect per a policy, building the schedule's state only once it
 * has failed (most calls succeed at once): the first failure is the
 * schedule's first input, as with `Effect.retry`.
 */
const retrying = (policy: Retry.Policy) => <A, R>(self: Effect.Effect<A, BitgetError, R>) =>
  Effect.catchAll(self, (first) => {
    let replay = true
    return Effect.retry(
      Effect.suspend(() => {
        if (!replay) return self
        replay = false
        return Effect.fail(first)
      }),
      policy
    )
  })

const prepare = <I, A, EI extends object, EA>(
  endpoint: Endpoint<I, A, EI, EA>,
  input: I
): Effect.Effect<Prepared, BitgetRequestError> =>
  Schema.encode(endpoint.request)(input, { errors: "all" }).pipe(
    Effect.mapError(requestError(endpoint)),
    Effect.flatMap((encoded) => {
      if (endpoint.method === "POST") {
        return Effect.succeed({ query: { signed: "", sent: "" }, body: JSON.stringify(encoded) })
      }
      const params: Record<string, string> = {}
      for (const [key, value] of Object.entries(encoded)) {
        if (typeof value !== "string") continue
        if (!isSendable(value)) {
          return Effect.fail(
            new BitgetRequestError({
              endpoint: label(endpoint),
              issue: `${key}: must not hold control characters or lone surrogates`
            })
          )
        }
        params[key] = value
      }
      return Effect.succeed({ query: canonicalQuery(params), body: "" })
    })
  )

/** A header value an HTTP request can carry: printable ASCII and tabs (no line break), at most 1024 characters. */
const headerValue = /^[\t\x20-\x7e]{0,1024}$/

/** The first header whose value no request can carry, by name. */
const unsendableHeader = (headers: { readonly [name: string]: string }): string | undefined =>
  Object.keys(headers).find((name) => !headerValue.test(headers[name] as string))

const isClockSkew = (error: BitgetError): boolean => error._tag === "BitgetApiError" && error.code === "40008"

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
    const baseHeaders: Record<string, string> = { locale: config.locale }
    if (config.demoTrading) baseHeaders.paptrading = "1"
    if (Option.isSome(config.channelApiCode)) baseHeaders["X-CHANNEL-API-CODE"] = config.channelApiCode.value
    const identity = Option.match(config.credentials, { onNone: () => "", onSome: (c) => Redacted.value(c.apiKey) })
    const secrets = Redact.scrubber(Option.match(config.credentials, {
      onNone: () => [],
      onSome: ({ apiKey, passphrase, signingKey }) => [
        Redacted.value(apiKey),
        Redacted.value(passphrase),
        Redacted.value(signingKey._tag === "Hmac" ? signingKey.secret : signingKey.privateKeyPem)
      ]
    }))
    const unsendable = unsendableHeader(baseHeaders)
    const unsendableCredential = Option.match(config.credentials, {
      onNone: () => undefined,
      onSome: ({ apiKey, passphrase }) =>
        unsendableHeader({ "ACCESS-KEY": Redacted.value(apiKey), "ACCESS-PASSPHRASE": Redacted.value(passphrase) })
    })

    /**
     * Sends a request and reads the answer, in a span that holds neither
     * headers nor body: its exit is the status alone.
     */
    const send = (request: HttpTransport.Request) =>
      Effect.suspend(() => {
        let answer: HttpTransport.Response | undefined
        return transport.send(request).pipe(
          Effect.map((response) => {
            answer = response
            return response.status
          }),
          Effect.tap((status) => Effect.annotateCurrentSpan("http.response.status_code", status)),
          Effect.withSpan("http.client", {
            kind: "client",
            attributes: { "http.request.method": request.method, "url.full": request.url },
            captureStackTrace: false
          }),
          Effect.map(() => answer as HttpTransport.Response)
        )
      })

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
        const signature = headers["ACCESS-SIGN"]
        const scrubber = signature === undefined ? secrets : Redact.combine(secrets, [signature])
        const answer = yield* send({
          endpoint: name,
          method: endpoint.method,
          url,
          headers,
          body: endpoint.method === "POST" ? body : undefined,
          timeoutMillis,
          maxBytes: config.maxResponseBytes
        }).pipe(Effect.ensuring(permit.settle))
        const data = yield* interpret({ endpoint: name, ...answer, secrets: scrubber }).pipe(
          Effect.tapError((error) =>
            error._tag === "BitgetApiError" && error.kind === "RateLimited"
              ? Metric.increment(Metric.tagged(RateLimiter.rejections, "endpoint", name))
              : Effect.void
          )
        )
        return { answer, data, secrets: scrubber }
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
            issue: describeParseError(error, secrets),
            excerpt: ""
          })
        )
      )
      const value = DateTime.toEpochMillis(server.serverTime) - Math.round((before + after) / 2)
      yield* Ref.set(offset, value)
      yield* Effect.logDebug(`clock: offset to the exchange is ${value} ms`)
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
        const header = unsendable ?? (credentials === undefined ? undefined : unsendableCredential)
        if (header !== undefined) {
          return yield* new BitgetRequestError({
            endpoint: name,
            issue: `the ${header} header would hold a line break, a character no HTTP header can carry, ` +
              "or more than 1024 characters"
          })
        }
        const prepared = yield* prepare(endpoint, input)
        const once = attempt(endpoint, prepared, credentials)
        const { answer, data, secrets: scrubber } = yield* once.pipe(
          Effect.catchIf(isClockSkew, () => Effect.zipRight(syncClock, once)),
          retrying(policy(endpoint))
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
      }).pipe(
        Effect.withSpan(`bitget ${endpoint.name}`, {
          kind: "client",
          attributes: { "bitget.endpoint": name },
          captureStackTrace: false
        })
      )
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
