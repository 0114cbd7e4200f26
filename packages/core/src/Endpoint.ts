/**
 * One descriptor per endpoint: method, path, authentication, rate limit and
 * scope, retry safety, and the request and response schemas. Everything else
 * (signing, envelope, errors) is generic and lives in `BitgetClient`.
 *
 * @since 0.1.0
 */
import type * as Duration from "effect/Duration"
import type * as Result from "effect/Result"
import type * as Schema from "effect/Schema"
import type { BitgetError, BitgetPublicError } from "./BitgetError.js"
import { decoder as decoderOf } from "./internal/decoder.js"

/**
 * Who a rate limit counts: the API key's user (`uid`) or the caller's address (`ip`).
 *
 * @since 0.1.0
 * @category models
 */
export type RateLimitScope = "uid" | "ip"

/**
 * A frequency limit of the exchange: `limit` calls per `window`.
 *
 * @since 0.1.0
 * @category models
 */
export interface RateLimit {
  readonly limit: number
  readonly window: Duration.Input
  readonly scope: RateLimitScope
}

/**
 * Whether a call may be repeated when its first attempt may have reached the
 * exchange: `idempotent` reads and cancels may; `unsafe` writes may be retried
 * only on failures that prove the request was not received.
 *
 * @since 0.1.0
 * @category models
 */
export type Idempotency = "idempotent" | "unsafe"

/**
 * Query parameters as the request schema encodes them (absent values left out).
 *
 * @since 0.1.0
 * @category models
 */
export type QueryParams = { readonly [key: string]: string | undefined }

/**
 * Whether a call is signed: `signed` needs credentials; `public` never sends
 * them; `optional` signs when credentials are configured (the exchange tells
 * RPI market makers by their key) and sends none otherwise.
 *
 * @since 0.2.0
 * @category models
 */
export type Auth = "signed" | "public" | "optional"

/**
 * What a call of an endpoint with this `Auth` can fail with: a public call
 * is never signed, so it has every `BitgetError` but `BitgetSignerError`.
 *
 * @since 0.2.0
 * @category models
 */
export type Failure<Au extends Auth> = Au extends "public" ? BitgetPublicError : BitgetError

/**
 * What the exchange bounds, as core states it: the longest time window, the
 * largest `limit`, and the closed value tables by field: the values a request
 * field takes, spelled as sent, or the values the exchange documents for a
 * record field (tax records' `taxType`). The sandbox states the same of its
 * routes, and the e2e agreement test holds the two together.
 *
 * @since 0.2.0
 * @category models
 */
export interface Bounds {
  /** The most days between `startTime` and `endTime`. */
  readonly windowDays?: number
  /** The largest `limit` (records or levels per answer). */
  readonly pageSize?: number
  /** Each closed field's values, by field name. */
  readonly enums?: { readonly [field: string]: ReadonlyArray<string> }
}

interface Common<A, EA, Au extends Auth> {
  /** A stable name, e.g. `spot.batchCancelOrders`; used in errors, spans and limiter keys. */
  readonly name: string
  readonly path: string
  /** Whether calls are signed (see `Auth`). */
  readonly auth: Au
  readonly rateLimit: RateLimit
  readonly idempotency: Idempotency
  /** What the exchange bounds in a request (see `Bounds`); absent when nothing is. */
  readonly bounds?: Bounds
  /** Decodes the `data` field of a success envelope. */
  readonly response: Schema.Codec<A, EA>
}

/**
 * A GET endpoint: the request encodes to query parameters (see `get`).
 *
 * @since 0.1.0
 * @category models
 */
export interface Get<I, A, EI extends object = QueryParams, EA = unknown, Au extends Auth = Auth>
  extends Common<A, EA, Au>
{
  readonly method: "GET"
  readonly request: Schema.Codec<I, EI>
}

/**
 * A POST endpoint: the request encodes to the JSON body.
 *
 * @since 0.1.0
 * @category models
 */
export interface Post<I, A, EI extends object = object, EA = unknown, Au extends Auth = Auth>
  extends Common<A, EA, Au>
{
  readonly method: "POST"
  readonly request: Schema.Codec<I, EI>
}

/**
 * An endpoint descriptor.
 *
 * @since 0.1.0
 * @category models
 */
export type Endpoint<I, A, EI extends object = object, EA = unknown, Au extends Auth = Auth> =
  | Get<I, A, EI, EA, Au>
  | Post<I, A, EI, EA, Au>

/**
 * Describes a GET endpoint.
 *
 * @since 0.1.0
 * @category constructors
 */
export const get = <I, A, EI extends QueryParams, EA, Au extends Auth>(
  descriptor: Omit<Get<I, A, EI, EA, Au>, "method">
): Get<I, A, EI, EA, Au> => ({ ...descriptor, method: "GET" })

/**
 * Describes a POST endpoint.
 *
 * @since 0.1.0
 * @category constructors
 */
export const post = <I, A, EI extends object, EA, Au extends Auth>(
  descriptor: Omit<Post<I, A, EI, EA, Au>, "method">
): Post<I, A, EI, EA, Au> => ({ ...descriptor, method: "POST" })

/**
 * Whether a value is an endpoint descriptor (as `get` and `post` make them).
 *
 * @since 0.2.0
 * @category predicates
 */
export const isEndpoint = (u: unknown): u is Endpoint<unknown, unknown, object, unknown> =>
  typeof u === "object" && u !== null &&
  "method" in u && (u.method === "GET" || u.method === "POST") &&
  "path" in u && typeof u.path === "string" &&
  "name" in u && typeof u.name === "string" &&
  "rateLimit" in u && typeof u.rateLimit === "object" &&
  "request" in u && "response" in u

/**
 * Every endpoint descriptor that a namespace of modules exports, each once:
 * `collect(Core)` lists all of core's endpoints, so that whatever must cover
 * every endpoint (a dashboard, a test suite) is never a list kept by hand.
 *
 * @example
 * ```ts
 * import * as Core from "@bitget-effect/core"
 *
 * const names = Core.Endpoint.collect(Core).map((endpoint) => endpoint.name)
 * assert.ok(names.includes("tax.spotRecords"))
 * ```
 *
 * @since 0.2.0
 * @category accessors
 */
export const collect = (
  modules: { readonly [name: string]: unknown }
): ReadonlyArray<Endpoint<unknown, unknown, object, unknown>> => [
  ...new Set(
    Object.values(modules).flatMap((module) =>
      typeof module === "object" && module !== null ? Object.values(module).filter(isEndpoint) : []
    )
  )
]

/**
 * The label of an endpoint in errors and spans: `GET /api/v2/...`.
 *
 * @since 0.1.0
 * @category accessors
 */
export const label = (endpoint: { readonly method: string; readonly path: string }): string =>
  `${endpoint.method} ${endpoint.path}`

/**
 * How a table keyed by endpoint name falls short of a list of endpoints, one
 * line each: an endpoint without an entry, or a key that names none of them.
 * Empty when the table covers exactly those endpoints, as per-endpoint
 * settings, or a test suite over every endpoint (`collect(Core)`), must.
 *
 * @example
 * ```ts
 * import * as Core from "@bitget-effect/core"
 *
 * const lines = Core.Endpoint.gaps(Core.Endpoint.collect(Core), { "tax.spotRecords": 1, "spot.coins": 2 })
 * assert.ok(lines.includes("no entry for spot.symbols (GET /api/v2/spot/public/symbols)"))
 * assert.ok(lines.includes("an entry for spot.coins, which no endpoint has"))
 * ```
 *
 * @since 0.2.0
 * @category accessors
 */
export const gaps = (
  endpoints: ReadonlyArray<{ readonly name: string; readonly method: string; readonly path: string }>,
  table: object
): ReadonlyArray<string> => {
  const names = new Set(endpoints.map((endpoint) => endpoint.name))
  return [
    ...endpoints.filter((endpoint) => !Object.hasOwn(table, endpoint.name)).map((endpoint) =>
      `no entry for ${endpoint.name} (${label(endpoint)})`
    ),
    ...Object.keys(table).filter((name) => !names.has(name)).map((name) =>
      `an entry for ${name}, which no endpoint has`
    )
  ]
}

/**
 * The decoder of an endpoint's answers, as the client runs it on the `data`
 * of a success envelope: compiled once from the response schema, it builds
 * the same value as `Schema.decodeUnknownResult(endpoint.response)`, faster;
 * anything it cannot decode is decoded (or refused) by Schema. For answers
 * kept on disk, or read some other way.
 *
 * @example
 * ```ts
 * import { Endpoint, Symbols } from "@bitget-effect/core"
 * import { Result } from "effect"
 *
 * const decode = Endpoint.decoder(Symbols.endpoint)
 * const pairs = decode([{ symbol: "BTCUSDT", baseCoin: "BTC", quoteCoin: "USDT", status: "online" }])
 * assert.strictEqual(Result.isFailure(pairs), true) // a pair needs more fields than these
 * ```
 *
 * @since 0.1.0
 * @category constructors
 */
export const decoder = <A, EA>(
  endpoint: { readonly response: Schema.Codec<A, EA> }
): (data: unknown) => Result.Result<A, Schema.SchemaError> => decoderOf(endpoint.response)
