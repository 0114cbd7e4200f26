/**
 * `POST /api/v2/spot/trade/batch-cancel-order`: cancels open spot orders of
 * the caller's account, at most 50 at once. Two things are drawn per answer
 * under `varied`, as live answers differ: whether failure items carry
 * `errorCode` (the doc example has none), and whether a batch whose every
 * item fails is refused with a top-level HTTP 400 43001 rather than answered
 * `00000` with every item in `failureList` (the doc example; always so under
 * `canonical`).
 *
 * @internal
 */
import * as Predicate from "effect/Predicate"
import * as Result from "effect/Result"
import type { SpotOrder } from "../Account.js"
import type { AccountState } from "../internal/data/accounts.js"
import { variant } from "../internal/data/shapes.js"
import { sameSymbol } from "../internal/route/checks.js"
import type { Exchange } from "../internal/route/define.js"
import { apiKeyOf, define } from "../internal/route/define.js"
import { english } from "../internal/route/messages.js"
import type { ApiFailure } from "../internal/route/params.js"
import * as Params from "../internal/route/params.js"

const bounds = { enums: { batchMode: ["single", "multiple"] } } as const

/** The most orders one call may cancel. */
const MAX_ORDERS = 50

/** One order to cancel: by id or client id, on a symbol. */
interface Item {
  readonly orderId: string | undefined
  readonly clientOid: string | undefined
  readonly symbol: string
}

/** The orders a body names, checked in the exchange's order. */
const readItems = (body: Readonly<Record<string, unknown>>): Result.Result<ReadonlyArray<Item>, ApiFailure> =>
  Result.gen(function*() {
    const list = body.orderList
    if (list === undefined || list === null) return yield* Result.fail(Params.missing("orderList"))
    if (!Array.isArray(list)) return yield* Result.fail(Params.invalid("orderList"))
    if (list.length === 0) return yield* Result.fail(Params.missing("orderList"))
    if (list.length > MAX_ORDERS) {
      return yield* Result.fail(Params.coded("40912", MAX_ORDERS))
    }
    const batchMode = yield* Params.field(body, "batchMode")
    const mode = (yield* Params.optionalOneOf("batchMode", batchMode, bounds.enums.batchMode)) ?? "single"
    const topSymbol = yield* Params.field(body, "symbol")
    if (mode === "single" && topSymbol === undefined) return yield* Result.fail(Params.missing("symbol"))
    const items: Array<Item> = []
    for (const raw of list as ReadonlyArray<unknown>) {
      if (!Predicate.isReadonlyObject(raw)) return yield* Result.fail(Params.invalid("orderList"))
      const orderId = yield* Params.field(raw, "orderId")
      const clientOid = yield* Params.field(raw, "clientOid")
      if (orderId === undefined && clientOid === undefined) {
        return yield* Result.fail(Params.coded("40924"))
      }
      const symbol = mode === "single" ? topSymbol : yield* Params.field(raw, "symbol")
      if (symbol === undefined) return yield* Result.fail(Params.missing("symbol"))
      items.push({ orderId, clientOid, symbol })
    }
    return items
  })

/** Salt of the draw leaving `errorCode` out of an answer's failure items. */
const NO_ERROR_CODE_SALT = 94

/** Salt of the draw refusing a batch whose every item fails with a top-level 43001. */
const REFUSE_ALL_FAILED_SALT = 95

/** How one answer is shaped. */
interface AnswerShape {
  /** Whether failure items carry `errorCode`. */
  readonly errorCode: boolean
  /** Whether a batch whose every item fails is refused with a top-level 43001. */
  readonly refuseAllFailed: boolean
}

/** The shape of the next answer: drawn under `varied`, the doc example's under `canonical`. */
const answerShape = (state: Exchange): AnswerShape => {
  const answer = state.nextAnswer()
  const { options: { shapes }, world: { seed } } = state
  return {
    errorCode: !variant(shapes, seed, NO_ERROR_CODE_SALT, answer),
    refuseAllFailed: variant(shapes, seed, REFUSE_ALL_FAILED_SALT, answer)
  }
}

/** A failure item of an order not found. */
const notFoundItem = ({ clientOid = "", orderId = "" }: Item, shape: AnswerShape) => ({
  orderId,
  clientOid,
  errorMsg: english("43001"),
  ...(shape.errorCode ? { errorCode: "43001" } : {})
})

/** The open order an item names: by order id, or by client id when no item of the call names an order id. */
const find = (account: AccountState, item: Item, byOrderId: boolean): SpotOrder | undefined => {
  if (item.orderId !== undefined) {
    const order = account.orders.get(item.orderId)
    return order !== undefined && sameSymbol(order.symbol, item.symbol) ? order : undefined
  }
  if (byOrderId) return undefined
  for (const order of account.orders.values()) {
    if (order.clientOid === item.clientOid && sameSymbol(order.symbol, item.symbol)) return order
  }
  return undefined
}

/** Cancels the orders the items name; the ones not found are listed as failures. */
const cancel = (
  account: AccountState,
  items: ReadonlyArray<Item>,
  shape: AnswerShape
): Result.Result<unknown, ApiFailure> => {
  const byOrderId = items.some((item) => item.orderId !== undefined)
  const successList: Array<{ orderId: string; clientOid: string }> = []
  const failureList: Array<ReturnType<typeof notFoundItem>> = []
  for (const item of items) {
    const found = find(account, item, byOrderId)
    if (found === undefined) {
      failureList.push(notFoundItem(item, shape))
    } else {
      account.orders.delete(found.orderId)
      successList.push({ orderId: found.orderId, clientOid: found.clientOid })
    }
  }
  return successList.length === 0 && shape.refuseAllFailed
    ? Result.fail(Params.coded("43001"))
    : Result.succeed({ successList, failureList })
}

export const route = define(
  {
    name: "batch-cancel",
    method: "POST",
    path: "/api/v2/spot/trade/batch-cancel-order",
    access: "signed",
    perSecond: 10,
    scope: "uid",
    bounds,
    requestTime: "number-or-string"
  },
  (call) =>
    Result.flatMap(
      readItems(call.body),
      (items) => cancel(call.state.account(apiKeyOf(call)), items, answerShape(call.state))
    )
)
