/**
 * bitget-effect on `BitgetFetch.layer` (fetch, WebCrypto), core's layer for
 * every runtime: the same module runs on Node, Bun and Deno.
 */
import * as BitgetFetch from "@bitget-effect/core/BitgetFetch"
import { options, over } from "./bitgetEffect.js"
import type { MakeClient } from "./Client.js"

/** The bitget-effect client on `BitgetFetch`. */
export const make: MakeClient = (baseUrl) => over(BitgetFetch.layer(options(baseUrl)))
