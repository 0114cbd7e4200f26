/**
 * A hostile exchange for the fuzz run: a `node:http` server on 127.0.0.1 (a
 * free port) that answers every request with a seeded, random choice among
 * valid answers, error envelopes (also inside HTTP 200), random statuses,
 * broken bodies (not JSON, HTML, truncated, empty, several MB, 100k deep,
 * huge decimals), slow drips, resets, delays, and echoes of the request's
 * headers (credentials included) in the body, the message and the response
 * headers, in every spelling a secret may be echoed in (`spellings`: raw,
 * JSON-escaped, `\uXXXX`, URL- and form-encoded; a signature also without
 * its base64 padding).
 *
 * The answer to a request depends only on the seed, the call it belongs to
 * (the tag `FZ<call>` the driver puts in a parameter) and its attempt number
 * within the call, so one call can be replayed alone (`FUZZ_ONLY`). Server
 * time requests carry no tag: they are answered from their own sequence.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo, Socket } from "node:net"
import { secretSpellings, spellingCount, spellings } from "../../core/test/spellings.js"

// ---------------------------------------------------------------------------
// A tiny deterministic PRNG
// ---------------------------------------------------------------------------

/** mulberry32: 32 bits of state, uniform in [0, 1). */
export const mulberry32 = (seed: number): () => number => {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296
  }
}

/** Mixes numbers into one 32-bit seed (FNV-1a over the words, then a final avalanche). */
export const mix = (...parts: ReadonlyArray<number>): number => {
  let h = 0x811c9dc5
  for (const part of parts) {
    h = Math.imul(h ^ (part >>> 0), 0x01000193)
    h = Math.imul(h ^ (Math.floor(part / 4_294_967_296) >>> 0), 0x01000193)
  }
  h ^= h >>> 16
  h = Math.imul(h, 0x85ebca6b)
  h ^= h >>> 13
  h = Math.imul(h, 0xc2b2ae35)
  return (h ^ (h >>> 16)) >>> 0
}

/** Random choices from a seeded stream. */
export class Rng {
  private readonly next: () => number
  constructor(seed: number) {
    this.next = mulberry32(seed)
  }
  float(): number {
    return this.next()
  }
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1))
  }
  chance(p: number): boolean {
    return this.next() < p
  }
  pick<A>(items: ReadonlyArray<A>): A {
    return items[Math.floor(this.next() * items.length)] as A
  }
  weighted<A>(entries: ReadonlyArray<readonly [A, number]>): A {
    const total = entries.reduce((sum, [, weight]) => sum + weight, 0)
    let roll = this.next() * total
    for (const [value, weight] of entries) {
      roll -= weight
      if (roll < 0) return value
    }
    return (entries[entries.length - 1] as readonly [A, number])[0]
  }
  /** A fresh 32-bit seed for another generator. */
  seed(): number {
    return Math.floor(this.next() * 4_294_967_296) >>> 0
  }
}

// ---------------------------------------------------------------------------
// Answers
// ---------------------------------------------------------------------------

/** How an answer is delivered. */
type Delivery =
  | { readonly _tag: "Normal" }
  | { readonly _tag: "Delay"; readonly millis: number }
  /** Headers, then the body a byte at a time every `every` ms, until `holdMillis` or the client leaves. */
  | { readonly _tag: "Drip"; readonly every: number; readonly holdMillis: number }
  /** Headers announcing the whole body, half of it, then the socket destroyed. */
  | { readonly _tag: "ResetMidBody" }
  /** The socket destroyed before anything is written. */
  | { readonly _tag: "Destroy" }

/** One planned answer. */
interface Plan {
  readonly kind: string
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  readonly body: string
  readonly delivery: Delivery
  /** Oversized: counts whether the client read it all. */
  readonly oversized?: boolean
}

/** A request as the server saw it. */
export interface Seen {
  readonly call: number
  readonly attempt: number
  readonly method: string
  readonly path: string
  readonly kind: string
  readonly signature: string | undefined
}

/** The server's options. */
export interface Options {
  readonly seed: number
  /** A valid `data` for a path (a generated value of the endpoint's response schema). */
  readonly validData: (path: string, seed: number) => unknown
  /** Size of the oversized answers, bytes (several MB). */
  readonly oversizedBytes?: number
  /** How long a slow drip is held at most (the call's deadline and some), ms. */
  readonly dripHoldMillis?: number
}

/** A running hostile server. */
export interface Hostile {
  readonly url: string
  /** Every request, in arrival order. */
  readonly seen: ReadonlyArray<Seen>
  /** Every `ACCESS-SIGN` the server received. */
  readonly signatures: ReadonlySet<string>
  /** Answer kinds by count. */
  readonly kinds: ReadonlyMap<string, number>
  /** Oversized answers, and how many of them the client read to the end. */
  readonly oversized: { readonly sent: number; readonly readToEnd: number }
  /**
   * Time the server spent building and writing the answers of each call, ms (its synchronous work: planning,
   * encoding and handing the bodies to the socket), on the same event loop as the client's.
   */
  readonly serverMillis: ReadonlyMap<number, number>
  /** Connections currently open. */
  readonly openConnections: () => number
  /** Forgets the attempts of a call, so that replaying it meets the same answers. */
  readonly replay: (call: number) => void
  /** Stops the server, destroying any connection still open. */
  readonly close: () => Promise<void>
}

const errorCodes: ReadonlyArray<readonly [string | number, number]> = [
  ["40008", 3],
  ["43001", 3],
  ["429", 2],
  ["40015", 2],
  ["45001", 1],
  ["40009", 2],
  ["40014", 1],
  ["40034", 1],
  ["00000", 1],
  ["", 1],
  ["0", 1],
  ["99999", 1],
  [40001, 1],
  [0, 1],
  [1.5, 1],
  ["४००१", 1]
]

const statuses = [200, 400, 401, 403, 404, 429, 500, 502, 503] as const

const retryAfters: ReadonlyArray<readonly [string | undefined, number]> = [
  [undefined, 6],
  ["0", 2],
  ["1", 1],
  ["-1", 1],
  ["abc", 1],
  ["0.05", 1],
  ["Wed, 21 Oct 2015 07:28:00 GMT", 1],
  ["", 1]
]

/** Retry-After values that ask for an absurd wait. */
const hostileRetryAfters = ["99999999", "86400", "Fri, 31 Dec 9999 23:59:59 GMT"]

const html = (status: number, extra = "") =>
  [
    "<html>",
    `<head><title>${status} Bad Gateway</title></head>`,
    "<body>",
    `<center><h1>${status} Bad Gateway</h1></center>`,
    extra,
    "<hr><center>nginx</center>",
    "</body>",
    "</html>",
    ""
  ].join("\r\n")

// the spellings a server echoes a secret in: one list for core's tests and these
export { secretSpellings, spellingCount, spellings }

/** The name of spelling `k` of a signature (`unpadded-…` past the padded ones), as the echo kinds are named. */
export const spellingName = (k: number): string =>
  (secretSpellings("c2lnbmF0dXJl/+c=")[k % spellingCount] as readonly [string, string])[0]

const hugeDecimals = ["1e999999999", "-1e999999999", "1e-999999999", "9".repeat(200_000), "NaN", "Infinity"]

/** Replaces string leaves of a JSON value (a copy), each with probability `p`. */
const replaceLeaves = (value: unknown, rng: Rng, p: number, replace: (leaf: string) => unknown): unknown => {
  if (typeof value === "string") return rng.chance(p) ? replace(value) : value
  if (Array.isArray(value)) return value.map((item) => replaceLeaves(item, rng, p, replace))
  if (typeof value === "object" && value !== null) {
    const out: Record<string, unknown> = {}
    for (const [key, item] of Object.entries(value)) out[key] = replaceLeaves(item, rng, p, replace)
    return out
  }
  return value
}

/** A random JSON value of bounded size. */
const randomJson = (rng: Rng, depth = 0): unknown => {
  const kind = rng.int(0, depth > 3 ? 4 : 6)
  switch (kind) {
    case 0:
      return null
    case 1:
      return rng.chance(0.5)
    case 2:
      return rng.pick([0, -1, 1.5, 1e308, -1e-308, 2 ** 53 + 1, 42])
    case 3:
      return rng.pick(["", " ", "abc", "00000", "1e999999999", "\u0000", "\uD800", "null", "[]", "{}", "✓"])
    case 4:
      return String(rng.int(0, 1e9))
    case 5:
      return Array.from({ length: rng.int(0, 4) }, () => randomJson(rng, depth + 1))
    default: {
      const out: Record<string, unknown> = {}
      for (let i = rng.int(0, 4); i > 0; i--) {
        out[rng.pick(["data", "code", "a", "b", "orderId", "symbol", "ts", "list", "__proto__", "constructor"])] =
          randomJson(rng, depth + 1)
      }
      return out
    }
  }
}

const envelopeText = (code: unknown, msg: unknown, requestTime: unknown, data: string): string =>
  `{"code":${JSON.stringify(code)},"msg":${JSON.stringify(msg)},"requestTime":${
    JSON.stringify(requestTime)
  },"data":${data}}`

const randomRequestTime = (rng: Rng): unknown =>
  rng.weighted<unknown>([
    [Date.now(), 6],
    [String(Date.now()), 1],
    [null, 1],
    ["abc", 1],
    [-1, 1],
    [1e300, 1],
    [[1], 1]
  ])

const json = { "content-type": "application/json" }

/** Request headers a server could echo. */
const echoable = (request: IncomingMessage): ReadonlyArray<readonly [string, string]> =>
  Object.entries(request.headers).flatMap(([name, value]) =>
    value === undefined ? [] : [[name, Array.isArray(value) ? value.join(", ") : value] as const]
  )

/** The oversized bodies, built once (building 16 MB per answer would stall the event loop the client shares). */
const oversizedBodies = new Map<string, string>()
const oversizedBody = (variant: "string" | "array", bytes: number): string => {
  const key = `${variant}:${bytes}`
  let body = oversizedBodies.get(key)
  if (body === undefined) {
    const data = variant === "string" ? JSON.stringify("O".repeat(bytes)) : `[${"1,".repeat(1_500_000)}1]`
    body = envelopeText("00000", "success", 1_700_000_000_000, data)
    oversizedBodies.set(key, body)
  }
  return body
}

/** Plans the answer to one request. */
const plan = (
  rng: Rng,
  options: Required<Omit<Options, "validData">> & Pick<Options, "validData">,
  request: IncomingMessage,
  path: string
): Plan => {
  const valid = () => options.validData(path, rng.seed())
  const success = (data: string, extraHeaders: Record<string, string> = {}) => ({
    status: 200,
    headers: { ...json, ...extraHeaders },
    body: envelopeText("00000", "success", randomRequestTime(rng), data),
    delivery: { _tag: "Normal" } as const
  })
  const family = rng.weighted<string>([
    ["valid", 30],
    ["valid-delayed", 4],
    ["status", 14],
    ["data", 14],
    ["error200", 8],
    ["batch-top-error", path.includes("batch-cancel") ? 6 : 0],
    ["paging", pagedPaths.has(path) ? 10 : 0],
    ["broken-body", 6],
    ["oversized", 0.6],
    ["drip", 0.8],
    ["reset-mid-body", 2.5],
    ["destroy", 1.5],
    ["echo", 12],
    ["regex-bomb", 0.15],
    ["digit-flood", 0.1],
    ["retry-after-huge", 0.15]
  ])
  switch (family) {
    case "valid":
      return { kind: "valid", ...success(JSON.stringify(valid())) }
    case "valid-delayed":
      return {
        kind: "valid-delayed",
        ...success(JSON.stringify(valid())),
        delivery: { _tag: "Delay", millis: rng.int(0, 150) }
      }
    case "status": {
      const status = rng.pick(statuses)
      const bodyKind = rng.pick(["error-envelope", "success-envelope", "html", "text", "empty", "truncated"] as const)
      const retryAfter = rng.weighted(retryAfters)
      const headers: Record<string, string> = bodyKind === "html"
        ? { "content-type": "text/html" }
        : bodyKind === "text"
        ? { "content-type": "text/plain" }
        : { ...json }
      if (retryAfter !== undefined) headers["retry-after"] = retryAfter
      const envelope = bodyKind === "error-envelope"
        ? envelopeText(rng.weighted(errorCodes), "error", randomRequestTime(rng), "null")
        : envelopeText("00000", "success", Date.now(), JSON.stringify(valid()))
      const body = bodyKind === "html"
        ? html(status)
        : bodyKind === "text"
        ? "Service Unavailable"
        : bodyKind === "empty"
        ? ""
        : bodyKind === "truncated"
        ? envelope.slice(0, Math.max(1, Math.floor(envelope.length * rng.float())))
        : envelope
      return {
        kind: `status:${status}/${bodyKind}${retryAfter === undefined ? "" : "+retry-after"}`,
        status,
        headers,
        body,
        delivery: { _tag: "Normal" }
      }
    }
    case "data": {
      const variant = rng.pick(
        [
          "random-json",
          "wrong-types",
          "deep-array",
          "deep-object",
          "long-string",
          "huge-decimals",
          "numbers-as-decimals",
          "huge-json-numbers",
          "null",
          "missing"
        ] as const
      )
      const depth = 100_000
      const data = variant === "random-json"
        ? JSON.stringify(randomJson(rng))
        : variant === "wrong-types"
        ? JSON.stringify(replaceLeaves(valid(), rng, 0.3, () => randomJson(rng, 3)))
        : variant === "deep-array"
        ? "[".repeat(depth) + "]".repeat(depth)
        : variant === "deep-object"
        ? "{\"a\":".repeat(depth) + "{}" + "}".repeat(depth)
        : variant === "long-string"
        ? JSON.stringify(replaceLeaves(valid(), rng, 0.3, () => "L".repeat(rng.int(10_000, 1_000_000))))
        : variant === "huge-decimals"
        ? JSON.stringify(replaceLeaves(valid(), rng, 0.5, (leaf) => /^-?\d/.test(leaf) ? rng.pick(hugeDecimals) : leaf))
        : variant === "numbers-as-decimals"
        ? JSON.stringify(
          replaceLeaves(valid(), rng, 0.8, (leaf) => (/^-?\d+(\.\d+)?$/.test(leaf) ? Number(leaf) : leaf))
        )
        : variant === "huge-json-numbers"
        ? JSON.stringify(replaceLeaves(valid(), rng, 0.5, (leaf) => /^-?\d/.test(leaf) ? "@@HUGE@@" : leaf))
          .replaceAll("\"@@HUGE@@\"", rng.pick(["1e999999999", "123456789012345678901234567890", "-0", "1E+400"]))
        : variant === "null"
        ? "null"
        : ""
      return {
        kind: `data:${variant}`,
        status: 200,
        headers: json,
        body: variant === "missing"
          ? `{"code":"00000","msg":"success","requestTime":${Date.now()}}`
          : envelopeText("00000", "success", Date.now(), data),
        delivery: { _tag: "Normal" }
      }
    }
    case "error200":
    case "batch-top-error": {
      const code = family === "batch-top-error"
        ? rng.pick(["43001", "40912", "45001", "40009"])
        : rng.weighted(errorCodes)
      const retryAfter = rng.weighted(retryAfters)
      return {
        kind: `${family}:${String(code)}`,
        status: rng.chance(0.8) ? 200 : rng.pick([400, 429]),
        headers: retryAfter === undefined ? json : { ...json, "retry-after": retryAfter },
        body: envelopeText(code, rng.pick(["The order does not exist", "error", "", "签名错误"]), Date.now(), "null"),
        delivery: { _tag: "Normal" }
      }
    }
    case "broken-body": {
      const variant = rng.pick(["not-json", "html", "truncated", "empty", "json-not-envelope", "bom"] as const)
      const valid200 = envelopeText("00000", "success", Date.now(), JSON.stringify(valid()))
      const body = variant === "not-json"
        ? "ok"
        : variant === "html"
        ? html(200)
        : variant === "truncated"
        ? valid200.slice(0, Math.max(1, Math.floor(valid200.length / 2)))
        : variant === "empty"
        ? ""
        : variant === "json-not-envelope"
        ? JSON.stringify(randomJson(rng))
        : `\ufeff${valid200}`
      return {
        kind: `broken:${variant}`,
        status: rng.pick([200, 200, 400, 500]),
        headers: variant === "html" ? { "content-type": "text/html" } : json,
        body,
        delivery: { _tag: "Normal" }
      }
    }
    case "oversized": {
      // a long string (counted: is it read to the end?) or a long array (what decoding and describing it cost)
      const variant = rng.pick(["string", "array"] as const)
      return {
        kind: `oversized:${variant}`,
        status: 200,
        headers: json,
        body: oversizedBody(variant, options.oversizedBytes),
        delivery: { _tag: "Normal" },
        ...(variant === "string" ? { oversized: true } : {})
      }
    }
    case "paging": {
      const { data, scheme } = page(rng, valid, new URLSearchParams((request.url ?? "").split("?")[1] ?? ""))
      return { kind: `paging:${scheme}`, ...success(JSON.stringify(data)) }
    }
    case "drip":
      return {
        kind: "drip",
        ...success(JSON.stringify(valid())),
        delivery: { _tag: "Drip", every: 40, holdMillis: options.dripHoldMillis }
      }
    case "reset-mid-body":
      return { kind: "reset-mid-body", ...success(JSON.stringify(valid())), delivery: { _tag: "ResetMidBody" } }
    case "destroy":
      return { kind: "destroy", ...success("null"), delivery: { _tag: "Destroy" } }
    case "regex-bomb":
      // what the client's excerpt mask backtracks on: a quote and "sign" repeated, never closed
      return {
        kind: "regex-bomb",
        status: rng.pick([200, 502]),
        headers: { "content-type": "text/plain" },
        body: `"${"sign".repeat(16_384)}`,
        delivery: { _tag: "Normal" }
      }
    case "digit-flood": {
      // a decimal of a million digits: under a 1 MiB cap, but costly to parse
      let flooded = false
      const data = replaceLeaves(valid(), rng, 1, (leaf) => {
        if (flooded || !/^-?\d/.test(leaf)) return leaf
        flooded = true
        return "7".repeat(1_000_000)
      })
      return { kind: `digit-flood${flooded ? "" : ":none"}`, ...success(JSON.stringify(data)) }
    }
    case "retry-after-huge": {
      const retryAfter = rng.pick(hostileRetryAfters)
      return {
        kind: `retry-after-huge:${retryAfter}`,
        status: 429,
        headers: { ...json, "retry-after": retryAfter },
        body: envelopeText("429", "Too Many Requests", Date.now(), "null"),
        delivery: { _tag: "Normal" }
      }
    }
    default: {
      // echo: every request header, in one of its spellings (the same for all), somewhere the client may quote it
      const spelling = rng.int(0, spellingCount - 1)
      const headers = echoable(request)
      const spelled = headers.map(([name, value]) => {
        const all = secretSpellings(value)
        return [name, (all[spelling % all.length] as readonly [string, string])[1]] as const
      })
      const text = spelled.map(([name, value]) => `${name}=${value}`).join("; ")
      const placement = rng.pick(
        [
          "msg",
          "msg-200",
          "data",
          "data-fields",
          "non-json",
          "html",
          "json-not-envelope",
          "response-headers",
          "retry-after",
          "truncated"
        ] as const
      )
      const echoHeaders: Record<string, string> = {}
      if (placement === "response-headers" || placement === "retry-after") {
        spelled.forEach(([name, value]) => {
          if (/^[\t\x20-\x7e]*$/.test(value)) echoHeaders[`x-echo-${name}`] = value
        })
      }
      const sign = spelled.find(([name]) => name === "access-sign")?.[1] ?? "none"
      const body = ((): { readonly status: number; readonly body: string; readonly type: string } => {
        switch (placement) {
          case "msg":
            return {
              status: rng.pick([400, 401, 403]),
              body: envelopeText("40009", text, Date.now(), "null"),
              type: "json"
            }
          case "msg-200":
            return { status: 200, body: envelopeText("40012", `bad: ${text}`, Date.now(), "null"), type: "json" }
          case "data":
            return {
              status: 200,
              body: envelopeText("00000", "success", Date.now(), JSON.stringify(Object.fromEntries(spelled))),
              type: "json"
            }
          case "data-fields":
            return {
              status: 200,
              body: envelopeText(
                "00000",
                "success",
                Date.now(),
                JSON.stringify(replaceLeaves(valid(), rng, 0.5, () => rng.pick(spelled)[1]))
              ),
              type: "json"
            }
          case "non-json":
            return { status: rng.pick([200, 400, 500, 502]), body: `denied: ${text}`, type: "text/plain" }
          case "html":
            return { status: rng.pick([403, 502, 503]), body: html(502, `<pre>${text}</pre>`), type: "text/html" }
          case "json-not-envelope":
            return {
              status: rng.pick([200, 500]),
              body: JSON.stringify({ error: text, detail: spelled.map(([, value]) => value) }),
              type: "json"
            }
          case "retry-after":
            return {
              status: 429,
              body: envelopeText("429", `slow down ${text}`, Date.now(), "null"),
              type: "json"
            }
          case "truncated": {
            const full = envelopeText("40009", text, Date.now(), "null")
            return { status: 400, body: full.slice(0, Math.floor(full.length * 0.8)), type: "json" }
          }
          default:
            return {
              status: rng.pick([200, 400]),
              body: envelopeText("40009", "sign error", Date.now(), "null"),
              type: "json"
            }
        }
      })()
      if (placement === "retry-after" && /^[\t\x20-\x7e]*$/.test(sign)) echoHeaders["retry-after"] = sign
      return {
        kind: `echo:${placement}/${spellingName(spelling)}`,
        status: body.status,
        headers: { "content-type": body.type === "json" ? "application/json" : body.type, ...echoHeaders },
        body: body.body,
        delivery: { _tag: "Normal" }
      }
    }
  }
}

const callTag = /FZ(\d+)/

/** The paths the streams walk page by page. */
const pagedPaths = new Set(["/api/v2/tax/spot-record", "/api/v2/p2p/orderList", "/api/v2/mix/order/orders-history"])

/** The list of a page: the data itself, or its first array-valued field. */
const listOf = (data: unknown): Array<unknown> | undefined => {
  if (Array.isArray(data)) return data
  if (typeof data !== "object" || data === null) return undefined
  return Object.values(data).find((value): value is Array<unknown> => Array.isArray(value))
}

/**
 * A full page (as many records as the request's `limit`) whose ids and cursor
 * follow a scheme: descending from the request's cursor, all the same,
 * ascending, not numeric, 40 digits, or empty; the cursor field (`minOrderId`,
 * `endId`) moves, stays, or is garbage.
 */
const page = (
  rng: Rng,
  valid: () => unknown,
  query: URLSearchParams
): { readonly scheme: string; readonly data: unknown } => {
  const limit = Math.max(1, Math.min(Number(query.get("limit") ?? "5") || 5, 100))
  let data = valid()
  for (let tries = 0; tries < 8 && (listOf(data)?.length ?? 0) === 0; tries++) data = valid()
  const list = listOf(data)
  const template = list?.[0]
  if (list === undefined || template === undefined) return { scheme: "empty", data }
  const items = Array.from({ length: limit }, (_, k) => JSON.parse(JSON.stringify(list[k % list.length])) as unknown)
  list.splice(0, list.length, ...items)
  const previous = query.get("idLessThan")
  const base = previous !== null && /^\d{1,30}$/.test(previous)
    ? BigInt(previous)
    : BigInt(rng.int(1_000_000, 1_000_000_000)) * 1_000_000_000n
  const scheme = rng.pick(["descending", "same", "ascending", "non-numeric", "huge", "empty"] as const)
  const ids = items.map((_, k) =>
    scheme === "descending"
      ? String(base - BigInt(k + 1))
      : scheme === "same"
      ? String(base)
      : scheme === "ascending"
      ? String(base + BigInt(k + 1))
      : scheme === "non-numeric"
      ? `ord-${k}`
      : scheme === "huge"
      ? `${"9".repeat(40)}${k}`
      : ""
  )
  items.forEach((item, k) => {
    if (typeof item === "object" && item !== null) {
      const record = item as Record<string, unknown>
      record["id" in record ? "id" : "orderId"] = ids[k]
    }
  })
  if (!Array.isArray(data) && typeof data === "object" && data !== null) {
    const record = data as Record<string, unknown>
    const cursor = rng.pick([ids[ids.length - 1], "abc", "", null, previous ?? ids[0], "9".repeat(40), "-1"])
    if ("minOrderId" in record) record.minOrderId = cursor
    if ("endId" in record) record.endId = cursor
  }
  return { scheme, data }
}

/** Starts a hostile server on 127.0.0.1 (a free port). */
export const start = (input: Options): Promise<Hostile> => {
  const options = { oversizedBytes: 16 * 1024 * 1024, dripHoldMillis: 1_000, ...input }
  const seen: Array<Seen> = []
  const signatures = new Set<string>()
  const kinds = new Map<string, number>()
  const attempts = new Map<number, number>()
  const oversized = { sent: 0, readToEnd: 0 }
  const serverMillis = new Map<number, number>()
  const sockets = new Set<Socket>()
  let untagged = 0

  /** Runs some of the server's synchronous work for a call (untagged: -1), counting its time in `serverMillis`. */
  const work = <A>(call: number, f: () => A): A => {
    const started = performance.now()
    try {
      return f()
    } finally {
      if (call >= 0) serverMillis.set(call, (serverMillis.get(call) ?? 0) + performance.now() - started)
    }
  }

  const deliver = (request: IncomingMessage, response: ServerResponse, answer: Plan, call: number) => {
    let gone = false
    response.on("close", () => {
      gone = true
    })
    response.on("error", () => {})
    const socket = request.socket
    const writeAll = () => {
      if (gone) return
      if (answer.oversized === true) {
        // chunked, with backpressure: the whole body goes out only if the client keeps reading it
        oversized.sent++
        response.on("finish", () => {
          oversized.readToEnd++
        })
        response.writeHead(answer.status, answer.headers)
        let offset = 0
        const pump = () => {
          while (!gone && offset < answer.body.length) {
            const chunk = answer.body.slice(offset, offset + 65_536)
            offset += chunk.length
            if (!response.write(chunk)) return void response.once("drain", pump)
          }
          if (!gone) response.end()
        }
        return pump()
      }
      response.writeHead(answer.status, { ...answer.headers, "content-length": Buffer.byteLength(answer.body) })
      response.end(answer.body)
    }
    switch (answer.delivery._tag) {
      case "Normal":
        return writeAll()
      case "Delay": {
        const timer = setTimeout(() => work(call, writeAll), answer.delivery.millis)
        response.on("close", () => clearTimeout(timer))
        return
      }
      case "Destroy":
        return socket.destroy()
      case "ResetMidBody": {
        response.writeHead(answer.status, { ...answer.headers, "content-length": Buffer.byteLength(answer.body) })
        response.write(answer.body.slice(0, Math.floor(answer.body.length / 2)), () => socket.destroy())
        return
      }
      case "Drip": {
        const { every, holdMillis } = answer.delivery
        response.writeHead(answer.status, answer.headers)
        const started = Date.now()
        let offset = 0
        const timer = setInterval(() => {
          if (gone || Date.now() - started > holdMillis || offset >= answer.body.length) {
            clearInterval(timer)
            if (!gone) response.end(answer.body.slice(offset))
            return
          }
          response.write(answer.body.slice(offset, offset + 1))
          offset++
        }, every)
        response.on("close", () => clearInterval(timer))
        return
      }
    }
  }

  const server = createServer({ keepAliveTimeout: 2_000 }, (request, response) => {
    const chunks: Array<Buffer> = []
    request.on("data", (chunk: Buffer) => chunks.push(chunk))
    request.on("error", () => {})
    request.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8")
      const url = request.url ?? "/"
      const path = url.split("?")[0] ?? "/"
      const tagged = callTag.exec(`${url} ${body}`)
      const call = tagged === null ? -1 : Number(tagged[1])
      const attempt = call < 0 ? untagged++ : (attempts.get(call) ?? 0)
      if (call >= 0) attempts.set(call, attempt + 1)
      const rng = new Rng(mix(options.seed, call < 0 ? 0xffff_ffff : call, attempt))
      const signature = request.headers["access-sign"]
      if (typeof signature === "string") signatures.add(signature)
      const answer: Plan = work(call, () =>
        path === "/api/v2/public/time" && rng.chance(0.7)
          ? {
            kind: "time",
            status: 200,
            headers: json,
            body: envelopeText("00000", "success", Date.now(), JSON.stringify({ serverTime: String(Date.now()) })),
            delivery: { _tag: "Normal" }
          }
          : plan(rng, options, request, path))
      seen.push({
        call,
        attempt,
        method: request.method ?? "GET",
        path,
        kind: answer.kind,
        signature: typeof signature === "string" ? signature : undefined
      })
      kinds.set(answer.kind, (kinds.get(answer.kind) ?? 0) + 1)
      work(call, () => deliver(request, response, answer, call))
    })
  })
  server.on("connection", (socket) => {
    sockets.add(socket)
    socket.on("error", () => {})
    socket.on("close", () => sockets.delete(socket))
  })
  server.on("clientError", (_error, socket) => socket.destroy())

  return new Promise((resolve, reject) => {
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo
      resolve({
        url: `http://127.0.0.1:${port}`,
        seen,
        signatures,
        kinds,
        oversized,
        serverMillis,
        openConnections: () => sockets.size,
        replay: (call) => {
          attempts.delete(call)
        },
        close: () =>
          new Promise<void>((done) => {
            for (const socket of sockets) socket.destroy()
            server.close(() => done())
          })
      })
    })
  })
}
