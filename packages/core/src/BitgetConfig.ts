/**
 * Client configuration: where to connect, with which credentials, and the
 * exchange's optional headers. Secrets stay `Redacted`.
 *
 * @since 0.1.0
 */
import * as Config from "effect/Config"
import * as ConfigError from "effect/ConfigError"
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
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
  readonly timeout?: Duration.DurationInput
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
export class BitgetConfig extends Context.Tag("@bitget-effect/core/BitgetConfig")<BitgetConfig, BitgetOptions>() {}

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
  credentials: Option.fromNullable(input.credentials),
  locale: input.locale ?? defaults.locale,
  demoTrading: input.demoTrading ?? defaults.demoTrading,
  timeout: Duration.decode(input.timeout ?? defaults.timeout),
  channelApiCode: Option.fromNullable(input.channelApiCode),
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
 * import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
 * import { Layer } from "effect"
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
const variable = (path: ReadonlyArray<string>): string => path.join("_")

/** The credentials under a prefix: none, or a complete set built by `Credentials`. */
const credentialsConfig = (prefix: string): Config.Config<Option.Option<Credentials.Credentials>> =>
  Config.all({
    apiKey: Config.option(Config.redacted(Credentials.keys.apiKey)),
    passphrase: Config.option(Config.redacted(Credentials.keys.passphrase)),
    secret: Config.option(Config.redacted(Credentials.keys.secret)),
    privateKeyPem: Config.option(Config.redacted(Credentials.keys.privateKeyPem))
  }).pipe(
    Config.mapOrFail(({ apiKey, passphrase, privateKeyPem, secret }) => {
      if ([apiKey, passphrase, secret, privateKeyPem].every(Option.isNone)) return Either.right(Option.none())
      if (Option.isSome(apiKey) && Option.isSome(passphrase)) {
        if (Option.isSome(secret)) {
          return Either.right(
            Option.some(Credentials.hmac({ apiKey: apiKey.value, passphrase: passphrase.value, secret: secret.value }))
          )
        }
        if (Option.isSome(privateKeyPem)) {
          return Either.right(
            Option.some(
              Credentials.rsa({
                apiKey: apiKey.value,
                passphrase: passphrase.value,
                privateKeyPem: privateKeyPem.value
              })
            )
          )
        }
      }
      const missing = Option.isNone(apiKey)
        ? Credentials.keys.apiKey
        : Option.isNone(passphrase)
        ? Credentials.keys.passphrase
        : Credentials.keys.secret
      return Either.left(
        ConfigError.MissingData(
          [missing],
          `incomplete credentials: set ${Credentials.variables(prefix)} together, or none of them for public calls only`
        )
      )
    })
  )

/** The same failure with every path named as the variable the user sets (`BITGET_TIMEOUT`, not `BITGET.TIMEOUT`). */
const namedByVariable = (error: ConfigError.ConfigError): ConfigError.ConfigError => {
  switch (error._op) {
    case "And":
      return ConfigError.And(namedByVariable(error.left), namedByVariable(error.right))
    case "Or":
      return ConfigError.Or(namedByVariable(error.left), namedByVariable(error.right))
    case "InvalidData":
      return ConfigError.InvalidData([variable(error.path)], error.message)
    case "MissingData":
      return ConfigError.MissingData([variable(error.path)], error.message)
    case "SourceUnavailable":
      return ConfigError.SourceUnavailable([variable(error.path)], error.message, error.cause)
    case "Unsupported":
      return ConfigError.Unsupported([variable(error.path)], error.message)
  }
}

/**
 * Reads the options from `Config` under a prefix (default `BITGET`):
 * `BITGET_API_KEY`, `BITGET_API_SECRET` or `BITGET_RSA_PRIVATE_KEY`,
 * `BITGET_API_PASSPHRASE`, `BITGET_BASE_URL`, `BITGET_LOCALE`,
 * `BITGET_DEMO_TRADING`, `BITGET_TIMEOUT`, `BITGET_CHANNEL_API_CODE`,
 * `BITGET_RATE_LIMIT` (true/false), `BITGET_MAX_ATTEMPTS`, `BITGET_SYNC_CLOCK` and
 * `BITGET_MAX_RESPONSE_BYTES`.
 *
 * @since 0.1.0
 * @category config
 */
export const config = (prefix = "BITGET"): Config.Config<BitgetOptions> =>
  Config.nested(
    Config.all({
      baseUrl: Config.withDefault(Config.string("BASE_URL"), defaults.baseUrl),
      credentials: credentialsConfig(prefix),
      locale: Config.withDefault(Config.literal("en-US", "zh-CN")("LOCALE"), defaults.locale),
      demoTrading: Config.withDefault(Config.boolean("DEMO_TRADING"), defaults.demoTrading),
      timeout: Config.withDefault(Config.duration("TIMEOUT"), defaults.timeout),
      channelApiCode: Config.option(Config.string("CHANNEL_API_CODE")),
      rateLimitEnabled: Config.withDefault(Config.boolean("RATE_LIMIT"), true),
      maxAttempts: Config.option(Config.integer("MAX_ATTEMPTS")),
      syncClockOnStart: Config.withDefault(Config.boolean("SYNC_CLOCK"), defaults.syncClockOnStart),
      maxResponseBytes: Config.withDefault(Config.integer("MAX_RESPONSE_BYTES"), defaults.maxResponseBytes)
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
 * default). A failure names each variable as the user sets it
 * (`BITGET_TIMEOUT`).
 *
 * @example
 * ```ts
 * import { BitgetConfig } from "@bitget-effect/core"
 * import { ConfigProvider, Duration, Effect } from "effect"
 *
 * // BITGET_API_KEY, BITGET_API_SECRET, BITGET_API_PASSPHRASE, BITGET_TIMEOUT, ...
 * const layer = BitgetConfig.layerConfig()
 *
 * // Here the variables come from a map instead of the environment.
 * const variables = new Map([["BITGET_DEMO_TRADING", "true"], ["BITGET_TIMEOUT", "3 seconds"]])
 * const options = Effect.runSync(BitgetConfig.BitgetConfig.pipe(
 *   Effect.provide(layer),
 *   Effect.withConfigProvider(ConfigProvider.fromMap(variables, { pathDelim: "_" }))
 * ))
 * assert.strictEqual(options.demoTrading, true)
 * assert.strictEqual(Duration.format(options.timeout), "3s")
 * ```
 *
 * @since 0.1.0
 * @category layers
 */
export const layerConfig = (prefix = "BITGET"): Layer.Layer<BitgetConfig, ConfigError.ConfigError> =>
  Layer.effect(BitgetConfig, Effect.mapError(config(prefix), namedByVariable))
