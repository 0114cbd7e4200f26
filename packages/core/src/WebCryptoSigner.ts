/**
 * A `Signer` on the standard WebCrypto API (`globalThis.crypto.subtle`), for
 * any runtime that has it: HMAC-SHA256 and RSASSA-PKCS1-v1_5 with SHA-256.
 * Imported keys are cached per credential.
 *
 * @since 0.1.0
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import { BitgetSignerError } from "./BitgetError.js"
import type { SigningKey } from "./Credentials.js"
import { keyMaterial } from "./Credentials.js"
import { Signer } from "./Signer.js"

const encoder = new TextEncoder()

/** Bytes on a plain `ArrayBuffer`, as WebCrypto's `BufferSource` wants them under every lib typing. */
type Bytes = Uint8Array<ArrayBuffer>

/** UTF-8 bytes of a string (a fresh, non-shared buffer). */
const utf8 = (text: string): Bytes => encoder.encode(text) as Bytes

type CryptoKey = Awaited<ReturnType<typeof crypto.subtle.importKey>>

const base64 = (bytes: ArrayBuffer): string => {
  let binary = ""
  for (const byte of new Uint8Array(bytes)) binary += String.fromCharCode(byte)
  return btoa(binary)
}

const derLength = (length: number): Array<number> => {
  if (length < 0x80) return [length]
  const bytes: Array<number> = []
  for (let rest = length; rest > 0; rest >>= 8) bytes.unshift(rest & 0xff)
  return [0x80 | bytes.length, ...bytes]
}

const der = (tag: number, content: Bytes): Bytes => {
  const header = [tag, ...derLength(content.length)]
  const out = new Uint8Array(header.length + content.length)
  out.set(header)
  out.set(content, header.length)
  return out
}

const concat = (...parts: ReadonlyArray<Bytes>): Bytes => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0))
  let offset = 0
  for (const part of parts) {
    out.set(part, offset)
    offset += part.length
  }
  return out
}

// AlgorithmIdentifier { rsaEncryption (1.2.840.113549.1.1.1), NULL }
const rsaAlgorithm = Uint8Array.of(
  0x30,
  0x0d,
  0x06,
  0x09,
  0x2a,
  0x86,
  0x48,
  0x86,
  0xf7,
  0x0d,
  0x01,
  0x01,
  0x01,
  0x05,
  0x00
)

/** Wraps a PKCS#1 RSAPrivateKey in a PKCS#8 PrivateKeyInfo. */
const pkcs1ToPkcs8 = (pkcs1: Bytes): Bytes =>
  der(0x30, concat(Uint8Array.of(0x02, 0x01, 0x00), rsaAlgorithm, der(0x04, pkcs1)))

const pemBody = (pem: string): { readonly label: string; readonly bytes: Bytes } => {
  const match = /-----BEGIN ([A-Z ]+)-----([\s\S]*?)-----END \1-----/.exec(pem)
  if (match === null) throw new Error("not a PEM block")
  const binary = atob((match[2] ?? "").replace(/\s+/g, ""))
  return { label: match[1] ?? "", bytes: Uint8Array.from(binary, (c) => c.charCodeAt(0)) }
}

const importRsa = (pem: string): Promise<CryptoKey> => {
  const { bytes, label } = pemBody(pem)
  const pkcs8 = label === "RSA PRIVATE KEY" ? pkcs1ToPkcs8(bytes) : bytes
  return crypto.subtle.importKey("pkcs8", pkcs8, { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" }, false, ["sign"])
}

const importHmac = (secret: string): Promise<CryptoKey> =>
  crypto.subtle.importKey("raw", utf8(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"])

const keys = new WeakMap<Redacted.Redacted<string>, Promise<CryptoKey>>()

const cryptoKey = (key: SigningKey): Promise<CryptoKey> => {
  const secret = keyMaterial(key)
  let imported = keys.get(secret)
  if (imported === undefined) {
    imported = key._tag === "Hmac" ? importHmac(Redacted.value(secret)) : importRsa(Redacted.value(secret))
    keys.set(secret, imported)
  }
  return imported
}

/**
 * The WebCrypto signer.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make: Signer.Service = Signer.of({
  sign: (key, prehash) =>
    Effect.tryPromise({
      try: async () => {
        const algorithm = key._tag === "Hmac" ? "HMAC" : "RSASSA-PKCS1-v1_5"
        return base64(await crypto.subtle.sign(algorithm, await cryptoKey(key), utf8(prehash)))
      },
      catch: () =>
        new BitgetSignerError({
          issue: `the ${key._tag === "Hmac" ? "HMAC secret" : "RSA private key"} could not be imported or used`
        })
    })
})

/**
 * The WebCrypto signer as a layer.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer: Layer.Layer<Signer> = Layer.succeed(Signer, make)
