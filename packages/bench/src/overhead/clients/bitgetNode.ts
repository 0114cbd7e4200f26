/**
 * bitget-effect on `BitgetNode.layer` (undici, Node's crypto), the Node.js
 * layer of @bitget-effect/platform-node.
 */
import { BitgetNode } from "@bitget-effect/platform-node"
import { options, over } from "./bitgetEffect.js"
import type { MakeClient } from "./Client.js"

/** The layer every `BitgetNode` row runs on. */
export const layer = (baseUrl: string) => BitgetNode.layer(options(baseUrl))

/** The bitget-effect client on `BitgetNode`. */
export const make: MakeClient = (baseUrl) => over(layer(baseUrl))
