/**
 * Test support: a client over an injected `HttpClient` that answers from a
 * function and records every request it was given.
 */
import { HttpClient, HttpClientResponse } from "@effect/platform"
import { assert } from "@effect/vitest"
import { Effect, Layer, Redacted } from "effect"
import { createHmac } from "node:crypto"
import * as BitgetClient from "../src/BitgetClient.js"
import * as BitgetConfig from "../src/BitgetConfig.js"
import * as Credentials from "../src/Credentials.js"
import { Signer } from "../src/Signer.js"
import * as WebCryptoSigner from "../src/WebCryptoSigner.js"

/** A request as it reached the HTTP layer. */
export interface Recorded {
  readonly method: string
  readonly url: URL
  readonly headers: Readonly<Record<string, string>>
  readonly body: string
}

/** What the fake exchange answers. */
export interface Reply {
  readonly status?: number
  readonly body: string
  readonly headers?: Readonly<Record<string, string>>
}

export const baseUrl = "https://api.example.test"

/** The HMAC secret of the test credentials. */
export const hmacSecret = "s3cr3t-hmac-key"

export const credentials = Credentials.hmac({ apiKey: "key-1", secret: hmacSecret, passphrase: "phrase-1" })

/** A success envelope around `data`. */
export const ok = (data: unknown): Reply => ({
  body: JSON.stringify({ code: "00000", msg: "success", requestTime: 1_700_000_000_000, data })
})

/** An error envelope. */
export const fail = (status: number, code: string, msg: string): Reply => ({
  status,
  body: JSON.stringify({ code, msg, requestTime: 1_700_000_000_000, data: null })
})

const decoder = new TextDecoder()

/**
 * A signer that answers HMAC synchronously (so `TestClock` adjustments never
 * race a pending promise); RSA keys go to the WebCrypto signer.
 */
export const syncSigner = Layer.succeed(
  Signer,
  Signer.of({
    sign: (key, prehash) =>
      key._tag === "Hmac"
        ? Effect.sync(() => createHmac("sha256", Redacted.value(key.secret)).update(prehash).digest("base64"))
        : WebCryptoSigner.make.sign(key, prehash)
  })
)

/**
 * A client layer whose HTTP answers come from `respond`; `requests` lists what
 * was sent, in order. Retries and rate limiting are off unless `options` set them.
 */
export const exchange = (
  respond: (request: Recorded) => Reply,
  options: BitgetConfig.BitgetOptionsInput = { credentials }
) => {
  const requests: Array<Recorded> = []
  const http = HttpClient.make((request, url) =>
    Effect.sync(() => {
      const body = request.body._tag === "Uint8Array" ? decoder.decode(request.body.body) : ""
      const recorded: Recorded = { method: request.method, url, headers: { ...request.headers }, body }
      requests.push(recorded)
      const reply = respond(recorded)
      return HttpClientResponse.fromWeb(
        request,
        new Response(reply.body, { status: reply.status ?? 200, headers: reply.headers ?? {} })
      )
    })
  )
  const layer = BitgetClient.layer.pipe(
    Layer.provide(
      Layer.mergeAll(
        Layer.succeed(HttpClient.HttpClient, http),
        syncSigner,
        BitgetConfig.layer({ baseUrl, retry: { maxAttempts: 1 }, rateLimit: { enabled: false }, ...options })
      )
    )
  )
  return { layer, requests }
}

/**
 * The HMAC signature the exchange expects for a recorded request, computed
 * independently of the library from the raw (decoded) query it should have signed.
 */
export const expectedSignature = (request: Recorded, signedQuery: string): string =>
  createHmac("sha256", hmacSecret)
    .update(
      `${request.headers["access-timestamp"]}${request.method}${request.url.pathname}${
        signedQuery === "" ? "" : `?${signedQuery}`
      }${request.body}`
    )
    .digest("base64")

/** Asserts the four credential headers of a signed request and its signature. */
export const assertSigned = (request: Recorded, signedQuery: string): void => {
  assert.strictEqual(request.headers["access-key"], "key-1")
  assert.strictEqual(request.headers["access-passphrase"], "phrase-1")
  assert.match(request.headers["access-timestamp"] ?? "", /^\d+$/)
  assert.strictEqual(request.headers["content-type"], "application/json")
  assert.strictEqual(request.headers["access-sign"], expectedSignature(request, signedQuery))
}
