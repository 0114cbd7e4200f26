/**
 * Place a position take-profit / stop-loss plan order:
 * `POST /api/v2/mix/order/place-pos-tpsl` (signed, 10/s per UID).
 *
 * @since 0.1.0
 */
import type * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as SchemaGetter from "effect/SchemaGetter"
import * as BitgetClient from "./BitgetClient.js"
import type { BitgetError } from "./BitgetError.js"
import * as Endpoint from "./Endpoint.js"
import { ClientOid, Maybe, NonBlank, NonNegativeDecimal, PositiveDecimal } from "./Schemas.js"

/**
 * Each product type a caller may give, in either case, with what is sent for
 * it (the `s`-prefixed ones are the demo variants).
 *
 * @since 0.2.0
 * @category constants
 */
export const productTypeSpellings = {
  "usdt-futures": "usdt-futures",
  "coin-futures": "coin-futures",
  "usdc-futures": "usdc-futures",
  "susdt-futures": "susdt-futures",
  "scoin-futures": "scoin-futures",
  "susdc-futures": "susdc-futures",
  "USDT-FUTURES": "usdt-futures",
  "COIN-FUTURES": "coin-futures",
  "USDC-FUTURES": "usdc-futures",
  "SUSDT-FUTURES": "susdt-futures",
  "SCOIN-FUTURES": "scoin-futures",
  "SUSDC-FUTURES": "susdc-futures"
} as const

/**
 * The product type as a caller gives it.
 *
 * @since 0.1.0
 * @category models
 */
export type ProductType = Extract<keyof typeof productTypeSpellings, string>

/** The spellings a caller may give. */
const spellings = Object.keys(productTypeSpellings) as Array<ProductType>

/**
 * The product types as sent (lower case; the `s`-prefixed ones are the demo variants).
 *
 * @since 0.2.0
 * @category constants
 */
export const productTypes: ReadonlyArray<(typeof productTypeSpellings)[ProductType]> = [
  ...new Set(Object.values(productTypeSpellings))
]

/**
 * A futures product line (the `s`-prefixed ones are the demo variants), in
 * either case; always sent in lower case.
 *
 * @since 0.1.0
 * @category models
 */
export const ProductType: Schema.Codec<ProductType, string> = Schema.Literals(productTypes).pipe(
  Schema.decodeTo(Schema.Literals(spellings), {
    decode: SchemaGetter.passthroughSubtype(),
    encode: SchemaGetter.transform((type) => productTypeSpellings[type])
  })
).annotate({ identifier: "ProductType" })

/**
 * The price that fires a trigger: `fill_price` (last traded) or `mark_price`.
 *
 * @since 0.1.0
 * @category models
 */
export const TriggerType = Schema.Literals(["fill_price", "mark_price"])

/**
 * The position side: `long`/`short` in hedge mode, `buy`/`sell` in one-way mode.
 *
 * @since 0.1.0
 * @category models
 */
export const HoldSide = Schema.Literals(["long", "short", "buy", "sell"])

/**
 * Self-trade prevention mode (the exchange's default is `none`).
 *
 * @since 0.1.0
 * @category models
 */
export const StpMode = Schema.Literals(["none", "cancel_taker", "cancel_maker", "cancel_both"])

const legs = [
  {
    trigger: "stopSurplusTriggerPrice",
    companions: ["stopSurplusSize", "stopSurplusTriggerType", "stopSurplusExecutePrice", "stopSurplusClientOid"]
  },
  {
    trigger: "stopLossTriggerPrice",
    companions: ["stopLossSize", "stopLossTriggerType", "stopLossExecutePrice", "stopLossClientOid"]
  }
] as const

const checkLegs = (request: { readonly [key: string]: unknown }): ReadonlyArray<Schema.FilterIssue> => {
  const issues: Array<Schema.FilterIssue> = []
  if (legs.every((leg) => request[leg.trigger] === undefined)) {
    issues.push({
      path: [],
      issue: "needs stopSurplusTriggerPrice, stopLossTriggerPrice or both (the exchange rejects neither)"
    })
  }
  for (const leg of legs) {
    if (request[leg.trigger] !== undefined) continue
    for (const companion of leg.companions) {
      if (request[companion] !== undefined) {
        issues.push({ path: [companion], issue: `${companion} needs ${leg.trigger}` })
      }
    }
  }
  return issues
}

/**
 * The request. Execute prices: absent or `0` execute at market, above `0` as
 * a limit order. Sizes in base coin: absent means the whole position.
 *
 * @since 0.1.0
 * @category models
 */
export const PositionTpslRequest = Schema.Struct({
  marginCoin: NonBlank,
  productType: ProductType,
  symbol: NonBlank,
  stopSurplusTriggerPrice: Schema.optional(PositiveDecimal),
  /** Given: a `profit_plan` for this size; absent: a `pos_profit` for the whole position. */
  stopSurplusSize: Schema.optional(PositiveDecimal),
  stopSurplusTriggerType: Schema.optional(TriggerType),
  stopSurplusExecutePrice: Schema.optional(NonNegativeDecimal),
  stopSurplusClientOid: Schema.optional(ClientOid),
  stopLossTriggerPrice: Schema.optional(PositiveDecimal),
  /** Given: a `loss_plan` for this size; absent: a `pos_loss` for the whole position. */
  stopLossSize: Schema.optional(PositiveDecimal),
  stopLossTriggerType: Schema.optional(TriggerType),
  stopLossExecutePrice: Schema.optional(NonNegativeDecimal),
  stopLossClientOid: Schema.optional(ClientOid),
  holdSide: HoldSide,
  stpMode: Schema.optional(StpMode)
}).annotate({ identifier: "PositionTpslFields" }).check(
  Schema.makeFilter(checkLegs, { identifier: "PositionTpslRequest" })
)

/**
 * The request type.
 *
 * @since 0.1.0
 * @category models
 */
export type PositionTpslRequest = typeof PositionTpslRequest.Type

/**
 * The kind of plan the exchange creates for a leg: a sized plan
 * (`profit_plan`, `loss_plan`) or one for the whole position (`pos_profit`, `pos_loss`).
 *
 * @since 0.1.0
 * @category models
 */
export const PlanKind = Schema.Literals(["profit_plan", "pos_profit", "loss_plan", "pos_loss"])

/**
 * The plan kind type.
 *
 * @since 0.1.0
 * @category models
 */
export type PlanKind = typeof PlanKind.Type

/**
 * The plans a request creates, take-profit first: `profit_plan` when
 * `stopSurplusSize` is given, else `pos_profit`; `loss_plan` or `pos_loss` likewise.
 *
 * @since 0.1.0
 * @category accessors
 */
export const planKinds = (
  request: Pick<
    PositionTpslRequest,
    "stopSurplusTriggerPrice" | "stopSurplusSize" | "stopLossTriggerPrice" | "stopLossSize"
  >
): ReadonlyArray<PlanKind> => {
  const kinds: Array<PlanKind> = []
  if (request.stopSurplusTriggerPrice !== undefined) {
    kinds.push(request.stopSurplusSize === undefined ? "pos_profit" : "profit_plan")
  }
  if (request.stopLossTriggerPrice !== undefined) {
    kinds.push(request.stopLossSize === undefined ? "pos_loss" : "loss_plan")
  }
  return kinds
}

/**
 * A plan order the exchange created, with the client order id it echoes.
 *
 * @since 0.1.0
 * @category models
 */
export class PositionTpslOrder extends Schema.Class<PositionTpslOrder>("PositionTpslOrder")({
  /** The trigger order id. */
  orderId: Schema.String,
  stopSurplusClientOid: Maybe(Schema.String),
  stopLossClientOid: Maybe(Schema.String)
}) {}

/**
 * The endpoint descriptor.
 *
 * @see `placePositionTpsl`, which calls it
 * @since 0.1.0
 * @category endpoints
 */
export const endpoint = Endpoint.post({
  name: "mix.placePositionTpsl",
  path: "/api/v2/mix/order/place-pos-tpsl",
  auth: "signed",
  rateLimit: { limit: 10, window: "1 second", scope: "uid" },
  idempotency: "unsafe",
  bounds: {
    enums: {
      productType: productTypes,
      holdSide: HoldSide.literals,
      stopSurplusTriggerType: TriggerType.literals,
      stopLossTriggerType: TriggerType.literals,
      stpMode: StpMode.literals
    }
  },
  request: PositionTpslRequest,
  response: Schema.Array(PositionTpslOrder)
})

/**
 * Places take-profit and/or stop-loss plans on a position; one order per plan created.
 *
 * @example
 * ```ts
 * import { PositionTpsl } from "@bitget-effect/core"
 * import { BigDecimal } from "effect"
 *
 * // Take profit on 0.05 BTC at 72000 (a limit at 71950), and a stop loss on the
 * // whole position when the mark price reaches 58000 (at market).
 * const program = PositionTpsl.placePositionTpsl({
 *   productType: "USDT-FUTURES",
 *   symbol: "BTCUSDT",
 *   marginCoin: "USDT",
 *   holdSide: "long",
 *   stopSurplusTriggerPrice: BigDecimal.fromStringUnsafe("72000"),
 *   stopSurplusExecutePrice: BigDecimal.fromStringUnsafe("71950"),
 *   stopSurplusSize: BigDecimal.fromStringUnsafe("0.05"),
 *   stopLossTriggerPrice: BigDecimal.fromStringUnsafe("58000"),
 *   stopLossTriggerType: "mark_price"
 * })
 * ```
 *
 * @see `endpoint` for the method, path, limits and retry policy
 * @since 0.1.0
 * @category operations
 */
export const placePositionTpsl = (
  request: PositionTpslRequest
): Effect.Effect<ReadonlyArray<PositionTpslOrder>, BitgetError, BitgetClient.BitgetClient> =>
  BitgetClient.execute(endpoint, request)
