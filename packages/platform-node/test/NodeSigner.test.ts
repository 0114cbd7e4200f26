import * as Signer from "@bitget-effect/core/Signer"
import * as WebCryptoSigner from "@bitget-effect/core/WebCryptoSigner"
import { assert, describe, it } from "@effect/vitest"
import { Effect, Redacted } from "effect"
import { generateKeyPairSync } from "node:crypto"
import * as NodeSigner from "../src/NodeSigner.js"

describe("NodeSigner", () => {
  const secret = { _tag: "Hmac", secret: Redacted.make(Signer.hmacVectors.secret) } as const
  for (const { prehash, signature } of Signer.hmacVectors.cases) {
    it.effect(`reproduces the golden vector ${signature}`, () =>
      Effect.gen(function*() {
        assert.strictEqual(yield* NodeSigner.make.sign(secret, prehash), signature)
      }))
  }

  it.effect("agrees with the WebCrypto signer on HMAC and on RSA keys in both PEM forms", () =>
    Effect.gen(function*() {
      const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 })
      const message = "1700000000000GET/api/v2/tax/spot-record?coin=比特币&endTime=2&startTime=1"
      for (const type of ["pkcs1", "pkcs8"] as const) {
        const key = {
          _tag: "Rsa",
          privateKeyPem: Redacted.make(privateKey.export({ type, format: "pem" }).toString())
        } as const
        assert.strictEqual(yield* NodeSigner.make.sign(key, message), yield* WebCryptoSigner.make.sign(key, message))
      }
      assert.strictEqual(
        yield* NodeSigner.make.sign(secret, message),
        yield* WebCryptoSigner.make.sign(secret, message)
      )
    }))

  it.effect("fails with a typed error on an unreadable or non-RSA key, without echoing it", () =>
    Effect.gen(function*() {
      const bad = yield* Effect.flip(
        NodeSigner.make.sign({ _tag: "Rsa", privateKeyPem: Redacted.make("not-a-pem-zzz") }, "x")
      )
      assert.strictEqual(bad._tag, "BitgetSignerError")
      assert.notInclude(bad.message, "not-a-pem-zzz")
      const ec = generateKeyPairSync("ec", { namedCurve: "P-256" }).privateKey.export({ type: "pkcs8", format: "pem" })
        .toString()
      const wrong = yield* Effect.flip(NodeSigner.make.sign({ _tag: "Rsa", privateKeyPem: Redacted.make(ec) }, "x"))
      assert.strictEqual(wrong._tag, "BitgetSignerError")
    }))
})
