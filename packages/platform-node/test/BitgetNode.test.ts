import * as BitgetClient from "@bitget-effect/core/BitgetClient"
import * as Credentials from "@bitget-effect/core/Credentials"
import * as Endpoint from "@bitget-effect/core/Endpoint"
import * as Symbols from "@bitget-effect/core/Symbols"
import { assert, describe, it } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { createHmac } from "node:crypto"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import * as BitgetNode from "../src/BitgetNode.js"

interface Seen {
  readonly method: string
  readonly url: string
  readonly headers: Record<string, string | Array<string> | undefined>
  readonly body: string
}

/** A minimal server that speaks the envelope and records what it received. */
const server = Effect.acquireRelease(
  Effect.callback<{ readonly url: string; readonly seen: Array<Seen>; readonly close: () => void }>((resume) => {
    const seen: Array<Seen> = []
    const http = createServer((request, response) => {
      let body = ""
      request.on("data", (chunk) => (body += chunk))
      request.on("end", () => {
        seen.push({ method: request.method ?? "", url: request.url ?? "", headers: request.headers, body })
        response.setHeader("content-type", "application/json")
        response.end(JSON.stringify({ code: "00000", msg: "success", requestTime: Date.now(), data: [] }))
      })
    })
    http.listen(0, "127.0.0.1", () =>
      resume(Effect.succeed({
        url: `http://127.0.0.1:${(http.address() as AddressInfo).port}`,
        seen,
        close: () => http.close()
      })))
  }),
  (s) => Effect.sync(s.close)
)

const taxLike = Endpoint.get({
  name: "test.taxLike",
  path: "/api/v2/tax/spot-record",
  auth: "signed",
  rateLimit: { limit: 1, window: "1 second", scope: "uid" },
  idempotency: "idempotent",
  request: Schema.Struct({ coin: Schema.String }),
  response: Schema.Array(Schema.Unknown)
})

describe("BitgetNode.layer over real HTTP", () => {
  it.live("performs public and signed calls a server can verify", () =>
    Effect.gen(function*() {
      const { seen, url } = yield* server
      const layer = BitgetNode.layer({
        baseUrl: url,
        credentials: Credentials.hmac({ apiKey: "k", secret: "node-secret", passphrase: "p" })
      })
      yield* Effect.gen(function*() {
        assert.deepStrictEqual(yield* Symbols.symbols(), [])
        yield* BitgetClient.execute(taxLike, { coin: "比特币$ x" })
      }).pipe(Effect.provide(layer))
      assert.strictEqual(seen[0]!.url, "/api/v2/spot/public/symbols")
      const signed = seen[1]!
      assert.strictEqual(signed.url, "/api/v2/tax/spot-record?coin=%E6%AF%94%E7%89%B9%E5%B8%81%24%20x")
      assert.isUndefined(signed.headers["traceparent"])
      assert.isUndefined(signed.headers["b3"])
      const query = decodeURIComponent(signed.url.split("?")[1]!)
      const expected = createHmac("sha256", "node-secret")
        .update(`${signed.headers["access-timestamp"]}GET/api/v2/tax/spot-record?${query}`)
        .digest("base64")
      assert.strictEqual(signed.headers["access-sign"], expected)
    }))
})
