/**
 * Failures as text for people: what failed and what to do about it, in one
 * or two lines (`describe`), and the advice alone (`hint`). `BitgetNode.runMain`
 * and the `bitget` command print these; a program that reports failures its
 * own way reads them too. No line holds a secret: the errors' messages never
 * do.
 *
 * @since 0.3.0
 */
import * as Cause from "effect/Cause"
import * as Config from "effect/Config"
import * as Option from "effect/Option"
import * as Predicate from "effect/Predicate"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import * as SchemaIssue from "effect/SchemaIssue"
import type { BitgetError, BitgetTransportError, ErrorKind } from "./BitgetError.js"
import { isBitgetError } from "./BitgetError.js"
import { variables } from "./Credentials.js"

const credentialVariables = variables()

const checkBaseUrl = "check that the base URL is right and reachable (BITGET_BASE_URL)"

const transportHints: { readonly [R in BitgetTransportError["reason"]]: string } = {
  Timeout: "the exchange did not answer in time: try again later, or allow more time (BITGET_TIMEOUT)",
  Connect: checkBaseUrl,
  Network: checkBaseUrl,
  Unexpected: "not a network failure, so not retried: a bug, or a runtime this transport does not support; " +
    "the message names the cause"
}

const kindHints: { readonly [K in ErrorKind]: string | undefined } = {
  Auth: `check the API key, its secret (or RSA key) and passphrase: ${credentialVariables}`,
  ClockSkew:
    "the local clock is more than 30 s off the exchange's: sync it, or set syncClockOnStart (BITGET_SYNC_CLOCK=true)",
  Permission: "the API key lacks a permission this call needs, or this address is not on the key's IP whitelist",
  Environment: "demo keys need demoTrading on (BITGET_DEMO_TRADING=true) and live keys need it off",
  Parameter: "the exchange refused a parameter; its message names it",
  NotFound: undefined,
  Order: undefined,
  RateLimited: "too many calls: keep the client's rate limiter on (BITGET_RATE_LIMIT) and try again later",
  Maintenance: "the exchange is busy or in maintenance: try again later",
  Unknown: undefined
}

/**
 * What a person can do about a failure, in one line, where the library can
 * tell (`undefined` where the message says it all). Variable names are those
 * `BitgetConfig.layerConfig()` reads.
 *
 * @since 0.3.0
 * @category formatting
 */
export const hint = (error: BitgetError): string | undefined => {
  switch (error._tag) {
    case "BitgetApiError":
      return kindHints[error.kind]
    case "BitgetHttpError":
      return "a gateway answered instead of the exchange: try again later"
    case "BitgetTransportError":
      return transportHints[error.reason]
    case "BitgetDecodeError":
      return "the answer did not have the documented shape; please report it with the endpoint and excerpt"
    case "BitgetRequestError":
      return error.reason === "NoCredentials"
        ? `signed operations need credentials: set ${credentialVariables}`
        : "nothing was sent: correct the input"
    case "BitgetSignerError":
      return "check the signing key: an HMAC secret, or an RSA private key in PEM (PKCS#8 or PKCS#1)"
    case "RateLimitWaitExceeded":
      return "make fewer calls or allow a longer wait (rateLimit.maxWait)"
    case "RateLimiterStoreError":
      return "check that the shared rate-limit store (Redis) is reachable"
  }
}

/** A schema issue as `{ message, path }` entries, one per problem. */
const formatIssue = SchemaIssue.makeFormatterStandardSchemaV1()

/** The problems of a configuration failure, each as `where: what` (`what` alone when it is not at a path). */
const configProblems = (error: Config.ConfigError): ReadonlyArray<string> =>
  Schema.isSchemaError(error.cause)
    ? formatIssue(error.cause.issue).issues.map(({ message, path }) =>
      path === undefined || path.length === 0
        ? message
        : `${path.map((segment) => String(typeof segment === "object" ? segment.key : segment)).join(".")}: ${message}`
    )
    : [error.cause.message]

/**
 * A failed program's cause as one or two lines for a person: what failed (the
 * exchange's code and message where there is one) and what to do. Bad
 * configuration names the variable to set. A defect (a bug) keeps its full
 * trace, but a Bitget error raised as one (a transport that cannot run on this
 * runtime) reads as a failure does; an interruption gives no lines.
 *
 * @example
 * ```ts
 * import { BitgetError, FailureText } from "@bitget-effect/core"
 * import { Cause } from "effect"
 *
 * const error = BitgetError.apiError({ endpoint: "GET /api/v2/tax/spot-record", code: "40009", msg: "sign signature error" })
 * const [what, todo] = FailureText.describe(Cause.fail(error))
 * assert.strictEqual(what, "error: GET /api/v2/tax/spot-record failed with code 40009 (Auth, HTTP 400): sign signature error")
 * assert.match(todo ?? "", /^hint: check the API key, its secret \(or RSA key\) and passphrase/)
 * ```
 *
 * @since 0.3.0
 * @category formatting
 */
export const describe = (cause: Cause.Cause<unknown>): ReadonlyArray<string> => {
  if (cause.reasons.every(Cause.isInterruptReason)) return []
  const failure = Cause.findErrorOption(cause)
  if (Option.isNone(failure)) {
    const defect = Cause.findDefect(cause)
    return Result.isSuccess(defect) && isBitgetError(defect.success)
      ? describe(Cause.fail(defect.success))
      : [Cause.pretty(cause)]
  }
  const error = failure.value
  if (isBitgetError(error)) {
    const todo = hint(error)
    return todo === undefined ? [`error: ${error.message}`] : [`error: ${error.message}`, `hint: ${todo}`]
  }
  if (error instanceof Config.ConfigError) return [`error: bad configuration: ${configProblems(error).join("; ")}`]
  return [`error: ${Predicate.hasProperty(error, "message") ? String(error.message) : String(error)}`]
}
