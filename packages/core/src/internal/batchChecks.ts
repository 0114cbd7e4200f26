/**
 * The rules of one batch cancel request, as named checks (its size, unnamed
 * orders, identifiers, symbols), and the one way orders of a batch are told
 * apart. `BatchCancel` builds its request schema on them; they read orders
 * by shape, so nothing here imports it.
 */
import type * as Schema from "effect/Schema"
import { withoutLeadingZeros } from "./ids.js"

/** An order reference as the checks read it (`BatchCancel.OrderRef` is one). @internal */
export interface OrderNaming {
  readonly symbol?: string | undefined
  readonly orderId?: string | undefined
  readonly clientOid?: string | undefined
}

/** Which identifier a batch names its orders by. @internal */
export type IdentifierKind = "orderId" | "clientOid"

/** The identifier kind an order reference uses. @internal */
export const identifierKind = (order: OrderNaming): IdentifierKind =>
  order.orderId !== undefined ? "orderId" : "clientOid"

/**
 * How the orders of one batch (all named by one kind) are told apart: order
 * ids as integers (leading zeros dropped), client order ids verbatim.
 *
 * @internal
 */
export const referenceKey = (kind: IdentifierKind, value: string | undefined): string | undefined =>
  value === undefined || kind === "clientOid" ? value : withoutLeadingZeros(value)

/** A batch as checked: its symbol, its mode (`single` when missing) and its orders. */
interface BatchShape {
  readonly symbol?: string | undefined
  readonly batchMode?: string | undefined
  readonly orderList: ReadonlyArray<OrderNaming>
}

/** Orders named by neither identifier, or by both. */
const unnamedOrders = (orderList: ReadonlyArray<OrderNaming>): Array<Schema.FilterIssue> => {
  const unnamed: Array<Schema.FilterIssue> = []
  orderList.forEach((order, index) => {
    if (order.orderId !== undefined && order.clientOid !== undefined) {
      unnamed.push({ path: ["orderList", index], issue: "an order must be named by orderId or clientOid, not both" })
    } else if (order.orderId === undefined && order.clientOid === undefined) {
      unnamed.push({ path: ["orderList", index], issue: "an order needs an orderId or a clientOid" })
    }
  })
  return unnamed
}

/** Orders named by another kind than the first one's, or naming an order already named. */
const identifierIssues = (orderList: ReadonlyArray<OrderNaming>, kind: IdentifierKind): Array<Schema.FilterIssue> => {
  const issues: Array<Schema.FilterIssue> = []
  const seen = new Set<string | undefined>()
  orderList.forEach((order, index) => {
    const own = identifierKind(order)
    if (own !== kind) {
      issues.push({
        path: ["orderList", index],
        issue: `mixes orderId and clientOid (orderList[0] uses ${kind}, this one ${own}): ` +
          "the exchange silently fails a mixed batch's clientOid orders"
      })
      return
    }
    const key = referenceKey(kind, order[kind])
    if (seen.has(key)) {
      issues.push({ path: ["orderList", index], issue: `the batch names the same order twice (${order[kind]})` })
    }
    seen.add(key)
  })
  return issues
}

/** The symbols a batch's mode asks for: the top-level one in single mode (the orders' agreeing), each order's in multiple. */
const symbolIssues = ({ batchMode, orderList, symbol }: BatchShape): Array<Schema.FilterIssue> => {
  const issues: Array<Schema.FilterIssue> = []
  if ((batchMode ?? "single") === "single") {
    if (symbol === undefined) {
      issues.push({ path: ["symbol"], issue: "single mode (the default) needs the top-level symbol" })
    } else {
      orderList.forEach((order, index) => {
        if (order.symbol !== undefined && order.symbol !== symbol) {
          issues.push({
            path: ["orderList", index, "symbol"],
            issue: `in single mode every order is of ${symbol}, but orderList[${index}] names ${order.symbol}`
          })
        }
      })
    }
  } else {
    orderList.forEach((order, index) => {
      if (order.symbol === undefined) {
        issues.push({ path: ["orderList", index, "symbol"], issue: "multiple mode needs a symbol on every order" })
      }
    })
  }
  return issues
}

/**
 * Every problem of a batch of at most `maxOrders` orders: its size first,
 * then unnamed orders, then identifiers and symbols together.
 *
 * @internal
 */
export const checkBatch = (request: BatchShape, maxOrders: number): ReadonlyArray<Schema.FilterIssue> => {
  const { orderList } = request
  const first = orderList[0]
  if (first === undefined) return [{ path: ["orderList"], issue: "orderList needs at least one order" }]
  if (orderList.length > maxOrders) {
    return [{ path: ["orderList"], issue: `orderList may hold at most ${maxOrders} orders, got ${orderList.length}` }]
  }
  const unnamed = unnamedOrders(orderList)
  if (unnamed.length > 0) return unnamed
  return [...identifierIssues(orderList, identifierKind(first)), ...symbolIssues(request)]
}
