/**
 * The failures of a Bitget call, each a tagged, yieldable error with a readable
 * `message` that never contains a secret.
 *
 * @since 0.1.0
 */
import type * as DateTime from "effect/DateTime"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Predicate from "effect/Predicate"
import * as Schema from "effect/Schema"

/**
 * The families of exchange error codes the library recognises. Codes outside
 * them are kept verbatim with the kind `Unknown`.
 *
 * @since 0.1.0
 * @category models
 */
export type ErrorKind =
  | "Auth"
  | "ClockSkew"
  | "Permission"
  | "Environment"
  | "Parameter"
  | "NotFound"
  | "Order"
  | "RateLimited"
  | "Maintenance"
  | "Unknown"

const kinds: ReadonlyArray<readonly [ErrorKind, ReadonlyArray<string>]> = [
  ["ClockSkew", ["40008"]],
  ["Auth", ["40001", "40002", "40005", "40006", "40009", "40011", "40012", "40036", "40037"]],
  ["Permission", ["40014", "40018", "40038", "25620", "60049"]],
  ["Environment", ["40099"]],
  [
    "Parameter",
    [
      "40007",
      "40017",
      "40019",
      "40020",
      "40034",
      "40053",
      "00001",
      "70008",
      "40705",
      "40704",
      "40912",
      "40924",
      "60001"
    ]
  ],
  ["NotFound", ["43001", "43004", "45057", "40404"]],
  ["Order", ["45055", "40837", "43023", "45068", "40890", "43030", "43031", "40915", "40917", "45061", "45122"]],
  ["RateLimited", ["429", "45129", "25004"]],
  ["Maintenance", ["40015", "40200", "45001", "40725", "25000", "25001", "25003"]]
]

const kindByCode = new Map(kinds.flatMap(([kind, codes]) => codes.map((code) => [code, kind] as const)))

/**
 * Classifies an exchange error code into its family.
 *
 * @since 0.1.0
 * @category accessors
 */
export const classify = (code: string): ErrorKind => kindByCode.get(code) ?? "Unknown"

/**
 * The exchange answered with an error envelope (`code` other than `00000`),
 * whatever the HTTP status.
 *
 * @since 0.1.0
 * @category errors
 */
export class BitgetApiError extends Schema.TaggedError<BitgetApiError>("@bitget-effect/core/BitgetApiError")(
  "BitgetApiError",
  {
    endpoint: Schema.String,
    code: Schema.String,
    msg: Schema.String,
    status: Schema.Number,
    requestTime: Schema.Option(Schema.DateTimeUtc),
    retryAfter: Schema.Option(Schema.Duration)
  }
) {
  /** The family of the code. */
  get kind(): ErrorKind {
    return classify(this.code)
  }
  override get message(): string {
    return `${this.endpoint} failed with code ${this.code} (${this.kind}, HTTP ${this.status}): ${this.msg}`
  }
}

/**
 * The answer was not an exchange envelope and its HTTP status was not a success
 * (a 5xx HTML page from a proxy, say).
 *
 * @since 0.1.0
 * @category errors
 */
export class BitgetHttpError extends Schema.TaggedError<BitgetHttpError>("@bitget-effect/core/BitgetHttpError")(
  "BitgetHttpError",
  {
    endpoint: Schema.String,
    status: Schema.Number,
    excerpt: Schema.String
  }
) {
  override get message(): string {
    return `${this.endpoint} answered HTTP ${this.status} without an API envelope: ${this.excerpt}`
  }
}

/**
 * The request did not get an answer: no connection (`Connect`), a connection
 * that broke (`Network`), no answer in time (`Timeout`), or anything else that
 * failed inside the transport (`Unexpected`: a bug, or a runtime the transport
 * does not support; never retried). `sent` tells whether the request may have
 * reached the exchange (`true` when that is not known).
 *
 * @since 0.1.0
 * @category errors
 */
export class BitgetTransportError extends Schema.TaggedError<BitgetTransportError>(
  "@bitget-effect/core/BitgetTransportError"
)("BitgetTransportError", {
  endpoint: Schema.String,
  reason: Schema.Literals(["Timeout", "Connect", "Network", "Unexpected"]),
  sent: Schema.Boolean,
  description: Schema.String
}) {
  override get message(): string {
    return `${this.endpoint} transport failure (${this.reason}): ${this.description}`
  }
}

/**
 * The answer did not match the schema of the endpoint (or was not JSON).
 *
 * @since 0.1.0
 * @category errors
 */
export class BitgetDecodeError extends Schema.TaggedError<BitgetDecodeError>("@bitget-effect/core/BitgetDecodeError")(
  "BitgetDecodeError",
  {
    endpoint: Schema.String,
    status: Schema.Number,
    issue: Schema.String,
    excerpt: Schema.String
  }
) {
  override get message(): string {
    return `${this.endpoint} returned an unexpected response (HTTP ${this.status}): ${this.issue}; body: ${this.excerpt}`
  }
}

/**
 * The request was refused before anything was sent: invalid input
 * (`reason: "Invalid"`), or a signed operation without credentials
 * (`reason: "NoCredentials"`).
 *
 * @since 0.1.0
 * @category errors
 */
export class BitgetRequestError
  extends Schema.TaggedError<BitgetRequestError>("@bitget-effect/core/BitgetRequestError")(
    "BitgetRequestError",
    {
      endpoint: Schema.String,
      reason: Schema.Literals(["Invalid", "NoCredentials"]).pipe(
        Schema.withDecodingDefaultType(Effect.succeed("Invalid" as const)),
        Schema.withConstructorDefault(Effect.succeed("Invalid" as const))
      ),
      issue: Schema.String
    }
  )
{
  override get message(): string {
    return `${this.endpoint} request rejected before sending: ${this.issue}`
  }
}

/**
 * A request could not be signed (an unreadable RSA key, say).
 *
 * @since 0.1.0
 * @category errors
 */
export class BitgetSignerError extends Schema.TaggedError<BitgetSignerError>("@bitget-effect/core/BitgetSignerError")(
  "BitgetSignerError",
  {
    issue: Schema.String
  }
) {
  override get message(): string {
    return `could not sign the request: ${this.issue}`
  }
}

/**
 * The store failed (a shared store that cannot be reached, say).
 *
 * @since 0.1.0
 * @category errors
 */
export class RateLimiterStoreError extends Schema.TaggedError<RateLimiterStoreError>(
  "@bitget-effect/core/RateLimiterStoreError"
)("RateLimiterStoreError", { issue: Schema.String }) {
  override get message(): string {
    return `rate limiter store failed: ${this.issue}`
  }
}

/**
 * Waiting for a slot would take longer than the configured maximum wait.
 *
 * @since 0.1.0
 * @category errors
 */
export class RateLimitWaitExceeded extends Schema.TaggedError<RateLimitWaitExceeded>(
  "@bitget-effect/core/RateLimitWaitExceeded"
)("RateLimitWaitExceeded", {
  endpoint: Schema.String,
  key: Schema.String,
  maxWait: Schema.Duration
}) {
  override get message(): string {
    return `${this.endpoint} would wait longer than ${Duration.format(this.maxWait)} for its rate limit (${this.key})`
  }
}

/**
 * Any failure of a single Bitget call.
 *
 * @since 0.1.0
 * @category errors
 */
export type BitgetError =
  | BitgetApiError
  | BitgetHttpError
  | BitgetTransportError
  | BitgetDecodeError
  | BitgetRequestError
  | BitgetSignerError
  | RateLimitWaitExceeded
  | RateLimiterStoreError

/**
 * Any failure of a call that is never signed (a public endpoint): every
 * `BitgetError` but `BitgetSignerError`.
 *
 * @since 0.2.0
 * @category errors
 */
export type BitgetPublicError = Exclude<BitgetError, BitgetSignerError>

/** Every tag of the family; the type makes the compiler hold it to the `BitgetError` union. */
const tags: { readonly [Tag in BitgetError["_tag"]]: true } = {
  BitgetApiError: true,
  BitgetHttpError: true,
  BitgetTransportError: true,
  BitgetDecodeError: true,
  BitgetRequestError: true,
  BitgetSignerError: true,
  RateLimitWaitExceeded: true,
  RateLimiterStoreError: true
}

/**
 * `true` for any failure of a Bitget call.
 *
 * @since 0.1.0
 * @category predicates
 */
export const isBitgetError = (u: unknown): u is BitgetError =>
  Predicate.hasProperty(u, "_tag") && typeof u._tag === "string" && Object.hasOwn(tags, u._tag)

/**
 * `true` for an envelope failure of the given kind.
 *
 * @example
 * ```ts
 * import { BitgetError, Symbols } from "@bitget-effect/core"
 * import { Effect } from "effect"
 *
 * const program = Symbols.symbols().pipe(
 *   // rate limited whatever the code: try again, up to three times
 *   Effect.retry({ while: BitgetError.isApiErrorOfKind("RateLimited"), times: 3 }),
 *   // in maintenance: carry on with no symbols
 *   Effect.catchIf(BitgetError.isApiErrorOfKind("Maintenance"), () => Effect.succeed([]))
 * )
 * ```
 *
 * @since 0.1.0
 * @category predicates
 */
export const isApiErrorOfKind = (kind: ErrorKind) => (error: unknown): error is BitgetApiError =>
  Predicate.isTagged(error, "BitgetApiError") && (error as BitgetApiError).kind === kind

/**
 * Builds an envelope failure (as the exchange would send it) for tests and mocks.
 *
 * @since 0.1.0
 * @category constructors
 */
export const apiError = (options: {
  readonly endpoint: string
  readonly code: string
  readonly msg: string
  readonly status?: number
  readonly requestTime?: DateTime.Utc
  readonly retryAfter?: Duration.Duration
}): BitgetApiError =>
  new BitgetApiError({
    endpoint: options.endpoint,
    code: options.code,
    msg: options.msg,
    status: options.status ?? 400,
    requestTime: Option.fromUndefinedOr(options.requestTime),
    retryAfter: Option.fromUndefinedOr(options.retryAfter)
  })
