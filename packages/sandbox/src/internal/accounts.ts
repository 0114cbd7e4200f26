/**
 * The mutable state of each key (open spot orders, positions, TP/SL plans)
 * and the two writing operations over it: batch cancel and place-pos-tpsl.
 *
 * @internal
 */
import { Result } from "effect"
import type { PlanOrder, Position, ProductType, SpotOrder } from "../Account.js"
import { fixed, round, trimmed } from "./format.js"
import { Draw, hash, hashString } from "./hash.js"
import type { SpotSymbol } from "./market.js"
import { priceAt } from "./market.js"
import type { ApiFailure } from "./params.js"
import * as Params from "./params.js"

/** The state of one key. */
export interface AccountState {
  /** Open spot orders by order id, in placement order. */
  readonly orders: Map<string, SpotOrder>
  readonly positions: ReadonlyArray<Position>
  readonly plans: Array<PlanOrder>
}

const orderSymbols = ["BTCUSDT", "ETHUSDT", "SOLUSDT", "BTC$USDT", "币安人生USDT"]

/** The seeded state of a key. */
export const seed = (options: {
  readonly seed: number
  readonly apiKey: string
  readonly anchor: number
  readonly openOrders: number
  readonly symbols: ReadonlyMap<string, SpotSymbol>
}): AccountState => {
  const salt = hash(options.seed, hashString(options.apiKey))
  const tag = (salt % 46_656).toString(36).padStart(3, "0")
  const orders = new Map<string, SpotOrder>()
  const base = 1_210_000_000_000_000_000n + BigInt(salt % 100_000) * 10_000_000_000n
  const available = orderSymbols.flatMap((name) => {
    const symbol = options.symbols.get(name)
    return symbol === undefined ? [] : [symbol]
  })
  for (let k = 0; k < options.openOrders && available.length > 0; k++) {
    const draw = Draw.at(salt, 81, k)
    const symbol = available[k % available.length] as SpotSymbol
    const side = draw.chance(0.5) ? "buy" : "sell"
    const cTime = options.anchor - (options.openOrders - k) * 37_000 - draw.int(0, 30_000)
    const mark = priceAt(symbol.basePrice, symbol.symbol, cTime)
    const price = round(
      mark * (side === "buy" ? draw.between(0.8, 0.99) : draw.between(1.01, 1.2)),
      symbol.pricePrecision
    )
    const size = Math.max(
      round(draw.between(10, 2_000) / symbol.basePrice, symbol.quantityPrecision),
      10 ** -symbol.quantityPrecision
    )
    const orderId = (base + BigInt(k) * 7_919n + BigInt(draw.int(0, 7_000))).toString()
    orders.set(orderId, {
      orderId,
      clientOid: `sbx-${tag}-${String(k).padStart(4, "0")}`,
      symbol: symbol.symbol,
      side,
      price: fixed(price, symbol.pricePrecision),
      size: trimmed(size, symbol.quantityPrecision),
      cTime: String(cTime)
    })
  }
  const positions: ReadonlyArray<Position> = [
    {
      productType: "USDT-FUTURES",
      symbol: "BTCUSDT",
      marginCoin: "USDT",
      holdSide: "long",
      posMode: "hedge_mode",
      size: "0.5"
    },
    {
      productType: "USDT-FUTURES",
      symbol: "BTCUSDT",
      marginCoin: "USDT",
      holdSide: "short",
      posMode: "hedge_mode",
      size: "0.2"
    },
    {
      productType: "USDT-FUTURES",
      symbol: "ETHUSDT",
      marginCoin: "USDT",
      holdSide: "long",
      posMode: "hedge_mode",
      size: "3"
    },
    {
      productType: "COIN-FUTURES",
      symbol: "BTCUSD",
      marginCoin: "BTC",
      holdSide: "buy",
      posMode: "one_way_mode",
      size: "0.1"
    },
    {
      productType: "USDC-FUTURES",
      symbol: "ETHPERP",
      marginCoin: "USDC",
      holdSide: "sell",
      posMode: "one_way_mode",
      size: "1.5"
    }
  ]
  return { orders, positions, plans: [] }
}

const notFound = "The order does not exist"

interface Item {
  readonly orderId: string | undefined
  readonly clientOid: string | undefined
  readonly symbol: string | undefined
}

const isRecord = (value: unknown): value is Readonly<Record<string, unknown>> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

const sameSymbol = (a: string, b: string) => a.toUpperCase() === b.toUpperCase()

/** Batch cancel (at most 50 orders); all items failing answers a top-level 43001. */
export const batchCancel = (
  account: AccountState,
  body: Readonly<Record<string, unknown>>
): Result.Result<unknown, ApiFailure> =>
  Result.gen(function*() {
    const list = body.orderList
    if (list === undefined || list === null) return yield* Result.fail(Params.missing("orderList"))
    if (!Array.isArray(list)) return yield* Result.fail(Params.invalid("orderList"))
    if (list.length === 0) return yield* Result.fail(Params.missing("orderList"))
    if (list.length > 50) return yield* Result.fail(Params.failure("40912", "single cancel cannot exceed 50"))
    const mode =
      (yield* Params.optionalOneOf("batchMode", yield* Params.field(body, "batchMode"), ["single", "multiple"])) ??
        "single"
    const topSymbol = yield* Params.field(body, "symbol")
    if (mode === "single" && topSymbol === undefined) return yield* Result.fail(Params.missing("symbol"))
    const items: Array<Item> = []
    for (const raw of list as ReadonlyArray<unknown>) {
      if (!isRecord(raw)) return yield* Result.fail(Params.invalid("orderList"))
      const orderId = yield* Params.field(raw, "orderId")
      const clientOid = yield* Params.field(raw, "clientOid")
      if (orderId === undefined && clientOid === undefined) {
        return yield* Result.fail(Params.failure("40924", "orderId and clientOid must have one"))
      }
      const symbol = mode === "single" ? topSymbol : yield* Params.field(raw, "symbol")
      if (symbol === undefined) return yield* Result.fail(Params.missing("symbol"))
      items.push({ orderId, clientOid, symbol })
    }
    const byOrderId = items.some((item) => item.orderId !== undefined)
    const successList: Array<{ orderId: string; clientOid: string }> = []
    const failureList: Array<{ orderId: string; clientOid: string; errorMsg: string; errorCode: string }> = []
    for (const item of items) {
      const symbol = item.symbol as string
      let found: SpotOrder | undefined
      if (item.orderId !== undefined) {
        const order = account.orders.get(item.orderId)
        if (order !== undefined && sameSymbol(order.symbol, symbol)) found = order
      } else if (!byOrderId) {
        for (const order of account.orders.values()) {
          if (order.clientOid === item.clientOid && sameSymbol(order.symbol, symbol)) {
            found = order
            break
          }
        }
      }
      if (found === undefined) {
        failureList.push({
          orderId: item.orderId ?? "",
          clientOid: item.clientOid ?? "",
          errorMsg: notFound,
          errorCode: "43001"
        })
      } else {
        account.orders.delete(found.orderId)
        successList.push({ orderId: found.orderId, clientOid: found.clientOid })
      }
    }
    if (successList.length === 0) return yield* Result.fail(Params.failure("43001", notFound))
    return { successList, failureList }
  })

const productTypes = [
  "usdt-futures",
  "coin-futures",
  "usdc-futures",
  "susdt-futures",
  "scoin-futures",
  "susdc-futures"
] as const
const triggerTypes = ["fill_price", "mark_price"] as const

const nonNegativeDecimal = (name: string, value: string | undefined) =>
  value === undefined || /^\d+(\.\d+)?$/.test(value) ? Result.succeed(value) : Result.fail(Params.invalid(name))

/** Place a position TP/SL: one plan per trigger price sent, on an existing position. */
export const placePosTpsl = (
  account: AccountState,
  body: Readonly<Record<string, unknown>>,
  options: { readonly now: number; readonly nextOrderId: () => string }
): Result.Result<unknown, ApiFailure> =>
  Result.gen(function*() {
    const read = (name: string) => Params.field(body, name)
    const marginCoin = yield* Params.required("marginCoin", yield* read("marginCoin"))
    const productTypeText = yield* Params.required("productType", yield* read("productType"))
    const symbol = yield* Params.required("symbol", yield* read("symbol"))
    const holdSide = yield* Params.oneOf(
      "holdSide",
      yield* Params.required("holdSide", yield* read("holdSide")),
      ["long", "short", "buy", "sell"]
    )
    const productType = yield* Params.oneOf("productType", productTypeText, productTypes, { caseInsensitive: true })
    const tpPrice = yield* read("stopSurplusTriggerPrice")
    const slPrice = yield* read("stopLossTriggerPrice")
    if (tpPrice !== undefined) yield* Params.positiveDecimal("stopSurplusTriggerPrice", tpPrice)
    if (slPrice !== undefined) yield* Params.positiveDecimal("stopLossTriggerPrice", slPrice)
    const tpType = yield* Params.optionalOneOf(
      "stopSurplusTriggerType",
      yield* read("stopSurplusTriggerType"),
      triggerTypes
    )
    const slType = yield* Params.optionalOneOf("stopLossTriggerType", yield* read("stopLossTriggerType"), triggerTypes)
    const tpExecute = yield* nonNegativeDecimal("stopSurplusExecutePrice", yield* read("stopSurplusExecutePrice"))
    const slExecute = yield* nonNegativeDecimal("stopLossExecutePrice", yield* read("stopLossExecutePrice"))
    const tpSize = yield* read("stopSurplusSize")
    const slSize = yield* read("stopLossSize")
    if (tpSize !== undefined) yield* Params.positiveDecimal("stopSurplusSize", tpSize)
    if (slSize !== undefined) yield* Params.positiveDecimal("stopLossSize", slSize)
    yield* Params.optionalOneOf("stpMode", yield* read("stpMode"), [
      "none",
      "cancel_taker",
      "cancel_maker",
      "cancel_both"
    ])
    const tpClientOid = yield* Params.clientOid("stopSurplusClientOid", yield* read("stopSurplusClientOid"))
    const slClientOid = yield* Params.clientOid("stopLossClientOid", yield* read("stopLossClientOid"))
    if (tpPrice === undefined && slPrice === undefined) {
      return yield* Result.fail(Params.verification("stopSurplusTriggerPrice or stopLossTriggerPrice"))
    }
    if (tpPrice === undefined && (tpSize !== undefined || tpExecute !== undefined)) {
      return yield* Result.fail(Params.missing("stopSurplusTriggerPrice"))
    }
    if (slPrice === undefined && (slSize !== undefined || slExecute !== undefined)) {
      return yield* Result.fail(Params.missing("stopLossTriggerPrice"))
    }
    const wantedType = productType.toUpperCase() as ProductType
    const position = account.positions.find((p) =>
      p.productType === wantedType && sameSymbol(p.symbol, symbol) && p.holdSide === holdSide &&
      sameSymbol(p.marginCoin, marginCoin)
    )
    if (position === undefined) return yield* Result.fail(Params.failure("43023", "Position does not exist"))
    const created: Array<{ orderId: string; stopSurplusClientOid: string; stopLossClientOid: string }> = []
    const place = (
      kind: "profit" | "loss",
      triggerPrice: string,
      triggerType: PlanOrder["triggerType"] | undefined,
      executePrice: string | undefined,
      size: string | undefined,
      clientOid: string | undefined
    ) => {
      const orderId = options.nextOrderId()
      account.plans.push({
        orderId,
        clientOid: clientOid ?? "",
        planType: kind === "profit"
          ? (size === undefined ? "pos_profit" : "profit_plan")
          : size === undefined
          ? "pos_loss"
          : "loss_plan",
        productType: position.productType,
        symbol: position.symbol,
        marginCoin: position.marginCoin,
        holdSide: position.holdSide,
        triggerPrice,
        triggerType: triggerType ?? "fill_price",
        executePrice: executePrice ?? "",
        size: size ?? "",
        cTime: String(options.now)
      })
      created.push({
        orderId,
        stopSurplusClientOid: kind === "profit" ? clientOid ?? "" : "",
        stopLossClientOid: kind === "loss" ? clientOid ?? "" : ""
      })
    }
    if (tpPrice !== undefined) place("profit", tpPrice, tpType, tpExecute, tpSize, tpClientOid)
    if (slPrice !== undefined) place("loss", slPrice, slType, slExecute, slSize, slClientOid)
    return created
  })
