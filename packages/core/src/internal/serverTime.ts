import * as Schema from "effect/Schema"
import * as Endpoint from "../Endpoint.js"
import { Timestamp } from "../Schemas.js"

/** @internal */
export class ServerTime extends Schema.Class<ServerTime>("ServerTime")({
  serverTime: Timestamp
}) {}

/** @internal */
export const endpoint = Endpoint.get({
  name: "public.time",
  path: "/api/v2/public/time",
  auth: "public",
  rateLimit: { limit: 20, window: "1 second", scope: "ip" },
  idempotency: "idempotent",
  request: Schema.Struct({}),
  response: ServerTime
})
