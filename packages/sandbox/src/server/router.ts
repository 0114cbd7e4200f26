/**
 * The HTTP side: one router entry per route, each running its fault (see
 * `faults.ts`) and then the same pipeline (`respond.ts`), and a catch-all
 * answering 404 `40404`. Every request is logged.
 *
 * @internal
 */
import * as Effect from "effect/Effect"
import type { HttpServerRequest } from "effect/http"
import { HttpRouter } from "effect/http"
import type * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import type { Fault } from "../Fault.js"
import { describe } from "../Fault.js"
import type { Definition } from "../internal/route/define.js"
import type { SignatureCheck } from "../RequestLog.js"
import type { RouteInfo, RouteName } from "../Route.js"
import { table } from "../routes/table.js"
import type { Answer } from "./answer.js"
import { notFound, toResponse } from "./answer.js"
import type { Verifier } from "./auth.js"
import * as Faults from "./faults.js"
import type { Incoming } from "./respond.js"
import { header, respond } from "./respond.js"
import type { State } from "./state.js"

/** Whether a request carries a body: an HTTP/1.1 request without these headers has none (RFC 9112 §6.3). */
const hasBody = (headers: Incoming["headers"]): boolean =>
  headers["transfer-encoding"] !== undefined ||
  (headers["content-length"] !== undefined && headers["content-length"] !== "0")

/** A request before its body is read: the target as sent (path and raw query, which is what a client signs). */
const targetOf = (request: HttpServerRequest.HttpServerRequest): Omit<Incoming, "body"> => {
  const url = request.url
  const mark = url.indexOf("?")
  return {
    method: request.method,
    path: mark < 0 ? url : url.slice(0, mark),
    rawQuery: mark < 0 ? "" : url.slice(mark + 1),
    headers: request.headers,
    remote: Option.getOrElse(request.remoteAddress, () => "unknown")
  }
}

/** What the log learns of a request when it ends. */
interface Details {
  readonly signature?: SignatureCheck
  readonly rateLimited?: boolean
  readonly fault?: Fault | undefined
}

/** Starts the log entry of a request; the function returned records it once answered (or reset, or given up). */
const logger = (state: State, target: Omit<Incoming, "body">, route: RouteName | undefined) => {
  const started = Date.now()
  const time = state.now()
  return (answer: Answer | undefined, details: Details): void =>
    state.record({
      time,
      method: target.method,
      path: target.path,
      query: target.rawQuery,
      route,
      apiKey: header(target.headers, "access-key"),
      remoteAddress: target.remote,
      signature: details.signature ?? "unchecked",
      status: answer?.status,
      code: answer?.code,
      fault: details.fault === undefined ? undefined : describe(details.fault),
      rateLimited: details.rateLimited ?? false,
      durationMillis: Date.now() - started
    })
}

/** Serves one route: its fault first, if one is pending, then the pipeline. */
const serve =
  (state: State, verifiers: ReadonlyMap<string, Verifier>, definition: Definition<RouteInfo>) =>
  (request: HttpServerRequest.HttpServerRequest) =>
    Effect.gen(function*() {
      const target = targetOf(request)
      const log = logger(state, target, definition.info.name)
      const fault = state.takeFault(definition.info.name)
      const hit = fault === undefined ? undefined : Faults.hit(fault, state.now())
      if (hit?._tag === "Instead") {
        log(hit.answer, { fault })
        return toResponse(hit.answer)
      }
      if (hit?._tag === "Reset") {
        log(undefined, { fault })
        return Faults.reset(request)
      }
      // a client that gives up during a delay still leaves its request in the log
      if (hit?._tag === "Delay") yield* Faults.hold(hit.millis, () => log(undefined, { fault }))
      const body = hasBody(target.headers) ? yield* Effect.orElseSucceed(request.text, () => "") : ""
      const outcome = respond(state, verifiers, definition, { ...target, body })
      const answer = hit?._tag === "Spoil" ? hit.spoil(outcome.answer, state.now()) : outcome.answer
      log(answer, { signature: outcome.signature, rateLimited: outcome.rateLimited, fault })
      return toResponse(answer)
    })

/** Answers a path the sandbox does not serve. */
const unknown = (state: State) => (request: HttpServerRequest.HttpServerRequest) =>
  Effect.sync(() => {
    const answer = notFound(state.now())
    logger(state, targetOf(request), undefined)(answer, {})
    return toResponse(answer)
  })

/** The routes of a sandbox, for `HttpRouter.serve`: one per route of the table, then a catch-all. */
export const routes = (
  state: State,
  verifiers: ReadonlyMap<string, Verifier>
): Layer.Layer<never, never, HttpRouter.HttpRouter> =>
  HttpRouter.addAll([
    ...table.map((definition) =>
      HttpRouter.route(definition.info.method, definition.info.path, serve(state, verifiers, definition))
    ),
    HttpRouter.route("*", "*", unknown(state))
  ])
