/**
 * `BitgetFetch`: the fetch transport (`HttpTransport.fromFetch`) through
 * Node's real `fetch` against loopback servers (cap, deadline, abort, typed
 * failures); fetch's own `TypeError` told apart from a bug with an injected
 * fetch; the layer signing with WebCrypto (HMAC and RSA, each key imported on
 * first use only), reading its options from a `ConfigProvider`, and loading
 * nothing of Node's.
 */
import { assert, describe, it } from "@effect/vitest"
import { Cause, ConfigProvider, Effect, Exit, Fiber, Formatter, Layer, Logger, Option, Tracer } from "effect"
import { FetchHttpClient } from "effect/http"
import { createHmac, generateKeyPairSync, verify } from "node:crypto"
import { readFileSync } from "node:fs"
import type { IncomingMessage, ServerResponse } from "node:http"
import { createServer } from "node:http"
import { builtinModules } from "node:module"
import type { AddressInfo } from "node:net"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import ts from "typescript"
import { afterEach, vi } from "vitest"
import type { BitgetError } from "../src/BitgetError.js"
import { BitgetTransportError } from "../src/BitgetError.js"
import * as BitgetFetch from "../src/BitgetFetch.js"
import * as Credentials from "../src/Credentials.js"
import * as HttpTransport from "../src/HttpTransport.js"
import * as Symbols from "../src/Symbols.js"
import * as TradeRates from "../src/TradeRates.js"

/** The port a server listens on. */
const portOf = (address: AddressInfo | string | null): number =>
  typeof address === "object" && address !== null ? address.port : 0

/** A loopback server answering with `handler`, closed with the scope. */
const serve = (handler: (request: IncomingMessage, response: ServerResponse) => void) =>
  Effect.acquireRelease(
    Effect.callback<{ readonly url: string; readonly close: () => void }>((resume) => {
      const http = createServer(handler)
      http.listen(0, "127.0.0.1", () =>
        resume(Effect.succeed({
          url: `http://127.0.0.1:${portOf(http.address())}`,
          close: () => {
            http.closeAllConnections()
            http.close()
          }
        })))
    }),
    (server) => Effect.sync(server.close)
  )

/** The URL of a loopback port that nothing listens on any more. */
const closedPort = Effect.flatMap(Effect.scoped(serve(() => {})), (server) => Effect.succeed(server.url))

const request = (url: string, overrides: Partial<HttpTransport.HttpTransport.Request> = {}) => ({
  endpoint: "GET /api/v2/test",
  method: "GET" as const,
  url: `${url}/api/v2/test?a=1`,
  headers: { "ACCESS-KEY": "bg_key" },
  timeoutMillis: 2_000,
  maxBytes: 1_024,
  ...overrides
})

/** Sends one request over the fetch transport, with `fetch` as `FetchHttpClient.Fetch` when given. */
const send = (input: HttpTransport.HttpTransport.Request, fetch?: typeof globalThis.fetch) =>
  Effect.flatMap(
    fetch === undefined
      ? HttpTransport.fromFetch
      : Effect.provideService(HttpTransport.fromFetch, FetchHttpClient.Fetch, fetch),
    (transport) => transport.send(input)
  )

/** The transport failure of an effect that must fail with one. */
const transportFailure = <A, R>(effect: Effect.Effect<A, BitgetError, R>) =>
  Effect.map(
    Effect.flip(effect),
    (error) => error instanceof BitgetTransportError ? error : assert.fail(`not a transport failure: ${error.message}`)
  )

describe("HttpTransport.fromFetch over Node's fetch", () => {
  it.live("sends the method, path, query, headers and body, and reads status, headers and body", () =>
    Effect.gen(function*() {
      let seen = ""
      const server = yield* serve((req, res) => {
        let body = ""
        req.on("data", (chunk) => (body += chunk))
        req.on("end", () => {
          seen = `${req.method} ${req.url} ${req.headers["access-key"]} ${body}`
          res.writeHead(201, { "X-Answer": "yes" }).end("{\"ok\":\"ü\"}")
        })
      })
      const answer = yield* send(request(server.url, { method: "POST", body: "{\"x\":1}" }))
      assert.strictEqual(seen, "POST /api/v2/test?a=1 bg_key {\"x\":1}")
      assert.strictEqual(answer.status, 201)
      assert.strictEqual(answer.headers["x-answer"], "yes")
      assert.strictEqual(answer.body, "{\"ok\":\"ü\"}")
    }))

  it.live("answers a redirect as it is: the credential headers are never sent on to another origin", () =>
    Effect.gen(function*() {
      let followed = false
      const elsewhere = yield* serve((_, res) => {
        followed = true
        res.end("{}")
      })
      const server = yield* serve((_, res) => res.writeHead(302, { location: `${elsewhere.url}/steal` }).end())
      const answer = yield* send(request(server.url))
      assert.strictEqual(answer.status, 302)
      assert.isFalse(followed)
    }))

  it.live("refuses a declared length over the cap unread, and stops an endless body at the cap", () =>
    Effect.gen(function*() {
      let closed = 0
      const server = yield* serve((req, res) => {
        res.on("close", () => closed++)
        if (req.url?.includes("declared")) {
          return res.writeHead(200, { "content-length": 1_000_000_000 }).write("x".repeat(512))
        }
        res.writeHead(200)
        const drip = setInterval(() => res.write("y".repeat(512)), 1)
        res.on("close", () => clearInterval(drip))
      })
      const started = Date.now()
      for (const path of ["declared", "endless"]) {
        const error = yield* Effect.flip(send(request(`${server.url}/${path}`, { timeoutMillis: 60_000 })))
        assert.strictEqual(error._tag, "BitgetDecodeError")
        assert.strictEqual(
          error.message,
          "GET /api/v2/test returned an unexpected response (HTTP 200): " +
            "the body is larger than the 1024 bytes allowed (maxResponseBytes); body: "
        )
      }
      assert.isBelow(Date.now() - started, 5_000, "neither body is read to its (missing) end")
      yield* Effect.sleep("100 millis")
      assert.strictEqual(closed, 2, "both connections are closed")
    }))

  it.live("ends a silent exchange, and one whose body stalls, at the deadline as a Timeout", () =>
    Effect.gen(function*() {
      const server = yield* serve((req, res) => {
        if (req.url?.includes("stall")) res.writeHead(200, { "content-length": 100 }).write("{\"partial\":")
      })
      for (const path of ["silent", "stall"]) {
        const started = Date.now()
        const error = yield* transportFailure(send(request(`${server.url}/${path}`, { timeoutMillis: 200 })))
        assert.strictEqual(error.reason, "Timeout", path)
        assert.isTrue(error.sent)
        assert.strictEqual(error.description, "no complete answer within 200ms")
        assert.isBelow(Date.now() - started, 1_500, path)
      }
    }))

  it.live("an interrupted exchange is aborted at once: the server sees its socket closed", () =>
    Effect.gen(function*() {
      let closed = false
      const server = yield* serve((req) => req.socket.on("close", () => (closed = true)))
      const fiber = yield* Effect.forkChild(send(request(server.url, { timeoutMillis: 60_000 })))
      yield* Effect.sleep("100 millis")
      yield* Fiber.interrupt(fiber)
      yield* Effect.sleep("100 millis")
      assert.isTrue(closed)
    }))

  it.live("a refused connection is Connect and not sent; a reset one Network and maybe sent; the code only", () =>
    Effect.gen(function*() {
      const refused = yield* transportFailure(send(request(yield* closedPort)))
      assert.strictEqual(refused.reason, "Connect")
      assert.isFalse(refused.sent)
      assert.strictEqual(
        refused.message,
        "GET /api/v2/test transport failure (Connect): request transport failure (ECONNREFUSED)"
      )
      const server = yield* serve((req) => req.socket.destroy())
      const reset = yield* transportFailure(send(request(server.url)))
      assert.strictEqual(reset.reason, "Network")
      assert.isTrue(reset.sent)
      assert.strictEqual(
        reset.message,
        "GET /api/v2/test transport failure (Network): request transport failure (UND_ERR_SOCKET)"
      )
    }))
})

describe("fetch's own TypeError is a network failure; a bug is not", () => {
  /** A fetch that counts its calls and answers with `answer`. */
  const counted = (answer: () => Promise<Response>) => {
    const calls = { count: 0 }
    const fetch: typeof globalThis.fetch = () => {
      calls.count++
      return answer()
    }
    return { calls, fetch }
  }

  /** The client over `fetch`, retrying idempotent calls up to 3 attempts with no backoff to speak of. */
  const clientOver = (fetch: typeof globalThis.fetch) =>
    BitgetFetch.layer({
      baseUrl: "https://api.example.test",
      retry: { maxAttempts: 3, baseDelay: "1 millis" },
      rateLimit: { enabled: false }
    }).pipe(Layer.provide(Layer.succeed(FetchHttpClient.Fetch, fetch)))

  it.live("a bare TypeError(\"Failed to fetch\") (Deno, browsers: no code) is Network, sent, and retried", () => {
    const { calls, fetch } = counted(() => Promise.reject(new TypeError("Failed to fetch")))
    return Effect.gen(function*() {
      const error = yield* transportFailure(Symbols.symbols())
      assert.strictEqual(error.reason, "Network")
      assert.isTrue(error.sent)
      assert.strictEqual(
        error.message,
        "GET /api/v2/spot/public/symbols transport failure (Network): request transport failure: TypeError: Failed to fetch"
      )
      assert.strictEqual(calls.count, 3, "an idempotent call is retried")
    }).pipe(Effect.provide(clientOver(fetch)))
  })

  it.effect("so is a TypeError that the body stream of its answer fails with", () => {
    const broken = () =>
      new Response(
        new ReadableStream({
          pull: (controller) => controller.error(new TypeError("error reading a body from connection"))
        })
      )
    return Effect.gen(function*() {
      const error = yield* transportFailure(send(request("https://api.example.test"), () => Promise.resolve(broken())))
      assert.strictEqual(error.reason, "Network")
      assert.include(error.message, "TypeError: error reading a body from connection")
    })
  })

  it.effect("what fetch rejects with that is no TypeError, and a TypeError thrown outside fetch, are Unexpected", () => {
    const answerWithoutHeaders = () => {
      const response = new Response("{}")
      Object.defineProperty(response, "headers", {
        get: () => {
          throw new TypeError("Cannot read properties of undefined (reading 'get')")
        }
      })
      return response
    }
    const { calls, fetch } = counted(() => Promise.resolve(answerWithoutHeaders()))
    return Effect.gen(function*() {
      const range = yield* transportFailure(
        send(request("https://api.example.test"), () => Promise.reject(new RangeError("Invalid array length")))
      )
      assert.strictEqual(range.reason, "Unexpected")
      const bug = yield* transportFailure(Symbols.symbols())
      assert.strictEqual(bug.reason, "Unexpected")
      assert.isTrue(bug.sent)
      assert.include(bug.message, "TypeError: Cannot read properties of undefined (reading 'get')")
      assert.strictEqual(calls.count, 1, "never retried")
    }).pipe(Effect.provide(clientOver(fetch)))
  })

  it.effect("no secret in the failure, its logs or spans, even when fetch's error quotes every header", () => {
    const secret = "hmac-secret-value-1234"
    const credentials = Credentials.hmac({ apiKey: "bg_apikey_5678", secret, passphrase: "pass-phrase-9012" })
    const sent: Array<string> = []
    const fetch: typeof globalThis.fetch = (_, init) => {
      const headers = new Headers(init?.headers)
      headers.forEach((value) => sent.push(value))
      const quoted = [...headers].map(([name, value]) => `${name}: ${value}`).join(", ")
      return Promise.reject(new TypeError(`Failed to fetch (${quoted})`, { cause: new Error(quoted) }))
    }
    const texts: Array<string> = []
    const spans: Array<string> = []
    const logs = Logger.layer([
      Logger.make(({ cause, message }) => texts.push(`${Formatter.format(message)} ${Cause.pretty(cause)}`))
    ])
    return Effect.gen(function*() {
      const tracer = yield* Effect.tracer
      const recording: Tracer.Tracer = {
        span: (options) => {
          const span = tracer.span(options)
          spans.push(options.name)
          const attribute = span.attribute.bind(span)
          span.attribute = (key, value) => {
            spans.push(`${key}=${String(value)}`)
            attribute(key, value)
          }
          return span
        }
      }
      const exit = yield* Effect.exit(TradeRates.tradeRates({ businessType: "spot" })).pipe(
        Effect.provide(
          Layer.mergeAll(
            BitgetFetch.layer({ baseUrl: "https://api.example.test", credentials, retry: { maxAttempts: 1 } }).pipe(
              Layer.provide(Layer.succeed(FetchHttpClient.Fetch, fetch))
            ),
            Layer.succeed(Tracer.Tracer, recording)
          )
        )
      )
      assert.isTrue(Exit.isFailure(exit))
      const error = Option.getOrThrow(Exit.isFailure(exit) ? Cause.findErrorOption(exit.cause) : Option.none())
      yield* Effect.logError("the call failed", error)
      texts.push(error.message, JSON.stringify(error), String(error), spans.join("\n"))
      assert.include(error.message, "Failed to fetch")
      const signature = sent.find((value) => value.length > 40)
      assert.isDefined(signature, "the request was signed")
      for (const value of ["bg_apikey_5678", "pass-phrase-9012", secret, signature!]) {
        for (const text of texts) assert.notInclude(text, value)
      }
      assert.isTrue(texts.some((text) => text.includes("the call failed")))
    }).pipe(Effect.provide(logs))
  })
})

describe("BitgetFetch.layer", () => {
  afterEach(() => {
    vi.restoreAllMocks()
  })

  /** What the canned exchange was sent, and a layer whose fetch answers every call with an empty list. */
  const recording = (options: Parameters<typeof BitgetFetch.layer>[0]) => {
    const sent: Array<{ readonly url: URL; readonly method: string; readonly headers: Headers }> = []
    const fetch: typeof globalThis.fetch = (input, init) => {
      sent.push({ url: new URL(String(input)), method: init?.method ?? "GET", headers: new Headers(init?.headers) })
      return Promise.resolve(Response.json({ code: "00000", msg: "success", requestTime: 1, data: [] }))
    }
    const layer = BitgetFetch.layer({ baseUrl: "https://api.example.test", rateLimit: { enabled: false }, ...options })
      .pipe(Layer.provide(Layer.succeed(FetchHttpClient.Fetch, fetch)))
    return { layer, sent }
  }

  /** The prehash the exchange verifies for a recorded GET. */
  const prehashOf = (
    { headers, method, url }: { readonly url: URL; readonly method: string; readonly headers: Headers }
  ) => `${headers.get("access-timestamp")}${method}${url.pathname}${decodeURIComponent(url.search)}`

  it.effect("signs with HMAC, verifiable independently; each key is imported once, not per call", () => {
    const importKey = vi.spyOn(crypto.subtle, "importKey")
    const credentials = Credentials.hmac({ apiKey: "bg_key", secret: "hmac-secret", passphrase: "phrase" })
    const { layer, sent } = recording({ credentials })
    return Effect.gen(function*() {
      for (const symbol of ["BTCUSDT", "ETHUSDT", "币安人生USDT"]) {
        yield* TradeRates.tradeRates({ businessType: "spot", symbol })
      }
      assert.strictEqual(sent.length, 3)
      for (const request of sent) {
        assert.strictEqual(request.headers.get("access-key"), "bg_key")
        assert.strictEqual(request.headers.get("access-passphrase"), "phrase")
        assert.strictEqual(
          request.headers.get("access-sign"),
          createHmac("sha256", "hmac-secret").update(prehashOf(request)).digest("base64")
        )
      }
      assert.strictEqual(importKey.mock.calls.length, 1)
    }).pipe(Effect.provide(layer))
  })

  // An RSA key is imported on its first use only: `KeyFormat` imports the PEM once to read it, and the
  // `Signature` service once more, non-extractable, to sign with it.
  it.effect("signs with RSA (PKCS#8 and PKCS#1 PEM), verifiable as SHA256withRSA, each key imported on first use", () => {
    const importKey = vi.spyOn(crypto.subtle, "importKey")
    const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 })
    return Effect.forEach(["pkcs8", "pkcs1"] as const, (type) => {
      const privateKeyPem = privateKey.export({ type, format: "pem" }).toString()
      const { layer, sent } = recording({
        credentials: Credentials.rsa({ apiKey: "bg_rsa", privateKeyPem, passphrase: "p" })
      })
      return Effect.gen(function*() {
        yield* TradeRates.tradeRates({ businessType: "spot" })
        const imports = importKey.mock.calls.length
        yield* TradeRates.tradeRates({ businessType: "mix", symbol: "ETHUSDT" })
        assert.strictEqual(importKey.mock.calls.length, imports, `${type} imported again`)
        for (const request of sent) {
          const signature = Buffer.from(request.headers.get("access-sign") ?? "", "base64")
          assert.isTrue(verify("sha256", Buffer.from(prehashOf(request)), publicKey, signature), type)
        }
      }).pipe(Effect.provide(layer))
    }).pipe(Effect.tap(() => Effect.sync(() => assert.strictEqual(importKey.mock.calls.length, 4))))
  })

  it.effect("layerConfig reads the ConfigProvider in context (a Worker's bindings), not process.env", () => {
    const sent: Array<Headers> = []
    const fetch: typeof globalThis.fetch = (_, init) => {
      sent.push(new Headers(init?.headers))
      return Promise.resolve(Response.json({ code: "00000", msg: "success", requestTime: 1, data: [] }))
    }
    const bindings = {
      SUB_API_KEY: "bg_bound",
      SUB_API_SECRET: "bound-secret",
      SUB_API_PASSPHRASE: "bound-phrase",
      SUB_BASE_URL: "https://api.example.test",
      SUB_RATE_LIMIT: "false"
    }
    return Effect.gen(function*() {
      yield* TradeRates.tradeRates({ businessType: "spot" }).pipe(
        Effect.provide(BitgetFetch.layerConfig("SUB").pipe(Layer.provide(Layer.succeed(FetchHttpClient.Fetch, fetch)))),
        Effect.provideService(ConfigProvider.ConfigProvider, ConfigProvider.fromEnvRecord(bindings))
      )
      assert.strictEqual(sent[0]?.get("access-key"), "bg_bound")
      const missing = yield* Effect.flip(
        Symbols.symbols().pipe(
          Effect.provide(BitgetFetch.layerConfig("SUB")),
          Effect.provideService(
            ConfigProvider.ConfigProvider,
            ConfigProvider.fromEnvRecord({ SUB_API_KEY: "bg_bound" })
          )
        )
      )
      assert.strictEqual(missing._tag, "ConfigError")
      assert.include(String(missing), "SUB_API_PASSPHRASE")
    })
  })

  it.effect("a layer provided inside another, over another fetch, sends with its own", () => {
    const outer = recording({})
    const inner = recording({})
    return Effect.gen(function*() {
      yield* Symbols.symbols()
      yield* Symbols.symbols().pipe(Effect.provide(inner.layer))
      yield* Symbols.symbols()
      assert.deepStrictEqual([outer.sent.length, inner.sent.length], [2, 1])
    }).pipe(Effect.provide(outer.layer))
  })

  it("loads nothing of Node's: every module it imports, transitively, is core's own or effect's, without node: or process", () => {
    const src = join(dirname(fileURLToPath(import.meta.url)), "../src")
    const builtins = new Set(builtinModules)
    const nodeGlobals = new Set(["process", "Buffer", "require", "__dirname", "__filename"])
    // the one function StrykerJS puts atop each file it mutates (`npx -y pnpm@10 mutation`), which reads
    // `process.env` if there is one; no source of ours declares it
    const isStrykerHeader = (node: ts.Node): boolean =>
      ts.isFunctionDeclaration(node) && /^stryNS_[0-9a-f]+$/.test(node.name?.text ?? "")
    const seen = new Set<string>()
    const visit = (file: string): void => {
      if (seen.has(file)) return
      seen.add(file)
      const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.ES2022, true)
      const walk = (node: ts.Node): void => {
        if (isStrykerHeader(node)) return
        if (ts.isIdentifier(node) && nodeGlobals.has(node.text)) assert.fail(`${file} uses ${node.text}`)
        if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier !== undefined) {
          const specifier = ts.isStringLiteral(node.moduleSpecifier) ? node.moduleSpecifier.text : ""
          assert.isFalse(specifier.startsWith("node:") || builtins.has(specifier), `${file} imports ${specifier}`)
          if (specifier.startsWith(".")) visit(join(dirname(file), specifier.replace(/\.js$/, ".ts")))
          else assert.match(specifier, /^effect(\/|$)/, `${file} imports ${specifier}`)
        }
        ts.forEachChild(node, walk)
      }
      walk(source)
    }
    visit(join(src, "BitgetFetch.ts"))
    for (const module of ["BitgetClient", "HttpTransport", "WebCryptoSigner", "internal/transport"]) {
      assert.isTrue(seen.has(join(src, `${module}.ts`)), module)
    }
  })
})
