/**
 * The static responder: a `node:http` server on 127.0.0.1 answering the
 * benchmarked endpoints with the canned, pre-serialised envelopes of
 * `routes.ts` (keep-alive on). Run as a child process; argv[2] is how many
 * tax records the ledger holds. It tells the parent its port over IPC and
 * exits when the parent goes.
 */
import * as Http from "node:http"
import type { AddressInfo } from "node:net"
import { routes } from "./routes.js"

const route = routes(Number(process.argv[2] ?? 1_000_000))

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
