/**
 * The static responder: a `node:http` server on 127.0.0.1 answering the
 * benchmarked endpoints with canned, pre-serialised envelopes (no signature
 * checks, no state, keep-alive on). Run as a child process; argv[2] is how
 * many tax records the ledger holds (ids 1 to n, served newest first in pages
 * of 500 with `idLessThan` paging). It tells the parent its port over IPC and
 * exits when the parent goes.
 */
import * as Http from "node:http"
import type { AddressInfo } from "node:net"
import * as Fixtures from "./fixtures.js"

/** A ready answer: the bytes and their headers. */
interface Answer {
  readonly status: number
  readonly body: Buffer
  readonly headers: Http.OutgoingHttpHeaders
}

const answer = (json: string, status = 200): Answer => {
  const body = Buffer.from(json)
  return { status, body, headers: { "content-type": "application/json", "content-length": body.length } }
}

const ok = (dataJson: string) => answer(Fixtures.envelope(dataJson))

const taxRecords = Number(process.argv[2] ?? 1_000_000)

/** Every page a walk from the newest record asks for, keyed by its highest id (0: the empty page past the end). */
const taxPages = (): Map<number, Answer> => {
  const pages = new Map<number, Answer>()
  for (let highest = taxRecords; highest >= 1; highest -= Fixtures.taxPageSize) {
    pages.set(highest, ok(Fixtures.taxPageJson(highest, Fixtures.taxPageSize)))
  }
  pages.set(0, ok("[]"))
  return pages
}

const canned = {
  symbolsOne: ok(JSON.stringify(Fixtures.symbolsData(false))),
  symbolsAll: ok(JSON.stringify(Fixtures.symbolsData(true))),
  futures: ok(JSON.stringify(Fixtures.futuresData())),
  batchCancel: ok(JSON.stringify(Fixtures.batchCancelData())),
  tax: taxPages(),
  notFound: answer(`{"code":"40404","msg":"Request URL NOT FOUND","requestTime":${Date.now()},"data":null}`, 404)
}

const param = (query: string, name: string): number | undefined => {
  const match = new RegExp(`(?:^|&)${name}=(\\d+)`).exec(query)
  return match?.[1] === undefined ? undefined : Number(match[1])
}

/** The tax page below the cursor: canned when the walk is aligned to whole pages, made up otherwise. */
const taxPage = (query: string): Answer => {
  const cursor = param(query, "idLessThan")
  const highest = Math.max(0, cursor === undefined ? taxRecords : cursor - 1)
  const limit = param(query, "limit") ?? Fixtures.taxPageSize
  return (limit === Fixtures.taxPageSize ? canned.tax.get(highest) : undefined) ??
    ok(Fixtures.taxPageJson(highest, limit))
}

const route = (method: string | undefined, url: string): Answer => {
  const mark = url.indexOf("?")
  const path = mark === -1 ? url : url.slice(0, mark)
  const query = mark === -1 ? "" : url.slice(mark + 1)
  if (method === "POST") {
    return path === "/api/v2/spot/trade/batch-cancel-order" ? canned.batchCancel : canned.notFound
  }
  switch (path) {
    case "/api/v2/spot/public/symbols":
      return /(?:^|&)symbol=[^&]/.test(query) ? canned.symbolsOne : canned.symbolsAll
    case "/api/v2/tax/spot-record":
      return taxPage(query)
    case "/api/v2/mix/order/orders-history":
      return canned.futures
    case "/api/v2/public/time":
      return ok(`{"serverTime":"${Date.now()}"}`)
    default:
      return canned.notFound
  }
}

const server = Http.createServer({ keepAliveTimeout: 600_000 }, (request, response) => {
  const reply = route(request.method, request.url ?? "/")
  const send = () => {
    response.writeHead(reply.status, reply.headers)
    response.end(reply.body)
  }
  if (request.method === "POST") {
    request.on("end", send)
    request.resume()
  } else {
    send()
  }
})
server.keepAliveTimeout = 600_000

server.listen(0, "127.0.0.1", () => {
  const { port } = server.address() as AddressInfo
  if (process.send) process.send({ port })
  else console.log(port)
})
process.on("disconnect", () => process.exit(0))
