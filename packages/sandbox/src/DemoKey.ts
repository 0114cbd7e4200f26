/**
 * The API keys the sandbox accepts. The HMAC keys are fixed, so a CLI user can
 * paste them into a config once; the RSA key pair is generated when the
 * sandbox starts (once per process) unless a private key is supplied. One
 * HMAC key is a demo-trading key: like Bitget's, it must send the
 * `paptrading: 1` header, which the other keys must not send.
 *
 * @since 0.1.0
 */
import * as Effect from "effect/Effect"
import { createPrivateKey, createPublicKey, generateKeyPairSync } from "node:crypto"

/**
 * An HMAC-SHA256 key.
 *
 * @since 0.1.0
 * @category models
 */
export interface HmacKey {
  readonly _tag: "Hmac"
  readonly apiKey: string
  readonly passphrase: string
  readonly secret: string
  /** Whether the key belongs to an RPI market maker (may read the RPI order book). */
  readonly rpiMarketMaker: boolean
  /**
   * Whether it is a demo-trading key: its signed calls must carry the
   * `paptrading: 1` header, and a live key's must not (else 40099).
   */
  readonly demo: boolean
}

/**
 * An RSA key: clients sign with the PKCS#8 private key, the server verifies
 * with the public key (SHA256withRSA).
 *
 * @since 0.1.0
 * @category models
 */
export interface RsaKey {
  readonly _tag: "Rsa"
  readonly apiKey: string
  readonly passphrase: string
  readonly privateKeyPem: string
  readonly publicKeyPem: string
  /** Whether the key belongs to an RPI market maker (may read the RPI order book). */
  readonly rpiMarketMaker: boolean
  /**
   * Whether it is a demo-trading key: its signed calls must carry the
   * `paptrading: 1` header, and a live key's must not (else 40099).
   */
  readonly demo: boolean
}

/**
 * Any key the sandbox accepts.
 *
 * @since 0.1.0
 * @category models
 */
export type DemoKey = HmacKey | RsaKey

/**
 * The demo credentials of a running sandbox.
 *
 * @since 0.1.0
 * @category models
 */
export interface DemoCredentials {
  /** An ordinary HMAC key (not an RPI market maker). */
  readonly hmac: HmacKey
  /** An ordinary RSA key (not an RPI market maker). */
  readonly rsa: RsaKey
  /** An HMAC key flagged as RPI market maker. */
  readonly marketMaker: HmacKey
  /** A demo-trading HMAC key: its signed calls carry `paptrading: 1`. */
  readonly demo: HmacKey
}

/**
 * The passphrase of every demo key.
 *
 * @since 0.1.0
 * @category constants
 */
export const passphrase = "sandbox-passphrase"

/**
 * The ordinary HMAC demo key.
 *
 * @since 0.1.0
 * @category constants
 */
export const hmac: HmacKey = {
  _tag: "Hmac",
  apiKey: "bg_sandbox_hmac_0000000000000001",
  passphrase,
  secret: "sandbox-hmac-secret-0000000000000000000000000001",
  rpiMarketMaker: false,
  demo: false
}

/**
 * The HMAC demo key flagged as RPI market maker.
 *
 * @since 0.1.0
 * @category constants
 */
export const marketMaker: HmacKey = {
  _tag: "Hmac",
  apiKey: "bg_sandbox_rpi_00000000000000003",
  passphrase,
  secret: "sandbox-rpi-secret-00000000000000000000000000003",
  rpiMarketMaker: true,
  demo: false
}

/**
 * The demo-trading HMAC key: a user of its own (own data, orders, positions
 * and limits), whose signed calls must carry the `paptrading: 1` header.
 *
 * @since 0.2.0
 * @category constants
 */
export const demo: HmacKey = {
  _tag: "Hmac",
  apiKey: "bg_sandbox_demo_0000000000000004",
  passphrase,
  secret: "sandbox-demo-secret-0000000000000000000000000004",
  rpiMarketMaker: false,
  demo: true
}

/**
 * The API key of the RSA demo key.
 *
 * @since 0.1.0
 * @category constants
 */
export const rsaApiKey = "bg_sandbox_rsa_00000000000000002"

let generated: string | undefined

const generatedPem = (): string => {
  generated ??= generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey
    .export({ type: "pkcs8", format: "pem" })
    .toString()
  return generated
}

/**
 * The RSA demo key: from the given private key (PKCS#8 or PKCS#1 PEM), or a
 * 2048-bit key generated once per process.
 *
 * @since 0.1.0
 * @category constructors
 */
export const makeRsa = (privateKeyPem?: string): Effect.Effect<RsaKey> =>
  Effect.sync(() => {
    const pem = privateKeyPem ?? generatedPem()
    const publicKeyPem = createPublicKey(createPrivateKey(pem)).export({ type: "spki", format: "pem" }).toString()
    return {
      _tag: "Rsa",
      apiKey: rsaApiKey,
      passphrase,
      privateKeyPem: pem,
      publicKeyPem,
      rpiMarketMaker: false,
      demo: false
    }
  })

/**
 * The keys of a credentials set, as a list.
 *
 * @since 0.1.0
 * @category accessors
 */
export const toArray = (credentials: DemoCredentials): ReadonlyArray<DemoKey> => [
  credentials.hmac,
  credentials.rsa,
  credentials.marketMaker,
  credentials.demo
]
