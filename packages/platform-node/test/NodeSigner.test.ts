import * as WebCryptoSigner from "@bitget-effect/core/WebCryptoSigner"
import { assert, describe, it } from "@effect/vitest"
import { Effect, Redacted } from "effect"
import { generateKeyPairSync } from "node:crypto"
import * as NodeSigner from "../src/NodeSigner.js"

describe("NodeSigner", () => {
  const secret = { _tag: "Hmac", secret: Redacted.make("secret") } as const
  const vectors: ReadonlyArray<readonly [string, string]> = [
    [
      "16273667805456POST/api/v2/mix/order/place-order{\"symbol\":\"ETHUSDT\"}",
      "7q0EikaFI6vj9FuQRddouLkfjADl2NLTCej2t5t/QZY="
    ],
    [
      "16273667805456GET/api/mix/v2/market/depth?limit=20&symbol=BTCUSDT",
      "RI9g5pCkEX/+tr0RueyMGckGzeuXz9BiN78aBgIEayo="
    ],
    ["1659076670000GET/api/v2/public/time", "CG16N9PfKv7IeIOr4rySPBh1MpCQL+uGmPJ9Ng/8vuY="]
  ]
  for (const [input, expected] of vectors) {
    it.effect(`reproduces the golden vector ${expected}`, () =>
      Effect.gen(function*() {
        assert.strictEqual(yield* NodeSigner.make.sign(secret, input), expected)
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
