import { Credentials } from "@bitget-effect/core"
import { BitgetNode } from "@bitget-effect/platform-node"
import { assert, it } from "@effect/vitest"
import { Effect } from "effect"
import { createServer, type IncomingHttpHeaders, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { assets } from "../src/raw-call.js"

// a stand-in for the exchange on loopback: it answers any path with this `data` in Bitget's envelope
const exchange = (data: unknown) =>
  Effect.gen(function*() {
    const asked: Array<{ readonly url: string; readonly headers: IncomingHttpHeaders }> = []
    const server = yield* Effect.acquireRelease(
      Effect.callback<Server>((resume) => {
        const started = createServer((request, response) => {
          asked.push({ url: request.url ?? "", headers: request.headers })
          response.writeHead(200, { "content-type": "application/json" })
          response.end(JSON.stringify({ code: "00000", msg: "success", requestTime: Date.now(), data }))
        }).listen(0, "127.0.0.1", () => resume(Effect.succeed(started)))
      }),
      (started) => Effect.callback<void>((resume) => void started.close(() => resume(Effect.void)))
    )
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, asked }
  })

it.live("a raw call is signed and returns the answer's data as JSON", () =>
  Effect.gen(function*() {
    const usdt = { coin: "USDT", available: "1250.5", frozen: "0", locked: "0", uTime: "1767225600000" }
    const { asked, url } = yield* exchange([usdt])
    const credentials = Credentials.hmac({ apiKey: "my-key", secret: "my-secret", passphrase: "my-passphrase" })
    const data = yield* assets("USDT").pipe(Effect.provide(BitgetNode.layer({ baseUrl: url, credentials })))
    assert.deepStrictEqual(data, [usdt]) // as it came, strings and all
    const [request] = asked
    assert.strictEqual(request?.url, "/api/v2/spot/account/assets?coin=USDT")
    assert.strictEqual(request?.headers["access-key"], "my-key")
    assert.match(String(request?.headers["access-sign"]), /^[A-Za-z0-9+/]+=*$/) // HMAC-SHA256, base64
  }))
