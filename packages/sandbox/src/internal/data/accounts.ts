/**
 * The mutable state of each key (open spot orders, positions, TP/SL plans)
 * and its seeded start; the batch-cancel and place-pos-tpsl routes change it.
 *
 * @internal
 */
import type { PlanOrder, Position, SpotOrder } from "../../Account.js"
import { fixed, round, trimmed } from "./format.js"
import { Draw, hash, hashString } from "./hash.js"
import type { SpotSymbol } from "./market.js"
import { priceAt } from "./market.js"

/** The state of one key. */
export interface AccountState {
  /** Open spot orders by order id, in placement order. */
  readonly orders: Map<string, SpotOrder>
  readonly positions: ReadonlyArray<Position>
  readonly plans: Array<PlanOrder>
}

/** What seeds the state of a key. */
export interface Seed {
  readonly seed: number
  readonly apiKey: string
  readonly anchor: number
  readonly openOrders: number
  readonly symbols: ReadonlyMap<string, SpotSymbol>
}

const orderSymbols = ["BTCUSDT", "ETHUSDT", "SOLUSDT", "BTC$USDT", "币安人生USDT"]

/** The positions every key holds. */
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

/** Open order `k` of a key: a limit order away from the price at its time, on one of `symbols` in turn. */
const openOrder = (
  options: Seed,
  salt: number,
  symbols: ReadonlyArray<SpotSymbol>,
  k: number
): SpotOrder => {
  const tag = (salt % 46_656).toString(36).padStart(3, "0")
  const base = 1_210_000_000_000_000_000n + BigInt(salt % 100_000) * 10_000_000_000n
  const draw = Draw.at(salt, 81, k)
  const symbol = symbols[k % symbols.length] as SpotSymbol
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
  return {
    orderId: (base + BigInt(k) * 7_919n + BigInt(draw.int(0, 7_000))).toString(),
    clientOid: `sbx-${tag}-${String(k).padStart(4, "0")}`,
    symbol: symbol.symbol,
    side,
    price: fixed(price, symbol.pricePrecision),
    size: trimmed(size, symbol.quantityPrecision),
    cTime: String(cTime)
  }
}

/** The seeded state of a key. */
export const seed = (options: Seed): AccountState => {
  const salt = hash(options.seed, hashString(options.apiKey))
  const symbols = orderSymbols.flatMap((name) => {
    const symbol = options.symbols.get(name)
    return symbol === undefined ? [] : [symbol]
  })
  const orders = new Map<string, SpotOrder>()
  for (let k = 0; k < options.openOrders && symbols.length > 0; k++) {
    const order = openOrder(options, salt, symbols, k)
    orders.set(order.orderId, order)
  }
  return { orders, positions, plans: [] }
}
