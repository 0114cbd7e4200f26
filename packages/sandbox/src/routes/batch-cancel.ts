/**
 * `POST /api/v2/spot/trade/batch-cancel-order`: cancels open spot orders of
 * the caller's account (see `internal/accounts.ts`).
 *
 * @internal
 */
import * as Accounts from "../internal/accounts.js"
import { apiKeyOf, define } from "../internal/route.js"

export const route = define(
  {
    name: "batch-cancel",
    method: "POST",
    path: "/api/v2/spot/trade/batch-cancel-order",
    access: "signed",
    perSecond: 10,
    scope: "uid"
  },
  (call) => Accounts.batchCancel(call.state.account(apiKeyOf(call)), call.body)
)
