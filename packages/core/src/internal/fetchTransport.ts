/**
 * The transport straight on the web-standard `fetch` (`HttpTransport.fromFetch`
 * is its public face): one exchange per request under its deadline, the body
 * read as a stream within the cap, redirects answered as they are.
 */
import * as Effect from "effect/Effect"
import type { BitgetDecodeError, BitgetTransportError } from "../BitgetError.js"
import type { Capped, Timed } from "./transport.js"
import { BodyChunks, bodyTooLarge, declaredTooLarge, timeoutError, transportError, withDeadline } from "./transport.js"

/** What an exchange over fetch reads of a request. */
type Fetched = Capped & Timed & {
  readonly method: string
  readonly url: string
  readonly body?: string | undefined
}

/** An answer over fetch, read whole: its headers as single strings by (lower-case) name. */
interface Answer {
  readonly status: number
  readonly headers: { readonly [name: string]: string }
  readonly body: string
}

/** What an exchange over fetch ends with: the answer, or the failure it met. */
type Outcome = Effect.Effect<Answer, BitgetTransportError | BitgetDecodeError>

/** Answer headers as single strings by (lower-case) name. */
const flatten = (headers: Response["headers"]): Record<string, string> => {
  const flat: Record<string, string> = {}
  headers.forEach((value, name) => {
    flat[name] = value
  })
  return flat
}

/** Fails an exchange over fetch: past its deadline a `Timeout`, else what fetch or its body rejected with. */
type Rejected = (cause: unknown) => BitgetTransportError

/**
 * One exchange over fetch, to its end: the answer, or the failure it met.
 * Only a rejection of `fetch` or of a read of its body goes to `rejected`;
 * anything else thrown here is a bug, left for the caller to call `failure`.
 */
const exchange = async (
  fetch: typeof globalThis.fetch,
  request: Fetched,
  controller: AbortController,
  rejected: Rejected
): Promise<Outcome> => {
  let response: Response
  try {
    response = await fetch(request.url, {
      method: request.method,
      headers: request.headers,
      body: request.body ?? null,
      // a redirect is answered as it is: fetch would send the credential headers on to another origin
      redirect: "manual",
      signal: controller.signal
    })
  } catch (cause) {
    return Effect.fail(rejected(cause))
  }
  if (declaredTooLarge(request, response.headers.get("content-length"))) {
    controller.abort()
    return Effect.fail(bodyTooLarge(request, response.status))
  }
  const body = new BodyChunks(request.maxBytes)
  if (response.body !== null) {
    const reader = response.body.getReader()
    for (;;) {
      let read: Awaited<ReturnType<typeof reader.read>>
      try {
        read = await reader.read()
      } catch (cause) {
        return Effect.fail(rejected(cause))
      }
      if (read.done) break
      if (!body.add(read.value)) {
        controller.abort()
        return Effect.fail(bodyTooLarge(request, response.status))
      }
    }
  }
  return Effect.succeed({ status: response.status, headers: flatten(response.headers), body: body.text() })
}

/**
 * The fetch transport over the fetch in `FetchHttpClient.Fetch` where it is
 * built (`globalThis.fetch` unless a test or a program provides another).
 *
 * @internal
 */
export const make: Effect.Effect<{ readonly send: (request: Fetched) => Outcome }> = Effect.gen(function*() {
  // loaded when the transport is built, like the HttpClient modules
  const { Fetch } = yield* Effect.promise(() => import("effect/http/FetchHttpClient"))
  const fetch = yield* Fetch
  return {
    send: (request) =>
      withDeadline(request, (controller, timedOut) =>
        exchange(
          fetch,
          request,
          controller,
          (cause) =>
            timedOut()
              ? timeoutError(request)
              : transportError(request, cause, { what: "request transport", fetched: true })
        ))
  }
})
