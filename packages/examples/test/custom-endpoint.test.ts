import { BitgetNode } from "@bitget-effect/platform-node"
import { assert, it } from "@effect/vitest"
import { BigDecimal, DateTime, Effect } from "effect"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { Ticker, tickers } from "../src/custom-endpoint.js"

// a stand-in for the exchange on loopback: it answers any path with this `data` in Bitget's envelope
const exchange = (data: unknown) =>
  Effect.gen(function*() {
    const asked: Array<string> = []
    const server = yield* Effect.acquireRelease(
      Effect.callback<Server>((resume) => {
        const started = createServer((request, response) => {
          asked.push(request.url ?? "")
          response.writeHead(200, { "content-type": "application/json" })
          response.end(JSON.stringify({ code: "00000", msg: "success", requestTime: Date.now(), data }))
        }).listen(0, "127.0.0.1", () => resume(Effect.succeed(started)))
      }),
      (started) => Effect.callback<void>((resume) => void started.close(() => resume(Effect.void)))
    )
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, asked }
  })

it.live("calls an endpoint the library does not ship and decodes its answer", () =>
  Effect.gen(function*() {
    const { asked, url } = yield* exchange([
      {
        symbol: "BTCUSDT",
        lastPr: "97000.5",
        bidPr: "97000.4",
        askPr: "97000.6",
        change24h: "-0.0123",
        ts: "1767225600000",
        high24h: "98000" // not in the schema: dropped
      }
    ])
    const [btc] = yield* tickers({ symbol: "BTCUSDT" }).pipe(Effect.provide(BitgetNode.layer({ baseUrl: url })))
    assert.instanceOf(btc, Ticker)
    assert.isTrue(BigDecimal.equals(btc.lastPr, BigDecimal.fromStringUnsafe("97000.5")))
    assert.isTrue(BigDecimal.isNegative(btc.change24h))
    assert.strictEqual(DateTime.formatIso(btc.ts), "2026-01-01T00:00:00.000Z")
    assert.deepStrictEqual(asked, ["/api/v2/spot/market/tickers?symbol=BTCUSDT"])
  }))
