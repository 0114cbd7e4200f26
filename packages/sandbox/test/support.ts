/**
 * Test support: plain `fetch` against a running sandbox, with request signing
 * written here with node:crypto (independently of the server's code).
 */
import { Effect } from "effect"
import { createHmac, sign } from "node:crypto"
import type { DemoKey } from "../src/DemoKey.js"
import type { Sandbox } from "../src/Sandbox.js"

/** An answer as the client saw it. */
export interface Reply {
  readonly status: number
  readonly headers: Headers
  readonly text: string
  /** The parsed body, or `undefined` when it is not JSON. */
  readonly json: Envelope | undefined
}

/** The envelope fields the tests read. */
export interface Envelope {
  readonly code: string
  readonly msg: string
  readonly requestTime: number
  readonly data: unknown
}

/** Sends a request; a transport failure fails the effect with the thrown error. */
export const send = (url: string, init: RequestInit = {}): Effect.Effect<Reply, unknown> =>
  Effect.tryPromise({
    try: async () => {
      const response = await fetch(url, init)
      const text = await response.text()
      let json: Envelope | undefined
      try {
        json = JSON.parse(text) as Envelope
      } catch {
        json = undefined
      }
      return { status: response.status, headers: response.headers, text, json }
    },
    catch: (error) => error
  })

/** The signature of a message under a demo key (base64 HMAC-SHA256 or SHA256withRSA). */
export const signature = (key: DemoKey, message: string): string =>
  key._tag === "Hmac"
    ? createHmac("sha256", key.secret).update(message).digest("base64")
    : sign("sha256", Buffer.from(message), key.privateKeyPem).toString("base64")

/** Query parameters in the order they are sent. */
export type Params = ReadonlyArray<readonly [string, string]>

/** The query as sent (percent-encoded) and as a correct client signs it (raw values). */
export const query = (params: Params) => ({
  sent: params.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join("&"),
  raw: params.map(([k, v]) => `${k}=${v}`).join("&")
})

/** Options of a signed call; each lets a test break one part of the request. */
export interface SignOptions {
  readonly timestamp?: string
  readonly passphrase?: string
  readonly apiKey?: string
  /** Sign this text as the query instead of the raw values. */
  readonly signedQuery?: string
  /** Header names to leave out. */
  readonly omit?: ReadonlyArray<string>
  readonly contentType?: string
  /** Replace the signature. */
  readonly sign?: string
}

const headersFor = (
  key: DemoKey,
  method: string,
  path: string,
  signedQuery: string,
  body: string,
  options: SignOptions
): Record<string, string> => {
  const timestamp = options.timestamp ?? String(Date.now())
  const prehash = `${timestamp}${method}${path}${signedQuery === "" ? "" : `?${signedQuery}`}${body}`
  const headers: Record<string, string> = {
    "ACCESS-KEY": options.apiKey ?? key.apiKey,
    "ACCESS-SIGN": options.sign ?? signature(key, prehash),
    "ACCESS-PASSPHRASE": options.passphrase ?? key.passphrase,
    "ACCESS-TIMESTAMP": timestamp,
    "Content-Type": options.contentType ?? "application/json",
    "locale": "en-US"
  }
  for (const name of options.omit ?? []) delete headers[name]
  return headers
}

/** A signed GET. */
export const signedGet = (
  sandbox: Sandbox.Service,
  key: DemoKey,
  path: string,
  params: Params = [],
  options: SignOptions = {}
): Effect.Effect<Reply, unknown> => {
  const q = query(params)
  const headers = headersFor(key, "GET", path, options.signedQuery ?? q.raw, "", options)
  return send(`${sandbox.url}${path}${q.sent === "" ? "" : `?${q.sent}`}`, { headers })
}

/** A signed POST of a JSON body. */
export const signedPost = (
  sandbox: Sandbox.Service,
  key: DemoKey,
  path: string,
  body: unknown,
  options: SignOptions = {}
): Effect.Effect<Reply, unknown> => {
  const text = JSON.stringify(body)
  const headers = headersFor(key, "POST", path, "", text, options)
  return send(`${sandbox.url}${path}`, { method: "POST", headers, body: text })
}

/** A public GET. */
export const publicGet = (
  sandbox: Sandbox.Service,
  path: string,
  params: Params = [],
  headers: Record<string, string> = {}
): Effect.Effect<Reply, unknown> => {
  const q = query(params)
  return send(`${sandbox.url}${path}${q.sent === "" ? "" : `?${q.sent}`}`, { headers })
}

/** The `data` of a reply, typed by the caller. */
export const data = <A>(reply: Reply): A => reply.json?.data as A

/** The code of a reply (`undefined` when the body is not JSON). */
export const code = (reply: Reply): string | undefined => reply.json?.code

/** Paths of the routes used in tests. */
export const paths = {
  time: "/api/v2/public/time",
  batchCancel: "/api/v2/spot/trade/batch-cancel-order",
  symbols: "/api/v2/spot/public/symbols",
  p2p: "/api/v2/p2p/orderList",
  tpsl: "/api/v2/mix/order/place-pos-tpsl",
  tradeRate: "/api/v2/common/all-trade-rate",
  netFlow: "/api/v2/spot/market/fund-net-flow",
  tax: "/api/v2/tax/spot-record",
  openInterest: "/api/v3/account/open-interest-limit",
  rpi: "/api/v3/market/rpi-orderbook",
  futures: "/api/v2/mix/order/orders-history"
} as const

/** Milliseconds in a day (the sandbox's own constant). */
export { DAY } from "../src/internal/data/time.js"
