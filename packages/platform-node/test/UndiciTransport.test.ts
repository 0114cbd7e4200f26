import type { HttpTransport } from "@bitget-effect/core/HttpTransport"
import { assert, describe, it } from "@effect/vitest"
import { Effect, Fiber } from "effect"
import type { IncomingMessage, ServerResponse } from "node:http"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import * as UndiciTransport from "../src/UndiciTransport.js"

/** A loopback server answering with `handler`, closed with the scope. */
const serve = (handler: (request: IncomingMessage, response: ServerResponse) => void) =>
  Effect.acquireRelease(
    Effect.callback<{ readonly url: string; readonly close: () => void }>((resume) => {
      const http = createServer(handler)
      http.listen(0, "127.0.0.1", () =>
        resume(Effect.succeed({
          url: `http://127.0.0.1:${(http.address() as AddressInfo).port}`,
          close: () => {
            http.closeAllConnections()
            http.close()
          }
        })))
    }),
    (server) => Effect.sync(server.close)
  )

const request = (url: string, overrides: Partial<HttpTransport.Request> = {}): HttpTransport.Request => ({
  endpoint: "GET /api/v2/test",
  method: "GET",
  url: `${url}/api/v2/test?a=1`,
  headers: { "ACCESS-KEY": "bg_key" },
  timeoutMillis: 2_000,
  maxBytes: 1_024,
  ...overrides
})

const send = (input: HttpTransport.Request) =>
  Effect.flatMap(UndiciTransport.make(), (transport) => transport.send(input))

describe("UndiciTransport", () => {
  it.live("sends the method, path, query, headers and body, and reads status, headers and body", () =>
    Effect.gen(function*() {
      let seen = ""
      const server = yield* serve((req, res) => {
        let body = ""
        req.on("data", (chunk) => (body += chunk))
        req.on("end", () => {
          seen = `${req.method} ${req.url} ${req.headers["access-key"]} ${body}`
          res.writeHead(201, { "X-Answer": "yes" }).end("{\"ok\":true}")
        })
      })
      const answer = yield* send(request(server.url, { method: "POST", body: "{\"x\":1}" }))
      assert.strictEqual(seen, "POST /api/v2/test?a=1 bg_key {\"x\":1}")
      assert.strictEqual(answer.status, 201)
      assert.strictEqual(answer.headers["x-answer"], "yes")
      assert.strictEqual(answer.body, "{\"ok\":true}")
    }))

  it.live("refuses a declared length over the cap, and stops reading an undeclared one past it", () =>
    Effect.gen(function*() {
      const server = yield* serve((req, res) => {
        if (req.url?.includes("declared")) return res.writeHead(200, { "content-length": 5_000 }).end("x".repeat(5_000))
        res.writeHead(200)
        const drip = setInterval(() => res.write("y".repeat(512)), 1)
        res.on("close", () => clearInterval(drip))
      })
      for (const path of ["declared", "endless"]) {
        const error = yield* Effect.flip(send(request(`${server.url}/${path}`)))
        assert.strictEqual(error._tag, "BitgetDecodeError")
        assert.match(error.message, /larger than the 1024 bytes allowed/)
      }
    }))

  it.live("ends a silent exchange at its deadline as a Timeout, and a refused connection as not sent", () =>
    Effect.gen(function*() {
      const server = yield* serve(() => {}) // never answers
      const timeout = yield* Effect.flip(send(request(server.url, { timeoutMillis: 200 })))
      assert.strictEqual(timeout._tag, "BitgetTransportError")
      if (timeout._tag === "BitgetTransportError") {
        assert.strictEqual(timeout.reason, "Timeout")
        assert.isTrue(timeout.sent)
      }
      const refused = yield* Effect.flip(send(request("http://127.0.0.1:1")))
      assert.strictEqual(refused._tag, "BitgetTransportError")
      if (refused._tag === "BitgetTransportError") {
        assert.strictEqual(refused.reason, "Connect")
        assert.isFalse(refused.sent)
        assert.notInclude(refused.message, "bg_key")
      }
    }))

  it.live("a connection the server drops is Network and maybe sent", () =>
    Effect.gen(function*() {
      const server = yield* serve((req) => req.socket.destroy())
      const error = yield* Effect.flip(send(request(server.url)))
      assert.isTrue(error._tag === "BitgetTransportError" && error.reason === "Network" && error.sent)
      assert.match(error.message, /\((ECONNRESET|UND_ERR_SOCKET)\)$/)
    }))

  it.live("a URL undici cannot parse is not sent; what else it refuses is Unexpected, named, and not a network failure", () =>
    Effect.gen(function*() {
      const invalid = yield* Effect.flip(send(request("not a url")))
      assert.isTrue(invalid._tag === "BitgetTransportError" && invalid.reason === "Connect" && !invalid.sent)
      assert.strictEqual(
        invalid.message,
        "GET /api/v2/test transport failure (Connect): request transport failure (ERR_INVALID_URL)"
      )
      const refused = yield* Effect.flip(send(request("ftp://127.0.0.1:1")))
      assert.isTrue(refused._tag === "BitgetTransportError" && refused.reason === "Unexpected" && refused.sent)
      assert.strictEqual(
        refused.message,
        "GET /api/v2/test transport failure (Unexpected): request transport failure: " +
          "InvalidArgumentError: Invalid URL protocol: the URL must start with `http:` or `https:`."
      )
    }))

  it.live("an interrupted exchange is aborted at once, not held to its deadline", () =>
    Effect.gen(function*() {
      let closed = false
      const server = yield* serve((req) => req.socket.on("close", () => (closed = true)))
      const fiber = yield* Effect.forkChild(send(request(server.url, { timeoutMillis: 60_000 })))
      yield* Effect.sleep("100 millis")
      yield* Fiber.interrupt(fiber)
      yield* Effect.sleep("100 millis")
      assert.isTrue(closed)
    }))
})
