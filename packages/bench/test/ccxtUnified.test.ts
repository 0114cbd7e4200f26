/**
 * The "ccxt unified" column of the overhead bench: against the responder's
 * answers (served here on loopback), each unified method returns the row's
 * number of parsed structures, and a timed call sends only its own requests
 * (the markets are loaded once, when the client is made, never again).
 */
import { assert, describe, it } from "@effect/vitest"
import * as Http from "node:http"
import type { AddressInfo } from "node:net"
import * as CcxtUnified from "../src/overhead/clients/ccxtUnified.js"
import type { Client } from "../src/overhead/clients/Client.js"
import type { Operation } from "../src/overhead/plan.js"
import { expectedRecords } from "../src/overhead/plan.js"
import { routes } from "../src/overhead/routes.js"

/** The requests each timed call sends, as `METHOD path`, sorted. */
const requestsOf: Readonly<Record<Exclude<Operation, "taxPage">, ReadonlyArray<string>>> = {
  symbolsOne: ["GET /api/v2/margin/currencies", "GET /api/v2/spot/public/symbols"],
  symbolsAll: ["GET /api/v2/margin/currencies", "GET /api/v2/spot/public/symbols"],
  futuresPage: ["GET /api/v2/mix/order/orders-history"],
  batchCancel: ["POST /api/v2/spot/trade/batch-cancel-order"]
}

/** The responder's routes on a loopback server that notes every request; `stop` closes it. */
const serve = async () => {
  const route = routes(1000)
  const seen: Array<string> = []
  const server = Http.createServer((request, response) => {
    const url = request.url ?? "/"
    seen.push(`${request.method} ${url}`)
    const reply = route(request.method, url)
    request.resume()
    request.on("end", () => {
      response.writeHead(reply.status, reply.headers)
      response.end(reply.body)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo
  const stop = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections()
      server.close(() => resolve())
    })
  return { baseUrl: `http://127.0.0.1:${port}`, seen, stop }
}

const pathOf = (request: string) => request.replace(/\?.*$/, "")

describe("the ccxt unified client", () => {
  it("loads its markets once, then each unified call parses the row's records from its own requests", async () => {
    const { baseUrl, seen, stop } = await serve()
    try {
      const client: Client = await CcxtUnified.make(baseUrl)
      assert.includeMembers(seen.map(pathOf), [
        "GET /api/v2/spot/public/coins",
        "GET /api/v2/spot/public/symbols",
        "GET /api/v2/mix/market/contracts"
      ])
      assert.isUndefined(client.operations.taxPage, "fetchLedger reads another endpoint: no tax cell")
      assert.isUndefined(client.walkTaxRecords)
      for (const [operation, requests] of Object.entries(requestsOf)) {
        const call = client.operations[operation as Operation]
        assert.isDefined(call, operation)
        for (let time = 0; time < 2; time++) {
          seen.length = 0
          assert.strictEqual(await call(), expectedRecords[operation as Operation], operation)
          assert.deepStrictEqual(seen.map(pathOf).sort(), requests, operation)
        }
      }
    } finally {
      await stop()
    }
  }, 30_000)

  it("asks for the futures page as the other columns do, and for one symbol with its id", async () => {
    const { baseUrl, seen, stop } = await serve()
    try {
      const client = await CcxtUnified.make(baseUrl)
      seen.length = 0
      await client.operations.futuresPage?.()
      assert.deepStrictEqual(seen, ["GET /api/v2/mix/order/orders-history?limit=100&productType=USDT-FUTURES"])
      seen.length = 0
      await client.operations.symbolsOne?.()
      assert.include(seen, "GET /api/v2/spot/public/symbols?symbol=BTCUSDT")
    } finally {
      await stop()
    }
  }, 30_000)
})
