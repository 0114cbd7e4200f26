/**
 * Request authentication as the exchange does it: the four `ACCESS-*`
 * headers, a 30-second timestamp window, a signature over
 * `timestamp + METHOD + path + ("?" + query) + body`, where the query is taken
 * in the order sent with its values percent-decoded, and the environment: a
 * demo-trading key with `paptrading: 1`, any other key without it.
 *
 * @internal
 */
import { createHmac, createPublicKey, type KeyObject, timingSafeEqual, verify } from "node:crypto"
import type { DemoKey } from "../DemoKey.js"
import type { Code } from "../internal/route/messages.js"
import type { ApiFailure } from "../internal/route/params.js"
import { coded } from "../internal/route/params.js"
import type { SignatureCheck } from "../RequestLog.js"

const decode = (text: string): string => {
  const spaced = text.replace(/\+/g, " ")
  try {
    return decodeURIComponent(spaced)
  } catch {
    return spaced
  }
}

/** A query string split into decoded pairs, and the text the signature covers. */
export interface ParsedQuery {
  readonly pairs: ReadonlyArray<readonly [string, string]>
  /** `k=v&k=v` in the order sent, keys and values percent-decoded. */
  readonly signed: string
}

/** Parses the raw query string (without `?`). `+` decodes to a space, as form decoding does. */
export const parseQuery = (raw: string): ParsedQuery => {
  const pairs: Array<readonly [string, string]> = []
  const signed: Array<string> = []
  for (const part of raw.split("&")) {
    if (part === "") continue
    const equals = part.indexOf("=")
    const key = decode(equals < 0 ? part : part.slice(0, equals))
    const value = equals < 0 ? "" : decode(part.slice(equals + 1))
    pairs.push([key, value])
    signed.push(equals < 0 ? key : `${key}=${value}`)
  }
  return { pairs, signed: signed.join("&") }
}

/** The text a request signature covers. */
export const prehash = (options: {
  readonly timestamp: string
  readonly method: string
  readonly path: string
  readonly query: string
  readonly body: string
}): string =>
  `${options.timestamp}${options.method.toUpperCase()}${options.path}${
    options.query === "" ? "" : `?${options.query}`
  }${options.body}`

/** A key with its verification material prepared once. */
export interface Verifier {
  readonly key: DemoKey
  readonly verify: (message: string, signature: string) => boolean
}

/** Prepares the verifier of a key. */
export const verifier = (key: DemoKey): Verifier => {
  if (key._tag === "Hmac") {
    return {
      key,
      verify: (message, signature) => {
        const expected = createHmac("sha256", key.secret).update(message).digest()
        const given = Buffer.from(signature, "base64")
        return given.length === expected.length && timingSafeEqual(given, expected)
      }
    }
  }
  const publicKey: KeyObject = createPublicKey(key.publicKeyPem)
  return {
    key,
    verify: (message, signature) => {
      try {
        return verify("sha256", Buffer.from(message), publicKey, Buffer.from(signature, "base64"))
      } catch {
        return false
      }
    }
  }
}

/** The credential headers of a request (names lower-cased). */
export interface CredentialHeaders {
  readonly key: string | undefined
  readonly sign: string | undefined
  readonly passphrase: string | undefined
  readonly timestamp: string | undefined
  readonly contentType: string | undefined
  /** The `paptrading` header: `"1"` asks for the demo-trading environment. */
  readonly paptrading: string | undefined
}

/** The outcome of authentication. */
export type Outcome =
  | { readonly _tag: "Authenticated"; readonly key: DemoKey }
  | { readonly _tag: "Rejected"; readonly failure: ApiFailure; readonly signature: SignatureCheck }

const WINDOW_MILLIS = 30_000

/**
 * Authenticates a signed request. Checks, in order: key (40001), signature
 * (40002), passphrase (40011) and timestamp (40005) present; timestamp within
 * 30 s of server time (40008); key known (40006); passphrase right (40012);
 * JSON content type on POST (40007); signature valid (40009); the key's
 * environment is the one asked for, demo trading (`paptrading: 1`) for a demo
 * key and live for any other (40099, as live answers either mix-up).
 */
export const authenticate = (options: {
  readonly headers: CredentialHeaders
  readonly method: string
  readonly path: string
  readonly signedQuery: string
  readonly body: string
  readonly now: number
  readonly verifiers: ReadonlyMap<string, Verifier>
}): Outcome => {
  const { headers } = options
  const reject = (code: Code, signature: SignatureCheck = "unchecked"): Outcome => ({
    _tag: "Rejected",
    failure: coded(code),
    signature
  })
  if (headers.key === undefined || headers.key === "") return reject("40001")
  if (headers.sign === undefined || headers.sign === "") return reject("40002")
  if (headers.passphrase === undefined || headers.passphrase === "") {
    return reject("40011")
  }
  const timestamp = headers.timestamp ?? ""
  const millis = /^\d{1,16}$/.test(timestamp) ? Number(timestamp) : Number.NaN
  if (!Number.isSafeInteger(millis)) return reject("40005")
  if (Math.abs(options.now - millis) > WINDOW_MILLIS) return reject("40008")
  const found = options.verifiers.get(headers.key)
  if (found === undefined) return reject("40006")
  if (found.key.passphrase !== headers.passphrase) return reject("40012")
  if (options.method === "POST" && !(headers.contentType ?? "").toLowerCase().startsWith("application/json")) {
    return reject("40007")
  }
  const message = prehash({
    timestamp,
    method: options.method,
    path: options.path,
    query: options.signedQuery,
    body: options.body
  })
  if (!found.verify(message, headers.sign)) return reject("40009", "invalid")
  return found.key.demo === (headers.paptrading === "1")
    ? { _tag: "Authenticated", key: found.key }
    : reject("40099", "valid")
}
