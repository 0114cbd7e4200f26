/**
 * Faults the sandbox can inject into a route: what a flaky network, an
 * overloaded gateway or a misbehaving exchange looks like to a client.
 *
 * @example
 * ```ts
 * import { Fault, Sandbox } from "@bitget-effect/sandbox"
 * import { Effect } from "effect"
 *
 * // Installed at start (and again by `reset`).
 * const layer = Sandbox.layer({ faults: [{ target: "*", fault: Fault.errorCode("40015"), times: 1 }] })
 *
 * // Injected while the sandbox runs.
 * const flaky = Effect.gen(function*() {
 *   const sandbox = yield* Sandbox.Sandbox
 *   yield* sandbox.inject("tax-records", Fault.delay("1500 millis"))
 *   yield* sandbox.inject("p2p-orders", Fault.connectionReset, { times: "forever" })
 * })
 *
 * // The CLI form, as in `bitget-sandbox --fault symbols=503@3`.
 * const parsed = Fault.parse("symbols=503@3")
 * ```
 *
 * @since 0.1.0
 */
import * as Data from "effect/Data"
import * as Duration from "effect/Duration"
import * as Result from "effect/Result"
import { englishOf } from "./internal/route/messages.js"
import type { RouteName } from "./Route.js"
import * as Route from "./Route.js"

/**
 * One fault:
 *
 * - `HttpError`: HTTP 500/502/503 with an HTML body (a gateway page), the request not processed.
 * - `TooManyRequests`: HTTP 429 with the exchange's rate-limit envelope, the request not processed.
 * - `Delay`: the answer is held back for `millis`, then the request is processed normally.
 * - `ConnectionReset`: the socket is destroyed before anything is answered, the request not processed.
 * - `TruncatedJson`: the request is processed, the JSON answer is cut in half (with a matching Content-Length).
 * - `InvalidJson`: the request is processed, the answer is replaced by malformed JSON.
 * - `ErrorCode`: HTTP 200 with a non-`00000` code and `data: null`, the request not processed.
 *
 * @since 0.1.0
 * @category models
 */
export type Fault = Data.TaggedEnum<{
  HttpError: { readonly status: 500 | 502 | 503 }
  TooManyRequests: {}
  Delay: { readonly millis: number }
  ConnectionReset: {}
  TruncatedJson: {}
  InvalidJson: {}
  ErrorCode: { readonly code: string; readonly msg: string }
}>

const Fault = Data.taggedEnum<Fault>()

/**
 * Matches a fault by its tag.
 *
 * @since 0.1.0
 * @category combinators
 */
export const $match = Fault.$match

/**
 * An HTTP 5xx answer with an HTML body.
 *
 * @since 0.1.0
 * @category constructors
 */
export const httpError = (status: 500 | 502 | 503): Fault => Fault.HttpError({ status })

/**
 * An HTTP 429 rate-limit answer.
 *
 * @since 0.1.0
 * @category constructors
 */
export const tooManyRequests: Fault = Fault.TooManyRequests()

/**
 * Holds the answer back.
 *
 * @since 0.1.0
 * @category constructors
 */
export const delay = (duration: Duration.Input): Fault => Fault.Delay({ millis: Duration.toMillis(duration) })

/**
 * Destroys the socket without answering.
 *
 * @since 0.1.0
 * @category constructors
 */
export const connectionReset: Fault = Fault.ConnectionReset()

/**
 * Cuts the JSON answer in half.
 *
 * @since 0.1.0
 * @category constructors
 */
export const truncatedJson: Fault = Fault.TruncatedJson()

/**
 * Replaces the answer by malformed JSON.
 *
 * @since 0.1.0
 * @category constructors
 */
export const invalidJson: Fault = Fault.InvalidJson()

/**
 * An HTTP 200 answer with an error code (the message defaults to the
 * exchange's text for the known maintenance codes).
 *
 * @since 0.1.0
 * @category constructors
 */
export const errorCode = (code: string, msg?: string): Fault =>
  Fault.ErrorCode({ code, msg: msg ?? englishOf(code) ?? "error" })

/**
 * Where a fault applies: one route, or `"*"` for every route.
 *
 * @since 0.1.0
 * @category models
 */
export type Target = RouteName | "*"

/**
 * How many of the next requests a fault hits: a count, or every request until cleared.
 *
 * @since 0.1.0
 * @category models
 */
export type Times = number | "forever"

/**
 * A fault aimed at a target for some number of requests.
 *
 * @since 0.1.0
 * @category models
 */
export interface Injection {
  readonly target: Target
  readonly fault: Fault
  readonly times: Times
}

/**
 * Resolves a route name, a route path, `"*"` or `"all"` to a target.
 *
 * @since 0.1.0
 * @category constructors
 */
export const parseTarget = (text: string): Result.Result<Target, string> => {
  if (text === "*" || text === "all") return Result.succeed("*")
  const route = Route.find(text)
  return route === undefined
    ? Result.fail(`unknown route "${text}" (use one of ${Route.routes.map((r) => r.name).join(", ")}, a path, or *)`)
    : Result.succeed(route.name)
}

const parseKind = (kind: string, argument: string | undefined): Result.Result<Fault, string> => {
  switch (kind) {
    case "500":
    case "502":
    case "503":
      return Result.succeed(httpError(Number(kind) as 500 | 502 | 503))
    case "429":
      return Result.succeed(tooManyRequests)
    case "delay": {
      const millis = Number(argument)
      return argument !== undefined && Number.isFinite(millis) && millis >= 0
        ? Result.succeed(delay(Duration.millis(millis)))
        : Result.fail(`delay needs a number of milliseconds, as in delay:250`)
    }
    case "reset":
      return Result.succeed(connectionReset)
    case "truncated":
      return Result.succeed(truncatedJson)
    case "invalid-json":
      return Result.succeed(invalidJson)
    case "code": {
      if (argument === undefined || argument === "") return Result.fail(`code needs a code, as in code:40015`)
      const separator = argument.indexOf(":")
      return Result.succeed(
        separator < 0 ? errorCode(argument) : errorCode(argument.slice(0, separator), argument.slice(separator + 1))
      )
    }
    default:
      return Result.fail(
        `unknown fault "${kind}" (use 500, 502, 503, 429, delay:MS, reset, truncated, invalid-json or code:CODE[:MSG])`
      )
  }
}

/**
 * Parses the CLI form `route=kind[:argument][@times]`, e.g. `symbols=503@3`,
 * `tax-records=delay:1500`, `*=reset@forever`, `p2p-orders=code:40015`.
 * Without `@times` a fault is one-shot.
 *
 * @since 0.1.0
 * @category constructors
 */
export const parse = (spec: string): Result.Result<Injection, string> => {
  const equals = spec.indexOf("=")
  if (equals <= 0) return Result.fail(`expected route=kind, got "${spec}"`)
  let rest = spec.slice(equals + 1)
  let times: Times = 1
  const suffix = /@(\d+|forever)$/.exec(rest)
  if (suffix !== null) {
    const count = suffix[1] as string
    times = count === "forever" ? "forever" : Number(count)
    rest = rest.slice(0, suffix.index)
  }
  const colon = rest.indexOf(":")
  const kind = colon < 0 ? rest : rest.slice(0, colon)
  const argument = colon < 0 ? undefined : rest.slice(colon + 1)
  return Result.gen(function*() {
    const target = yield* parseTarget(spec.slice(0, equals))
    const fault = yield* parseKind(kind, argument)
    if (times !== "forever" && times < 1) return yield* Result.fail("@times must be at least 1")
    return { target, fault, times }
  })
}

/**
 * Describes a fault in the CLI form (without target and count).
 *
 * @since 0.1.0
 * @category formatting
 */
export const describe: (fault: Fault) => string = $match({
  HttpError: ({ status }) => String(status),
  TooManyRequests: () => "429",
  Delay: ({ millis }) => `delay:${millis}`,
  ConnectionReset: () => "reset",
  TruncatedJson: () => "truncated",
  InvalidJson: () => "invalid-json",
  ErrorCode: ({ code, msg }) => `code:${code}:${msg}`
})
