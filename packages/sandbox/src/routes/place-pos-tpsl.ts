/**
 * `POST /api/v2/mix/order/place-pos-tpsl`: places take-profit and stop-loss
 * plans on a position of the caller's account, one plan per trigger price
 * sent.
 *
 * @internal
 */
import * as Result from "effect/Result"
import type { PlanOrder, Position } from "../Account.js"
import type { AccountState } from "../internal/data/accounts.js"
import { sameSymbol } from "../internal/route/checks.js"
import { apiKeyOf, define } from "../internal/route/define.js"
import type { ApiFailure } from "../internal/route/params.js"
import * as Params from "../internal/route/params.js"

const triggerTypes = ["fill_price", "mark_price"] as const

const bounds = {
  enums: {
    productType: ["usdt-futures", "coin-futures", "usdc-futures", "susdt-futures", "scoin-futures", "susdc-futures"],
    holdSide: ["long", "short", "buy", "sell"],
    stopSurplusTriggerType: triggerTypes,
    stopLossTriggerType: triggerTypes,
    stpMode: ["none", "cancel_taker", "cancel_maker", "cancel_both"]
  }
} as const

/** The take-profit and the stop-loss leg of a request. */
type Kind = "profit" | "loss"

/** The body fields of each leg. */
const fields = {
  profit: {
    triggerPrice: "stopSurplusTriggerPrice",
    triggerType: "stopSurplusTriggerType",
    executePrice: "stopSurplusExecutePrice",
    size: "stopSurplusSize",
    clientOid: "stopSurplusClientOid"
  },
  loss: {
    triggerPrice: "stopLossTriggerPrice",
    triggerType: "stopLossTriggerType",
    executePrice: "stopLossExecutePrice",
    size: "stopLossSize",
    clientOid: "stopLossClientOid"
  }
} as const

/** The plan types of each leg: on part of the position (a size sent) or on all of it. */
const planTypes = {
  profit: { part: "profit_plan", whole: "pos_profit" },
  loss: { part: "loss_plan", whole: "pos_loss" }
} as const

/** One leg as sent; without a trigger price no plan is placed. */
interface Leg {
  readonly triggerPrice: string | undefined
  readonly triggerType: PlanOrder["triggerType"] | undefined
  readonly executePrice: string | undefined
  readonly size: string | undefined
  readonly clientOid: string | undefined
}

/** A checked request. */
interface Request {
  readonly marginCoin: string
  readonly productType: string
  readonly symbol: string
  readonly holdSide: Position["holdSide"]
  readonly legs: Readonly<Record<Kind, Leg>>
}

/** One check on one field of both legs, the take-profit first (the exchange checks field by field). */
const both = <A>(check: (kind: Kind) => Result.Result<A, ApiFailure>): Result.Result<Record<Kind, A>, ApiFailure> =>
  Result.gen(function*() {
    const profit = yield* check("profit")
    const loss = yield* check("loss")
    return { profit, loss }
  })

/** A value that, when present, must pass `check`. */
const ifPresent = (value: string | undefined, check: (value: string) => Result.Result<string, ApiFailure>) =>
  value === undefined ? Result.succeed(undefined) : check(value)

const nonNegativeDecimal = (name: string, value: string | undefined) =>
  value === undefined || /^\d+(\.\d+)?$/.test(value) ? Result.succeed(value) : Result.fail(Params.invalid(name))

/** The request in a body, checked in the exchange's order. */
const readRequest = (body: Readonly<Record<string, unknown>>): Result.Result<Request, ApiFailure> =>
  Result.gen(function*() {
    const read = (name: string) => Params.field(body, name)
    const { enums } = bounds
    const marginCoin = yield* Params.required("marginCoin", yield* read("marginCoin"))
    const productTypeText = yield* Params.required("productType", yield* read("productType"))
    const symbol = yield* Params.required("symbol", yield* read("symbol"))
    const holdSideText = yield* Params.required("holdSide", yield* read("holdSide"))
    const holdSide = yield* Params.oneOf("holdSide", holdSideText, enums.holdSide)
    const productType = yield* Params.oneOf("productType", productTypeText, enums.productType, {
      caseInsensitive: true
    })
    const triggerPrice = yield* both((kind) => read(fields[kind].triggerPrice))
    yield* both((kind) =>
      ifPresent(triggerPrice[kind], (value) => Params.positiveDecimal(fields[kind].triggerPrice, value))
    )
    const triggerType = yield* both((kind) =>
      Result.flatMap(
        read(fields[kind].triggerType),
        (value) => Params.optionalOneOf(fields[kind].triggerType, value, enums[fields[kind].triggerType])
      )
    )
    const executePrice = yield* both((kind) =>
      Result.flatMap(read(fields[kind].executePrice), (value) => nonNegativeDecimal(fields[kind].executePrice, value))
    )
    const size = yield* both((kind) => read(fields[kind].size))
    yield* both((kind) => ifPresent(size[kind], (value) => Params.positiveDecimal(fields[kind].size, value)))
    yield* Params.optionalOneOf("stpMode", yield* read("stpMode"), enums.stpMode)
    const clientOid = yield* both((kind) =>
      Result.flatMap(read(fields[kind].clientOid), (value) => Params.clientOid(fields[kind].clientOid, value))
    )
    if (triggerPrice.profit === undefined && triggerPrice.loss === undefined) {
      return yield* Result.fail(Params.verification("stopSurplusTriggerPrice or stopLossTriggerPrice"))
    }
    yield* both((kind) =>
      triggerPrice[kind] === undefined && (size[kind] !== undefined || executePrice[kind] !== undefined)
        ? Result.fail(Params.missing(fields[kind].triggerPrice))
        : Result.succeed(undefined)
    )
    const leg = (kind: Kind): Leg => ({
      triggerPrice: triggerPrice[kind],
      triggerType: triggerType[kind],
      executePrice: executePrice[kind],
      size: size[kind],
      clientOid: clientOid[kind]
    })
    return { marginCoin, productType, symbol, holdSide, legs: { profit: leg("profit"), loss: leg("loss") } }
  })

/** The position a request names. */
const positionOf = (account: AccountState, request: Request): Position | undefined =>
  account.positions.find((p) =>
    p.productType === request.productType.toUpperCase() && sameSymbol(p.symbol, request.symbol) &&
    p.holdSide === request.holdSide && sameSymbol(p.marginCoin, request.marginCoin)
  )

/** Places the plan of one leg on a position; the answer's entry for it. */
const place = (
  account: AccountState,
  position: Position,
  kind: Kind,
  leg: Leg & { readonly triggerPrice: string },
  plan: { readonly orderId: string; readonly now: number }
) => {
  const clientOid = leg.clientOid ?? ""
  account.plans.push({
    orderId: plan.orderId,
    clientOid,
    planType: leg.size === undefined ? planTypes[kind].whole : planTypes[kind].part,
    productType: position.productType,
    symbol: position.symbol,
    marginCoin: position.marginCoin,
    holdSide: position.holdSide,
    triggerPrice: leg.triggerPrice,
    triggerType: leg.triggerType ?? "fill_price",
    executePrice: leg.executePrice ?? "",
    size: leg.size ?? "",
    cTime: String(plan.now)
  })
  return {
    orderId: plan.orderId,
    stopSurplusClientOid: kind === "profit" ? clientOid : "",
    stopLossClientOid: kind === "loss" ? clientOid : ""
  }
}

export const route = define(
  {
    name: "place-pos-tpsl",
    method: "POST",
    path: "/api/v2/mix/order/place-pos-tpsl",
    access: "signed",
    perSecond: 10,
    scope: "uid",
    bounds
  },
  (call) =>
    Result.gen(function*() {
      const request = yield* readRequest(call.body)
      const account = call.state.account(apiKeyOf(call))
      const position = positionOf(account, request)
      if (position === undefined) return yield* Result.fail(Params.failure("43023", "Position does not exist"))
      return (["profit", "loss"] as const).flatMap((kind) => {
        const { triggerPrice, ...leg } = request.legs[kind]
        if (triggerPrice === undefined) return []
        return [
          place(account, position, kind, { ...leg, triggerPrice }, {
            orderId: call.state.nextPlanOrderId(),
            now: call.now
          })
        ]
      })
    })
)
