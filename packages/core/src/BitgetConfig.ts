/**
 * Client configuration: where to connect, with which credentials, and the
 * exchange's optional headers. Secrets stay `Redacted`.
 *
 * @since 0.1.0
 */
import { Config, ConfigError, Context, Duration, Either, Layer, Option } from "effect"
import type { Credentials } from "./Credentials.js"
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
  readonly credentials: Option.Option<Credentials>
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
}

/**
 * The options a caller gives; everything but the credentials has a default.
 *
 * @since 0.1.0
 * @category models
 */
export interface BitgetOptionsInput {
  readonly baseUrl?: string
  readonly credentials?: Credentials
  readonly locale?: Locale
  readonly demoTrading?: boolean
  readonly timeout?: Duration.DurationInput
  readonly channelApiCode?: string
  readonly rateLimit?: RateLimitOptions
  readonly retry?: BitgetOptions["retry"]
  readonly syncClockOnStart?: boolean
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
} = {
  baseUrl: defaultBaseUrl,
  locale: "en-US",
  demoTrading: false,
  timeout: Duration.seconds(10),
  syncClockOnStart: false
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
  syncClockOnStart: input.syncClockOnStart ?? defaults.syncClockOnStart
})

/**
 * A layer from options given in code.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = (input: BitgetOptionsInput = {}): Layer.Layer<BitgetConfig> =>
  Layer.succeed(BitgetConfig, make(input))

const credentialsConfig: Config.Config<Option.Option<Credentials>> = Config.all({
  apiKey: Config.option(Config.redacted("API_KEY")),
  passphrase: Config.option(Config.redacted("API_PASSPHRASE")),
  secret: Config.option(Config.redacted("API_SECRET")),
  privateKeyPem: Config.option(Config.redacted("RSA_PRIVATE_KEY"))
}).pipe(
  Config.mapOrFail(({ apiKey, passphrase, privateKeyPem, secret }) => {
    const key = Option.orElse(
      Option.map(secret, (s): Credentials["signingKey"] => ({ _tag: "Hmac", secret: s })),
      () => Option.map(privateKeyPem, (pem): Credentials["signingKey"] => ({ _tag: "Rsa", privateKeyPem: pem }))
    )
    if (Option.isNone(apiKey) && Option.isNone(passphrase) && Option.isNone(key)) {
      return Either.right(Option.none())
    }
    if (Option.isSome(apiKey) && Option.isSome(passphrase) && Option.isSome(key)) {
      return Either.right(Option.some({ apiKey: apiKey.value, passphrase: passphrase.value, signingKey: key.value }))
    }
    return Either.left(
      ConfigError.MissingData(
        [],
        "Incomplete credentials: set API_KEY, API_PASSPHRASE and API_SECRET (or RSA_PRIVATE_KEY) together"
      )
    )
  })
)

/**
 * Reads the options from `Config` under a prefix (default `BITGET`):
 * `BITGET_API_KEY`, `BITGET_API_SECRET` or `BITGET_RSA_PRIVATE_KEY`,
 * `BITGET_API_PASSPHRASE`, `BITGET_BASE_URL`, `BITGET_LOCALE`,
 * `BITGET_DEMO_TRADING`, `BITGET_TIMEOUT`, `BITGET_CHANNEL_API_CODE`,
 * `BITGET_RATE_LIMIT` (true/false), `BITGET_MAX_ATTEMPTS` and `BITGET_SYNC_CLOCK`.
 *
 * @since 0.1.0
 * @category config
 */
export const config = (prefix = "BITGET"): Config.Config<BitgetOptions> =>
  Config.nested(
    Config.all({
      baseUrl: Config.withDefault(Config.string("BASE_URL"), defaults.baseUrl),
      credentials: credentialsConfig,
      locale: Config.withDefault(Config.literal("en-US", "zh-CN")("LOCALE"), defaults.locale),
      demoTrading: Config.withDefault(Config.boolean("DEMO_TRADING"), defaults.demoTrading),
      timeout: Config.withDefault(Config.duration("TIMEOUT"), defaults.timeout),
      channelApiCode: Config.option(Config.string("CHANNEL_API_CODE")),
      rateLimitEnabled: Config.withDefault(Config.boolean("RATE_LIMIT"), true),
      maxAttempts: Config.option(Config.integer("MAX_ATTEMPTS")),
      syncClockOnStart: Config.withDefault(Config.boolean("SYNC_CLOCK"), defaults.syncClockOnStart)
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
 * A layer that reads the options from `Config` (environment variables by default).
 *
 * @since 0.1.0
 * @category layers
 */
export const layerConfig = (prefix = "BITGET"): Layer.Layer<BitgetConfig, ConfigError.ConfigError> =>
  Layer.effect(BitgetConfig, config(prefix))
