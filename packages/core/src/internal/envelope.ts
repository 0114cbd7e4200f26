import type * as HttpClientResponse from "@effect/platform/HttpClientResponse"
import { Duration, Either, Option, ParseResult, Schema } from "effect"
import { BitgetApiError, BitgetDecodeError, BitgetHttpError, BitgetRequestError } from "../BitgetError.js"
import { label } from "../Endpoint.js"
import { Timestamp } from "../Schemas.js"

/** @internal */
export const successCode = "00000"

const Envelope = Schema.Struct({
  code: Schema.Union(Schema.String, Schema.Number.pipe(Schema.int())),
  msg: Schema.optionalWith(Schema.NullOr(Schema.String), { default: () => null }),
  requestTime: Schema.optional(Schema.NullOr(Schema.Unknown)),
  data: Schema.optional(Schema.Unknown)
})

const decodeEnvelope = Schema.decodeUnknownEither(Envelope)
const decodeTimestamp = Schema.decodeUnknownOption(Timestamp)

const excerptLength = 240
const sensitiveValue =
  /("[^"]*(?:realname|secret|passphrase|sign|apikey|paymethodinfo)[^"]*"\s*:\s*)("(?:[^"\\]|\\.)*"|\[[^\]]*\])/gi

/**
 * A short excerpt of a body for error messages: personal and secret-looking
 * values are masked, control characters folded, the length capped.
 *
 * @internal
 */
export const excerpt = (body: string): string => {
  const masked = body.replace(sensitiveValue, "$1\"<redacted>\"").replace(/\s+/g, " ").trim()
  return masked.length > excerptLength ? `${masked.slice(0, excerptLength)}…` : masked
}

const retryAfter = (headers: HttpClientResponse.HttpClientResponse["headers"]): Option.Option<Duration.Duration> => {
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
  readonly headers: HttpClientResponse.HttpClientResponse["headers"]
  readonly body: string
}): Either.Either<unknown, BitgetApiError | BitgetHttpError | BitgetDecodeError> => {
  const { body, endpoint, headers, status } = options
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
        msg: msg ?? "",
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
  if (status >= 300) return Either.left(new BitgetHttpError({ endpoint, status, excerpt: excerpt(body) }))
  return Either.left(
    new BitgetDecodeError({
      endpoint,
      status,
      issue: parsed ? "the body is not an API envelope {code, msg, data}" : "the body is not valid JSON",
      excerpt: excerpt(body)
    })
  )
}

/**
 * Formats a schema failure as a short, readable list of `path: problem`
 * (each problem capped, so a large offending value is never quoted whole).
 *
 * @internal
 */
export const describeParseError = (error: ParseResult.ParseError): string => {
  const issues = ParseResult.ArrayFormatter.formatErrorSync(error)
  const lines = issues.slice(0, 5).map((issue) => {
    const path = issue.path.length === 0 ? "(root)" : issue.path.map(String).join(".")
    const message = issue.message.length > 160 ? `${issue.message.slice(0, 160)}…` : issue.message
    return `${path}: ${message}`
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
