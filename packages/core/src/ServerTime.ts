/**
 * Server time: `GET /api/v2/public/time` (public, 20/s per IP). The client
 * also uses it to correct its clock after a `40008` (timestamp expired).
 *
 * @since 0.1.0
 */
import type * as Effect from "effect/Effect"
import * as BitgetClient from "./BitgetClient.js"
import type { BitgetPublicError } from "./BitgetError.js"
import * as internal from "./client/serverTime.js"

/**
 * The exchange's clock: `serverTime` as a `DateTime.Utc`.
 *
 * @since 0.1.0
 * @category models
 */
export const ServerTime = internal.ServerTime

/**
 * The exchange's clock.
 *
 * @since 0.1.0
 * @category models
 */
export type ServerTime = internal.ServerTime

/**
 * The endpoint descriptor.
 *
 * @since 0.1.0
 * @category endpoints
 */
export const endpoint = internal.endpoint

/**
 * Reads the exchange's clock.
 *
 * @since 0.1.0
 * @category operations
 */
export const serverTime: Effect.Effect<ServerTime, BitgetPublicError, BitgetClient.BitgetClient> = BitgetClient.execute(
  endpoint,
  {}
)
