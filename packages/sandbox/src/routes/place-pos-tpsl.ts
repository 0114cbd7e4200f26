/**
 * `POST /api/v2/mix/order/place-pos-tpsl`: places take-profit and stop-loss
 * plans on a position of the caller's account (see `internal/accounts.ts`).
 *
 * @internal
 */
import * as Accounts from "../internal/accounts.js"
import { apiKeyOf, define } from "../internal/route.js"

export const route = define(
  {
    name: "place-pos-tpsl",
    method: "POST",
    path: "/api/v2/mix/order/place-pos-tpsl",
    access: "signed",
    perSecond: 10,
    scope: "uid"
  },
  (call) =>
    Accounts.placePosTpsl(call.state.account(apiKeyOf(call)), call.body, {
      now: call.now,
      nextOrderId: () => call.state.nextPlanOrderId()
    })
)
