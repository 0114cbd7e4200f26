/**
 * Client configuration: where to connect, with which credentials, and the
 * exchange's optional headers. Secrets stay `Redacted`.
 *
 * @since 0.1.0
 */
import * as Config from "effect/Config"
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import * as SchemaIssue from "effect/SchemaIssue"
import * as SchemaTransformation from "effect/SchemaTransformation"
import * as Credentials from "./Credentials.js"
import type { RateLimitOptions } from "./RateLimiter.js"
import type { RetryOptions } from "./Retry.js"

/**
 * The production REST host.
 *
 * @since 0.1.0
 * @category constants
 */
export const defaultBaseUrl = "https://api.bitget.com"

/**
 * Languages the exchange writes `msg` in.
 *
 * @since 0.1.0
 * @category models
 */
export type Locale = "en-US" | "zh-CN"

/**
 * The resolved configuration.
 *
 * @since 0.1.0
 * @category models
 */
export interface BitgetOptions {
  /** Base URL without a trailing slash, e.g. `https://api.bitget.com`. */
  readonly baseUrl: string
  /** Credentials for signed operations; public operations need none. */
  readonly credentials: Option.Option<Credentials.Credentials>
  /** Language of the exchange's messages (`locale` header). */
  readonly locale: Locale
  /** Demo trading with a demo key: sends `paptrading: 1` on every request. */
  readonly demoTrading: boolean
  /** Time allowed for one HTTP attempt. */
  readonly timeout: Duration.Duration
  /** Broker channel code (`X-CHANNEL-API-CODE`), sent only when set. */
  readonly channelApiCode: Option.Option<string>
  /** Client-side rate limiting (on by default, with the spec's limits). */
  readonly rateLimit: RateLimitOptions
  /** Retry policy for every endpoint, and per endpoint name. */
  readonly retry: RetryOptions & { readonly endpoints?: { readonly [endpoint: string]: RetryOptions } }
  /** Read the exchange's clock once when the client starts (it is read anyway after a 40008). */
  readonly syncClockOnStart: boolean
  /** The largest answer read, in bytes; a longer one fails the call (default 16 MiB, 16 times the largest real page). */
  readonly maxResponseBytes: number
}

/**
 * The options a caller gives; everything but the credentials has a default.
 *
 * @since 0.1.0
 * @category models
 */
export interface BitgetOptionsInput {
  readonly baseUrl?: string
  readonly credentials?: Credentials.Credentials
  readonly locale?: Locale
  readonly demoTrading?: boolean
  readonly timeout?: Duration.Input
  readonly channelApiCode?: string
  readonly rateLimit?: RateLimitOptions
  readonly retry?: BitgetOptions["retry"]
  readonly syncClockOnStart?: boolean
  readonly maxResponseBytes?: number
}

/**
 * The configuration service.
 *
 * @since 0.1.0
 * @category services
 */
export class BitgetConfig extends Context.Service<BitgetConfig, BitgetOptions>()("@bitget-effect/core/BitgetConfig") {}

const defaults: {
  readonly baseUrl: string
  readonly locale: Locale
  readonly demoTrading: boolean
  readonly timeout: Duration.Duration
  readonly syncClockOnStart: boolean
  readonly maxResponseBytes: number
} = {
  baseUrl: defaultBaseUrl,
  locale: "en-US",
  demoTrading: false,
  timeout: Duration.seconds(10),
  syncClockOnStart: false,
  maxResponseBytes: 16 * 1024 * 1024
}

/**
 * Fills in the defaults.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (input: BitgetOptionsInput = {}): BitgetOptions => ({
  baseUrl: (input.baseUrl ?? defaults.baseUrl).replace(/\/+$/, ""),
  credentials: Option.fromUndefinedOr(input.credentials),
  locale: input.locale ?? defaults.locale,
  demoTrading: input.demoTrading ?? defaults.demoTrading,
  timeout: Duration.fromInputUnsafe(input.timeout ?? defaults.timeout),
  channelApiCode: Option.fromUndefinedOr(input.channelApiCode),
  rateLimit: input.rateLimit ?? {},
  retry: input.retry ?? {},
  syncClockOnStart: input.syncClockOnStart ?? defaults.syncClockOnStart,
  maxResponseBytes: input.maxResponseBytes ?? defaults.maxResponseBytes
})

/**
 * A layer from options given in code.
 *
 * @example
 * ```ts
 * import { BitgetClient, BitgetConfig, Credentials, WebCryptoSigner } from "@bitget-effect/core"
 * import { Layer } from "effect"
 * import { FetchHttpClient } from "effect/http"
 *
 * const config = BitgetConfig.layer({
 *   credentials: Credentials.hmac({ apiKey: "bg_0123456789abcdef", secret: "0123456789abcdef", passphrase: "phrase" }),
 *   timeout: "5 seconds",
 *   retry: { maxAttempts: 3 }
 * })
 *
 * // The client on fetch and WebCrypto; on Node.js, `BitgetNode.layer(options)`
 * // from @bitget-effect/platform-node does all of this.
 * const platform = Layer.mergeAll(config, WebCryptoSigner.layer, FetchHttpClient.layer)
 * const client = BitgetClient.layer.pipe(Layer.provide(platform))
 * ```
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = (input: BitgetOptionsInput = {}): Layer.Layer<BitgetConfig> =>
  Layer.succeed(BitgetConfig, make(input))

/** The variable a config path is read from by the default (environment) provider. */
const variable = (path: ReadonlyArray<PropertyKey>): string => path.map(String).join("_")

/** A failure for incomplete credentials, at the variable that is missing. */
const incomplete = (prefix: string, missing: string): Config.ConfigError =>
  new Config.ConfigError(
    new Schema.SchemaError(
      new SchemaIssue.Pointer(
        [prefix, missing],
        new SchemaIssue.MissingKey({
          messageMissingKey: `incomplete credentials: set ${
            Credentials.variables(prefix)
          } together, or none of them for public calls only`
        })
      )
    )
  )

/** The credentials under a prefix: none, or a complete set built by `Credentials`. */
const credentialsConfig = (prefix: string): Config.Config<Option.Option<Credentials.Credentials>> =>
  Config.all({
    apiKey: Config.option(Config.Redacted(Credentials.keys.apiKey)),
    passphrase: Config.option(Config.Redacted(Credentials.keys.passphrase)),
    secret: Config.option(Config.Redacted(Credentials.keys.secret)),
    privateKeyPem: Config.option(Config.Redacted(Credentials.keys.privateKeyPem))
  }).pipe(
    Config.mapEffect(
      ({ apiKey, passphrase, privateKeyPem, secret }): Effect.Effect<
        Option.Option<Credentials.Credentials>,
        Config.ConfigError
      > => {
        if ([apiKey, passphrase, secret, privateKeyPem].every(Option.isNone)) return Effect.succeedNone
        if (Option.isSome(apiKey) && Option.isSome(passphrase)) {
          if (Option.isSome(secret)) {
            return Effect.succeedSome(
              Credentials.hmac({ apiKey: apiKey.value, passphrase: passphrase.value, secret: secret.value })
            )
          }
          if (Option.isSome(privateKeyPem)) {
            return Effect.succeedSome(
              Credentials.rsa({
                apiKey: apiKey.value,
                passphrase: passphrase.value,
                privateKeyPem: privateKeyPem.value
              })
            )
          }
        }
        return Effect.fail(
          incomplete(
            prefix,
            Option.isNone(apiKey)
              ? Credentials.keys.apiKey
              : Option.isNone(passphrase)
              ? Credentials.keys.passphrase
              : Credentials.keys.secret
          )
        )
      }
    )
  )

/** `Config.Duration`, whose message for a value it cannot read shows one it can (never the value itself). */
const durationConfig = (name: string): Config.Config<Duration.Duration> =>
  Config.schema(
    Schema.String.check(
      Schema.makeFilter((text) => Option.isSome(Duration.fromInput(text as Duration.Input)), {
        message: "Expected a duration such as \"10 seconds\", \"5000 millis\" or \"1.5 minutes\""
      })
    ).pipe(Schema.decodeTo(Schema.Duration, SchemaTransformation.durationFromString)),
    name
  )

/** An issue with the path it is at joined into the variable a user sets (`BITGET_TIMEOUT`). */
const atVariable = (issue: SchemaIssue.Issue, path: ReadonlyArray<PropertyKey>): SchemaIssue.Issue =>
  issue._tag === "Pointer"
    ? atVariable(issue.issue, [...path, ...issue.path])
    : path.length === 0
    ? issue
    : new SchemaIssue.Pointer([variable(path)], issue)

/** The same failure at the variable the user sets (`BITGET_TIMEOUT`, not `["BITGET"]["TIMEOUT"]`). */
const namedByVariable = (error: Config.ConfigError): Config.ConfigError =>
  Schema.isSchemaError(error.cause)
    ? new Config.ConfigError(new Schema.SchemaError(atVariable(error.cause.issue, [])))
    : error

/**
 * Reads the options from `Config` under a prefix (default `BITGET`):
 * `BITGET_API_KEY`, `BITGET_API_SECRET` or `BITGET_RSA_PRIVATE_KEY`,
 * `BITGET_API_PASSPHRASE`, `BITGET_BASE_URL`, `BITGET_LOCALE`,
 * `BITGET_DEMO_TRADING`, `BITGET_TIMEOUT`, `BITGET_CHANNEL_API_CODE`,
 * `BITGET_RATE_LIMIT` (true/false), `BITGET_MAX_ATTEMPTS`, `BITGET_SYNC_CLOCK` and
 * `BITGET_MAX_RESPONSE_BYTES`.
 *
 * @since 0.1.0
 * @category constructors
 */
export const config = (prefix = "BITGET"): Config.Config<BitgetOptions> =>
  Config.nested(
    Config.all({
      baseUrl: Config.withDefault(Config.String("BASE_URL"), defaults.baseUrl),
      credentials: credentialsConfig(prefix),
      locale: Config.withDefault(Config.Literals(["en-US", "zh-CN"], "LOCALE"), defaults.locale),
      demoTrading: Config.withDefault(Config.Boolean("DEMO_TRADING"), defaults.demoTrading),
      timeout: Config.withDefault(durationConfig("TIMEOUT"), defaults.timeout),
      channelApiCode: Config.option(Config.String("CHANNEL_API_CODE")),
      rateLimitEnabled: Config.withDefault(Config.Boolean("RATE_LIMIT"), true),
      maxAttempts: Config.option(Config.Int("MAX_ATTEMPTS")),
      syncClockOnStart: Config.withDefault(Config.Boolean("SYNC_CLOCK"), defaults.syncClockOnStart),
      maxResponseBytes: Config.withDefault(Config.Int("MAX_RESPONSE_BYTES"), defaults.maxResponseBytes)
    }),
    prefix
  ).pipe(Config.map(({ channelApiCode, credentials, maxAttempts, rateLimitEnabled, ...options }) =>
    make({
      ...options,
      ...Option.match(credentials, { onNone: () => ({}), onSome: (c) => ({ credentials: c }) }),
      ...Option.match(channelApiCode, { onNone: () => ({}), onSome: (code) => ({ channelApiCode: code }) }),
      ...Option.match(maxAttempts, { onNone: () => ({}), onSome: (n) => ({ retry: { maxAttempts: n } }) }),
      rateLimit: { enabled: rateLimitEnabled }
    })
  ))

/**
 * A layer that reads the options from `Config` (environment variables by
 * default). A failure names the variable as the user sets it
 * (`BITGET_TIMEOUT`), never its value.
 *
 * @example
 * ```ts
 * import { BitgetConfig } from "@bitget-effect/core"
 * import { ConfigProvider, Duration, Effect } from "effect"
 *
 * // BITGET_API_KEY, BITGET_API_SECRET, BITGET_API_PASSPHRASE, BITGET_TIMEOUT, ...
 * const layer = BitgetConfig.layerConfig()
 *
 * // Here the variables come from a record instead of the environment.
 * const variables = ConfigProvider.fromEnvRecord({ BITGET_DEMO_TRADING: "true", BITGET_TIMEOUT: "3 seconds" })
 * const options = Effect.runSync(BitgetConfig.BitgetConfig.pipe(
 *   Effect.provide(layer),
 *   Effect.provideService(ConfigProvider.ConfigProvider, variables)
 * ))
 * assert.strictEqual(options.demoTrading, true)
 * assert.strictEqual(Duration.format(options.timeout), "3s")
 * ```
 *
 * @since 0.1.0
 * @category layers
 */
export const layerConfig = (prefix = "BITGET"): Layer.Layer<BitgetConfig, Config.ConfigError> =>
  Layer.effect(BitgetConfig, Effect.mapError(config(prefix), namedByVariable))
