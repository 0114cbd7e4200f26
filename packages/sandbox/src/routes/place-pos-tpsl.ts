/**
 * `POST /api/v2/mix/order/place-pos-tpsl`: places take-profit and stop-loss
 * plans on a position of the caller's account, one plan per trigger price
 * sent, under the live rules: no position (40837); a trigger on the wrong
 * side of the contract's mark price (40915, 40917, 45061, 45122); a size
 * larger than the position (43023); a second whole-position take profit or
 * stop loss (43030, 43031); more partial plans on the contract than
 * `partialPlanLimit` (40890). A request that breaks one places nothing.
 *
 * @internal
 */
import * as Result from "effect/Result"
import type { PlanOrder, Position } from "../Account.js"
import type { AccountState } from "../internal/data/accounts.js"
import { markPrice } from "../internal/data/prices.js"
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

/**
 * The most partial plans (`profit_plan`, `loss_plan`) one account may hold on
 * one contract; one more is refused with 40890. Bitget documents the code but
 * not the number: 20 is assumed.
 */
export const partialPlanLimit = 20

/** The side a position's plans are checked for: a one-way `buy` position is long, `sell` short. */
const sideOf = (holdSide: Position["holdSide"]): "long" | "short" =>
  holdSide === "long" || holdSide === "buy" ? "long" : "short"

/**
 * Where each leg's trigger must stand against the mark price, by position
 * side, and the live refusal when it does not (Bitget's error-code table,
 * BITGET-FACTS 4.2). The table has no mark-price code for a short's take
 * profit: 45061 "TP price of short position < Current price {0}" (Bitget's
 * contract error-code table) is the documented rule closest to it.
 */
const markRules = {
  long: {
    profit: { above: true, refusal: () => Params.coded("40915") },
    loss: { above: false, refusal: (mark: string) => Params.coded("40917", mark) }
  },
  short: {
    profit: { above: false, refusal: (mark: string) => Params.coded("45061", mark) },
    loss: { above: true, refusal: (mark: string) => Params.coded("45122", mark) }
  }
} as const

/** The live refusal of a second whole-position plan of a kind. */
const duplicateRefusal = { profit: "43030", loss: "43031" } as const

/** Compares two non-negative decimal strings exactly: negative, zero or positive. */
const compareDecimals = (a: string, b: string): number => {
  const [aWhole = "", aFraction = ""] = a.split(".")
  const [bWhole = "", bFraction = ""] = b.split(".")
  const digits = Math.max(aFraction.length, bFraction.length)
  const scaled = (whole: string, fraction: string) => BigInt(whole + fraction.padEnd(digits, "0"))
  const difference = scaled(aWhole, aFraction) - scaled(bWhole, bFraction)
  return difference === 0n ? 0 : difference < 0n ? -1 : 1
}

/** Whether a plan is on the contract of a position (either side). */
const onContract = (plan: PlanOrder, position: Position): boolean =>
  plan.productType === position.productType && plan.symbol === position.symbol

/** Whether a plan is on a position. */
const onPosition = (plan: PlanOrder, position: Position): boolean =>
  onContract(plan, position) && plan.holdSide === position.holdSide

/** The checks of one leg against the position and its plans: trigger side of the mark, size, duplicate. */
const checkLeg = (
  account: AccountState,
  position: Position,
  kind: Kind,
  leg: Leg & { readonly triggerPrice: string },
  mark: string
): Result.Result<void, ApiFailure> => {
  const rule = markRules[sideOf(position.holdSide)][kind]
  const side = compareDecimals(leg.triggerPrice, mark)
  if (rule.above ? side <= 0 : side >= 0) return Result.fail(rule.refusal(mark))
  if (leg.size !== undefined && compareDecimals(leg.size, position.size) > 0) {
    return Result.fail(Params.coded("43023"))
  }
  const whole = planTypes[kind].whole
  return leg.size === undefined && account.plans.some((plan) => plan.planType === whole && onPosition(plan, position))
    ? Result.fail(Params.coded(duplicateRefusal[kind]))
    : Result.succeed(undefined)
}

/** The legs of a request that place a plan (those with a trigger price), take-profit first. */
const placed = (request: Request) =>
  (["profit", "loss"] as const).flatMap((kind) => {
    const { triggerPrice, ...leg } = request.legs[kind]
    return triggerPrice === undefined ? [] : [{ kind, leg: { ...leg, triggerPrice } }]
  })

/** Refuses plans that would take the contract's partial plans past `partialPlanLimit` (40890). */
const withinPlanLimit = (
  account: AccountState,
  position: Position,
  legs: ReturnType<typeof placed>
): Result.Result<void, ApiFailure> => {
  const partial: ReadonlyArray<PlanOrder["planType"]> = [planTypes.profit.part, planTypes.loss.part]
  const held = account.plans.filter((plan) => onContract(plan, position) && partial.includes(plan.planType)).length
  const adding = legs.filter(({ leg }) => leg.size !== undefined).length
  return adding > 0 && held + adding > partialPlanLimit
    ? Result.fail(Params.coded("40890"))
    : Result.succeed(undefined)
}

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
      if (position === undefined) return yield* Result.fail(Params.coded("40837"))
      const future = call.state.world.future(position.productType, position.symbol)
      if (future === undefined) return yield* Result.fail(Params.notExist(request.symbol))
      const mark = markPrice(future, call.now)
      const legs = placed(request)
      for (const { kind, leg } of legs) yield* checkLeg(account, position, kind, leg, mark)
      yield* withinPlanLimit(account, position, legs)
      return legs.map(({ kind, leg }) =>
        place(account, position, kind, leg, { orderId: call.state.nextPlanOrderId(), now: call.now })
      )
    })
)
