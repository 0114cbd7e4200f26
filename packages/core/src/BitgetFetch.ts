/**
 * Everything a program needs in one layer, on web standards only: the client
 * over `fetch` (`HttpTransport.layerFetch`) with the WebCrypto signer. It runs
 * wherever both exist: Bun, Deno, Cloudflare Workers, Node.js 22 and later.
 * Nothing in it reads `process.env`: `layerConfig` reads Effect's `Config`, from
 * whichever `ConfigProvider` the program gives it.
 *
 * @since 0.2.0
 */
import type * as Config from "effect/Config"
import * as Layer from "effect/Layer"
import * as BitgetClient from "./BitgetClient.js"
import * as BitgetConfig from "./BitgetConfig.js"
import * as HttpTransport from "./HttpTransport.js"
import * as WebCryptoSigner from "./WebCryptoSigner.js"

/**
 * The client over a configuration, with the WebCrypto signer and the fetch
 * transport (built afresh each time, so a layer provided inside another, over
 * another fetch, sends with its own).
 */
const over = <E>(config: Layer.Layer<BitgetConfig.BitgetConfig, E>): Layer.Layer<BitgetClient.BitgetClient, E> =>
  BitgetClient.layerTransport.pipe(
    Layer.provide(Layer.mergeAll(WebCryptoSigner.layer, HttpTransport.layerFetch, config))
  )

/**
 * The client configured from options given in code. The fetch it sends with
 * is `FetchHttpClient.Fetch` (from `effect/http`) where the layer is built:
 * `globalThis.fetch` unless one is provided.
 *
 * @example
 * ```ts
 * import { BitgetFetch, Credentials, Symbols, TradeRates } from "@bitget-effect/core"
 * import { Effect, Layer } from "effect"
 * import { FetchHttpClient } from "effect/http"
 *
 * // Public operations need no credentials.
 * const pairs = Symbols.symbols().pipe(Effect.provide(BitgetFetch.layer()))
 *
 * // Signed operations need a key (HMAC, or `Credentials.rsa` with a PEM key); any other `BitgetConfig` option too.
 * const client = BitgetFetch.layer({
 *   credentials: Credentials.hmac({ apiKey: "bg_0123456789abcdef", secret: "0123456789abcdef", passphrase: "phrase" }),
 *   timeout: "5 seconds"
 * })
 * const rates = TradeRates.tradeRates({ businessType: "spot" }).pipe(Effect.provide(client))
 *
 * // Another fetch (a test's, an instrumented one) is given as effect's `FetchHttpClient.Fetch`.
 * const canned: typeof fetch = async () => Response.json({ code: "00000", msg: "success", requestTime: 0, data: [] })
 * const offline = BitgetFetch.layer().pipe(Layer.provide(Layer.succeed(FetchHttpClient.Fetch, canned)))
 * Effect.runPromise(Symbols.symbols().pipe(Effect.provide(offline))).then((none) => assert.strictEqual(none.length, 0))
 * ```
 *
 * @stability unstable
 * @since 0.2.0
 * @category layers
 */
export const layer = (options: BitgetConfig.BitgetOptionsInput = {}): Layer.Layer<BitgetClient.BitgetClient> =>
  over(BitgetConfig.layer(options))

/**
 * The client configured from `Config`: variables `BITGET_API_KEY`,
 * `BITGET_API_SECRET` (or `BITGET_RSA_PRIVATE_KEY`), `BITGET_API_PASSPHRASE`,
 * `BITGET_TIMEOUT`, ... under a prefix (default `BITGET`), read from the
 * `ConfigProvider` in context: the environment where the runtime has one (Node,
 * Bun, Deno with `--allow-env`), the bindings a Cloudflare Worker is given.
 *
 * @example
 * ```ts
 * import { BitgetFetch, TradeRates } from "@bitget-effect/core"
 * import { ConfigProvider, Effect } from "effect"
 *
 * const rates = TradeRates.tradeRates({ businessType: "spot" })
 *
 * // Bun, Deno, Node.js: from the environment (BITGET_API_KEY, BITGET_API_SECRET, BITGET_API_PASSPHRASE, ...).
 * const fromEnvironment = rates.pipe(Effect.provide(BitgetFetch.layerConfig()))
 *
 * // A Cloudflare Worker: from its bindings (secrets and vars of the same names), given as the ConfigProvider.
 * export default {
 *   fetch: (_request: Request, env: Record<string, string>) =>
 *     Effect.runPromise(rates.pipe(
 *       Effect.provide(BitgetFetch.layerConfig()),
 *       Effect.provideService(ConfigProvider.ConfigProvider, ConfigProvider.fromEnvRecord(env)),
 *       Effect.map((fees) => Response.json({ symbols: fees.length }))
 *     ))
 * }
 * ```
 *
 * @stability unstable
 * @since 0.2.0
 * @category layers
 */
export const layerConfig = (prefix?: string): Layer.Layer<BitgetClient.BitgetClient, Config.ConfigError> =>
  over(BitgetConfig.layerConfig(prefix))
