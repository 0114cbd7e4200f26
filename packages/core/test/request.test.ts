import { assert, describe, it } from "@effect/vitest"
import { Effect, Result } from "effect"
import * as BitgetConfig from "../src/BitgetConfig.js"
import * as Credentials from "../src/Credentials.js"
import * as Request from "../src/internal/request.js"
import * as Symbols from "../src/Symbols.js"
import * as TaxRecords from "../src/TaxRecords.js"
import { credentials, hmacSecret } from "./support.js"

const signed = Request.frame(BitgetConfig.make({ baseUrl: "https://x.test", credentials, demoTrading: true }))
const anonymous = Request.frame(BitgetConfig.make({ baseUrl: "https://x.test" }))

describe("request building", () => {
  it.effect("a GET sends its query encoded and signs it raw, under the credential headers", () =>
    Effect.gen(function*() {
      const prepared = yield* Request.prepare(Symbols.endpoint, { symbol: "BTC$USDT" })
      const request = Request.outgoing(signed, Symbols.endpoint, prepared, credentials, 1_700_000_000_000)
      assert.strictEqual(request.url, "https://x.test/api/v2/spot/public/symbols?symbol=BTC%24USDT")
      assert.strictEqual(request.toSign?.prehash, "1700000000000GET/api/v2/spot/public/symbols?symbol=BTC$USDT")
      assert.strictEqual(request.body, undefined)
      assert.deepStrictEqual(Object.keys(request.headers).sort(), [
        "ACCESS-KEY",
        "ACCESS-PASSPHRASE",
        "ACCESS-TIMESTAMP",
        "Content-Type",
        "locale",
        "paptrading"
      ])
      assert.strictEqual(request.headers["ACCESS-TIMESTAMP"], "1700000000000")
    }))

  it.effect("a call without credentials carries no credential header and nothing to sign", () =>
    Effect.gen(function*() {
      const prepared = yield* Request.prepare(Symbols.endpoint, {})
      const request = Request.outgoing(anonymous, Symbols.endpoint, prepared, undefined, 0)
      assert.strictEqual(request.url, "https://x.test/api/v2/spot/public/symbols")
      assert.strictEqual(request.toSign, undefined)
      assert.deepStrictEqual(request.headers, { locale: "en-US" })
    }))

  it("a signed endpoint without credentials is refused; public ones never sign", () => {
    const refused = Request.credentialsFor(anonymous, TaxRecords.endpoint)
    assert.isTrue(Result.isFailure(refused) && refused.failure.reason === "NoCredentials")
    assert.deepStrictEqual(Request.credentialsFor(signed, Symbols.endpoint), Result.succeed(undefined))
    assert.deepStrictEqual(Request.credentialsFor(signed, TaxRecords.endpoint), Result.succeed(credentials))
  })

  it("a credential no header can carry is refused by name, without its value", () => {
    const broken = Request.frame(BitgetConfig.make({
      credentials: Credentials.hmac({ apiKey: "key\r\nX-Injected: 1", secret: "s", passphrase: "p" })
    }))
    const refused = Request.credentialsFor(broken, TaxRecords.endpoint)
    assert.isTrue(Result.isFailure(refused))
    if (Result.isFailure(refused)) {
      assert.include(refused.failure.message, "ACCESS-KEY")
      assert.notInclude(refused.failure.message, "X-Injected")
    }
    assert.deepStrictEqual(Request.credentialsFor(broken, Symbols.endpoint), Result.succeed(undefined))
  })

  it("the frame's scrubber knows every secret of the credentials", () => {
    const text = signed.secrets.scrub(`key-1 phrase-1 ${hmacSecret}`)
    assert.notInclude(text, "key-1")
    assert.notInclude(text, "phrase-1")
    assert.notInclude(text, "s3cr3t")
  })
})
