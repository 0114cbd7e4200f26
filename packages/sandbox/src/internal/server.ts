/**
 * The HTTP side: one router entry per route, each running the same pipeline
 * (fault → address ceiling → authentication → frequency limit → body →
 * operation → envelope), and a catch-all answering 404 `40404`.
 *
 * @internal
 */
import * as NodeHttpServerRequest from "@effect/platform-node/NodeHttpServerRequest"
import type { Layer } from "effect"
import { Effect, Option, Result } from "effect"
import type { HttpServerRequest } from "effect/http"
import { HttpRouter, HttpServerResponse } from "effect/http"
import type { Fault } from "../Fault.js"
import * as Faults from "../Fault.js"
import type { Entry, SignatureCheck } from "../RequestLog.js"
import type { RouteInfo } from "../Route.js"
import * as Route from "../Route.js"
import type { CredentialHeaders, Verifier } from "./auth.js"
import { authenticate, parseQuery } from "./auth.js"
import type { ApiFailure } from "./params.js"
import { failure, Query } from "./params.js"
import type { Call, Definition } from "./route.js"
import type { State } from "./state.js"

/** A response before it is written. */
interface Answer {
  readonly status: number
  readonly body: string
  readonly contentType: string
  /** The envelope code, when the body is a well-formed envelope. */
  readonly code: string | undefined
  readonly headers: Readonly<Record<string, string>>
}

const envelope = (
  status: number,
  code: string,
  msg: string,
  requestTime: number,
  data: unknown,
  headers = {}
): Answer => ({
  status,
  body: JSON.stringify({ code, msg, requestTime, data }),
  contentType: "application/json",
  code,
  headers
})

const success = (now: number, data: unknown, headers: Readonly<Record<string, string>>) =>
  envelope(200, "00000", "success", now, data, headers)

const failed = (now: number, error: ApiFailure, headers: Readonly<Record<string, string>> = {}) =>
  envelope(error.status, error.code, error.msg, now, null, headers)

const tooMany = (now: number) => envelope(429, "429", "Too Many Requests", now, null)

const reasons: Readonly<Record<number, string>> = {
  500: "Internal Server Error",
  502: "Bad Gateway",
  503: "Service Temporarily Unavailable"
}

const gatewayPage = (status: number): Answer => {
  const title = `${status} ${reasons[status] ?? "Error"}`
  return {
    status,
    body: [
      "<html>",
      `<head><title>${title}</title></head>`,
      "<body>",
      `<center><h1>${title}</h1></center>`,
      "<hr><center>nginx</center>",
      "</body>",
      "</html>",
      ""
    ].join("\r\n"),
    contentType: "text/html",
    code: undefined,
    headers: {}
  }
}

const header = (headers: Readonly<Record<string, string | undefined>>, name: string): string | undefined => {
  const value = headers[name]
  return value === undefined || value === "" ? undefined : value
}

/** Whether a request carries a body: an HTTP/1.1 request without these headers has none (RFC 9112 §6.3). */
const hasBody = (headers: Readonly<Record<string, string | undefined>>): boolean =>
  headers["transfer-encoding"] !== undefined ||
  (headers["content-length"] !== undefined && headers["content-length"] !== "0")

interface Outcome {
  readonly answer: Answer
  readonly signature: SignatureCheck
  readonly rateLimited: boolean
}

const isRecord = (value: unknown): value is Readonly<Record<string, unknown>> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

/** Runs one request through authentication, limits and the operation (synchronously: atomic). */
const respond = (
  state: State,
  verifiers: ReadonlyMap<string, Verifier>,
  { handler, info: route }: Definition<RouteInfo>,
  request: {
    readonly method: string
    readonly path: string
    readonly rawQuery: string
    readonly headers: Readonly<Record<string, string | undefined>>
    readonly remote: string
    readonly body: string
  }
): Outcome => {
  const now = state.now()
  const done = (answer: Answer, signature: SignatureCheck = "unchecked", rateLimited = false): Outcome => ({
    answer,
    signature,
    rateLimited
  })
  if (state.limits) {
    const ceiling = Math.max(1, Math.round(state.options.ipCeilingPerMinute * state.limitScale))
    if (!state.limiter.take(`*|${request.remote}`, ceiling, 60_000, now).allowed) {
      return done(tooMany(now), "unchecked", true)
    }
  }
  const query = parseQuery(request.rawQuery)
  const credentials: CredentialHeaders = {
    key: header(request.headers, "access-key"),
    sign: header(request.headers, "access-sign"),
    passphrase: header(request.headers, "access-passphrase"),
    timestamp: header(request.headers, "access-timestamp"),
    contentType: header(request.headers, "content-type")
  }
  let signature: SignatureCheck = "unchecked"
  let key: Call["key"]
  const wantsAuth = route.access === "signed" || (route.access === "identified" && credentials.sign !== undefined)
  if (wantsAuth) {
    const outcome = authenticate({
      headers: credentials,
      method: request.method,
      path: request.path,
      signedQuery: query.signed,
      body: request.body,
      now,
      verifiers
    })
    if (outcome._tag === "Rejected") return done(failed(now, outcome.failure), outcome.signature)
    signature = "valid"
    key = outcome.key
  } else if (route.access === "identified" && credentials.key !== undefined) {
    key = verifiers.get(credentials.key)?.key
    if (key === undefined) return done(failed(now, failure("40006", "Invalid ACCESS_KEY")))
  }
  const headers: Record<string, string> = {}
  if (state.limits) {
    const scope = route.scope === "uid" && key !== undefined ? `uid:${key.apiKey}` : `ip:${request.remote}`
    const limit = Math.max(1, Math.round(route.perSecond * state.limitScale))
    const decision = state.limiter.take(`${route.name}|${scope}`, limit, 1_000, now)
    if (!decision.allowed) return done(tooMany(now), signature, true)
    headers["x-mbx-used-remain-limit"] = String(decision.remaining)
  }
  let body: Readonly<Record<string, unknown>> = {}
  if (route.method === "POST" && request.body.trim() !== "") {
    let parsed: unknown
    try {
      parsed = JSON.parse(request.body)
    } catch {
      return done(
        failed(now, failure("40017", "Parameter verification failed body is not valid JSON"), headers),
        signature
      )
    }
    if (!isRecord(parsed)) {
      return done(
        failed(now, failure("40017", "Parameter verification failed body must be a JSON object"), headers),
        signature
      )
    }
    body = parsed
  }
  const result = handler({ query: new Query(query.pairs), body, key, now, state })
  return done(
    Result.match(result, {
      onFailure: (error) => failed(now, error, headers),
      onSuccess: (data) => success(now, data, headers)
    }),
    signature
  )
}

const toResponse = (answer: Answer) =>
  HttpServerResponse.text(answer.body, {
    status: answer.status,
    contentType: answer.contentType,
    headers: answer.headers
  })

/** The routes of a sandbox, for `HttpRouter.serve`: one per route of the table, then a catch-all. */
export const routes = (
  state: State,
  verifiers: ReadonlyMap<string, Verifier>
): Layer.Layer<never, never, HttpRouter.HttpRouter> => {
  const serve = (definition: Definition<RouteInfo> | undefined) => (request: HttpServerRequest.HttpServerRequest) =>
    Effect.gen(function*() {
      const started = Date.now()
      // the target as sent (path and raw query), which is what a client signs
      const url = request.url
      const mark = url.indexOf("?")
      const path = mark < 0 ? url : url.slice(0, mark)
      const rawQuery = mark < 0 ? "" : url.slice(mark + 1)
      const headers = request.headers
      const remote = Option.getOrElse(request.remoteAddress, () => "unknown")
      const base = {
        time: state.now(),
        method: request.method,
        path,
        query: rawQuery,
        route: definition?.info.name,
        apiKey: header(headers, "access-key"),
        remoteAddress: remote
      }
      const finish = (
        answer: Answer | undefined,
        details: { readonly signature?: SignatureCheck; readonly rateLimited?: boolean; readonly fault?: Fault }
      ) => {
        const entry: Omit<Entry, "seq"> = {
          ...base,
          signature: details.signature ?? "unchecked",
          status: answer?.status,
          code: answer?.code,
          fault: details.fault === undefined ? undefined : Faults.describe(details.fault),
          rateLimited: details.rateLimited ?? false,
          durationMillis: Date.now() - started
        }
        state.record(entry)
      }
      if (definition === undefined) {
        const answer = envelope(404, "40404", "Request URL NOT FOUND", state.now(), null)
        finish(answer, {})
        return toResponse(answer)
      }
      const fault = state.takeFault(definition.info.name)
      if (fault !== undefined) {
        const early = ((): Answer | "reset" | undefined => {
          switch (fault._tag) {
            case "HttpError":
              return gatewayPage(fault.status)
            case "TooManyRequests":
              return tooMany(state.now())
            case "ErrorCode":
              return envelope(200, fault.code, fault.msg, state.now(), null)
            case "ConnectionReset":
              return "reset"
            default:
              return undefined
          }
        })()
        if (early === "reset") {
          finish(undefined, { fault })
          NodeHttpServerRequest.toIncomingMessage(request).socket.destroy()
          // Ending the destroyed response marks it written, so the platform does not wait for a write that never completes.
          NodeHttpServerRequest.toServerResponse(request).end()
          return HttpServerResponse.empty({ status: 500 })
        }
        if (early !== undefined) {
          finish(early, { fault })
          return toResponse(early)
        }
        if (fault._tag === "Delay") {
          // a client that gives up during the delay still leaves its request in the log
          yield* Effect.sleep(fault.millis).pipe(
            Effect.onInterrupt(() => Effect.sync(() => finish(undefined, { fault })))
          )
        }
      }
      const body = hasBody(headers) ? yield* Effect.orElseSucceed(request.text, () => "") : ""
      const outcome = respond(state, verifiers, definition, {
        method: request.method,
        path,
        rawQuery,
        headers,
        remote,
        body
      })
      let answer = outcome.answer
      if (fault?._tag === "TruncatedJson") {
        answer = {
          ...answer,
          body: answer.body.slice(0, Math.max(1, Math.floor(answer.body.length / 2))),
          code: undefined
        }
      } else if (fault?._tag === "InvalidJson") {
        answer = {
          ...answer,
          body: `{"code":"00000","msg":"success","requestTime":${state.now()},"data":undefined}`,
          code: undefined
        }
      }
      finish(answer, {
        signature: outcome.signature,
        rateLimited: outcome.rateLimited,
        ...(fault === undefined ? {} : { fault })
      })
      return toResponse(answer)
    })

  return HttpRouter.addAll([
    ...Route.definitions.map((definition) =>
      HttpRouter.route(definition.info.method, definition.info.path, serve(definition))
    ),
    HttpRouter.route("*", "*", serve(undefined))
  ])
}
