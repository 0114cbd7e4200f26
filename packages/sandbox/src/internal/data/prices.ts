/**
 * The prices of a futures contract at a time, as the symbol-price route
 * serves them: the mark price (what take-profit and stop-loss triggers are
 * checked against), the index price and the last traded price. Each follows
 * the contract's slowly moving price (`priceAt`) and, like the live mark,
 * changes once a second.
 *
 * @internal
 */
import { fixed } from "./format.js"
import type { FuturesSymbol } from "./market.js"
import { priceAt } from "./market.js"

/** How often the prices change, ms. */
const TICK_MILLIS = 1_000

/** How far the index and the last price stand from the mark, as fractions of it. */
const spread = { index: -0.0002, last: 0.0001 } as const

/** The price of a contract at the start of the second holding `now`, written with the contract's decimals. */
const priceOf = (future: FuturesSymbol, now: number, offset: number): string =>
  fixed(
    priceAt(future.basePrice, future.symbol, Math.floor(now / TICK_MILLIS) * TICK_MILLIS) * (1 + offset),
    future.pricePrecision
  )

/** The mark price of a contract at `now`. */
export const markPrice = (future: FuturesSymbol, now: number): string => priceOf(future, now, 0)

/** The prices of a contract at `now`, as the symbol-price route answers them (all strings). */
export const symbolPrice = (future: FuturesSymbol, now: number) => ({
  symbol: future.symbol,
  price: priceOf(future, now, spread.last),
  indexPrice: priceOf(future, now, spread.index),
  markPrice: markPrice(future, now),
  ts: String(now)
})
