import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import type { HttpClientError, HttpClientResponse } from "effect/http"
import * as Predicate from "effect/Predicate"
import * as Stream from "effect/Stream"
import { BitgetDecodeError, BitgetTransportError } from "../BitgetError.js"
import * as Redact from "./redact.js"

/**
 * Header names that carry credentials (lower case).
 *
 * @internal
 */
export const credentialHeaders: ReadonlyArray<string> = ["access-key", "access-sign", "access-passphrase"]

/**
 * What a failure is built from: the request's label, and its headers (the
 * values of the credential ones are kept out of any text).
 *
 * @internal
 */
export interface Sent {
  readonly endpoint: string
  readonly headers: { readonly [name: string]: string }
}

/** Whether a broken exchange can have reached the server: `Connect` when it cannot, `Network` when it may. */
type Broken = "Connect" | "Network"

/**
 * What an error code proves about an exchange that broke, by the code: Node's
 * system errors, undici's, TLS's (on the error or one of its causes). A code
 * that is not here (or no code) proves nothing: the failure is `Unexpected`.
 */
const brokenBy: ReadonlyMap<string, Broken> = new Map<string, Broken>([
  // no connection was made (name resolution, refusal, unreachable, connect timeout, TLS handshake), or the URL
  // cannot be connected to: nothing was sent
  ...[
    "ECONNREFUSED",
    "ENOTFOUND",
    "EAI_AGAIN",
    "EHOSTUNREACH",
    "ENETUNREACH",
    "UND_ERR_CONNECT_TIMEOUT",
    "ERR_INVALID_URL",
    "EPROTO",
    "ERR_TLS_CERT_ALTNAME_INVALID",
    "CERT_HAS_EXPIRED",
    "DEPTH_ZERO_SELF_SIGNED_CERT",
    "SELF_SIGNED_CERT_IN_CHAIN",
    "UNABLE_TO_GET_ISSUER_CERT_LOCALLY",
    "UNABLE_TO_VERIFY_LEAF_SIGNATURE"
  ].map((code) => [code, "Connect"] as const),
  // the connection broke, timed out or carried what is not HTTP, maybe after the request went out (undici's
  // parser error may have no code: it is found by its name)
  ...[
    "ECONNRESET",
    "ETIMEDOUT",
    "EPIPE",
    "ECONNABORTED",
    "UND_ERR_SOCKET",
    "UND_ERR_HEADERS_TIMEOUT",
    "UND_ERR_BODY_TIMEOUT",
    "UND_ERR_RES_CONTENT_LENGTH_MISMATCH",
    "HTTPParserError"
  ].map((code) => [code, "Network"] as const)
])

/** An error and its causes, outermost first: at most 5, each once (a chain of causes may loop). */
const chain = (error: unknown): ReadonlyArray<unknown> => {
  const links = [error]
  for (let current = error; links.length < 5 && Predicate.hasProperty(current, "cause");) {
    current = current.cause
    if (links.includes(current)) break
    links.push(current)
  }
  return links
}

/** A string property of a value, if it has one. */
const text = (value: unknown, key: "code" | "name" | "message"): string | undefined =>
  Predicate.hasProperty(value, key) && Predicate.isString(value[key]) ? value[key] : undefined

/** The first code (or undici error name) in an error's chain that proves a broken exchange, with what it proves. */
const brokenExchange = (error: unknown): { readonly code: string; readonly broken: Broken } | undefined => {
  for (const link of chain(error)) {
    for (const code of [text(link, "code"), text(link, "name")]) {
      const broken = code === undefined ? undefined : brokenBy.get(code)
      if (code !== undefined && broken !== undefined) return { code, broken }
    }
  }
  return undefined
}

/** The most characters of a thrown error's text an `Unexpected` failure keeps. */
const thrownLength = 400

/** One error as `Name: message`; a thrown string as itself; any other value by its type. */
const describeLink = (link: unknown): string => {
  const message = text(link, "message")
  if (message !== undefined) return `${text(link, "name") ?? "Error"}: ${message}`
  return typeof link === "string" ? `a thrown string: ${link}` : `a thrown ${link === null ? "null" : typeof link}`
}

/**
 * What was thrown, as `Name: message` for it and each cause (`TypeError:
 * fetch failed; cause: Error: unknown scheme`), with the values of the
 * request's credential headers (key, passphrase, signature) removed, and cut
 * to a bounded length.
 */
const describeThrown = (error: unknown, headers: { readonly [name: string]: string }): string => {
  let described = ""
  for (const link of chain(error)) {
    if (described.length > thrownLength) break
    described += described === "" ? describeLink(link) : `; cause: ${describeLink(link)}`
  }
  const secrets = Object.keys(headers).filter((name) => credentialHeaders.includes(name.toLowerCase()))
  return Redact.clip(described, thrownLength, Redact.scrubber(secrets.map((name) => headers[name] ?? "")))
}

/**
 * A transport failure from what was thrown while sending a request or reading
 * its answer. A system, undici or TLS error code (on the error or a cause)
 * makes it `Connect` (and not sent) when the code proves no request reached
 * the server, else `Network`; only the code is kept, as the error may quote
 * the signed request. Without such a code, a `TypeError` that `fetch` (or the
 * body stream of its answer) rejected with is `Network` when `fetched` says
 * so: the Fetch standard reports every network error so, and Deno and
 * browsers give it no code. Anything else (a `TypeError` of a bug, a runtime
 * the transport does not support) is `Unexpected`. Either keeps the name and
 * message of the error and its causes, scrubbed of the request's credentials
 * and bounded, and counts as sent unless `unsent` says otherwise, as nothing
 * tells how far the exchange got and a call that is not idempotent must not
 * be repeated on a guess.
 *
 * @internal
 */
export const transportError = (
  request: Sent,
  cause: unknown,
  options: { readonly what: string; readonly unsent?: boolean; readonly fetched?: boolean }
): BitgetTransportError => {
  const found = brokenExchange(cause)
  const reason = found?.broken ?? (options.fetched === true && cause instanceof TypeError ? "Network" : "Unexpected")
  return new BitgetTransportError({
    endpoint: request.endpoint,
    reason,
    sent: reason !== "Connect" && options.unsent !== true,
    description: found === undefined
      ? `${options.what} failure: ${describeThrown(cause, request.headers)}`
      : `${options.what} failure (${found.code})`
  })
}

/**
 * The failure of an exchange that broke, from what was thrown (see
 * `transportError`): the request's transport failed.
 *
 * @internal
 */
export const failure = (request: Sent, cause: unknown): BitgetTransportError =>
  transportError(request, cause, { what: "request transport" })

/**
 * What a deadline is kept for: the request's label, its headers and the time it is allowed.
 *
 * @internal
 */
export type Timed = Sent & { readonly timeoutMillis: number }

/**
 * The failure of an exchange that did not end within its deadline.
 *
 * @internal
 */
export const timeoutError = (request: Timed): BitgetTransportError =>
  new BitgetTransportError({
    endpoint: request.endpoint,
    reason: "Timeout",
    sent: true,
    description: `no complete answer within ${Duration.format(Duration.millis(request.timeoutMillis))}`
  })

/**
 * One exchange under its deadline, for a transport written on a promise API
 * (`HttpTransport.withDeadline` says how).
 *
 * @internal
 */
export const withDeadline = <A>(
  request: Timed,
  exchange: (
    controller: AbortController,
    timedOut: () => boolean
  ) => Promise<Effect.Effect<A, BitgetTransportError | BitgetDecodeError>>
): Effect.Effect<A, BitgetTransportError | BitgetDecodeError> =>
  Effect.suspend(() => {
    const controller = new AbortController()
    let timedOut = false
    const exchanged = Effect.callback<A, BitgetTransportError | BitgetDecodeError>((resume) => {
      exchange(controller, () => timedOut).then(
        resume,
        (error) => resume(Effect.fail(timedOut ? timeoutError(request) : failure(request, error)))
      )
      return Effect.sync(() => controller.abort())
    })
    return Effect.timeoutOrElse(exchanged, {
      duration: Duration.millis(request.timeoutMillis),
      orElse: () => {
        timedOut = true
        return Effect.fail(timeoutError(request))
      }
    })
  })

/** What failed, by the HTTP failure's reason: the request (before an answer) or the response. */
const failed: { readonly [Tag in HttpClientError.HttpClientErrorReason["_tag"]]: string } = {
  TransportError: "request transport",
  EncodeError: "request encode",
  InvalidUrlError: "request URL",
  StatusCodeError: "response statuscode",
  DecodeError: "response decode",
  EmptyBodyError: "response emptybody"
}

/**
 * Maps an HTTP client failure to a transport error, telling whether the
 * request can have reached the exchange: not when it could not be encoded or
 * its URL is invalid. A failure without a cause is described by itself.
 *
 * @internal
 */
export const fromHttpClientError = (
  request: Sent,
  error: HttpClientError.HttpClientError
): BitgetTransportError =>
  transportError(request, error.reason.cause ?? error.reason, {
    what: failed[error.reason._tag],
    unsent: error.reason._tag === "EncodeError" || error.reason._tag === "InvalidUrlError"
  })

/**
 * What a body is measured against: the request's label and its cap.
 *
 * @internal
 */
export type Capped = Sent & { readonly maxBytes: number }

/**
 * The failure of an answer whose body is longer than the request's cap.
 *
 * @internal
 */
export const bodyTooLarge = (request: Capped, status: number): BitgetDecodeError =>
  new BitgetDecodeError({
    endpoint: request.endpoint,
    status,
    issue: `the body is larger than the ${request.maxBytes} bytes allowed (maxResponseBytes)`,
    excerpt: ""
  })

/**
 * Whether an answer's declared `content-length` is over the request's cap (so
 * it is refused unread).
 *
 * @internal
 */
export const declaredTooLarge = (request: Capped, contentLength: string | null | undefined): boolean =>
  Number(contentLength) > request.maxBytes

const decoder = new TextDecoder()

/**
 * The chunks of a body, read within a cap: `add` tells whether the body is
 * still within it, `text` decodes what was added as UTF-8.
 *
 * @internal
 */
export class BodyChunks {
  private readonly chunks: Array<Uint8Array> = []
  private readonly maxBytes: number
  private size = 0
  constructor(maxBytes: number) {
    this.maxBytes = maxBytes
  }

  /** Adds a chunk; false once the body is longer than the cap (the chunk is not kept). */
  add(chunk: Uint8Array): boolean {
    this.size += chunk.length
    if (this.size > this.maxBytes) return false
    this.chunks.push(chunk)
    return true
  }

  /** The body as text. */
  text(): string {
    if (this.chunks.length === 1) return decoder.decode(this.chunks[0])
    const bytes = new Uint8Array(this.size)
    let offset = 0
    for (const chunk of this.chunks) {
      bytes.set(chunk, offset)
      offset += chunk.length
    }
    return decoder.decode(bytes)
  }
}

/**
 * Reads a body as text, at most the request's `maxBytes` of it: a longer body (by its
 * `content-length`, or once more bytes arrive) fails at once and the rest is
 * never read.
 *
 * @internal
 */
export const readBody = (
  request: Capped,
  response: HttpClientResponse.HttpClientResponse
): Effect.Effect<string, BitgetTransportError | BitgetDecodeError> => {
  if (declaredTooLarge(request, response.headers["content-length"])) {
    return Effect.fail(bodyTooLarge(request, response.status))
  }
  return Effect.suspend(() => {
    const body = new BodyChunks(request.maxBytes)
    return Stream.runForEach(
      response.stream,
      (chunk) => body.add(chunk) ? Effect.void : Effect.fail(bodyTooLarge(request, response.status))
    ).pipe(
      Effect.mapError((error) => error._tag === "BitgetDecodeError" ? error : fromHttpClientError(request, error)),
      Effect.map(() => body.text())
    )
  })
}
