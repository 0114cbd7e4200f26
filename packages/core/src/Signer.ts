/**
 * The request signature: the prehash rule, the canonical query, and the
 * `Signer` service that turns a prehash into `ACCESS-SIGN` (HMAC-SHA256 or
 * SHA256withRSA; `@bitget-effect/platform-node` supplies it with node:crypto).
 *
 * @since 0.1.0
 */
import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type { BitgetSignerError } from "./BitgetError.js"
import type { SigningKey } from "./Credentials.js"

/**
 * Signs a prehash string with a key, giving the base64 signature.
 *
 * @since 0.1.0
 * @category services
 */
export class Signer extends Context.Service<Signer, Signer.Service>()("@bitget-effect/core/Signer") {}

/**
 * The types that belong to the `Signer` service.
 *
 * @since 0.1.0
 * @category models
 */
export declare namespace Signer {
  /**
   * What a signer does: sign a prehash with an HMAC secret or an RSA key.
   *
   * @since 0.1.0
   * @category models
   */
  export interface Service {
    readonly sign: (key: SigningKey, prehash: string) => Effect.Effect<string, BitgetSignerError>
  }
}

/**
 * A query in the two forms the exchange needs: `signed` with raw values (what
 * the server verifies, after percent-decoding) and `sent` percent-encoded, both
 * with the keys in ascending order and absent values left out.
 *
 * @since 0.1.0
 * @category models
 */
export interface CanonicalQuery {
  readonly signed: string
  readonly sent: string
}

/**
 * Builds the canonical query of a parameter record.
 *
 * @since 0.1.0
 * @category formatting
 */
export const canonicalQuery = (params: { readonly [key: string]: string | undefined }): CanonicalQuery => {
  const keys = Object.keys(params).filter((key) => params[key] !== undefined).sort()
  const signed: Array<string> = []
  const sent: Array<string> = []
  for (const key of keys) {
    const value = params[key] as string
    signed.push(`${key}=${value}`)
    sent.push(`${encodeURIComponent(key)}=${encodeURIComponent(value)}`)
  }
  return { signed: signed.join("&"), sent: sent.join("&") }
}

/**
 * The string that is signed: `timestamp + METHOD + path + ("?" + query when
 * non-empty) + body`.
 *
 * @since 0.1.0
 * @category formatting
 */
export const prehash = (parts: {
  readonly timestamp: string
  readonly method: string
  readonly path: string
  readonly query: string
  readonly body: string
}): string =>
  `${parts.timestamp}${parts.method.toUpperCase()}${parts.path}${
    parts.query === "" ? "" : `?${parts.query}`
  }${parts.body}`

/**
 * Known answers of HMAC-SHA256 signing with the secret `secret`, worked out
 * independently of this library: every `Signer` must reproduce them, so a
 * signer of your own (a vault, a hardware key) can be checked against them.
 *
 * @example
 * ```ts
 * import { Signer, WebCryptoSigner } from "@bitget-effect/core"
 * import { Effect, Redacted } from "effect"
 *
 * const key = { _tag: "Hmac", secret: Redacted.make(Signer.hmacVectors.secret) } as const
 * const check = Effect.forEach(Signer.hmacVectors.cases, ({ prehash, signature }) =>
 *   Effect.map(WebCryptoSigner.make.sign(key, prehash), (signed) => assert.strictEqual(signed, signature)))
 * Effect.runPromise(check)
 * ```
 *
 * @since 0.1.0
 * @category constants
 */
export const hmacVectors: {
  readonly secret: string
  readonly cases: ReadonlyArray<{ readonly prehash: string; readonly signature: string }>
} = {
  secret: "secret",
  cases: [
    {
      prehash: "16273667805456POST/api/v2/mix/order/place-order{\"symbol\":\"ETHUSDT\"}",
      signature: "7q0EikaFI6vj9FuQRddouLkfjADl2NLTCej2t5t/QZY="
    },
    {
      prehash: "16273667805456GET/api/mix/v2/market/depth?limit=20&symbol=BTCUSDT",
      signature: "RI9g5pCkEX/+tr0RueyMGckGzeuXz9BiN78aBgIEayo="
    },
    { prehash: "1659076670000GET/api/v2/public/time", signature: "CG16N9PfKv7IeIOr4rySPBh1MpCQL+uGmPJ9Ng/8vuY=" }
  ]
}
