/**
 * P2P merchant orders of one key: a virtual, newest-first data set computed
 * record by record from (seed, index).
 *
 * @internal
 */
import { fixed, round } from "./format.js"
import { Draw, hash } from "./hash.js"
import { DAY, MINUTE } from "./time.js"
import * as Timeline from "./timeline.js"

interface PayMethod {
  readonly name: string
  readonly id: string
  readonly fields: ReadonlyArray<string>
}

interface Ad {
  readonly advNo: string
  readonly side: "buy" | "sell"
  readonly coin: string
  readonly fiat: string
  readonly price: number
  /** Price of the coin in USD. */
  readonly usd: number
  readonly fiatDecimals: number
  readonly method: PayMethod
}

/** The orders of one key. */
export interface Dataset {
  readonly seed: number
  readonly anchor: number
  readonly timeline: Timeline.Timeline
  readonly ads: ReadonlyArray<Ad>
}

const coins: ReadonlyArray<readonly [readonly [string, number, number], number]> = [
  [["USDT", 1, 2], 70],
  [["USDC", 1, 2], 10],
  [["BTC", 95_000, 6], 10],
  [["ETH", 3_300, 5], 10]
]

const fiats: ReadonlyArray<readonly [string, number, number, PayMethod]> = [
  ["USD", 1, 2, { name: "Wise", id: "27", fields: ["Email", "Full name"] }],
  ["EUR", 0.92, 2, { name: "SEPA Instant", id: "31", fields: ["IBAN", "Full name"] }],
  ["GBP", 0.79, 2, { name: "Faster Payments", id: "35", fields: ["Account number", "Sort code"] }],
  ["VND", 25_400, 0, { name: "Vietcombank", id: "112", fields: ["Account number", "Account name"] }],
  ["NGN", 1_600, 2, { name: "Opay", id: "148", fields: ["Phone number", "Account name"] }],
  ["TRY", 34, 2, { name: "Papara", id: "88", fields: ["Papara number"] }],
  ["BRL", 5.6, 2, { name: "PIX", id: "95", fields: ["PIX key"] }],
  ["INR", 84, 2, { name: "UPI", id: "73", fields: ["UPI ID"] }]
]

const coinDecimals = (coin: string) => coins.find(([[name]]) => name === coin)?.[0][2] ?? 2

/** Builds the data set of one key. */
export const make = (options: {
  readonly seed: number
  readonly anchor: number
  readonly size: number
  readonly spanDays: number
}): Dataset => {
  const ads = Array.from({ length: 16 }, (_, k): Ad => {
    const draw = Draw.at(options.seed, 50, k)
    const [coin, usd] = draw.weighted(coins)
    const [fiat, rate, fiatDecimals, method] = draw.pick(fiats)
    return {
      advNo: draw.digits(19),
      side: draw.chance(0.5) ? "buy" : "sell",
      coin,
      fiat,
      price: usd * rate * draw.between(0.98, 1.03),
      usd,
      fiatDecimals,
      method
    }
  })
  return {
    seed: options.seed,
    anchor: options.anchor,
    ads,
    timeline: Timeline.make({
      seed: options.seed,
      size: options.size,
      newest: options.anchor - 60_000,
      span: options.spanDays * DAY,
      idBase: 1_120_000_000_000_000_000n + BigInt(hash(options.seed, 1) % 1000) * 1_000_000_000_000n
    })
  }
}

/** The advertisement an order belongs to. */
export const adOf = (self: Dataset, i: number): Ad => self.ads[hash(self.seed, 52, i) % self.ads.length] as Ad

/** The status of an order, as the list answers it (lower case). */
export const statusOf = (self: Dataset, i: number): string => {
  const age = self.anchor - Timeline.timeAt(self.timeline, i)
  const draw = Draw.at(self.seed, 53, i)
  if (age < 15 * MINUTE) return draw.weighted([["pending_pay", 60], ["paid", 40]])
  if (age < 120 * MINUTE) return draw.weighted([["paid", 30], ["appeal", 10], ["completed", 45], ["cancelled", 15]])
  return draw.weighted([["completed", 78], ["cancelled", 21.5], ["appeal", 0.5]])
}

/** The order number of record `i`, decodable back to its id. */
const ORDER_NO_OFFSET = 3_000_000_000_000_000_000n

/** The index of an order by its order number. */
export const indexOfOrderNo = (self: Dataset, orderNo: string): number | undefined => {
  const value = Timeline.parseId(orderNo)
  return value === undefined ? undefined : Timeline.indexOfId(self.timeline, value - ORDER_NO_OFFSET)
}

const mask = (draw: Draw) => {
  const first = draw.pick(["J", "M", "A", "L", "N", "T", "K", "S", "H", "P"])
  const last = draw.pick(["D", "N", "W", "T", "O", "B", "R", "V"])
  return `${first}*** ${last}**`
}

/** The JSON record of order `i`. */
export const record = (self: Dataset, i: number) => {
  const draw = Draw.at(self.seed, 51, i)
  const ad = adOf(self, i)
  const status = statusOf(self, i)
  const ctime = Timeline.timeAt(self.timeline, i)
  const id = Timeline.idAt(self.timeline, i)
  const budget = Math.min(self.anchor - ctime, 45 * MINUTE)
  const paymentTime = status === "pending_pay" || status === "cancelled"
    ? undefined
    : ctime + Math.round(budget * draw.between(0.05, 0.5))
  const releaseTime = status === "completed" && paymentTime !== undefined
    ? paymentTime + Math.round(budget * draw.between(0.01, 0.45))
    : undefined
  const representTime = status === "appeal" && paymentTime !== undefined
    ? paymentTime + Math.round(budget * draw.between(0.01, 0.45))
    : undefined
  const withdrawTime = status === "cancelled" ? ctime + Math.round(budget * draw.between(0.05, 0.9)) : undefined
  const utime = Math.max(ctime, paymentTime ?? 0, releaseTime ?? 0, representTime ?? 0, withdrawTime ?? 0)
  const decimals = coinDecimals(ad.coin)
  const count = round(draw.between(10, 5000) / ad.usd, decimals)
  const price = round(ad.price * (1 + 0.01 * Math.sin(ctime / DAY)), ad.fiatDecimals)
  const time = (value: number | undefined) => (value === undefined ? "" : String(value))
  return {
    orderId: id.toString(),
    orderNo: (id + ORDER_NO_OFFSET).toString(),
    advNo: ad.advNo,
    side: ad.side,
    count: fixed(count, decimals),
    coin: ad.coin,
    price: fixed(price, ad.fiatDecimals),
    fiat: ad.fiat,
    withdrawTime: time(withdrawTime),
    representTime: time(representTime),
    releaseTime: time(releaseTime),
    paymentTime: time(paymentTime),
    amount: fixed(round(count * price, ad.fiatDecimals), ad.fiatDecimals),
    status,
    buyerRealName: draw.chance(0.8) ? mask(draw) : "",
    sellerRealName: draw.chance(0.8) ? mask(draw) : "",
    ctime: String(ctime),
    utime: String(utime),
    paymentInfo: {
      paymethodName: ad.method.name,
      paymethodId: ad.method.id,
      paymethodInfo: ad.method.fields.map((name) => ({
        name,
        required: "yes",
        type: "number",
        value: `****${draw.digits(4)}`
      }))
    }
  }
}

/** Filters of the list request (values already validated). */
export interface Filters {
  readonly status: string | undefined
  readonly side: string | undefined
  readonly coin: string | undefined
  readonly fiat: string | undefined
  readonly advNo: string | undefined
}

/** The matcher of the filters. */
export const matcher = (self: Dataset, filters: Filters): Timeline.Matcher => {
  const { advNo, coin, fiat, side, status } = filters
  if ([advNo, coin, fiat, side, status].every((value) => value === undefined)) return { _tag: "All" }
  const ads = new Set(
    self.ads.filter((ad) =>
      (advNo === undefined || ad.advNo === advNo) &&
      (coin === undefined || ad.coin.toUpperCase() === coin.toUpperCase()) &&
      (fiat === undefined || ad.fiat.toUpperCase() === fiat.toUpperCase()) &&
      (side === undefined || ad.side === side)
    )
  )
  if (ads.size === 0) return { _tag: "None" }
  const wanted = status?.toLowerCase()
  return { _tag: "Some", test: (i) => ads.has(adOf(self, i)) && (wanted === undefined || statusOf(self, i) === wanted) }
}
