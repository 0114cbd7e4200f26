/**
 * Market data: the symbol universe, prices as a pure function of time, trade
 * rates and open interest limits (the fund net flow and the RPI order book,
 * each served by one route, live in their route modules).
 *
 * @internal
 */
import type { ProductType } from "../../Account.js"
import type { Shapes } from "../../Shapes.js"
import { padded, round, trimmed } from "./format.js"
import { Draw, hash, hashString } from "./hash.js"
import { variant } from "./shapes.js"
import { DAY, HOUR } from "./time.js"

/** A spot symbol with its JSON record. */
export interface SpotSymbol {
  readonly symbol: string
  readonly baseCoin: string
  readonly quoteCoin: string
  readonly status: "online" | "offline" | "gray" | "halt"
  readonly pricePrecision: number
  readonly quantityPrecision: number
  /** Reference price at the anchor, in the quote coin. */
  readonly basePrice: number
  readonly record: Readonly<Record<string, string>>
}

/** A futures contract. */
export interface FuturesSymbol {
  readonly symbol: string
  readonly baseCoin: string
  readonly productType: ProductType
  readonly marginCoin: string
  readonly basePrice: number
  readonly pricePrecision: number
  readonly quantityPrecision: number
}

const wellKnown: ReadonlyArray<readonly [string, string, number]> = [
  ["BTC", "USDT", 95_000],
  ["ETH", "USDT", 3_300],
  ["SOL", "USDT", 180],
  ["XRP", "USDT", 2.3],
  ["BGB", "USDT", 4.6],
  ["DOGE", "USDT", 0.32],
  ["ADA", "USDT", 0.9],
  ["LTC", "USDT", 105],
  ["TRX", "USDT", 0.24],
  ["PEPE", "USDT", 0.000012],
  ["ETH", "BTC", 0.035],
  ["BTC", "USDC", 95_000],
  ["ETH", "USDC", 3_300],
  ["BTC$", "USDT", 0.042],
  ["币安人生", "USDT", 0.15]
]

const syllables = [
  "ZO",
  "RA",
  "KI",
  "TE",
  "MO",
  "NU",
  "LA",
  "VI",
  "XA",
  "QU",
  "BE",
  "TO",
  "SU",
  "PI",
  "DE",
  "FA",
  "GO",
  "HY",
  "JU",
  "WE",
  "AR",
  "ON",
  "EX",
  "IO"
]

const quoteUsd: Readonly<Record<string, number>> = { USDT: 1, USDC: 1, BTC: 95_000, ETH: 3_300 }

const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value))

const pricePrecisionOf = (price: number) => clamp(6 - Math.floor(Math.log10(price)), 0, 10)

/** Salt of the caps on an order's value, fields only newer answers carry. */
const ORDER_VALUE_SALT = 92

/** Salt of the draw serving a symbol in the older live shape. */
const OLDER_SHAPE_SALT = 93

/** The share of symbols in the older shape under `varied`. */
const OLDER_SHAPE_SHARE = 0.3

/** The caps on one order's value in the quote coin (`maxLimitOrderValue`, `maxMarketOrderValue`) of symbol `i`. */
const orderValueCaps = (seed: number, i: number, quote: string) => {
  const draw = Draw.at(seed, ORDER_VALUE_SALT, i)
  const market = draw.pick([50_000, 100_000, 200_000, 500_000, 1_000_000]) / (quoteUsd[quote] ?? 1)
  const limit = market * draw.pick([2, 5, 10])
  return { maxLimitOrderValue: trimmed(limit, 8), maxMarketOrderValue: trimmed(market, 8) }
}

/** A seeded draw, as `Draw.at` gives it. */
type Drawing = ReturnType<typeof Draw.at>

/**
 * The base, quote and reference price of the `i`-th pair: a well-known one,
 * else drawn (a pair not taken yet).
 */
const pairAt = (draw: Drawing, i: number, taken: ReadonlySet<string>): readonly [string, string, number] => {
  const known = wellKnown[i]
  if (known !== undefined) return known
  const quote = draw.weighted([["USDT", 75], ["USDC", 12], ["BTC", 8], ["ETH", 5]])
  let base: string
  do {
    base = draw.pick(syllables) + draw.pick(syllables) +
      (draw.chance(0.5) ? draw.pick(["X", "K", "N", "S", "Z", "AI"]) : "")
  } while (taken.has(base + quote))
  return [base, quote, 10 ** draw.between(-6, 4) / (quoteUsd[quote] ?? 1)]
}

/** The `i`-th pair's status: the well-known ones online, one each offline, gray and halt after them, then drawn. */
const statusAt = (draw: Drawing, i: number): SpotSymbol["status"] =>
  i < wellKnown.length
    ? "online"
    : i === wellKnown.length
    ? "offline"
    : i === wellKnown.length + 1
    ? "gray"
    : i === wellKnown.length + 2
    ? "halt"
    : draw.weighted([["online", 85], ["offline", 6], ["gray", 4], ["halt", 5]] as const)

/** The `i`-th symbol of the universe (its pair not among `taken`). */
const symbolAt = (seed: number, i: number, anchor: number, shapes: Shapes, taken: ReadonlySet<string>): SpotSymbol => {
  const draw = Draw.at(seed, 11, i)
  const [base, quote, price] = pairAt(draw, i, taken)
  const symbol = base + quote
  const status = statusAt(draw, i)
  const pricePrecision = pricePrecisionOf(price)
  const quantityPrecision = clamp(Math.floor(Math.log10(price)) + 2 + draw.int(0, 1), 0, 8)
  const makerFee = draw.weighted([["0.001", 80], ["0.002", 15], ["0", 5]])
  const takerFee = makerFee === "0" ? "0.001" : makerFee
  const offTime = status === "offline" || status === "halt" ? String(anchor - draw.int(1, 400) * DAY) : ""
  const ratio = draw.pick([0.05, 0.1, 0.2, 0.5])
  const older = {
    symbol,
    baseCoin: base,
    quoteCoin: quote,
    minTradeAmount: padded(0, 0),
    maxTradeAmount: padded(900_000_000_000_000_000_000, 0),
    takerFeeRate: takerFee,
    makerFeeRate: makerFee,
    pricePrecision: String(pricePrecision),
    quantityPrecision: String(quantityPrecision),
    quotePrecision: String(clamp(pricePrecision + draw.int(0, 2), 0, 12)),
    status,
    minTradeUSDT: draw.pick(["1", "5", "10"]),
    buyLimitPriceRatio: padded(ratio, 2),
    sellLimitPriceRatio: padded(ratio, 2)
  }
  const orderQuantity = draw.pick(["200", "400", "1000"])
  const areaSymbol = draw.chance(0.08) ? "yes" : "no"
  const openTime = String(anchor - draw.int(30, 2500) * DAY)
  return {
    symbol,
    baseCoin: base,
    quoteCoin: quote,
    status,
    pricePrecision,
    quantityPrecision,
    basePrice: price,
    record: variant(shapes, seed, OLDER_SHAPE_SALT, i, OLDER_SHAPE_SHARE)
      ? older
      : { ...older, areaSymbol, orderQuantity, openTime, offTime, ...orderValueCaps(seed, i, quote) }
  }
}

/**
 * Builds the spot symbol universe: the well-known pairs first, then generated
 * ones. Under `varied` a share of the records take the older live shape,
 * without `areaSymbol`, `orderQuantity`, `openTime`, `offTime` and the order
 * value caps.
 */
export const makeSymbols = (
  seed: number,
  count: number,
  anchor: number,
  shapes: Shapes
): ReadonlyArray<SpotSymbol> => {
  const out: Array<SpotSymbol> = []
  const taken = new Set<string>()
  for (let i = 0; i < Math.max(count, wellKnown.length); i++) {
    const symbol = symbolAt(seed, i, anchor, shapes, taken)
    taken.add(symbol.symbol)
    out.push(symbol)
  }
  return out
}

const coinMargined = ["BTC", "ETH", "XRP", "SOL", "LTC", "ADA", "DOGE"]
const usdcMargined = ["BTC", "ETH", "SOL", "XRP"]

/** The futures contracts of each product type, derived from the spot universe. */
export const makeFutures = (
  symbols: ReadonlyArray<SpotSymbol>
): ReadonlyMap<ProductType, ReadonlyArray<FuturesSymbol>> => {
  const usdt = symbols
    .filter((s) => s.quoteCoin === "USDT" && s.status === "online" && /^[A-Z0-9]+$/.test(s.baseCoin))
    .slice(0, 60)
  const make = (s: SpotSymbol, productType: ProductType, symbol: string, marginCoin: string): FuturesSymbol => ({
    symbol,
    baseCoin: s.baseCoin,
    productType,
    marginCoin,
    basePrice: s.basePrice,
    pricePrecision: Math.max(0, s.pricePrecision - 1),
    quantityPrecision: s.quantityPrecision
  })
  const byBase = (bases: ReadonlyArray<string>) => usdt.filter((s) => bases.includes(s.baseCoin))
  return new Map<ProductType, ReadonlyArray<FuturesSymbol>>([
    ["USDT-FUTURES", usdt.map((s) => make(s, "USDT-FUTURES", s.symbol, "USDT"))],
    ["COIN-FUTURES", byBase(coinMargined).map((s) => make(s, "COIN-FUTURES", `${s.baseCoin}USD`, s.baseCoin))],
    ["USDC-FUTURES", byBase(usdcMargined).map((s) => make(s, "USDC-FUTURES", `${s.baseCoin}PERP`, "USDC"))]
  ])
}

/** The price of an instrument at time `t`: slow and fast waves around its reference price. */
export const priceAt = (basePrice: number, symbol: string, t: number): number => {
  const phase = hashString(symbol) / 4_294_967_296
  const slow = Math.sin((2 * Math.PI * t) / (41 * DAY) + phase * 6.283)
  const fast = Math.sin((2 * Math.PI * t) / (2.7 * DAY) + phase * 12.566)
  const hourly = Math.sin((2 * Math.PI * t) / (3 * HOUR) + phase * 25.13)
  return basePrice * (1 + 0.12 * slow + 0.04 * fast + 0.01 * hourly)
}

/** The business lines whose trade rates the sandbox knows. */
export const businessTypes = ["spot", "mix", "margin"] as const

/** The trade rates of one business line for one key. */
export const tradeRate = (
  seed: number,
  business: (typeof businessTypes)[number],
  symbol: string,
  marketMaker: boolean
): { readonly symbol: string; readonly makerFeeRate: string; readonly takerFeeRate: string } => {
  const promo = hash(seed, 21, hashString(symbol)) % 20 === 0
  if (business === "mix") {
    return {
      symbol,
      makerFeeRate: marketMaker ? "-0.00005" : promo ? "0" : "0.0002",
      takerFeeRate: marketMaker ? "0.0004" : "0.0006"
    }
  }
  return { symbol, makerFeeRate: marketMaker || promo ? "0" : "0.001", takerFeeRate: marketMaker ? "0.0006" : "0.001" }
}

/** The open interest limits of a contract. */
export const openInterestLimit = (future: FuturesSymbol) => {
  const price = future.basePrice
  const qty = (usd: number) => trimmed(round(usd / price, future.quantityPrecision), future.quantityPrecision)
  return {
    symbol: future.symbol,
    singleUserLimit: qty(2_000_000),
    masterSubLimit: qty(6_000_000),
    marketMakerLimit: qty(40_000_000)
  }
}
