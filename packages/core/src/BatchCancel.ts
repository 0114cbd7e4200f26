/**
 * Batch cancel spot orders: `POST /api/v2/spot/trade/batch-cancel-order`
 * (signed, 10/s per UID). Per-order failures are data; `batchCancelOrdersOrFail`
 * turns any of them into a typed `BatchCancelPartialFailure`.
 *
 * @since 0.1.0
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import * as BitgetClient from "./BitgetClient.js"
import type { BitgetError, BitgetRequestError } from "./BitgetError.js"
import { requestError } from "./client/envelope.js"
import * as Endpoint from "./Endpoint.js"
import * as Checks from "./internal/batchChecks.js"
import * as Workflow from "./internal/cancelWorkflow.js"
import { ClientOid, Filter, ListOrEmpty, Maybe, NumericId } from "./Schemas.js"

/**
 * The most orders one call may cancel.
 *
 * @since 0.1.0
 * @category constants
 */
export const maxOrders = 50

/**
 * `single`: every order is of the top-level symbol (the exchange's default);
 * `multiple`: every order names its own symbol.
 *
 * @since 0.1.0
 * @category models
 */
export const BatchMode = Schema.Literals(["single", "multiple"])

/**
 * The batch mode type.
 *
 * @since 0.1.0
 * @category models
 */
export type BatchMode = typeof BatchMode.Type

/**
 * One order to cancel, named by exactly one of `orderId` or `clientOid` (the
 * request checks this, with the rules of the batch).
 *
 * @since 0.1.0
 * @category models
 */
export const OrderRef = Schema.Struct({
  symbol: Filter,
  orderId: Schema.optional(NumericId),
  clientOid: Schema.optional(ClientOid)
}).annotate({ identifier: "OrderRef" })

/**
 * The order reference type.
 *
 * @since 0.1.0
 * @category models
 */
export type OrderRef = typeof OrderRef.Type

/**
 * Which identifier a batch names its orders by.
 *
 * @since 0.1.0
 * @category models
 */
export type IdentifierKind = "orderId" | "clientOid"

/**
 * The identifier kind an order reference uses.
 *
 * @since 0.1.0
 * @category accessors
 */
export const identifierKind: (order: OrderRef) => IdentifierKind = Checks.identifierKind

/**
 * The request: 1 to 50 orders, all named by the same identifier kind.
 *
 * @since 0.1.0
 * @category models
 */
export const BatchCancelRequest = Schema.Struct({
  symbol: Filter,
  batchMode: Schema.optional(BatchMode),
  orderList: Schema.Array(OrderRef)
}).annotate({ identifier: "BatchCancelFields" }).check(
  Schema.makeFilter((request) => Checks.checkBatch(request, maxOrders), { identifier: "BatchCancelRequest" })
)

/**
 * The request type.
 *
 * @since 0.1.0
 * @category models
 */
export type BatchCancelRequest = typeof BatchCancelRequest.Type

/**
 * An order the exchange cancelled.
 *
 * @since 0.1.0
 * @category models
 */
export class CancelledOrder extends Schema.Class<CancelledOrder>("CancelledOrder")({
  orderId: Schema.String,
  clientOid: Maybe(Schema.String)
}) {}

/**
 * An order the exchange did not cancel, with its reason. `orderId` is `None`
 * when the order was named by `clientOid` (the exchange sends it empty);
 * `errorCode` is missing from the documented example.
 *
 * @since 0.1.0
 * @category models
 */
export class CancelFailure extends Schema.Class<CancelFailure>("CancelFailure")({
  orderId: Maybe(Schema.String),
  clientOid: Maybe(Schema.String),
  errorMsg: Maybe(Schema.String),
  errorCode: Maybe(Schema.String)
}) {}

/**
 * The `data` of the answer as the exchange sends it (a missing or `null` list is empty).
 *
 * @since 0.1.0
 * @category models
 */
export class BatchCancelResponse extends Schema.Class<BatchCancelResponse>("BatchCancelResponse")({
  successList: ListOrEmpty(CancelledOrder),
  failureList: ListOrEmpty(CancelFailure)
}) {}

/**
 * An order named in the request but in neither list of the answer, so its
 * state is unknown: its symbol (its own, or the batch's) and the identifier
 * it was named by.
 *
 * @since 0.2.0
 * @category models
 */
export class UnconfirmedOrder extends Schema.Class<UnconfirmedOrder>("UnconfirmedOrder")({
  symbol: Maybe(Schema.String),
  orderId: Maybe(Schema.String),
  clientOid: Maybe(Schema.String)
}) {}

/** The unconfirmed order of a reference of a batch whose top-level symbol is `symbol`. */
const unconfirmedOf = (symbol: string | undefined) => (order: OrderRef): UnconfirmedOrder =>
  new UnconfirmedOrder({
    symbol: Option.fromUndefinedOr(order.symbol ?? symbol),
    orderId: Option.fromUndefinedOr(order.orderId),
    clientOid: Option.fromUndefinedOr(order.clientOid)
  })

/**
 * The outcome of a batch, accounting for every requested order: cancelled,
 * failed with a reason, or `unconfirmed` (named in the request but in neither
 * list of the answer, so its state is unknown).
 *
 * @since 0.1.0
 * @category models
 */
export class BatchCancelResult extends Schema.Class<BatchCancelResult>("BatchCancelResult")({
  succeeded: Schema.Array(CancelledOrder),
  failed: Schema.Array(CancelFailure),
  unconfirmed: Schema.Array(UnconfirmedOrder)
}) {
  /** `true` when every requested order is confirmed cancelled. */
  get allCancelled(): boolean {
    return this.failed.length === 0 && this.unconfirmed.length === 0
  }
}

/**
 * Some orders of a batch were not confirmed cancelled.
 *
 * @since 0.1.0
 * @category errors
 */
export class BatchCancelPartialFailure extends Schema.TaggedError<BatchCancelPartialFailure>(
  "@bitget-effect/core/BatchCancelPartialFailure"
)("BatchCancelPartialFailure", {
  succeeded: Schema.Array(CancelledOrder),
  failed: Schema.Array(CancelFailure),
  unconfirmed: Schema.Array(UnconfirmedOrder)
}) {
  override get message(): string {
    const total = this.succeeded.length + this.failed.length + this.unconfirmed.length
    const codes = [...new Set(this.failed.flatMap((failure) => Option.toArray(failure.errorCode)))]
    return `batch cancel incomplete: ${this.succeeded.length} of ${total} orders cancelled, ${this.failed.length} failed${
      codes.length === 0 ? "" : ` (codes ${codes.join(", ")})`
    }, ${this.unconfirmed.length} unconfirmed`
  }
}

/**
 * The endpoint descriptor.
 *
 * @see `batchCancelOrders`, which calls it
 * @since 0.1.0
 * @category endpoints
 */
export const endpoint = Endpoint.post({
  name: "spot.batchCancelOrders",
  path: "/api/v2/spot/trade/batch-cancel-order",
  auth: "signed",
  rateLimit: { limit: 10, window: "1 second", scope: "uid" },
  idempotency: "idempotent",
  bounds: { enums: { batchMode: BatchMode.literals } },
  request: BatchCancelRequest,
  response: BatchCancelResponse
})

/** The exchange code for "the order does not exist", also sent for a batch whose every order failed. */
const allFailedCode = "43001"

const account = (request: BatchCancelRequest, response: BatchCancelResponse): BatchCancelResult => {
  // a request is never empty (`Checks.checkBatch`)
  const kind = identifierKind(request.orderList[0] as OrderRef)
  const reported = new Set<string | undefined>([
    ...response.successList.map((order) =>
      Checks.referenceKey(kind, kind === "orderId" ? order.orderId : Option.getOrUndefined(order.clientOid))
    ),
    ...response.failureList.map((failure) => Checks.referenceKey(kind, Option.getOrUndefined(failure[kind])))
  ])
  return new BatchCancelResult({
    succeeded: response.successList,
    failed: response.failureList,
    unconfirmed: request.orderList
      .filter((order) => !reported.has(Checks.referenceKey(kind, order[kind])))
      .map(unconfirmedOf(request.symbol))
  })
}

const allFailed = (request: BatchCancelRequest, code: string, msg: string): BatchCancelResult =>
  new BatchCancelResult({
    succeeded: [],
    failed: request.orderList.map((order) =>
      new CancelFailure({
        orderId: Option.fromUndefinedOr(order.orderId),
        clientOid: Option.fromUndefinedOr(order.clientOid),
        errorMsg: msg === "" ? Option.none() : Option.some(msg),
        errorCode: Option.some(code)
      })
    ),
    unconfirmed: []
  })

/**
 * Cancels up to 50 spot orders. Orders the exchange failed to cancel are data
 * in `failed`; a batch the exchange rejects as a whole with code 43001 comes
 * back with every order failed.
 *
 * @example
 * ```ts
 * import { BatchCancel, BitgetMock } from "@bitget-effect/core"
 * import { Effect, Option } from "effect"
 * import { deepStrictEqual, strictEqual } from "node:assert"
 *
 * const program = BatchCancel.batchCancelOrders({ symbol: "BTCUSDT", orderList: [{ orderId: "1201" }, { orderId: "1202" }] })
 *
 * // Here a mock answers: 1201 is cancelled, 1202 is in neither list.
 * const answer = BatchCancel.BatchCancelResponse.make({
 *   successList: [BatchCancel.CancelledOrder.make({ orderId: "1201", clientOid: Option.none() })],
 *   failureList: []
 * })
 * const mock = BitgetMock.layer(BitgetMock.succeed(BatchCancel.endpoint, answer))
 * const result = Effect.runSync(Effect.provide(program, mock))
 * strictEqual(result.allCancelled, false)
 * deepStrictEqual(result.unconfirmed.map((order) => order.orderId), [Option.some("1202")])
 * ```
 *
 * @see `endpoint` for the method, path, limits and retry policy
 * @since 0.1.0
 * @category operations
 */
export const batchCancelOrders = (
  request: BatchCancelRequest
): Effect.Effect<BatchCancelResult, BitgetError, BitgetClient.BitgetClient> =>
  BitgetClient.execute(endpoint, request).pipe(
    Effect.map((response) => account(request, response)),
    Effect.catchTag(
      "BitgetApiError",
      (error) =>
        error.code === allFailedCode ? Effect.succeed(allFailed(request, error.code, error.msg)) : Effect.fail(error)
    )
  )

/**
 * Cancels up to 50 spot orders and fails with `BatchCancelPartialFailure`
 * unless every one is confirmed cancelled.
 *
 * @example
 * ```ts
 * import { BatchCancel } from "@bitget-effect/core"
 * import { Effect } from "effect"
 *
 * // Orders of several symbols in one call (multiple mode), named by client order id.
 * const program = BatchCancel.batchCancelOrdersOrFail({
 *   batchMode: "multiple",
 *   orderList: [
 *     { symbol: "BTCUSDT", clientOid: "grid-17" },
 *     { symbol: "ETHUSDT", clientOid: "grid-18" }
 *   ]
 * }).pipe(
 *   Effect.catchTag("BatchCancelPartialFailure", (partial) =>
 *     Effect.as(Effect.logWarning(partial.message), partial.succeeded))
 * )
 * ```
 *
 * @since 0.1.0
 * @category operations
 */
export const batchCancelOrdersOrFail = (
  request: BatchCancelRequest
): Effect.Effect<ReadonlyArray<CancelledOrder>, BitgetError | BatchCancelPartialFailure, BitgetClient.BitgetClient> =>
  Effect.flatMap(batchCancelOrders(request), (result) =>
    result.allCancelled
      ? Effect.succeed(result.succeeded)
      : Effect.fail(
        new BatchCancelPartialFailure({
          succeeded: result.succeeded,
          failed: result.failed,
          unconfirmed: result.unconfirmed
        })
      ))

/**
 * An order for `cancelOrders`: named by `orderId` or `clientOid`, with its symbol.
 *
 * @since 0.1.0
 * @category models
 */
export type SymbolOrderRef = OrderRef & { readonly symbol: string }

/**
 * The merged outcome of `cancelOrders`: every order is in exactly one of
 * `succeeded`, `failed` or `unconfirmed`; a batch that failed as a whole
 * (after its retries) leaves its orders unconfirmed and is listed in
 * `batchErrors` with its error.
 *
 * @since 0.1.0
 * @category models
 */
export interface CancelOrdersResult {
  readonly result: BatchCancelResult
  readonly batchErrors: ReadonlyArray<{ readonly orders: ReadonlyArray<OrderRef>; readonly error: BitgetError }>
}

/** Checks a request as sending it would, without encoding it. */
const validate = Schema.decodeEffect(Schema.toType(BatchCancelRequest))

/**
 * Cancels any number of orders: split by identifier kind (a batch must not
 * mix them) and into batches of 50 in multiple mode, sent one after another
 * within the rate limit, merged into one result. Every batch is validated
 * before the first is sent. A `43001` after a retried batch can mean the lost
 * first attempt cancelled the order; either way the order is no longer open.
 *
 * @example
 * ```ts
 * import { BatchCancel } from "@bitget-effect/core"
 * import { Effect } from "effect"
 *
 * // 120 orders of two symbols: sent as three batches in multiple mode.
 * const orders: ReadonlyArray<BatchCancel.SymbolOrderRef> = Array.from({ length: 120 }, (_, i) => ({
 *   symbol: i % 2 === 0 ? "BTCUSDT" : "ETHUSDT",
 *   orderId: String(5000 + i)
 * }))
 *
 * const program = Effect.gen(function*() {
 *   const { batchErrors, result } = yield* BatchCancel.cancelOrders(orders)
 *   yield* Effect.log(`${result.succeeded.length} cancelled, ${result.failed.length} failed`)
 *   for (const batch of batchErrors) yield* Effect.logWarning(`${batch.orders.length} unconfirmed: ${batch.error.message}`)
 * })
 * ```
 *
 * @since 0.1.0
 * @category operations
 */
export const cancelOrders = (
  orders: ReadonlyArray<SymbolOrderRef>
): Effect.Effect<CancelOrdersResult, BitgetRequestError, BitgetClient.BitgetClient> =>
  Workflow.cancelAll(orders, {
    maxOrders,
    check: (batch) => Effect.mapError(validate(batch, { errors: "all" }), requestError(endpoint)),
    cancel: batchCancelOrders,
    unconfirmed: unconfirmedOf(undefined)
  }).pipe(
    Effect.map(({ batchErrors, outcome }) => ({ result: new BatchCancelResult(outcome), batchErrors }))
  )
