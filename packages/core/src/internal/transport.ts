import * as Effect from "effect/Effect"
import type { HttpClientError, HttpClientResponse } from "effect/http"
import * as Stream from "effect/Stream"
import { BitgetDecodeError, BitgetTransportError } from "../BitgetError.js"

/**
 * Header names that carry credentials (lower case).
 *
 * @internal
 */
export const credentialHeaders: ReadonlyArray<string> = ["access-key", "access-sign", "access-passphrase"]

const notSentCodes = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH"])

const errorCode = (error: unknown): string | undefined => {
  for (let current = error, depth = 0; current !== null && typeof current === "object" && depth < 5; depth++) {
    const code = (current as { readonly code?: unknown }).code
    if (typeof code === "string") return code
    current = (current as { readonly cause?: unknown }).cause
  }
  return undefined
}

/**
 * A transport failure from any error that carries a system or undici error
 * code (on itself or a cause): `Connect` and not sent when the code proves no
 * request reached the server, else `Network`. Only the code is kept: the
 * error may hold the signed request, which must not leak.
 *
 * @internal
 */
export const transportError = (
  endpoint: string,
  cause: unknown,
  options: { readonly what: string; readonly unsent?: boolean }
): BitgetTransportError => {
  const code = errorCode(cause)
  const refused = code !== undefined && notSentCodes.has(code)
  return new BitgetTransportError({
    endpoint,
    reason: refused ? "Connect" : "Network",
    sent: !refused && options.unsent !== true,
    description: `${options.what} failure${code === undefined ? "" : ` (${code})`}`
  })
}

/** What failed, by the HTTP failure's reason: the request (before an answer) or the response. */
const failed: { readonly [Tag in HttpClientError.HttpClientErrorReason["_tag"]]: string } = {
  TransportError: "request transport",
  EncodeError: "request encode",
  InvalidUrlError: "request invalidurl",
  StatusCodeError: "response statuscode",
  DecodeError: "response decode",
  EmptyBodyError: "response emptybody"
}

/**
 * Maps an HTTP client failure to a transport error, telling whether the
 * request can have reached the exchange.
 *
 * @internal
 */
export const fromHttpClientError = (endpoint: string, error: HttpClientError.HttpClientError): BitgetTransportError =>
  transportError(endpoint, error.reason.cause, {
    what: failed[error.reason._tag],
    unsent: error.reason._tag === "EncodeError"
  })

const decoder = new TextDecoder()

/**
 * Reads a body as text, at most `maxBytes` of it: a longer body (by its
 * `content-length`, or once more bytes arrive) fails at once and the rest is
 * never read.
 *
 * @internal
 */
export const readBody = (
  endpoint: string,
  response: HttpClientResponse.HttpClientResponse,
  maxBytes: number
): Effect.Effect<string, BitgetTransportError | BitgetDecodeError> => {
  const tooLarge = () =>
    new BitgetDecodeError({
      endpoint,
      status: response.status,
      issue: `the body is larger than the ${maxBytes} bytes allowed (maxResponseBytes)`,
      excerpt: ""
    })
  if (Number(response.headers["content-length"]) > maxBytes) return Effect.fail(tooLarge())
  return Effect.suspend(() => {
    const chunks: Array<Uint8Array> = []
    let size = 0
    return Stream.runForEach(response.stream, (chunk) => {
      size += chunk.length
      if (size > maxBytes) return Effect.fail(tooLarge())
      chunks.push(chunk)
      return Effect.void
    }).pipe(
      Effect.mapError((error) => error._tag === "BitgetDecodeError" ? error : fromHttpClientError(endpoint, error)),
      Effect.map(() => {
        const bytes = new Uint8Array(size)
        let offset = 0
        for (const chunk of chunks) {
          bytes.set(chunk, offset)
          offset += chunk.length
        }
        return decoder.decode(bytes)
      })
    )
  })
}
