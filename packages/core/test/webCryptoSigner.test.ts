/**
 * `WebCryptoSigner` on Effect's `effect/crypto` modules: the PEM forms it
 * reads (a block among other text, or one that lost its line breaks), keys
 * that sign non-extractable, and every failure typed as `BitgetSignerError`
 * without the key in it, an unexpected WebCrypto exception included.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Redacted } from "effect"
import { generateKeyPairSync, verify } from "node:crypto"
import { afterEach, vi } from "vitest"
import type { SigningKey } from "../src/Credentials.js"
import * as WebCryptoSigner from "../src/WebCryptoSigner.js"

const message = "1700000000000GET/api/v2/spot/account/assets?coin=USDT"
const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 })
const rsa = (pem: string): SigningKey => ({ _tag: "Rsa", privateKeyPem: Redacted.make(pem) })
const verifies = (signature: string): boolean =>
  verify("sha256", Buffer.from(message), publicKey, Buffer.from(signature, "base64"))

afterEach(() => {
  vi.restoreAllMocks()
})

describe("WebCryptoSigner", () => {
  for (const type of ["pkcs1", "pkcs8"] as const) {
    const pem = privateKey.export({ type, format: "pem" }).toString()
    it.effect(`reads a ${type} PEM among other text, or flattened onto one line`, () =>
      Effect.gen(function*() {
        const framed = `Bag Attributes\n    localKeyID: 01\n${pem}\ntrailing text`
        const oneLine = pem.replace(/\n/g, " ")
        for (const text of [framed, oneLine]) {
          assert.isTrue(verifies(yield* WebCryptoSigner.make.sign(rsa(text), message)), text.slice(0, 30))
        }
      }))
  }

  it.effect("signs with non-extractable keys", () =>
    Effect.gen(function*() {
      const sign = vi.spyOn(crypto.subtle, "sign")
      yield* WebCryptoSigner.make.sign({ _tag: "Hmac", secret: Redacted.make("non-extractable") }, message)
      yield* WebCryptoSigner.make.sign(rsa(privateKey.export({ type: "pkcs8", format: "pem" }).toString()), message)
      assert.deepStrictEqual(sign.mock.calls.map(([, key]) => [key.algorithm.name, key.extractable]), [
        ["HMAC", false],
        ["RSASSA-PKCS1-v1_5", false]
      ])
    }))

  it.effect("names what is wrong with an unreadable key, and never echoes it", () =>
    Effect.gen(function*() {
      const pem = "-----BEGIN RSA PRIVATE KEY-----\nc2VjcmV0LWtleS1tYXRlcmlhbA==\n-----END RSA PRIVATE KEY-----"
      const bad = yield* Effect.flip(WebCryptoSigner.make.sign(rsa(pem), message))
      assert.strictEqual(bad._tag, "BitgetSignerError")
      assert.include(bad.message, "the RSA private key could not be imported or used (KeyFormat.decodePrivate:")
      assert.notInclude(bad.message, "c2VjcmV0")
      const missing = yield* Effect.flip(WebCryptoSigner.make.sign(rsa("not a PEM"), message))
      assert.include(missing.message, "PEM block")
      const empty = yield* Effect.flip(WebCryptoSigner.make.sign({ _tag: "Hmac", secret: Redacted.make("") }, message))
      assert.include(empty.message, "the HMAC secret could not be imported or used")
    }))

  it.effect("turns an unexpected WebCrypto exception into a typed failure, not a defect", () =>
    Effect.gen(function*() {
      vi.spyOn(crypto.subtle, "sign").mockRejectedValueOnce(new TypeError("secret-bearing detail"))
      const key: SigningKey = { _tag: "Hmac", secret: Redacted.make("unexpected") }
      const error = yield* Effect.flip(WebCryptoSigner.make.sign(key, message))
      assert.strictEqual(error._tag, "BitgetSignerError")
      assert.include(error.message, "(WebCrypto failed)")
      assert.notInclude(error.message, "secret-bearing")
      assert.isString(yield* WebCryptoSigner.make.sign(key, message), "the key stays usable")
    }))
})
