/**
 * The `Signer` service on node:crypto: HMAC-SHA256 and SHA256withRSA (PKCS#1 v1.5).
 *
 * @since 0.1.0
 */
import { BitgetSignerError } from "@bitget-effect/core/BitgetError"
import type { SigningKey } from "@bitget-effect/core/Credentials"
import { Signer } from "@bitget-effect/core/Signer"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import type { KeyObject } from "node:crypto"
import { createHmac, createPrivateKey, sign } from "node:crypto"

const rsaKeys = new WeakMap<Redacted.Redacted<string>, KeyObject>()

const rsaKey = (pem: Redacted.Redacted<string>): KeyObject => {
  let key = rsaKeys.get(pem)
  if (key === undefined) {
    key = createPrivateKey({ key: Redacted.value(pem), format: "pem" })
    if (key.asymmetricKeyType !== "rsa") throw new Error(`expected an RSA key, got ${key.asymmetricKeyType}`)
    rsaKeys.set(pem, key)
  }
  return key
}

const signWith = (key: SigningKey, prehash: string): string =>
  key._tag === "Hmac"
    ? createHmac("sha256", Redacted.value(key.secret)).update(prehash, "utf8").digest("base64")
    : sign("sha256", Buffer.from(prehash, "utf8"), rsaKey(key.privateKeyPem)).toString("base64")

/**
 * A signer backed by node:crypto. An unreadable RSA key fails with
 * `BitgetSignerError` (the key itself never appears in the message).
 *
 * @since 0.1.0
 * @category constructors
 */
export const make: Signer.Service = Signer.of({
  sign: (key, prehash) =>
    Effect.try({
      try: () => signWith(key, prehash),
      catch: (error) =>
        new BitgetSignerError({
          issue: `the ${key._tag === "Hmac" ? "HMAC secret" : "RSA private key"} could not be used (${
            error instanceof Error && "code" in error ? String(error.code) : "invalid key"
          })`
        })
    })
})

/**
 * The node:crypto signer as a layer.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer: Layer.Layer<Signer> = Layer.succeed(Signer, make)
