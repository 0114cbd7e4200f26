import type * as HttpClientError from "@effect/platform/HttpClientError"
import { BitgetTransportError } from "../BitgetError.js"

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
 * Maps a platform HTTP failure to a transport error, telling whether the
 * request can have reached the exchange. Only the error code is kept: the
 * platform error holds the signed request, which must not leak.
 *
 * @internal
 */
export const fromHttpClientError = (endpoint: string, error: HttpClientError.HttpClientError): BitgetTransportError => {
  const code = errorCode(error.cause)
  const refused = code !== undefined && notSentCodes.has(code)
  return new BitgetTransportError({
    endpoint,
    reason: refused ? "Connect" : "Network",
    sent: !refused && !(error._tag === "RequestError" && error.reason === "Encode"),
    description: `${error._tag === "RequestError" ? "request" : "response"} ${error.reason.toLowerCase()} failure${
      code === undefined ? "" : ` (${code})`
    }`
  })
}
