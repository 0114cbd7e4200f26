import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import * as SchemaIssue from "effect/SchemaIssue"
import { BitgetApiError, BitgetDecodeError, BitgetHttpError, BitgetRequestError } from "../BitgetError.js"
import { label } from "../Endpoint.js"
import { decoder } from "../internal/decoder.js"
import type { Scrubber } from "../internal/redact.js"
import * as Redact from "../internal/redact.js"
import { Timestamp } from "../Schemas.js"

/** @internal */
export const successCode = "00000"

const Envelope = Schema.Struct({
  code: Schema.Union([Schema.String, Schema.Number.check(Schema.isInt())]),
  msg: Schema.NullOr(Schema.String).pipe(Schema.withDecodingDefault(Effect.succeed(null))),
  requestTime: Schema.optional(Schema.NullOr(Schema.Unknown)),
  data: Schema.optional(Schema.Unknown)
})

const decodeEnvelope = decoder(Envelope)
const decodeTimestamp = Schema.decodeUnknownOption(Timestamp)

const excerptLength = 240
/** The longest `code` of the exchange an error keeps (real ones have 5 digits). */
const codeLength = 64
/** The longest `msg` of the exchange an error keeps. */
const msgLength = 512
/** How much of a body is read for an excerpt (it keeps `excerptLength` of it). */
const excerptWindow = 2048
/** Keys whose values are personal or secret; their values are masked in excerpts. */
const sensitiveKey = /realname|secret|passphrase|sign|apikey|paymethodinfo/i

/** The index just past a JSON string starting at `start` (a `"`), or the end of the text. */
const stringEnd = (text: string, start: number): number => {
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] === "\\") i++
    else if (text[i] === "\"") return i + 1
  }
  return text.length
}

/** The index just past the JSON value starting at `start`: a string, a nested array or object, or a scalar. */
const valueEnd = (text: string, start: number): number => {
  if (text[start] === "\"") return stringEnd(text, start)
  let depth = 0
  for (let i = start; i < text.length; i++) {
    const char = text[i]
    if (char === "\"") i = stringEnd(text, i) - 1
    else if (char === "[" || char === "{") depth++
    else if (char === "]" || char === "}") {
      if (depth === 0) return i
      if (--depth === 0) return i + 1
    } else if (char === "," && depth === 0) return i
  }
  return text.length
}

const isSpace = (char: string | undefined): boolean => char === " " || char === "\n" || char === "\r" || char === "\t"

/**
 * Masks the value of every member whose key looks personal or secret. One
 * pass over the text, whatever it holds (no backtracking).
 */
const maskSensitive = (text: string): string => {
  let out = ""
  let copied = 0
  for (let i = text.indexOf("\""); i !== -1; i = text.indexOf("\"", i)) {
    const keyEnd = stringEnd(text, i)
    let colon = keyEnd
    while (isSpace(text[colon])) colon++
    if (text[colon] !== ":" || !sensitiveKey.test(text.slice(i + 1, keyEnd - 1))) {
      i = keyEnd
      continue
    }
    let start = colon + 1
    while (isSpace(text[start])) start++
    out += `${text.slice(copied, start)}"<redacted>"`
    copied = i = Math.max(start, valueEnd(text, start))
  }
  return out + text.slice(copied)
}

/**
 * A short excerpt of a body for error messages: secrets removed, personal and
 * secret-looking values masked, whitespace folded, the length capped. Reads
 * at most a fixed prefix of the body.
 *
 * @internal
 */
export const excerpt = (body: string, secrets: Scrubber = Redact.none): string => {
  const folded = maskSensitive(Redact.clip(body, excerptWindow, secrets)).replace(/\s+/g, " ").trim()
  return folded.length > excerptLength ? `${folded.slice(0, excerptLength)}…` : folded
}

/** Answer headers by lower-case name. */
type AnswerHeaders = { readonly [name: string]: string | undefined }

const retryAfter = (headers: AnswerHeaders): Option.Option<Duration.Duration> => {
  const value = headers["retry-after"]
  if (value === undefined) return Option.none()
  const seconds = Number(value)
  if (Number.isFinite(seconds) && seconds >= 0) return Option.some(Duration.seconds(seconds))
  const at = Date.parse(value)
  return Number.isNaN(at) ? Option.none() : Option.some(Duration.millis(Math.max(0, at - Date.now())))
}

/**
 * What an answer means: the `data` of a success envelope, or a typed failure.
 * The envelope is read whatever the HTTP status, since the exchange sends its
 * business and auth errors with 400 and 429.
 *
 * @internal
 */
export const interpret = (options: {
  readonly endpoint: string
  readonly status: number
  readonly headers: AnswerHeaders
  readonly body: string
  readonly secrets: Scrubber
}): Result.Result<unknown, BitgetApiError | BitgetHttpError | BitgetDecodeError> => {
  const { body, endpoint, headers, secrets, status } = options
  let json: unknown
  let parsed = true
  try {
    json = JSON.parse(body)
  } catch {
    parsed = false
  }
  const envelope = parsed ? decodeEnvelope(json) : Result.fail(undefined)
  if (Result.isSuccess(envelope)) {
    const { code, data, msg, requestTime } = envelope.success
    const codeText = String(code)
    if (codeText === successCode && status < 400) return Result.succeed(data)
    return Result.fail(
      new BitgetApiError({
        endpoint,
        // a server may echo a secret in place of its code, which spans, metrics and logs show
        code: Redact.clip(codeText, codeLength, secrets),
        msg: Redact.clip(msg ?? "", msgLength, secrets),
        status,
        requestTime: Option.flatMap(Option.fromNullishOr(requestTime), decodeTimestamp),
        retryAfter: retryAfter(headers)
      })
    )
  }
  if (status === 429) {
    return Result.fail(
      new BitgetApiError({
        endpoint,
        code: "429",
        msg: "Too Many Requests",
        status,
        requestTime: Option.none(),
        retryAfter: retryAfter(headers)
      })
    )
  }
  if (status >= 300) return Result.fail(new BitgetHttpError({ endpoint, status, excerpt: excerpt(body, secrets) }))
  return Result.fail(
    new BitgetDecodeError({
      endpoint,
      status,
      issue: parsed ? "the body is not an API envelope {code, msg, data}" : "the body is not valid JSON",
      excerpt: excerpt(body, secrets)
    })
  )
}

/** The most problems a description lists. */
const listedIssues = 5

/** The standard-schema view of an issue: one message per problem, with its path. */
const formatIssue = SchemaIssue.makeFormatterStandardSchemaV1()

/**
 * Formats a schema failure as a short, readable list of `path: problem`: at
 * most five problems, each capped, secrets removed. Schema reports no input
 * values (it is not asked to), so no huge value and no echoed secret is
 * quoted.
 *
 * @internal
 */
export const describeParseError = (error: Schema.SchemaError, secrets: Scrubber = Redact.none): string => {
  const { issues } = formatIssue(error.issue)
  const lines = issues.slice(0, listedIssues).map((issue) => {
    const path = issue.path === undefined || issue.path.length === 0
      ? "(root)"
      : issue.path.map((segment) => String(typeof segment === "object" ? segment.key : segment)).join(".")
    return `${Redact.clip(path, 80, secrets)}: ${Redact.clip(issue.message, 160, secrets)}`
  })
  return issues.length > listedIssues
    ? `${lines.join("; ")}; and ${issues.length - listedIssues} more`
    : lines.join("; ")
}

/**
 * The request failed its schema: refused before anything is sent.
 *
 * @internal
 */
export const requestError =
  (endpoint: { readonly method: string; readonly path: string }) => (error: Schema.SchemaError): BitgetRequestError =>
    new BitgetRequestError({ endpoint: label(endpoint), issue: describeParseError(error) })
