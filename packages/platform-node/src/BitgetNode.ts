/**
 * Everything a Node.js program needs in one layer: the client over undici with
 * the node:crypto signer.
 *
 * @since 0.1.0
 */
import * as BitgetClient from "@bitget-effect/core/BitgetClient"
import * as BitgetConfig from "@bitget-effect/core/BitgetConfig"
import { NodeHttpClient } from "@effect/platform-node"
import type { ConfigError } from "effect"
import { Layer } from "effect"
import * as NodeSigner from "./NodeSigner.js"

const platform = Layer.merge(NodeSigner.layer, NodeHttpClient.layerUndici)

/**
 * The client configured from options given in code.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = (options: BitgetConfig.BitgetOptionsInput = {}): Layer.Layer<BitgetClient.BitgetClient> =>
  BitgetClient.layer.pipe(Layer.provide(Layer.merge(platform, BitgetConfig.layer(options))))

/**
 * The client configured from `Config` (environment variables `BITGET_*` by default).
 *
 * @since 0.1.0
 * @category layers
 */
export const layerConfig = (prefix?: string): Layer.Layer<BitgetClient.BitgetClient, ConfigError.ConfigError> =>
  BitgetClient.layer.pipe(Layer.provide(Layer.merge(platform, BitgetConfig.layerConfig(prefix))))
