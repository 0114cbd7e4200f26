/**
 * The exchange's clock: its endpoint, and the sync that sets a client's
 * offset from one round trip.
 */
import * as Clock from "effect/Clock"
import * as DateTime from "effect/DateTime"
import * as Effect from "effect/Effect"
import * as Ref from "effect/Ref"
import * as Schema from "effect/Schema"
import { BitgetDecodeError } from "../BitgetError.js"
import * as Endpoint from "../Endpoint.js"
import type { Scrubber } from "../internal/redact.js"
import { Timestamp } from "../Schemas.js"
import { describeParseError } from "./envelope.js"

/** The answer of the server-time endpoint. @internal */
export class ServerTime extends Schema.Class<ServerTime>("ServerTime")({
  serverTime: Timestamp
}) {}

/** `GET /api/v2/public/time`, public. @internal */
export const endpoint = Endpoint.get({
  name: "public.time",
  path: "/api/v2/public/time",
  auth: "public",
  rateLimit: { limit: 20, window: "1 second", scope: "ip" },
  idempotency: "idempotent",
  request: Schema.Struct({}),
  response: ServerTime
})

/**
 * Syncs a client's clock: reads the exchange's with `read` (one attempt of
 * `endpoint`), sets `offset` to what the local clock is to be added (the
 * server's time less the middle of the round trip), logs and returns it.
 *
 * @internal
 */
export const sync = <E>(
  read: Effect.Effect<{ readonly data: unknown }, E>,
  secrets: Scrubber,
  offset: Ref.Ref<number>
): Effect.Effect<number, E | BitgetDecodeError> =>
  Effect.gen(function*() {
    const before = yield* Clock.currentTimeMillis
    const { data } = yield* read
    const after = yield* Clock.currentTimeMillis
    const server = yield* Schema.decodeUnknownEffect(ServerTime)(data).pipe(
      Effect.mapError((error) =>
        new BitgetDecodeError({
          endpoint: Endpoint.label(endpoint),
          status: 200,
          issue: describeParseError(error, secrets),
          excerpt: ""
        })
      )
    )
    const millis = DateTime.toEpochMillis(server.serverTime) - Math.round((before + after) / 2)
    yield* Ref.set(offset, millis)
    yield* Effect.logInfo(`clock: synced with the exchange, offset ${millis} ms`)
    return millis
  })
