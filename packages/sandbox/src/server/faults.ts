/**
 * How an injected fault (`Fault.ts`) meets a request: answered instead of
 * processed (a gateway page, a 429, an error code), the socket reset, the
 * answer held back, or the answer spoiled after processing.
 *
 * @internal
 */
import * as NodeHttpServerRequest from "@effect/platform-node/NodeHttpServerRequest"
import * as Effect from "effect/Effect"
import type { HttpServerRequest } from "effect/http"
import { HttpServerResponse } from "effect/http"
import type { Fault } from "../Fault.js"
import { $match } from "../Fault.js"
import type { Answer } from "./answer.js"
import { envelope, tooMany } from "./answer.js"

/** What a fault does to a request. */
export type Hit =
  /** Answered instead, the request not processed. */
  | { readonly _tag: "Instead"; readonly answer: Answer }
  /** The socket destroyed before anything is answered, the request not processed. */
  | { readonly _tag: "Reset" }
  /** Processed after a wait. */
  | { readonly _tag: "Delay"; readonly millis: number }
  /** Processed, then its answer spoiled (at server time `now`). */
  | { readonly _tag: "Spoil"; readonly spoil: (answer: Answer, now: number) => Answer }

const reasons: Readonly<Record<number, string>> = {
  500: "Internal Server Error",
  502: "Bad Gateway",
  503: "Service Temporarily Unavailable"
}

/** The HTML page a gateway answers with. */
const gatewayPage = (status: number): Answer => {
  const title = `${status} ${reasons[status] ?? "Error"}`
  return {
    status,
    body: [
      "<html>",
      `<head><title>${title}</title></head>`,
      "<body>",
      `<center><h1>${title}</h1></center>`,
      "<hr><center>nginx</center>",
      "</body>",
      "</html>",
      ""
    ].join("\r\n"),
    contentType: "text/html",
    code: undefined,
    headers: {}
  }
}

/** The answer cut in half (no longer a well-formed envelope). */
const truncated = (answer: Answer): Answer => ({
  ...answer,
  body: answer.body.slice(0, Math.max(1, Math.floor(answer.body.length / 2))),
  code: undefined
})

/** The answer replaced by malformed JSON. */
const malformed = (answer: Answer, now: number): Answer => ({
  ...answer,
  body: `{"code":"00000","msg":"success","requestTime":${now},"data":undefined}`,
  code: undefined
})

/** What a fault does to a request arriving at server time `now`. */
export const hit = (fault: Fault, now: number): Hit =>
  $match(fault, {
    HttpError: ({ status }): Hit => ({ _tag: "Instead", answer: gatewayPage(status) }),
    TooManyRequests: (): Hit => ({ _tag: "Instead", answer: tooMany(now) }),
    ErrorCode: ({ code, msg }): Hit => ({ _tag: "Instead", answer: envelope(200, code, msg, now, null) }),
    ConnectionReset: (): Hit => ({ _tag: "Reset" }),
    Delay: ({ millis }): Hit => ({ _tag: "Delay", millis }),
    TruncatedJson: (): Hit => ({ _tag: "Spoil", spoil: truncated }),
    InvalidJson: (): Hit => ({ _tag: "Spoil", spoil: malformed })
  })

/** Holds a request back; `onInterrupt` runs when the client gives up during the wait. */
export const hold = (millis: number, onInterrupt: () => void): Effect.Effect<void> =>
  Effect.sleep(millis).pipe(Effect.onInterrupt(() => Effect.sync(onInterrupt)))

/** Destroys the socket of a request without answering. */
export const reset = (request: HttpServerRequest.HttpServerRequest): HttpServerResponse.HttpServerResponse => {
  NodeHttpServerRequest.toIncomingMessage(request).socket.destroy()
  // Ending the destroyed response marks it written, so the platform does not wait for a write that never completes.
  NodeHttpServerRequest.toServerResponse(request).end()
  return HttpServerResponse.empty({ status: 500 })
}
