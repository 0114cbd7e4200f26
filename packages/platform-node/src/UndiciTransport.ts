/**
 * The `HttpTransport` straight on undici: one pooled keep-alive agent per
 * layer (HTTP/1.1), one timer per request for its deadline, the body read
 * within the size cap (a declared length over it is refused before reading).
 * It needs Node's undici, which needs Node.js 22.19 or later: on an older
 * Node.js, on a runtime whose `undici` is a stand-in that cannot send
 * (Bun's), or where undici cannot be loaded, building it dies at once,
 * naming the layer to use.
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
const unsupported = (why: string): BitgetTransportError =>
  new BitgetTransportError({
    endpoint: unsupportedLabel,
    reason: "Unexpected",
    sent: false,
    description:
      `${why}: use BitgetFetch.layer from @bitget-effect/core (fetch and WebCrypto) instead of BitgetNode.layer`
  })

/**
 * `true` for the defect `make` dies with on a runtime whose undici cannot
 * send (Bun's stand-in) or cannot be loaded (Deno without `--allow-env` for
 * the variables undici reads as it loads), so that a program can take
 * another transport there.
 *
 * @since 0.2.0
 * @category predicates
 */
export const isUnsupported = (defect: unknown): boolean =>
  defect instanceof BitgetTransportError && defect.endpoint === unsupportedLabel && defect.reason === "Unexpected"

/** The Node.js versions undici 8 runs on (it decompresses zstd with node:zlib's, which Node.js 20 lacks). */
const supportedNode = { range: ">=22.19", major: 22, minor: 19 } as const

/** The label of the failure `checkNodeVersion` raises, by which `isUnsupportedNode` knows it. */
const oldNodeLabel = "Node.js"

/** Why undici cannot be loaded on Node.js `version`, and what to do instead. */
const oldNode = (version: string): BitgetTransportError =>
  new BitgetTransportError({
    endpoint: oldNodeLabel,
    reason: "Unexpected",
    sent: false,
    description:
      `Node.js ${version} is not supported: BitgetNode.layer's undici needs Node.js ${supportedNode.range}; ` +
      "upgrade Node.js, or use BitgetFetch.layer from @bitget-effect/core (fetch and WebCrypto) on this version"
  })

/** Whether a Node.js version (`22.19.0`) is one undici runs on. */
const supports = (version: string): boolean => {
  const [major = 0, minor = 0] = version.split(".").map(Number)
  return major > supportedNode.major || (major === supportedNode.major && minor >= supportedNode.minor)
}

/**
 * Checks that the running Node.js (`process.versions` when it runs, unless
 * given) can run undici: fails with an `Unexpected` `BitgetTransportError` on
 * a version below 22.19, whose description names the version, the supported
 * range (`>=22.19`) and `BitgetFetch.layer` as the way to run there. Building
 * the transport runs it before loading undici; a program can run it first
 * (the CLI does). Bun passes (its undici stand-in is `isUnsupported`'s case).
 *
 * @since 0.2.0
 * @category operations
 */
export const checkNodeVersion = (
  versions?: Readonly<Record<string, string | undefined>>
): Effect.Effect<void, BitgetTransportError> =>
  Effect.suspend(() => {
    const { bun, node } = versions ?? process.versions
    return node === undefined || bun !== undefined || supports(node) ? Effect.void : Effect.fail(oldNode(node))
  })

/**
 * `true` for the failure `checkNodeVersion` raises (and `make` dies with) on a
 * Node.js older than undici supports.
 *
 * @since 0.2.0
 * @category predicates
 */
export const isUnsupportedNode = (u: unknown): u is BitgetTransportError =>
  u instanceof BitgetTransportError && u.endpoint === oldNodeLabel && u.reason === "Unexpected"

/** A new agent, on a Node.js and an undici that load and can send; otherwise it dies, naming the layer to use. */
const newAgent = (options: Options) =>
  checkNodeVersion().pipe(
    Effect.orDie,
    // undici is loaded when the layer is built, not when this module is imported, and only on a Node.js it runs on
    Effect.andThen(Effect.tryPromise({
      try: () => import("undici"),
      catch: (error) => unsupported(`this runtime cannot load undici (${String(error)})`)
    })),
    Effect.orDie,
    Effect.flatMap(({ Agent }) => {
      const agent = new Agent({
        connections: options.connections ?? 32,
        keepAliveTimeout: options.keepAliveTimeout ?? 30_000,
        // undici 8 would negotiate HTTP/2 over TLS; on HTTP/1.1 an aborted exchange closes its socket
        allowH2: false
      })
      return capable(agent)
        ? Effect.succeed(agent)
        : Effect.die(
          unsupported("this runtime's undici cannot send requests (its Agent has no request method, as under Bun)")
        )
    })
  )

/**
 * Builds the transport on an agent of its own, closed with the scope. On a
 * Node.js older than 22.19 (`checkNodeVersion`, before undici is loaded), or
 * on a runtime whose undici cannot be loaded or cannot send (Bun's stand-in),
 * it dies at once with an `Unexpected` `BitgetTransportError` naming the layer
 * to use instead, rather than failing each call.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (options: Options = {}): Effect.Effect<HttpTransport.Service, never, Scope.Scope> =>
  Effect.map(
    Effect.acquireRelease(newAgent(options), (agent) => Effect.promise(() => agent.close())),
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
 * on a Node.js older than 22.19 or a runtime whose undici cannot send.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = (options?: Options): Layer.Layer<HttpTransport> => Layer.effect(HttpTransport, make(options))
