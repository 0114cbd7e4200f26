/**
 * Historical futures orders of one key and product type: a virtual,
 * newest-first data set covering the `historyDays` before the anchor.
 *
 * @internal
 */
import type { ProductType } from "../../Account.js"
import type { Shapes } from "../../Shapes.js"
import { fixed, round, trimmed } from "./format.js"
import { Draw, hash, hashString } from "./hash.js"
import type { FuturesSymbol } from "./market.js"
import { priceAt } from "./market.js"
import { variant } from "./shapes.js"
import { DAY, HOUR } from "./time.js"
import * as Timeline from "./timeline.js"

/** Days of history the exchange keeps: older orders do not exist (the route refuses to look further back). */
export const historyDays = 90

const otherSources = [
  "profit_chase",
  "loss_chase",
  "follower_delegate",
  "reduce_offset",
  "market_risk",
  "move_limit",
  "move_market",
  "tracking_limit",
  "tracking_market",
  "strategy_dca_positive",
  "strategy_oco_limit",
  "modify_order_limit",
  "strategy_grid_middle",
  "trader_profit",
  "Trader_delegate",
  "delivery_close_long"
]

const sources: ReadonlyArray<readonly [string, number]> = [
  ["normal", 50],
  ["market", 24],
  ["profit_market", 4],
  ["loss_market", 4],
  ["pos_profit_market", 2],
  ["pos_loss_market", 2],
  ["profit_limit", 1],
  ["loss_limit", 1],
  ["plan_market", 2],
  ["plan_limit", 2],
  ["liquidation", 1],
  ["*", 7]
]

/** The orders of one key and product type. */
export interface Dataset {
  readonly seed: number
  readonly anchor: number
  readonly productType: ProductType
  readonly symbols: ReadonlyArray<readonly [FuturesSymbol, number]>
  readonly posMode: "hedge_mode" | "one_way_mode"
  readonly timeline: Timeline.Timeline
  /** Whether records vary in shape where live ones do. */
  readonly shapes: Shapes
}

/** Builds the data set. */
export const make = (options: {
  readonly seed: number
  readonly anchor: number
  readonly size: number
  readonly productType: ProductType
  readonly symbols: ReadonlyArray<FuturesSymbol>
  readonly shapes: Shapes
}): Dataset => ({
  seed: options.seed,
  anchor: options.anchor,
  productType: options.productType,
  symbols: options.symbols.map((symbol, k) => [symbol, 1 / (k + 1)] as const),
  posMode: options.productType === "USDT-FUTURES" ? "hedge_mode" : "one_way_mode",
  timeline: Timeline.make({
    seed: options.seed,
    size: options.size,
    newest: options.anchor - 30_000,
    span: historyDays * DAY - 120_000,
    idBase: 1_180_000_000_000_000_000n + BigInt(hash(options.seed, 3) % 1000) * 1_000_000_000_000n
  }),
  shapes: options.shapes
})

const symbolOf = (self: Dataset, i: number): FuturesSymbol => Draw.at(self.seed, 71, i).weighted(self.symbols)

const sourceOf = (self: Dataset, i: number): string => {
  const draw = Draw.at(self.seed, 72, i)
  const picked = draw.weighted(sources)
  return picked === "*" ? draw.pick(otherSources) : picked
}

const CLIENT_OID_OFFSET = 170_000_000_000_000_000n

const fromBase36 = (text: string): bigint | undefined => {
  if (!/^[0-9a-z]{1,16}$/.test(text)) return undefined
  let value = 0n
  for (const char of text) value = value * 36n + BigInt(parseInt(char, 36))
  return value
}

/** The index of an order by its client order id. */
export const indexOfClientOid = (self: Dataset, clientOid: string): number | undefined => {
  const id = clientOid.startsWith("sbx-") ? fromBase36(clientOid.slice(4)) : Timeline.parseId(clientOid)
  if (id === undefined) return undefined
  const index = Timeline.indexOfId(self.timeline, clientOid.startsWith("sbx-") ? id : id - CLIENT_OID_OFFSET)
  return index !== undefined && clientOidOf(self, index) === clientOid ? index : undefined
}

const enterPointOf = (self: Dataset, i: number, source: string): string =>
  source === "liquidation"
    ? "sys"
    : Draw.at(self.seed, 73, i).weighted([["api", 55], ["web", 30], ["android", 6], ["ios", 7], ["sys", 2]])

const clientOidOf = (self: Dataset, i: number): string => {
  const id = Timeline.idAt(self.timeline, i)
  return enterPointOf(self, i, sourceOf(self, i)) === "api" && hash(self.seed, 74, i) % 3 === 0
    ? `sbx-${id.toString(36)}`
    : (id + CLIENT_OID_OFFSET).toString()
}

/** Salt of the draw leaving `posAvg` out of a record, as both live captures do (the doc example has it). */
const POS_AVG_SALT = 91

/** Salt of the draw leaving `reduceOnly` out of a record, as the doc example does (both live captures have it). */
const REDUCE_ONLY_SALT = 97

/** How an order trades, as the exchange writes it in each position mode. */
const tradeSideOf = (hedge: boolean, liquidation: boolean, closing: boolean, long: boolean, side: string): string =>
  hedge
    ? liquidation ? (long ? "burst_close_long" : "burst_close_short") : closing ? "close" : "open"
    : liquidation
    ? `burst_${side}_single`
    : closing
    ? `reduce_${side}_single`
    : `${side}_single`

/**
 * The JSON record of order `i`. In hedge mode `side` is the position's
 * direction (a close of a long is a `buy`), as the exchange writes it; closes
 * are reduce-only in both modes; under `varied` some records leave `posAvg`
 * (or `reduceOnly`) out.
 */
export const record = (self: Dataset, i: number) => {
  const draw = Draw.at(self.seed, 75, i)
  const future = symbolOf(self, i)
  const source = sourceOf(self, i)
  const cTime = Timeline.timeAt(self.timeline, i)
  const market = source.includes("market") || source === "liquidation"
  const filled = market || draw.chance(0.68)
  const hedge = self.posMode === "hedge_mode"
  const closing = source !== "normal" && source !== "market" ? true : draw.chance(0.45)
  const long = draw.chance(0.5)
  // hedge mode: the position's direction (a close of a long is a "buy"); one-way: the trade's (it sells)
  const side = hedge ? (long ? "buy" : "sell") : closing === long ? "sell" : "buy"
  const tradeSide = tradeSideOf(hedge, source === "liquidation", closing, long, side)
  const decimals = future.pricePrecision
  const qDecimals = future.quantityPrecision
  const mark = priceAt(future.basePrice, future.symbol, cTime)
  const price = round(mark * (market ? 1 : 1 + draw.between(-0.01, 0.01)), decimals)
  const size = Math.max(round(draw.between(20, 40_000) / future.basePrice, qDecimals), 10 ** -qDecimals)
  const fillPrice = round(market ? mark * (1 + draw.between(-0.0005, 0.0005)) : price, decimals)
  const quote = size * fillPrice
  const coinMargined = self.productType === "COIN-FUTURES"
  const posAvg = round(fillPrice * (1 + draw.between(-0.03, 0.03)), decimals)
  const profit = closing && filled ? (long ? 1 : -1) * (fillPrice - posAvg) * size : 0
  const preset = !closing && draw.chance(0.15)
  const uTime = Math.min(self.anchor - 1, cTime + (filled ? draw.int(5, 2_000) : draw.int(1_000, HOUR)))
  const money = (value: number) => fixed(coinMargined ? value / fillPrice : value, coinMargined ? 8 : 4)
  return {
    symbol: future.symbol,
    size: trimmed(size, qDecimals),
    orderId: Timeline.idAt(self.timeline, i).toString(),
    clientOid: clientOidOf(self, i),
    baseVolume: filled ? trimmed(size, qDecimals) : "0",
    fee: filled ? money(-quote * (market ? 0.0006 : 0.0002)) : "0",
    price: market ? "" : fixed(price, decimals),
    priceAvg: filled ? fixed(fillPrice, decimals) : "",
    status: filled ? "filled" : "canceled",
    side,
    force: market ? "gtc" : draw.weighted([["gtc", 80], ["ioc", 8], ["fok", 4], ["post_only", 8]]),
    totalProfits: money(profit),
    posSide: hedge ? (long ? "long" : "short") : "net",
    marginCoin: future.marginCoin,
    quoteVolume: filled ? fixed(quote, 4) : "0",
    leverage: String(draw.pick([3, 5, 10, 20, 25, 50])),
    marginMode: draw.chance(0.7) ? "crossed" : "isolated",
    ...(variant(self.shapes, self.seed, REDUCE_ONLY_SALT, i, 0.2) ? {} : { reduceOnly: closing ? "YES" : "NO" }),
    enterPointSource: enterPointOf(self, i, source),
    tradeSide,
    posMode: self.posMode,
    orderType: market ? "market" : "limit",
    orderSource: source,
    cTime: String(cTime),
    uTime: String(uTime),
    presetStopSurplusPrice: preset ? fixed(round(price * (long ? 1.1 : 0.9), decimals), decimals) : "",
    presetStopLossPrice: preset ? fixed(round(price * (long ? 0.95 : 1.05), decimals), decimals) : "",
    ...(variant(self.shapes, self.seed, POS_AVG_SALT, i)
      ? {}
      : { posAvg: closing && filled ? fixed(posAvg, decimals) : "" })
  }
}

/** The matcher of the symbol and order-source filters. */
export const matcher = (
  self: Dataset,
  filters: { readonly symbol: string | undefined; readonly orderSource: string | undefined }
): Timeline.Matcher => {
  const { orderSource, symbol } = filters
  if (symbol === undefined && orderSource === undefined) return Timeline.all
  const wanted = symbol?.toUpperCase()
  if (wanted !== undefined && !self.symbols.some(([s]) => s.symbol === wanted)) return { _tag: "None" }
  return {
    _tag: "Some",
    test: (i) =>
      (wanted === undefined || symbolOf(self, i).symbol === wanted) &&
      (orderSource === undefined || sourceOf(self, i) === orderSource)
  }
}

/** Seed salt of a product type. */
export const salt = (productType: ProductType): number => hashString(productType)
