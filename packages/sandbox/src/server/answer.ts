/**
 * Answers before they are written: the exchange's JSON envelope for a success,
 * an error or a 429, and the conversion to an HTTP response.
 *
 * @internal
 */
import { HttpServerResponse } from "effect/http"
import type { ApiFailure } from "../internal/route/params.js"

/** A response before it is written. */
export interface Answer {
  readonly status: number
  readonly body: string
  readonly contentType: string
  /** The envelope code, when the body is a well-formed envelope. */
  readonly code: string | undefined
  readonly headers: Readonly<Record<string, string>>
}

/** The envelope's `requestTime`: server time, ms, as a JSON number or (as some live answers send it) a string. */
export type RequestTime = number | string

/** An envelope `{code, msg, requestTime, data}`. */
export const envelope = (
  status: number,
  code: string,
  msg: string,
  requestTime: RequestTime,
  data: unknown,
  headers: Readonly<Record<string, string>> = {}
): Answer => ({
  status,
  body: JSON.stringify({ code, msg, requestTime, data }),
  contentType: "application/json",
  code,
  headers
})

/** The success envelope of an operation's `data`. */
export const success = (now: RequestTime, data: unknown, headers: Readonly<Record<string, string>>): Answer =>
  envelope(200, "00000", "success", now, data, headers)

/** The envelope of an error answer, `data: null`. */
export const failed = (now: RequestTime, error: ApiFailure, headers: Readonly<Record<string, string>> = {}): Answer =>
  envelope(error.status, error.code, error.msg, now, null, headers)

/** HTTP 429, as the exchange's limiter answers it. */
export const tooMany = (now: number): Answer => envelope(429, "429", "Too Many Requests", now, null)

/** HTTP 404 `40404`, for a path the sandbox does not serve. */
export const notFound = (now: number): Answer => envelope(404, "40404", "Request URL NOT FOUND", now, null)

/** The HTTP response of an answer. */
export const toResponse = (answer: Answer): HttpServerResponse.HttpServerResponse =>
  HttpServerResponse.text(answer.body, {
    status: answer.status,
    contentType: answer.contentType,
    headers: answer.headers
  })
