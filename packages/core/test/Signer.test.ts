import { assert, describe, it } from "@effect/vitest"
import { Cause, Effect, Exit, Redacted } from "effect"
import { createHmac, generateKeyPairSync, verify } from "node:crypto"
import type { SigningKey } from "../src/Credentials.js"
import { canonicalQuery, hmacVectors, prehash, Signer } from "../src/Signer.js"
import * as WebCryptoSigner from "../src/WebCryptoSigner.js"

describe("prehash", () => {
  it("joins timestamp, upper-case method, path, query and body", () => {
    assert.strictEqual(
      prehash({ timestamp: "1", method: "get", path: "/p", query: "a=1", body: "" }),
      "1GET/p?a=1"
    )
    assert.strictEqual(prehash({ timestamp: "1", method: "POST", path: "/p", query: "", body: "{}" }), "1POST/p{}")
    assert.strictEqual(prehash({ timestamp: "1", method: "GET", path: "/p", query: "", body: "" }), "1GET/p")
  })
})

describe("canonicalQuery", () => {
  it("sorts keys, drops absent values and signs raw values while sending encoded ones", () => {
    const query = canonicalQuery({ symbol: "BTC$USDT", coin: "比特币", limit: undefined, note: "a b+c&d" })
    assert.strictEqual(query.signed, "coin=比特币&note=a b+c&d&symbol=BTC$USDT")
    assert.strictEqual(query.sent, "coin=%E6%AF%94%E7%89%B9%E5%B8%81&note=a%20b%2Bc%26d&symbol=BTC%24USDT")
  })

  it("is empty for no parameters", () => {
    assert.deepStrictEqual(canonicalQuery({}), { signed: "", sent: "" })
  })
})

describe("hmacVectors", () => {
  it("publishes a POST with a body, a GET with a query and a GET without, each node:crypto's HMAC-SHA256", () => {
    assert.deepStrictEqual(
      hmacVectors.cases.map(({ prehash: input }) => input.replace(/^\d+/, "").slice(0, 4)),
      ["POST", "GET/", "GET/"]
    )
    assert.include(hmacVectors.cases[1]?.prehash, "?")
    for (const { prehash: input, signature } of hmacVectors.cases) {
      assert.strictEqual(createHmac("sha256", hmacVectors.secret).update(input).digest("base64"), signature, input)
    }
  })
})

describe("Signer", () => {
  it("a program run without a Signer names the service it lacks", () => {
    const program = Effect.gen(function*() {
      yield* Signer
    }) as Effect.Effect<void> // as a caller who cast away the requirement
    const exit = Effect.runSyncExit(program)
    assert.isTrue(Exit.isFailure(exit))
    if (Exit.isFailure(exit)) assert.include(Cause.pretty(exit.cause), "Service not found: @bitget-effect/core/Signer")
  })
})

describe("WebCryptoSigner", () => {
  const key: SigningKey = { _tag: "Hmac", secret: Redacted.make(hmacVectors.secret) }
  for (const { prehash: input, signature } of hmacVectors.cases) {
    it.effect(`reproduces the golden vector ${signature}`, () =>
      Effect.gen(function*() {
        assert.strictEqual(yield* WebCryptoSigner.make.sign(key, input), signature)
      }))
  }

  it.effect("signs RSA keys in PKCS#8 and PKCS#1 PEM alike, verifiable as SHA256withRSA", () =>
    Effect.gen(function*() {
      const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 })
      const pkcs8 = privateKey.export({ type: "pkcs8", format: "pem" }).toString()
      const pkcs1 = privateKey.export({ type: "pkcs1", format: "pem" }).toString()
      const message = "1700000000000GET/api/v2/p2p/orderList?coin=比特币"
      const a = yield* WebCryptoSigner.make.sign({ _tag: "Rsa", privateKeyPem: Redacted.make(pkcs8) }, message)
      const b = yield* WebCryptoSigner.make.sign({ _tag: "Rsa", privateKeyPem: Redacted.make(pkcs1) }, message)
      assert.strictEqual(a, b)
      assert.isTrue(verify("sha256", Buffer.from(message), publicKey, Buffer.from(a, "base64")))
    }))

  it.effect("fails with a typed error that does not echo a bad key", () =>
    Effect.gen(function*() {
      const pem = "-----BEGIN PRIVATE KEY-----\nc2VjcmV0LWtleS1tYXRlcmlhbA==\n-----END PRIVATE KEY-----"
      const error = yield* Effect.flip(
        WebCryptoSigner.make.sign({ _tag: "Rsa", privateKeyPem: Redacted.make(pem) }, "x")
      )
      assert.strictEqual(error._tag, "BitgetSignerError")
      assert.notInclude(error.message, "c2VjcmV0")
    }))
})
