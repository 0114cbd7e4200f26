/**
 * The pipeline every route runs through after its fault: the address
 * ceiling, authentication, the route's frequency limit, the body, the
 * operation and the envelope (an error's message in the language of the
 * `locale` header). It runs synchronously, so each request sees and makes
 * atomic changes.
 *
 * @internal
 */
import * as Predicate from "effect/Predicate"
import * as Result from "effect/Result"
import type { DemoKey } from "../DemoKey.js"
import { variant } from "../internal/data/shapes.js"
import { MINUTE } from "../internal/data/time.js"
import type { Definition } from "../internal/route/define.js"
import { localize } from "../internal/route/messages.js"
import { ApiFailure, coded, Query, verification } from "../internal/route/params.js"
import type { SignatureCheck } from "../RequestLog.js"
import type { RouteInfo } from "../Route.js"
import type { Answer, RequestTime } from "./answer.js"
import { failed, success, tooMany } from "./answer.js"
import type { CredentialHeaders, Verifier } from "./auth.js"
import { authenticate, parseQuery } from "./auth.js"
import type { State } from "./state.js"

/** A request as the pipeline reads it. */
export interface Incoming {
  readonly method: string
  /** The path as sent, which is what a client signs. */
  readonly path: string
  /** The query as sent (still percent-encoded), without `?`. */
  readonly rawQuery: string
  readonly headers: Readonly<Record<string, string | undefined>>
  readonly remote: string
  readonly body: string
}

/** How a request was answered, for the log. */
export interface Outcome {
  readonly answer: Answer
  readonly signature: SignatureCheck
  /** Whether the sandbox's own limiter refused it. */
  readonly rateLimited: boolean
}

/** Who is calling: the key, if known, and how its signature checked. */
interface Caller {
  readonly key: DemoKey | undefined
  readonly signature: SignatureCheck
}

/** Why a caller was refused. */
interface Refusal {
  readonly failure: ApiFailure
  readonly signature: SignatureCheck
}

/** A header's value; `undefined` when absent or empty. */
export const header = (headers: Incoming["headers"], name: string): string | undefined => {
  const value = headers[name]
  return value === undefined || value === "" ? undefined : value
}

const credentialsOf = (headers: Incoming["headers"]): CredentialHeaders => ({
  key: header(headers, "access-key"),
  sign: header(headers, "access-sign"),
  passphrase: header(headers, "access-passphrase"),
  timestamp: header(headers, "access-timestamp"),
  contentType: header(headers, "content-type"),
  paptrading: header(headers, "paptrading")
})

/**
 * Counts a call against its address's ceiling per minute; `false` when over
 * it. Crossing the ceiling locks the address out for `ipLockoutMillis`, as
 * the live exchange does: every call meanwhile is refused, and not counted.
 */
const withinCeiling = (state: State, remote: string, now: number): boolean => {
  if (!state.limits) return true
  const lockedUntil = state.lockouts.get(remote)
  if (lockedUntil !== undefined) {
    if (now < lockedUntil) return false
    state.lockouts.delete(remote)
  }
  const ceiling = Math.max(1, Math.round(state.options.ipCeilingPerMinute * state.limitScale))
  if (state.limiter.take(`*|${remote}`, ceiling, MINUTE, now).allowed) return true
  if (state.options.ipLockoutMillis > 0) state.lockouts.set(remote, now + state.options.ipLockoutMillis)
  return false
}

/**
 * Authenticates a signed call, and any other call that carries a signature
 * (whether the live exchange checks one sent to a public route is unknown:
 * checking it makes a client with broken credentials fail here rather than
 * live); reads the key of an identified one.
 */
const identify = (
  verifiers: ReadonlyMap<string, Verifier>,
  access: RouteInfo["access"],
  request: Incoming,
  signedQuery: string,
  now: number
): Result.Result<Caller, Refusal> => {
  const headers = credentialsOf(request.headers)
  if (access === "signed" || headers.sign !== undefined) {
    const { body, method, path } = request
    const outcome = authenticate({ headers, method, path, signedQuery, body, now, verifiers })
    return outcome._tag === "Rejected" ? Result.fail(outcome) : Result.succeed({ key: outcome.key, signature: "valid" })
  }
  if (access !== "identified" || headers.key === undefined) {
    return Result.succeed({ key: undefined, signature: "unchecked" })
  }
  const key = verifiers.get(headers.key)?.key
  return key === undefined
    ? Result.fail({ failure: coded("40006"), signature: "unchecked" })
    : Result.succeed({ key, signature: "unchecked" })
}

/** Counts a call against its route's limit: the headers telling what is left, `undefined` when over it. */
const withinLimit = (
  state: State,
  route: RouteInfo,
  key: DemoKey | undefined,
  remote: string,
  now: number
): Readonly<Record<string, string>> | undefined => {
  if (!state.limits) return {}
  const scope = route.scope === "uid" && key !== undefined ? `uid:${key.apiKey}` : `ip:${remote}`
  const limit = Math.max(1, Math.round(route.perSecond * state.limitScale))
  const decision = state.limiter.take(`${route.name}|${scope}`, limit, 1_000, now)
  return decision.allowed ? { "x-mbx-used-remain-limit": String(decision.remaining) } : undefined
}

/** The JSON object a POST carries (an empty object for a GET or a blank body). */
const bodyOf = (
  method: RouteInfo["method"],
  text: string
): Result.Result<Readonly<Record<string, unknown>>, ApiFailure> => {
  if (method !== "POST" || text.trim() === "") return Result.succeed({})
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    return Result.fail(verification("body is not valid JSON"))
  }
  return Predicate.isReadonlyObject(parsed)
    ? Result.succeed(parsed)
    : Result.fail(verification("body must be a JSON object"))
}

/** Salt of the draw of `requestTime`'s shape. */
const REQUEST_TIME_SALT = 90

/** The `requestTime` of an answer: a number, or, on a route whose live answers carry a string, drawn per answer. */
const requestTimeOf = (state: State, route: RouteInfo, now: number): RequestTime =>
  route.requestTime === "number-or-string" &&
    variant(state.options.shapes, state.world.seed, REQUEST_TIME_SALT, state.nextAnswer())
    ? String(now)
    : now

/** An error answer with its message in the language of the request's `locale` header (English by default). */
const inLocale = (error: ApiFailure, request: Incoming): ApiFailure =>
  new ApiFailure({
    status: error.status,
    code: error.code,
    msg: localize(error.code, error.msg, header(request.headers, "locale"))
  })

/** Runs one request through the pipeline. */
export const respond = (
  state: State,
  verifiers: ReadonlyMap<string, Verifier>,
  { handler, info: route }: Definition<RouteInfo>,
  request: Incoming
): Outcome => {
  const now = state.now()
  if (!withinCeiling(state, request.remote, now)) {
    return { answer: tooMany(now), signature: "unchecked", rateLimited: true }
  }
  const query = parseQuery(request.rawQuery)
  const caller = identify(verifiers, route.access, request, query.signed, now)
  if (Result.isFailure(caller)) {
    const answer = failed(now, inLocale(caller.failure.failure, request))
    return { answer, signature: caller.failure.signature, rateLimited: false }
  }
  const { key, signature } = caller.success
  const headers = withinLimit(state, route, key, request.remote, now)
  if (headers === undefined) return { answer: tooMany(now), signature, rateLimited: true }
  const result = Result.flatMap(
    bodyOf(route.method, request.body),
    (body) => handler({ query: new Query(query.pairs), body, key, now, state })
  )
  const requestTime = requestTimeOf(state, route, now)
  const answer = Result.match(result, {
    onFailure: (error) => failed(requestTime, inLocale(error, request), headers),
    onSuccess: (data) => success(requestTime, data, headers)
  })
  return { answer, signature, rateLimited: false }
}
