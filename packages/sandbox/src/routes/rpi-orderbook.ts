/**
 * `GET /api/v3/market/rpi-orderbook`: the RPI order book of a spot or futures
 * symbol, for RPI market makers only (or everyone, with `rpiOpen`). Its levels
 * are strings, or under `varied`, drawn per answer, JSON numbers (as one doc
 * version and the live sibling `/api/v3/market/orderbook` send them).
 *
 * @internal
 */
import * as Result from "effect/Result"
import { productTypes } from "../Account.js"
import { fixed, round, trimmed } from "../internal/data/format.js"
import { Draw, hash, hashString } from "../internal/data/hash.js"
import { priceAt } from "../internal/data/market.js"
import { variant } from "../internal/data/shapes.js"
import { define } from "../internal/route/define.js"
import * as Params from "../internal/route/params.js"

const bounds = {
  pageSize: 200,
  enums: { category: ["SPOT", ...productTypes] }
} as const

/** What a book is drawn around: a spot symbol or a futures contract. */
interface Instrument {
  readonly symbol: string
  readonly basePrice: number
  readonly pricePrecision: number
  readonly quantityPrecision: number
}

/** Salt of the draw sending an answer's levels as JSON numbers. */
const NUMBER_LEVELS_SALT = 96

/** One level: price, non-RPI quantity, RPI quantity. */
type Level = readonly [string, string, string]

/** Levels as JSON numbers (`[65000.5, 1.2, 0]`): at most 15 significant digits, so each is its string's exact value. */
const asNumbers = (levels: ReadonlyArray<Level>): ReadonlyArray<ReadonlyArray<number>> =>
  levels.map((level) => level.map(Number))

/** An RPI order book snapshot, the same within one second. */
const rpiOrderBook = (seed: number, instrument: Instrument, now: number, levels: number) => {
  const second = Math.floor(now / 1000)
  const draw = Draw.at(seed, 41, hash(hashString(instrument.symbol), second))
  const decimals = instrument.pricePrecision
  const tick = 10 ** -decimals
  const mid = Math.max(tick * 10, round(priceAt(instrument.basePrice, instrument.symbol, now), decimals))
  const notional = 50 + draw.between(0, 5000)
  const side = (direction: 1 | -1) => {
    const out: Array<Level> = []
    let price = mid + direction * tick * draw.int(1, 3)
    for (let k = 0; k < levels && price > 0; k++) {
      const quantity = round(draw.between(0.05, 3) * notional / mid, instrument.quantityPrecision)
      const rpi = draw.chance(0.4) ? round(draw.between(0.01, 1) * notional / mid, instrument.quantityPrecision) : 0
      out.push([
        fixed(price, decimals),
        trimmed(Math.max(quantity, 10 ** -instrument.quantityPrecision), instrument.quantityPrecision),
        trimmed(rpi, instrument.quantityPrecision)
      ])
      price += direction * tick * draw.int(1, 3)
    }
    return out
  }
  return { a: side(1), b: side(-1), ts: String(now) }
}

export const route = define(
  {
    name: "rpi-orderbook",
    method: "GET",
    path: "/api/v3/market/rpi-orderbook",
    access: "identified",
    perSecond: 10,
    scope: "ip",
    bounds,
    requestTime: "number-or-string"
  },
  (call) =>
    Result.gen(function*() {
      if (!call.state.options.rpiOpen && call.key?.rpiMarketMaker !== true) {
        return yield* Result.fail(Params.coded("40014", "RPI market maker"))
      }
      const category = yield* Params.oneOf(
        "category",
        yield* Params.required("category", call.query.get("category")),
        bounds.enums.category,
        { caseInsensitive: true }
      )
      const symbol = yield* Params.required("symbol", call.query.get("symbol"))
      const limit = yield* Params.limit(call.query.get("limit"), { fallback: 5, max: bounds.pageSize })
      const world = call.state.world
      const instrument = category === "SPOT" ? world.spot(symbol) : world.future(category, symbol)
      if (instrument === undefined) return yield* Result.fail(Params.notExist(symbol))
      const book = rpiOrderBook(world.seed, instrument, call.now, limit)
      return variant(call.state.options.shapes, world.seed, NUMBER_LEVELS_SALT, call.state.nextAnswer())
        ? { ...book, a: asNumbers(book.a), b: asNumbers(book.b) }
        : book
    })
)
