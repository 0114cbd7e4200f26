/**
 * The HTTP exchange under the client: send one request, read its answer as
 * text within a size cap and a deadline. Built here on any `effect/http`
 * `HttpClient` (the client reaches `effect/http`, whose API is still
 * unstable, only through this module), or straight on the web-standard
 * `fetch`; `@bitget-effect/platform-node` has one straight on undici.
 *
 * @since 0.1.0
 */
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import { constTrue } from "effect/Function"
import * as Headers from "effect/http/Headers"
import type * as HttpClient from "effect/http/HttpClient"
import * as Layer from "effect/Layer"
import type { BitgetDecodeError, BitgetTransportError } from "./BitgetError.js"
import * as FetchTransport from "./internal/fetchTransport.js"
import * as Transport from "./internal/transport.js"

/**
 * Sends requests for the client.
 *
 * @since 0.1.0
 * @category services
 */
export class HttpTransport
  extends Context.Service<HttpTransport, HttpTransport.Service>()("@bitget-effect/core/HttpTransport")
{}

/**
 * The types that belong to the `HttpTransport` service.
 *
 * @since 0.1.0
 * @category models
 */
export declare namespace HttpTransport {
  /**
   * A request, ready to send.
   *
   * @since 0.1.0
   * @category models
   */
  export interface Request {
    /** The endpoint's label (`GET /api/...`), for errors. */
    readonly endpoint: string
    readonly method: "GET" | "POST"
    readonly url: string
    readonly headers: { readonly [name: string]: string }
    /** The JSON body of a POST. */
    readonly body?: string | undefined
    /** The whole exchange (connect, send, read) must end within this many milliseconds. */
    readonly timeoutMillis: number
    /** The most bytes of body read; a longer body fails with `BitgetDecodeError`. */
    readonly maxBytes: number
  }

  /**
   * An answer, read whole.
   *
   * @since 0.1.0
   * @category models
   */
  export interface Response {
    readonly status: number
    /** Header names in lower case. */
    readonly headers: { readonly [name: string]: string | undefined }
    readonly body: string
  }

  /**
   * What a transport does.
   *
   * @since 0.1.0
   * @category models
   */
  export interface Service {
    /**
     * Sends a request and reads its answer. Fails with `BitgetTransportError`
     * (telling whether the request can have been sent; `Timeout` past the
     * deadline, `Unexpected` for what is not a network failure) or
     * `BitgetDecodeError` for a body over the cap. Never quotes a credential
     * header in an error.
     */
    readonly send: (request: Request) => Effect.Effect<Response, BitgetTransportError | BitgetDecodeError>
  }
}

/**
 * The failure of an exchange that did not end within its deadline.
 *
 * @since 0.1.0
 * @category errors
 */
export const timeoutError: (request: HttpTransport.Request) => BitgetTransportError = Transport.timeoutError

/**
 * The failure of an exchange that broke, from what was thrown: `Connect` and
 * not sent when its code (`ECONNREFUSED`, `ENOTFOUND`, a TLS refusal, …)
 * proves no request reached the server; `Network` for another network code
 * (`ECONNRESET`, `UND_ERR_SOCKET`, …), with only the code kept; anything else
 * (a `TypeError` of a bug, a runtime the transport does not support) is
 * `Unexpected`, never retried, keeping the error's name and message without
 * the values of the request's credential headers, and counted as sent (how far
 * the exchange got is not known).
 *
 * @since 0.1.0
 * @category errors
 */
export const failure: (request: HttpTransport.Request, cause: unknown) => BitgetTransportError = Transport.failure

/**
 * The failure of an answer whose body is longer than the request's cap
 * (`maxBytes`), with the answer's status.
 *
 * @since 0.2.0
 * @category errors
 */
export const bodyTooLarge: (request: HttpTransport.Request, status: number) => BitgetDecodeError =
  Transport.bodyTooLarge

/**
 * One exchange under its deadline, for a transport written on a promise API:
 * `exchange` gets an `AbortController`, aborted at the deadline or when the
 * call is interrupted, and `timedOut` to tell the two apart; it resolves with
 * the outcome. A rejection becomes `timeoutError` past the deadline, else
 * `failure`. The deadline is kept on Effect's `Clock` (a `TestClock` moves
 * it), and ends with the exchange.
 *
 * @since 0.2.0
 * @category constructors
 */
export const withDeadline: (
  request: HttpTransport.Request,
  exchange: (
    controller: AbortController,
    timedOut: () => boolean
  ) => Promise<Effect.Effect<HttpTransport.Response, BitgetTransportError | BitgetDecodeError>>
) => Effect.Effect<HttpTransport.Response, BitgetTransportError | BitgetDecodeError> = Transport.withDeadline

/**
 * effect's HTTP client modules, loaded when a transport on them is built: a
 * program on undici never loads them (the fetch transport loads
 * `FetchHttpClient`, which brings `HttpClient` with it).
 */
const httpClientModules = Effect.promise(() =>
  Promise.all([
    import("effect/http/HttpClient"),
    import("effect/http/HttpClientRequest"),
    import("effect/http/HttpBody")
  ])
)

/**
 * A transport on the `HttpClient` from the context (any platform's, or a
 * test's). Its own tracing and trace propagation are off: its span would hold
 * the full URL with the query (and headers, where a program asks for them);
 * the credential headers are redacted for any middleware that logs them. Each exchange is scoped: its connection is
 * released when it ends, read or not.
 *
 * @stability unstable
 * @since 0.1.0
 * @category constructors
 */
export const fromHttpClient: Effect.Effect<HttpTransport.Service, never, HttpClient.HttpClient> = Effect.gen(
  function*() {
    const [Client, ClientRequest, Body] = yield* httpClientModules
    const redacted = [...(yield* Headers.CurrentRedactedNames), ...Transport.credentialHeaders]
    const http = (yield* Client.HttpClient).pipe(
      Client.withScope,
      Client.transformResponse((response) =>
        response.pipe(
          Effect.provideService(Client.TracerPropagationEnabled, false),
          Effect.provideService(Client.TracerDisabledWhen, constTrue),
          Effect.provideService(Headers.CurrentRedactedNames, redacted)
        )
      )
    )
    return HttpTransport.of({
      send: (request) =>
        http.execute(
          request.method === "POST"
            ? ClientRequest.post(request.url, {
              headers: request.headers,
              body: Body.text(request.body ?? "", "application/json")
            })
            : ClientRequest.get(request.url, { headers: request.headers })
        ).pipe(
          Effect.flatMap((response) =>
            Effect.map(Transport.readBody(request, response), (body) => ({
              status: response.status,
              headers: response.headers,
              body
            }))
          ),
          Effect.catchTag("HttpClientError", (error) => Effect.fail(Transport.fromHttpClientError(request, error))),
          Effect.scoped,
          Effect.timeoutOrElse({
            duration: Duration.millis(request.timeoutMillis),
            orElse: () => Effect.fail(timeoutError(request))
          })
        )
    })
  }
)

/**
 * A transport straight on the web-standard `fetch` (the one in
 * `FetchHttpClient.Fetch` where it is built: `globalThis.fetch` unless a test
 * or a program provides another), for any runtime that has it. One timer per
 * exchange ends it at its deadline, an interruption aborts it, the body is read
 * as a stream within the cap (a declared length over it is refused unread),
 * and redirects are not followed. A `TypeError` that fetch rejects with is a
 * network failure (`Network`, maybe sent) unless its cause has a code that
 * says more (Node's fetch: `ECONNREFUSED`, so `Connect`); what else is thrown
 * is `Unexpected`.
 *
 * @stability unstable
 * @since 0.2.0
 * @category constructors
 */
export const fromFetch: Effect.Effect<HttpTransport.Service> = FetchTransport.make

/**
 * The fetch transport as a layer (see `fromFetch`), built afresh wherever it
 * is provided, like `layerHttpClient`: one provided inside another, over
 * another fetch, must send with its own.
 *
 * @stability unstable
 * @since 0.2.0
 * @category layers
 */
export const layerFetch: Layer.Layer<HttpTransport> = Layer.fresh(Layer.effect(HttpTransport, fromFetch))

/**
 * The `HttpClient` transport as a layer. It is built afresh wherever it is
 * provided: layers are shared across `Effect.provide` calls, and a transport
 * over another `HttpClient` must not be handed one built over the first.
 *
 * @stability unstable
 * @since 0.1.0
 * @category layers
 */
export const layerHttpClient: Layer.Layer<HttpTransport, never, HttpClient.HttpClient> = Layer.fresh(
  Layer.effect(HttpTransport, fromHttpClient)
)
