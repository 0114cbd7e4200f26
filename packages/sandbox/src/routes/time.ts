/**
 * `GET /api/v2/public/time`: the server clock (wall clock plus the offset).
 *
 * @internal
 */
import * as Result from "effect/Result"
import { define } from "../internal/route/define.js"

export const route = define(
  { name: "time", method: "GET", path: "/api/v2/public/time", access: "public", perSecond: 20, scope: "ip" },
  (call) => Result.succeed({ serverTime: String(call.now) })
)
