import * as Duration from "effect/Duration"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import { BitgetApiError, BitgetDecodeError, BitgetHttpError, BitgetRequestError } from "../BitgetError.js"
import { label } from "../Endpoint.js"
import { Timestamp } from "../Schemas.js"
import { decoder } from "./decoder.js"
import type { Scrubber } from "./redact.js"
import * as Redact from "./redact.js"

/** @internal */
export const successCode = "00000"

const Envelope = Schema.Struct({
  code: Schema.Union(Schema.String, Schema.Number.pipe(Schema.int())),
  msg: Schema.optionalWith(Schema.NullOr(Schema.String), { default: () => null }),
  requestTime: Schema.optional(Schema.NullOr(Schema.Unknown)),
  data: Schema.optional(Schema.Unknown)
})

const decodeEnvelope = decoder(Envelope)
const decodeTimestamp = Schema.decodeUnknownOption(Timestamp)

const excerptLength = 240
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
  for (let i = text.indexOf("\""); i !== -1 && i < text.length; i = text.indexOf("\"", i)) {
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
}): Either.Either<unknown, BitgetApiError | BitgetHttpError | BitgetDecodeError> => {
  const { body, endpoint, headers, secrets, status } = options
  let json: unknown
  let parsed = true
  try {
    json = JSON.parse(body)
  } catch {
    parsed = false
  }
  const envelope = parsed ? decodeEnvelope(json) : Either.left(undefined)
  if (Either.isRight(envelope)) {
    const { code, data, msg, requestTime } = envelope.right
    const codeText = String(code)
    if (codeText === successCode && status < 400) return Either.right(data)
    return Either.left(
      new BitgetApiError({
        endpoint,
        code: codeText,
        msg: Redact.clip(msg ?? "", msgLength, secrets),
        status,
        requestTime: Option.flatMap(Option.fromNullable(requestTime), decodeTimestamp),
        retryAfter: retryAfter(headers)
      })
    )
  }
  if (status === 429) {
    return Either.left(
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
  if (status >= 300) return Either.left(new BitgetHttpError({ endpoint, status, excerpt: excerpt(body, secrets) }))
  return Either.left(
    new BitgetDecodeError({
      endpoint,
      status,
      issue: parsed ? "the body is not an API envelope {code, msg, data}" : "the body is not valid JSON",
      excerpt: excerpt(body, secrets)
    })
  )
}

/** A bounded rendering of a value for a message: a few members, a few levels, short strings, secrets removed. */
const preview = (value: unknown, secrets: Scrubber, depth: number): string => {
  if (typeof value === "string") return JSON.stringify(Redact.clip(value, 40, secrets))
  if (value === null || typeof value !== "object") return String(value)
  const entries: Array<readonly [string, unknown]> = Array.isArray(value)
    ? value.slice(0, 4).map((item) => ["", item] as const)
    : []
  if (!Array.isArray(value)) {
    for (const key in value) {
      if (entries.length === 4) break
      entries.push([`${JSON.stringify(Redact.clip(key, 40, secrets))}:`, (value as Record<string, unknown>)[key]])
    }
  }
  const size = Array.isArray(value) ? value.length : entries.length
  const inner = depth === 0 && size > 0
    ? "…"
    : entries.map(([key, item]) => key + preview(item, secrets, depth - 1)).join(",") + (size > 4 ? ",…" : "")
  return Array.isArray(value) ? `[${inner}]` : `{${inner}}`
}

/**
 * Stands in for an array or object in a parse issue, formatted as its
 * bounded preview (scalars stay: messages may read them, and each message is
 * capped anyway).
 */
const shown = (value: unknown, secrets: Scrubber): unknown =>
  value !== null && typeof value === "object" ? { toString: () => preview(value, secrets, 2) } : value

const firstIssues = 8

/**
 * The same issue with every offending value replaced by its preview and at
 * most a few issues per level, so describing it costs little whatever the
 * value (100,000 nested arrays, a million keys).
 */
const boundIssue = (issue: ParseResult.ParseIssue, secrets: Scrubber): ParseResult.ParseIssue => {
  switch (issue._tag) {
    case "Type":
      return new ParseResult.Type(issue.ast, shown(issue.actual, secrets), issue.message)
    case "Forbidden":
      return new ParseResult.Forbidden(issue.ast, shown(issue.actual, secrets), issue.message)
    case "Unexpected":
      return new ParseResult.Unexpected(shown(issue.actual, secrets), issue.message)
    case "Missing":
      return issue
    case "Pointer":
      return new ParseResult.Pointer(issue.path, shown(issue.actual, secrets), boundIssue(issue.issue, secrets))
    case "Refinement":
      return new ParseResult.Refinement(
        issue.ast,
        shown(issue.actual, secrets),
        issue.kind,
        boundIssue(issue.issue, secrets)
      )
    case "Transformation":
      return new ParseResult.Transformation(
        issue.ast,
        shown(issue.actual, secrets),
        issue.kind,
        boundIssue(issue.issue, secrets)
      )
    case "Composite": {
      const [first, ...rest] = Array.isArray(issue.issues) ? issue.issues : [issue.issues as ParseResult.ParseIssue]
      return new ParseResult.Composite(
        issue.ast,
        shown(issue.actual, secrets),
        [first as ParseResult.ParseIssue, ...rest.slice(0, firstIssues - 1)].map((inner) =>
          boundIssue(inner, secrets)
        ) as [
          ParseResult.ParseIssue,
          ...Array<ParseResult.ParseIssue>
        ],
        issue.output
      )
    }
  }
}

/**
 * Formats a schema failure as a short, readable list of `path: problem`:
 * at most five problems, each capped, offending values shown in brief and
 * secrets removed, so neither a huge value nor an echoed secret is quoted.
 *
 * @internal
 */
export const describeParseError = (error: ParseResult.ParseError, secrets: Scrubber = Redact.none): string => {
  const issues = ParseResult.ArrayFormatter.formatIssueSync(boundIssue(error.issue, secrets))
  const lines = issues.slice(0, 5).map((issue) => {
    const path = issue.path.length === 0 ? "(root)" : issue.path.map(String).join(".")
    return `${Redact.clip(path, 80, secrets)}: ${Redact.clip(issue.message, 160, secrets)}`
  })
  return issues.length > 5 ? `${lines.join("; ")}; and ${issues.length - 5} more` : lines.join("; ")
}

/**
 * The request failed its schema: refused before anything is sent.
 *
 * @internal
 */
export const requestError =
  (endpoint: { readonly method: string; readonly path: string }) =>
  (error: ParseResult.ParseError): BitgetRequestError =>
    new BitgetRequestError({ endpoint: label(endpoint), issue: describeParseError(error) })
