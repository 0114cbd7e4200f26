/**
 * A `Signer` on the standard WebCrypto API (`globalThis.crypto.subtle`), for
 * any runtime that has it: HMAC-SHA256 and RSASSA-PKCS1-v1_5 with SHA-256,
 * through Effect's `effect/crypto` modules (`Mac`, `Signature`, `KeyFormat`).
 * RSA keys are read from PKCS#8 or PKCS#1 PEM. Keys are imported once per
 * credential, non-extractable.
 *
 * @since 0.1.0
 */
import * as Context from "effect/Context"
import type * as CryptoError from "effect/crypto/CryptoError"
import * as KeyFormat from "effect/crypto/KeyFormat"
import * as Mac from "effect/crypto/Mac"
import * as SecureRandom from "effect/crypto/SecureRandom"
import * as Signature from "effect/crypto/Signature"
import * as Effect from "effect/Effect"
import * as Base64 from "effect/encoding/Base64"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import { BitgetSignerError } from "./BitgetError.js"
import type { SigningKey } from "./Credentials.js"
import { keyMaterial } from "./Credentials.js"
import { Signer } from "./Signer.js"

type Services = Context.Context<Mac.Mac | Signature.Signature>

let built: Services | undefined

/**
 * Effect's `Mac` and `Signature` on WebCrypto, built on first use and kept:
 * the `CryptoKey`s they import are cached in them.
 */
const services = (): Services =>
  built ??= Effect.runSync(
    Effect.scoped(Layer.build(
      Layer.mergeAll(Mac.layerWebCrypto, Signature.layerWebCrypto).pipe(Layer.provide(SecureRandom.layerWebCrypto))
    ))
  )

const pkcs1 = KeyFormat.pem(KeyFormat.pkcs1)
const pkcs8: KeyFormat.Format<"private", "decode", string> = KeyFormat.pem(KeyFormat.pkcs8)

const pemBlock = /-----BEGIN ([A-Z ]+)-----([\s\S]*?)-----END \1-----/

/**
 * The PEM block of a text in the form `KeyFormat` reads, and its format: the
 * block may sit among other text, or have lost its line breaks (a one-line
 * environment variable). Text without a block is left for `KeyFormat` to reject.
 */
const rsaPem = (text: string): { readonly format: typeof pkcs8; readonly pem: string } => {
  const match = pemBlock.exec(text)
  if (match === null) return { format: pkcs8, pem: text }
  const [, label = "", body = ""] = match
  return {
    format: label === "RSA PRIVATE KEY" ? pkcs1 : pkcs8,
    pem: `-----BEGIN ${label}-----\n${body.replace(/\s+/g, "")}\n-----END ${label}-----`
  }
}

/** Signs bytes with one imported key. */
type SignBytes = (data: Uint8Array) => Effect.Effect<Uint8Array, CryptoError.CryptoError>

const encoder = new TextEncoder()

/**
 * Reads a key into Effect's form: an HMAC key from the secret's UTF-8 bytes,
 * an RSA key from its PEM (imported and checked by `KeyFormat`).
 */
const importKey = (key: SigningKey): Effect.Effect<SignBytes, CryptoError.CryptoError> => {
  if (key._tag === "Hmac") {
    const mac = Context.get(services(), Mac.Mac)
    return Effect.map(
      Mac.key(Mac.hmacSha256, encoder.encode(Redacted.value(key.secret))),
      (hmacKey): SignBytes => (data) => mac.sign(hmacKey, data)
    )
  }
  const signature = Context.get(services(), Signature.Signature)
  const { format, pem } = rsaPem(Redacted.value(key.privateKeyPem))
  return Effect.map(
    KeyFormat.decodePrivate(format, Signature.rsaPkcs1v15Sha256, pem),
    (rsaKey): SignBytes => (data) => signature.sign(rsaKey, data)
  )
}

const signers = new WeakMap<Redacted.Redacted<string>, SignBytes>()

/** The key's signing function, imported on first use and cached per credential. */
const signerOf = (key: SigningKey): Effect.Effect<SignBytes, CryptoError.CryptoError> =>
  Effect.suspend(() => {
    const secret = keyMaterial(key)
    const cached = signers.get(secret)
    if (cached !== undefined) return Effect.succeed(cached)
    return Effect.map(importKey(key), (signBytes) => {
      signers.set(secret, signBytes)
      return signBytes
    })
  })

/** The typed failure: Effect's reason (never the key), or a fixed text for an unexpected WebCrypto exception. */
const signerError = (key: SigningKey, detail: string): BitgetSignerError =>
  new BitgetSignerError({
    issue: `the ${key._tag === "Hmac" ? "HMAC secret" : "RSA private key"} could not be imported or used (${detail})`
  })

/**
 * The WebCrypto signer.
 *
 * @stability unstable
 * @since 0.1.0
 * @category constructors
 */
export const make: Signer.Service = Signer.of({
  sign: (key, prehash) =>
    signerOf(key).pipe(
      Effect.flatMap((signBytes) => signBytes(encoder.encode(prehash))),
      Effect.map(Base64.encode),
      Effect.mapError((error) => signerError(key, error.message)),
      Effect.catchDefect(() => Effect.fail(signerError(key, "WebCrypto failed")))
    )
})

/**
 * The WebCrypto signer as a layer.
 *
 * @stability unstable
 * @since 0.1.0
 * @category layers
 */
export const layer: Layer.Layer<Signer> = Layer.succeed(Signer, make)
