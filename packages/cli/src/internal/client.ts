/**
 * The client of an export and the check of its configuration, both from the
 * `BITGET_*` variables with `--base-url` in place of `BITGET_BASE_URL`.
 *
 * @since 0.2.0
 */
import type * as BitgetClient from "@bitget-effect/core/BitgetClient"
import * as BitgetConfig from "@bitget-effect/core/BitgetConfig"
import { BitgetRequestError, type BitgetTransportError } from "@bitget-effect/core/BitgetError"
import * as BitgetFetch from "@bitget-effect/core/BitgetFetch"
import * as Endpoint from "@bitget-effect/core/Endpoint"
import * as BitgetNode from "@bitget-effect/platform-node/BitgetNode"
import * as UndiciTransport from "@bitget-effect/platform-node/UndiciTransport"
import * as Cause from "effect/Cause"
import type * as Config from "effect/Config"
import * as ConfigProvider from "effect/ConfigProvider"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import type * as ExportKind from "./exportKind.js"

/** `layer` reading `--base-url` in place of `BITGET_BASE_URL` (and every other variable as configured). */
const withBaseUrl = <A, E, R>(layer: Layer.Layer<A, E, R>, baseUrl: Option.Option<string>): Layer.Layer<A, E, R> =>
  Option.match(baseUrl, {
    onNone: () => layer,
    onSome: (url) =>
      layer.pipe(
        Layer.provide(
          ConfigProvider.layerAdd(ConfigProvider.fromEnv({ env: { BITGET_BASE_URL: url } }), { asPrimary: true })
        )
      )
  })

/**
 * Whether a layer died because this runtime's undici cannot be loaded (Deno without `--allow-env` for the variables
 * undici reads) or cannot send (Bun's stand-in): `UndiciTransport`'s own checks.
 */
const undiciCannotSend = (cause: Cause.Cause<unknown>): boolean =>
  cause.reasons.some((reason) => Cause.isDieReason(reason) && UndiciTransport.isUnsupported(reason.defect))

/**
 * The client of an export, from `BITGET_*` and `--base-url`: `BitgetNode`'s (undici, node:crypto), or, where
 * undici cannot be loaded or cannot send (Deno without `--allow-env` for undici's variables, Bun's stand-in),
 * `BitgetFetch`'s (fetch, WebCrypto), with the same configuration.
 *
 * @since 0.2.0
 * @category layers
 */
export const client = (baseUrl: Option.Option<string>): Layer.Layer<BitgetClient.BitgetClient, Config.ConfigError> =>
  withBaseUrl(BitgetNode.layerConfig(), baseUrl).pipe(
    Layer.catchCause((cause) =>
      undiciCannotSend(cause)
        ? withBaseUrl(BitgetFetch.layerConfig(), baseUrl)
        : Layer.effectContext(Effect.failCause(cause))
    )
  )

/**
 * Checks what the export of `kind` runs on and with, and fails as it would
 * (a Node.js older than undici runs on, a bad `BITGET_*` value, incomplete
 * credentials, or none for a signed export), before anything is sent or any
 * file touched; gives the configuration read.
 *
 * @since 0.2.0
 * @category operations
 */
export const checkConfig = (
  kind: ExportKind.ExportKind,
  baseUrl: Option.Option<string>
): Effect.Effect<BitgetConfig.BitgetOptions, Config.ConfigError | BitgetRequestError | BitgetTransportError> =>
  Effect.gen(function*() {
    yield* UndiciTransport.checkNodeVersion()
    const options = yield* BitgetConfig.BitgetConfig.pipe(
      Effect.provide(withBaseUrl(BitgetConfig.layerConfig(), baseUrl))
    )
    if (kind.endpoint.auth === "signed" && Option.isNone(options.credentials)) {
      return yield* new BitgetRequestError({
        endpoint: Endpoint.label(kind.endpoint),
        reason: "NoCredentials",
        issue: `${kind.kind} reads your account: it needs an API key`
      })
    }
    return options
  })
