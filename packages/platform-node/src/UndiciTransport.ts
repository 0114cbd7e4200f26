/**
 * The `HttpTransport` straight on undici: one pooled keep-alive agent per
 * layer (HTTP/1.1), one timer per request for its deadline, the body read
 * within the size cap (a declared length over it is refused before reading).
 * It needs Node's undici: on a runtime whose `undici` is a stand-in that
 * cannot send (Bun's), building it dies at once, naming the layer to use.
 *
 * @since 0.1.0
 */
import { BitgetTransportError } from "@bitget-effect/core/BitgetError"
import { bodyTooLarge, HttpTransport, withDeadline } from "@bitget-effect/core/HttpTransport"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Predicate from "effect/Predicate"
import type * as Scope from "effect/Scope"
import type { Dispatcher } from "undici"

/**
 * Options of the undici agent.
 *
 * @since 0.1.0
 * @category models
 */
export interface Options {
  /** Sockets per origin (default 32). */
  readonly connections?: number
  /** How long an idle socket is kept open, in milliseconds (default 30 s). */
  readonly keepAliveTimeout?: number
}

/** Drops a body unread; undici reports a body destroyed before its end as an error, which is expected here. */
const discard = (body: Dispatcher.ResponseData["body"]): void => {
  body.on("error", () => undefined)
  body.destroy()
}

/** Reads a body within `maxBytes`; undefined once it is longer (the rest is dropped). */
const readWithin = async (body: Dispatcher.ResponseData["body"], maxBytes: number): Promise<string | undefined> => {
  const chunks: Array<Buffer> = []
  let size = 0
  for await (const chunk of body as AsyncIterable<Buffer>) {
    size += chunk.length
    if (size > maxBytes) {
      discard(body)
      return undefined
    }
    chunks.push(chunk)
  }
  return Buffer.concat(chunks, size).toString("utf8")
}

/** Answer headers as single strings by lower-case name. */
const flatten = (headers: Dispatcher.ResponseData["headers"]): Record<string, string | undefined> => {
  const flat: Record<string, string | undefined> = {}
  for (const name in headers) {
    const value = headers[name]
    flat[name] = Array.isArray(value) ? value.join(", ") : value
  }
  return flat
}

/** The methods of undici's `Agent` the transport calls; Bun's `undici` is a stand-in whose `Agent` has neither. */
const agentMethods = ["request", "close"] as const

/** Whether an agent has every method the transport calls. */
const capable = (agent: object): boolean =>
  agentMethods.every((method) => Predicate.hasProperty(agent, method) && Predicate.isFunction(agent[method]))

/** The label of the defect `unsupported` builds, by which `isUnsupported` knows it. */
const unsupportedLabel = "undici"

/** Why the transport cannot be built here, and which layer to use instead. */
const unsupported = (): BitgetTransportError =>
  new BitgetTransportError({
    endpoint: unsupportedLabel,
    reason: "Unexpected",
    sent: false,
    description: "this runtime's undici cannot send requests (its Agent has no request method, as under Bun): " +
      "use BitgetFetch.layer from @bitget-effect/core (fetch and WebCrypto) instead of BitgetNode.layer"
  })

/**
 * `true` for the defect `make` dies with on a runtime whose undici cannot
 * send (Bun's stand-in), so that a program can take another transport there.
 *
 * @since 0.2.0
 * @category predicates
 */
export const isUnsupported = (defect: unknown): boolean =>
  defect instanceof BitgetTransportError && defect.endpoint === unsupportedLabel && defect.reason === "Unexpected"

/**
 * Builds the transport on an agent of its own, closed with the scope. On a
 * runtime whose undici cannot send (Bun's stand-in), it dies at once with an
 * `Unexpected` `BitgetTransportError` naming the layer to use instead, rather
 * than failing each call.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (options: Options = {}): Effect.Effect<HttpTransport.Service, never, Scope.Scope> =>
  Effect.map(
    Effect.acquireRelease(
      // undici is loaded when the layer is built, not when this module is imported
      Effect.flatMap(Effect.promise(() => import("undici")), ({ Agent }) => {
        const agent = new Agent({
          connections: options.connections ?? 32,
          keepAliveTimeout: options.keepAliveTimeout ?? 30_000,
          // undici 8 would negotiate HTTP/2 over TLS; on HTTP/1.1 an aborted exchange closes its socket
          allowH2: false
        })
        return capable(agent) ? Effect.succeed(agent) : Effect.die(unsupported())
      }),
      (agent) => Effect.promise(() => agent.close())
    ),
    (agent) =>
      HttpTransport.of({
        send: (request) =>
          withDeadline(request, async (controller) => {
            const slash = request.url.indexOf("/", request.url.indexOf("//") + 2)
            const response = await agent.request({
              origin: slash === -1 ? request.url : request.url.slice(0, slash),
              path: slash === -1 ? "/" : request.url.slice(slash),
              method: request.method,
              headers: request.headers,
              body: request.body ?? null,
              signal: controller.signal
            })
            const tooLarge = () => Effect.fail(bodyTooLarge(request, response.statusCode))
            const declared = Number(response.headers["content-length"])
            if (declared > request.maxBytes) {
              discard(response.body)
              return tooLarge()
            }
            // a declared length is what undici reads at most; otherwise the count is kept while reading
            const body = declared >= 0
              ? await response.body.text()
              : await readWithin(response.body, request.maxBytes)
            return body === undefined
              ? tooLarge()
              : Effect.succeed({ status: response.statusCode, headers: flatten(response.headers), body })
          })
      })
  )

/**
 * The transport as a layer, with its own agent; like `make`, it dies at build
 * on a runtime whose undici cannot send.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = (options?: Options): Layer.Layer<HttpTransport> => Layer.effect(HttpTransport, make(options))
