/**
 * One descriptor per endpoint: method, path, authentication, rate limit and
 * scope, retry safety, and the request and response schemas. Everything else
 * (signing, envelope, errors) is generic and lives in `BitgetClient`.
 *
 * @since 0.1.0
 */
import type * as Duration from "effect/Duration"
import type * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import type { BitgetError, BitgetPublicError } from "./BitgetError.js"
import { decoder as decoderOf, install } from "./internal/decoder.js"

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
  /** The calls allowed in any `window`: Bitget's "20 times/1s" is `limit: 20`. */
  readonly limit: number
  /** The span the limit counts over: `"1 second"`, `"1 minute"` (any `Duration.Input`). */
  readonly window: Duration.Input
  /** Whom the limit counts (see `RateLimitScope`): Bitget's "(UID)" is `uid`, "(IP)" is `ip`. */
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

/**
 * The fields of every endpoint descriptor, GET or POST.
 *
 * @since 0.2.0
 * @category models
 */
export interface Common<A, EA, Au extends Auth> {
  /**
   * A stable name, e.g. `spot.batchCancelOrders`: it names the call in errors,
   * spans and metrics, keys its rate-limit bucket, and picks its entry of
   * `retry.endpoints` in the configuration.
   */
  readonly name: string
  /** The path after the base URL, query excluded: `/api/v2/spot/market/tickers`. */
  readonly path: string
  /** Whether calls are signed (see `Auth`); a `public` endpoint's calls never fail with `BitgetSignerError`. */
  readonly auth: Au
  /**
   * The exchange's limit for the endpoint, which the client keeps to before
   * sending (see `RateLimit`). There is no default: take it from the
   * endpoint's page of Bitget's API docs, since a limit above the exchange's
   * earns 429s.
   */
  readonly rateLimit: RateLimit
  /** Which failures a call may be retried on (see `Idempotency`). */
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
  /**
   * Encodes a call's input to its query parameters (strings; `undefined` ones
   * are left out). A request is what its own properties say: the client
   * ignores what the input, or a record in it, inherits.
   */
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
  /**
   * Encodes a call's input to its JSON body. A request is what its own
   * properties say: the client ignores what the input, or a record in it,
   * inherits.
   */
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
 * Describes a GET endpoint from every field of `Get` but `method`: an
 * endpoint the library does not ship is called as its own are, by
 * `BitgetClient.execute`, with the same signing, rate limits, retries, spans
 * and typed errors (docs/custom-endpoints.md). Its response schema's fast
 * decoder is installed in Schema's registry here: `Schema.decodeUnknown*` of
 * that schema runs it, wherever it is called.
 *
 * @example
 * ```ts
 * import { BitgetClient, BitgetMock, Endpoint, Schemas } from "@bitget-effect/core"
 * import { BigDecimal, Effect, Schema } from "effect"
 * import { strictEqual } from "node:assert"
 *
 * const tickers = Endpoint.get({
 *   name: "spot.tickers",
 *   path: "/api/v2/spot/market/tickers",
 *   auth: "public",
 *   rateLimit: { limit: 20, window: "1 second", scope: "ip" }, // Bitget's "20 times/1s (IP)"
 *   idempotency: "idempotent",
 *   request: Schema.Struct({ symbol: Schema.optionalKey(Schema.String) }),
 *   response: Schema.Array(Schema.Struct({ symbol: Schema.String, lastPr: Schemas.Decimal }))
 * })
 *
 * // Here a mock answers; `BitgetNode.layer` would send the call.
 * const mock = BitgetMock.layer(
 *   BitgetMock.succeed(tickers, [{ symbol: "BTCUSDT", lastPr: BigDecimal.fromStringUnsafe("97000.5") }])
 * )
 * const [btc] = Effect.runSync(Effect.provide(BitgetClient.execute(tickers, { symbol: "BTCUSDT" }), mock))
 * strictEqual(Schemas.formatDecimal(btc.lastPr), "97000.5")
 * ```
 *
 * @since 0.1.0
 * @category constructors
 */
export const get = <I, A, EI extends QueryParams, EA, Au extends Auth>(
  descriptor: Omit<Get<I, A, EI, EA, Au>, "method">
): Get<I, A, EI, EA, Au> => {
  install(descriptor.response)
  return { ...descriptor, method: "GET" }
}

/**
 * Describes a POST endpoint from every field of `Post` but `method`; its
 * request schema encodes the JSON body (see `get`).
 *
 * @since 0.1.0
 * @category constructors
 */
export const post = <I, A, EI extends object, EA, Au extends Auth>(
  descriptor: Omit<Post<I, A, EI, EA, Au>, "method">
): Post<I, A, EI, EA, Au> => {
  install(descriptor.response)
  return { ...descriptor, method: "POST" }
}

/**
 * The input of a raw GET (see `raw`): its query parameters, as sent.
 *
 * @since 0.2.0
 * @category models
 */
export type RawQuery = { readonly [key: string]: string }

/**
 * The input of a raw POST (see `raw`): its JSON body.
 *
 * @since 0.2.0
 * @category models
 */
export type RawBody = Schema.JsonObject

/**
 * What `raw` needs to know of an endpoint (the fields as in `Common`).
 *
 * @since 0.2.0
 * @category models
 */
export interface RawOptions<M extends "GET" | "POST", Au extends Auth> {
  /** `GET` sends the input as the query, `POST` as the JSON body. */
  readonly method: M
  /** The path after the base URL, query excluded: `/api/v2/spot/market/tickers`. */
  readonly path: string
  /** The name in errors, spans, metrics, rate-limit buckets and `retry.endpoints` (default: the method and path). */
  readonly name?: string
  /** Whether calls are signed (see `Auth`). */
  readonly auth: Au
  /** The exchange's limit for the endpoint (see `RateLimit`); no default: take it from the endpoint's page. */
  readonly rateLimit: RateLimit
  /** Which failures a call may be retried on (see `Idempotency`). */
  readonly idempotency: Idempotency
}

/**
 * The descriptor `raw` makes: its input is a `RawQuery` (GET) or a
 * `RawBody` (POST), its answer the envelope's `data` as JSON.
 *
 * @since 0.2.0
 * @category models
 */
export type Raw<M extends "GET" | "POST", Au extends Auth> = M extends "GET"
  ? Get<RawQuery, Schema.Json, RawQuery, Schema.Json, Au>
  : Post<RawBody, Schema.Json, RawBody, Schema.Json, Au>

const rawQuery: Schema.Codec<RawQuery> = Schema.Record(Schema.String, Schema.String)

/**
 * Describes an endpoint without schemas, for a call whose answer you would
 * rather read as JSON than describe: a GET takes its query as strings, a POST
 * its body as JSON, and the call returns the `data` of the answer's envelope
 * as it came. Signing, rate limits, retries, spans and typed errors are those
 * of any endpoint; only the decoding is left to you.
 *
 * @example
 * ```ts
 * import { BitgetClient, BitgetMock, Endpoint } from "@bitget-effect/core"
 * import { Effect } from "effect"
 * import { deepStrictEqual } from "node:assert"
 *
 * const tickers = Endpoint.raw({
 *   method: "GET",
 *   path: "/api/v2/spot/market/tickers",
 *   auth: "public",
 *   rateLimit: { limit: 20, window: "1 second", scope: "ip" }, // Bitget's "20 times/1s (IP)"
 *   idempotency: "idempotent"
 * })
 *
 * // Here a mock answers; `BitgetNode.layer` would send the call.
 * const mock = BitgetMock.layer(BitgetMock.succeed(tickers, [{ symbol: "BTCUSDT", lastPr: "97000.5" }]))
 * const data = Effect.runSync(Effect.provide(BitgetClient.execute(tickers, { symbol: "BTCUSDT" }), mock))
 * deepStrictEqual(data, [{ symbol: "BTCUSDT", lastPr: "97000.5" }])
 * ```
 *
 * @since 0.2.0
 * @category constructors
 */
export const raw = <M extends "GET" | "POST", Au extends Auth>(options: RawOptions<M, Au>): Raw<M, Au> => {
  const { method, name, ...fields } = options
  const common = { ...fields, name: name ?? label(options), response: Schema.Json }
  const descriptor: Raw<"GET" | "POST", Au> = method === "GET"
    ? get({ ...common, request: rawQuery })
    : post({ ...common, request: Schema.JsonObject })
  return descriptor as Raw<M, Au>
}

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
 * import { ok } from "node:assert"
 *
 * const names = Core.Endpoint.collect(Core).map((endpoint) => endpoint.name)
 * ok(names.includes("tax.spotRecords"))
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
 * import { ok } from "node:assert"
 *
 * const lines = Core.Endpoint.gaps(Core.Endpoint.collect(Core), { "tax.spotRecords": 1, "spot.coins": 2 })
 * ok(lines.includes("no entry for spot.symbols (GET /api/v2/spot/public/symbols)"))
 * ok(lines.includes("an entry for spot.coins, which no endpoint has"))
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
 * of a success envelope: `Schema.decodeUnknownResult(endpoint.response)`,
 * which runs the fast decoder compiled once from the response schema (`get`
 * and `post` install it in Schema's registry); anything it cannot decode is
 * decoded (or refused) by Schema's own parser. For answers kept on disk, or
 * read some other way.
 *
 * @example
 * ```ts
 * import { Endpoint, Symbols } from "@bitget-effect/core"
 * import { Result } from "effect"
 * import { strictEqual } from "node:assert"
 *
 * const decode = Endpoint.decoder(Symbols.endpoint)
 * const pairs = decode([{ symbol: "BTCUSDT", baseCoin: "BTC", quoteCoin: "USDT", status: "online" }])
 * strictEqual(Result.isFailure(pairs), true) // a pair needs more fields than these
 * ```
 *
 * @since 0.1.0
 * @category constructors
 */
export const decoder = <A, EA>(
  endpoint: { readonly response: Schema.Codec<A, EA> }
): (data: unknown) => Result.Result<A, Schema.SchemaError> => decoderOf(endpoint.response)
