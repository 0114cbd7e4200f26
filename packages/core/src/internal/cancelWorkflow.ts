/**
 * The any-number cancel workflow behind `BatchCancel.cancelOrders`: orders
 * grouped by identifier kind (a batch must not mix them), cut into batches of
 * the exchange's most in multiple mode, every batch checked before the first
 * is sent, the batches sent one after another and their outcomes merged.
 * `BatchCancel` passes in its check, its batch call and its limit, so nothing
 * here imports it.
 */
import * as Effect from "effect/Effect"
import * as Result from "effect/Result"
import type { BitgetError, BitgetRequestError } from "../BitgetError.js"
import { type IdentifierKind, identifierKind, type OrderNaming } from "./batchChecks.js"

/** A batch of the workflow: orders of any symbols, in multiple mode. @internal */
export interface Batch<O> {
  readonly batchMode: "multiple"
  readonly orderList: ReadonlyArray<O>
}

/** What a batch came to, or all of them together: every order in exactly one list. @internal */
export interface Outcome<S, F, U> {
  readonly succeeded: ReadonlyArray<S>
  readonly failed: ReadonlyArray<F>
  readonly unconfirmed: ReadonlyArray<U>
}

/** A batch that failed as a whole (after its retries), with its error. @internal */
export interface BatchError<O> {
  readonly orders: ReadonlyArray<O>
  readonly error: BitgetError
}

/** The workflow's answer: the merged outcome and the batches that failed as a whole. @internal */
export interface Merged<O, S, F, U> {
  readonly outcome: Outcome<S, F, U>
  readonly batchErrors: ReadonlyArray<BatchError<O>>
}

/** What the workflow takes from `BatchCancel`. @internal */
export interface Steps<O, S, F, U, R> {
  /** The most orders one batch may hold. */
  readonly maxOrders: number
  /** Checks a batch as sending it would. */
  readonly check: (batch: Batch<O>) => Effect.Effect<unknown, BitgetRequestError>
  /** Cancels the orders of one batch. */
  readonly cancel: (batch: Batch<O>) => Effect.Effect<Outcome<S, F, U>, BitgetError, R>
  /** An order of a batch that failed as a whole, as unconfirmed. */
  readonly unconfirmed: (order: O) => U
}

/** The batches of `orders`: grouped by identifier kind, each group cut into batches of at most `maxOrders`. */
const batchesOf = <O extends OrderNaming>(orders: ReadonlyArray<O>, maxOrders: number): ReadonlyArray<Batch<O>> => {
  const byKind = new Map<IdentifierKind, Array<O>>()
  for (const order of orders) {
    const kind = identifierKind(order)
    const group = byKind.get(kind)
    if (group === undefined) byKind.set(kind, [order])
    else group.push(order)
  }
  const out: Array<Batch<O>> = []
  for (const group of byKind.values()) {
    for (let i = 0; i < group.length; i += maxOrders) {
      out.push({ batchMode: "multiple", orderList: group.slice(i, i + maxOrders) })
    }
  }
  return out
}

/** The outcomes of the batches merged: a failed batch's orders unconfirmed, the batch listed with its error. */
const merge = <O, S, F, U>(
  batches: ReadonlyArray<Batch<O>>,
  outcomes: ReadonlyArray<Result.Result<Outcome<S, F, U>, BitgetError>>,
  unconfirmedOrder: (order: O) => U
): Merged<O, S, F, U> => {
  const succeeded: Array<S> = []
  const failed: Array<F> = []
  const unconfirmed: Array<U> = []
  const batchErrors: Array<BatchError<O>> = []
  outcomes.forEach((outcome, index) => {
    const batch = batches[index] as Batch<O>
    if (Result.isSuccess(outcome)) {
      succeeded.push(...outcome.success.succeeded)
      failed.push(...outcome.success.failed)
      unconfirmed.push(...outcome.success.unconfirmed)
    } else {
      unconfirmed.push(...batch.orderList.map(unconfirmedOrder))
      batchErrors.push({ orders: batch.orderList, error: outcome.failure })
    }
  })
  return { outcome: { succeeded, failed, unconfirmed }, batchErrors }
}

/**
 * Cancels any number of orders in batches: every batch checked before the
 * first is sent (a failed check fails the whole), then sent one after
 * another; a batch that fails as a whole does not stop the others.
 *
 * @internal
 */
export const cancelAll = <O extends OrderNaming, S, F, U, R>(
  orders: ReadonlyArray<O>,
  steps: Steps<O, S, F, U, R>
): Effect.Effect<Merged<O, S, F, U>, BitgetRequestError, R> => {
  const batches = batchesOf(orders, steps.maxOrders)
  return Effect.forEach(batches, steps.check).pipe(
    Effect.andThen(Effect.forEach(batches, (batch) => Effect.result(steps.cancel(batch)))),
    Effect.map((outcomes) => merge(batches, outcomes, steps.unconfirmed))
  )
}
