/**
 * The request side of a call, as pure functions: what every request of a
 * client shares (worked out once from its configuration), the credentials a call
 * signs with, the input encoded to a query or a body, and one attempt's URL
 * and headers with the prehash to sign. The answer side is `envelope.ts`.
 *
 * @internal
 */
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Result from "effect/Result"
import type { BitgetOptions } from "../BitgetConfig.js"
import { BitgetRequestError } from "../BitgetError.js"
import * as Credentials from "../Credentials.js"
import type { Endpoint } from "../Endpoint.js"
import { label } from "../Endpoint.js"
import { encoder } from "../internal/encoder.js"
import type { Scrubber } from "../internal/redact.js"
import * as Redact from "../internal/redact.js"
import { isSendable } from "../Schemas.js"
import type { CanonicalQuery } from "../Signer.js"
import { canonicalQuery, prehash } from "../Signer.js"
import { requestError } from "./envelope.js"

/** A header value an HTTP request can carry: printable ASCII and tabs (no line break), at most 1024 characters. */
const headerValue = /^[\t\x20-\x7e]{0,1024}$/

/** The first header whose value no request can carry, by name. */
const unsendableHeader = (headers: { readonly [name: string]: string }): string | undefined =>
  Object.keys(headers).find((name) => !headerValue.test(headers[name] as string))

/** What every request of a client shares. */
export interface Frame {
  readonly baseUrl: string
  /** The headers of every request (`locale`, `paptrading`, `X-CHANNEL-API-CODE`). */
  readonly headers: { readonly [name: string]: string }
  readonly credentials: Option.Option<Credentials.Credentials>
  /** Whose rate limits a call counts against: the API key, or empty without credentials. */
  readonly identity: string
  /** Removes every secret of the credentials from text that may be shown. */
  readonly secrets: Scrubber
  /** A configured header, or else a credential header, that no request can carry. */
  readonly unsendable: { readonly always: string | undefined; readonly signed: string | undefined }
}

/** The frame of a client's requests. */
export const frame = (config: BitgetOptions): Frame => {
  const headers: Record<string, string> = { locale: config.locale }
  if (config.demoTrading) headers.paptrading = "1"
  if (Option.isSome(config.channelApiCode)) headers["X-CHANNEL-API-CODE"] = config.channelApiCode.value
  const credentials = Option.getOrUndefined(config.credentials)
  return {
    baseUrl: config.baseUrl,
    headers,
    credentials: config.credentials,
    identity: credentials === undefined ? "" : Redacted.value(credentials.apiKey),
    secrets: Redact.scrubber(credentials === undefined ? [] : Credentials.secrets(credentials).map(Redacted.value)),
    unsendable: {
      always: unsendableHeader(headers),
      signed: credentials === undefined ? undefined : unsendableHeader({
        "ACCESS-KEY": Redacted.value(credentials.apiKey),
        "ACCESS-PASSPHRASE": Redacted.value(credentials.passphrase)
      })
    }
  }
}

/**
 * The credentials a call of the endpoint signs with (none for public calls,
 * and for optional ones without credentials), or why it cannot be sent.
 */
export const credentialsFor = (
  frame: Frame,
  endpoint: Pick<Endpoint<unknown, unknown>, "auth" | "method" | "path">
): Result.Result<Credentials.Credentials | undefined, BitgetRequestError> => {
  const credentials = endpoint.auth === "public" ? undefined : Option.getOrUndefined(frame.credentials)
  if (endpoint.auth === "signed" && credentials === undefined) {
    return Result.fail(
      new BitgetRequestError({
        endpoint: label(endpoint),
        reason: "NoCredentials",
        issue: "this operation is signed and needs credentials"
      })
    )
  }
  const header = frame.unsendable.always ?? (credentials === undefined ? undefined : frame.unsendable.signed)
  return header === undefined ? Result.succeed(credentials) : Result.fail(
    new BitgetRequestError({
      endpoint: label(endpoint),
      issue: `the ${header} header would hold a line break, a character no HTTP header can carry, ` +
        "or more than 1024 characters"
    })
  )
}

/** A call's input as sent: the canonical query of a GET (both forms), the JSON body of a POST. */
export interface Prepared {
  readonly query: CanonicalQuery
  readonly body: string
}

/** What a request without input sends. */
export const empty: Prepared = { query: { signed: "", sent: "" }, body: "" }

/**
 * Encodes a call's input with the endpoint's request schema, refusing values
 * no request can carry. A request is what its own properties say: what the
 * input (or a record in it) inherits is ignored, on the fast path and
 * Schema's alike (`encoder`).
 */
export const prepare = <I, A, EI extends object, EA>(
  endpoint: Endpoint<I, A, EI, EA>,
  input: I
): Result.Result<Prepared, BitgetRequestError> => {
  const encoded = encoder(endpoint.request)(input)
  if (Result.isFailure(encoded)) return Result.fail(requestError(endpoint)(encoded.failure))
  if (endpoint.method === "POST") return Result.succeed({ query: empty.query, body: JSON.stringify(encoded.success) })
  const params: Record<string, string> = {}
  for (const [key, value] of Object.entries(encoded.success)) {
    if (typeof value !== "string") continue
    if (!isSendable(value)) {
      return Result.fail(
        new BitgetRequestError({
          endpoint: label(endpoint),
          issue: `${key}: must not hold control characters or lone surrogates`
        })
      )
    }
    params[key] = value
  }
  return Result.succeed({ query: canonicalQuery(params), body: "" })
}

/** One attempt's request, and for a signed one the prehash its `ACCESS-SIGN` header signs. */
export interface Outgoing {
  readonly url: string
  /** The headers sent, less `ACCESS-SIGN`, which is added to a copy once signed. */
  readonly headers: Readonly<Record<string, string>>
  readonly body: string | undefined
  readonly toSign: { readonly key: Credentials.SigningKey; readonly prehash: string } | undefined
}

/**
 * An attempt's request: the query sent encoded, the prehash over the raw
 * query; the credential headers and `timestamp` (the exchange's time, in ms)
 * only when there are credentials.
 */
export const outgoing = (
  frame: Frame,
  endpoint: Pick<Endpoint<unknown, unknown>, "method" | "path">,
  { body, query }: Prepared,
  credentials: Credentials.Credentials | undefined,
  timestamp: number
): Outgoing => {
  const headers: Record<string, string> = { ...frame.headers }
  if (endpoint.method === "POST" || credentials !== undefined) headers["Content-Type"] = "application/json"
  let toSign: Outgoing["toSign"]
  if (credentials !== undefined) {
    const time = String(timestamp)
    headers["ACCESS-KEY"] = Redacted.value(credentials.apiKey)
    headers["ACCESS-PASSPHRASE"] = Redacted.value(credentials.passphrase)
    headers["ACCESS-TIMESTAMP"] = time
    toSign = {
      key: credentials.signingKey,
      prehash: prehash({ timestamp: time, method: endpoint.method, path: endpoint.path, query: query.signed, body })
    }
  }
  return {
    url: `${frame.baseUrl}${endpoint.path}${query.sent === "" ? "" : `?${query.sent}`}`,
    headers,
    body: endpoint.method === "POST" ? body : undefined,
    toSign
  }
}
