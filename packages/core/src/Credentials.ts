/**
 * API credentials. Every secret is held as `Redacted`, so it prints as
 * `<redacted>` in logs, errors, spans and JSON.
 *
 * @since 0.1.0
 */
import * as Redacted from "effect/Redacted"

/**
 * The key that signs requests: an HMAC secret or an RSA private key in PEM
 * (PKCS#8 `BEGIN PRIVATE KEY` or PKCS#1 `BEGIN RSA PRIVATE KEY`).
 *
 * @since 0.1.0
 * @category models
 */
export type SigningKey =
  | { readonly _tag: "Hmac"; readonly secret: Redacted.Redacted<string> }
  | { readonly _tag: "Rsa"; readonly privateKeyPem: Redacted.Redacted<string> }

/**
 * An API key with its passphrase and signing key.
 *
 * @since 0.1.0
 * @category models
 */
export interface Credentials {
  readonly apiKey: Redacted.Redacted<string>
  readonly passphrase: Redacted.Redacted<string>
  readonly signingKey: SigningKey
}

const redact = (value: string | Redacted.Redacted<string>) => (typeof value === "string" ? Redacted.make(value) : value)

/**
 * Credentials for an HMAC-SHA256 key.
 *
 * @example
 * ```ts
 * import { Credentials } from "@bitget-effect/core"
 *
 * const credentials = Credentials.hmac({
 *   apiKey: "bg_0123456789abcdef",
 *   secret: "0123456789abcdef0123456789abcdef",
 *   passphrase: "my-passphrase"
 * })
 * assert.strictEqual(`${credentials.apiKey}`, "<redacted>") // secrets print redacted
 *
 * // `BitgetConfig.layerConfig()` builds them from BITGET_API_KEY, BITGET_API_SECRET and BITGET_API_PASSPHRASE.
 * ```
 *
 * @since 0.1.0
 * @category constructors
 */
export const hmac = (options: {
  readonly apiKey: string | Redacted.Redacted<string>
  readonly secret: string | Redacted.Redacted<string>
  readonly passphrase: string | Redacted.Redacted<string>
}): Credentials => ({
  apiKey: redact(options.apiKey),
  passphrase: redact(options.passphrase),
  signingKey: { _tag: "Hmac", secret: redact(options.secret) }
})

/**
 * Credentials for an RSA key (SHA256withRSA signatures).
 *
 * @example
 * ```ts
 * import { Credentials } from "@bitget-effect/core"
 * import { Config } from "effect"
 *
 * // The key as PEM (PKCS#8 or PKCS#1), from the environment. `BitgetConfig.layerConfig()`
 * // does this itself when BITGET_RSA_PRIVATE_KEY is set.
 * const credentials: Config.Config<Credentials.Credentials> = Config.all({
 *   apiKey: Config.Redacted("BITGET_API_KEY"),
 *   privateKeyPem: Config.Redacted("BITGET_RSA_PRIVATE_KEY"),
 *   passphrase: Config.Redacted("BITGET_API_PASSPHRASE")
 * }).pipe(Config.map(Credentials.rsa))
 * ```
 *
 * @since 0.1.0
 * @category constructors
 */
export const rsa = (options: {
  readonly apiKey: string | Redacted.Redacted<string>
  readonly privateKeyPem: string | Redacted.Redacted<string>
  readonly passphrase: string | Redacted.Redacted<string>
}): Credentials => ({
  apiKey: redact(options.apiKey),
  passphrase: redact(options.passphrase),
  signingKey: { _tag: "Rsa", privateKeyPem: redact(options.privateKeyPem) }
})

/**
 * The secret material of a signing key: the HMAC secret or the RSA private key.
 *
 * @since 0.1.0
 * @category accessors
 */
export const keyMaterial = (key: SigningKey): Redacted.Redacted<string> =>
  key._tag === "Hmac" ? key.secret : key.privateKeyPem

/**
 * Every value of credentials that must never be shown: the API key, the
 * passphrase and the signing key's material.
 *
 * @since 0.1.0
 * @category accessors
 */
export const secrets = (credentials: Credentials): ReadonlyArray<Redacted.Redacted<string>> => [
  credentials.apiKey,
  credentials.passphrase,
  keyMaterial(credentials.signingKey)
]

/**
 * The configuration keys of credentials, under a prefix such as `BITGET`
 * (`BITGET_API_KEY`, …): what `BitgetConfig.layerConfig` reads and what
 * messages tell a user to set.
 *
 * @since 0.1.0
 * @category constants
 */
export const keys = {
  apiKey: "API_KEY",
  secret: "API_SECRET",
  privateKeyPem: "RSA_PRIVATE_KEY",
  passphrase: "API_PASSPHRASE"
} as const

/**
 * The credential variables under a prefix, as a person reads them:
 * `BITGET_API_KEY, BITGET_API_PASSPHRASE and BITGET_API_SECRET (or BITGET_RSA_PRIVATE_KEY)`.
 *
 * @since 0.1.0
 * @category formatting
 */
export const variables = (prefix = "BITGET"): string =>
  `${prefix}_${keys.apiKey}, ${prefix}_${keys.passphrase} and ${prefix}_${keys.secret} (or ${prefix}_${keys.privateKeyPem})`
