/**
 * Spot tax (ledger) records of one key: a virtual, newest-first data set with a
 * burst of records sharing one timestamp.
 *
 * @internal
 */
import { fixed, round } from "./format.js"
import { Draw, hash } from "./hash.js"
import { DAY } from "./time.js"
import * as Timeline from "./timeline.js"

/** Every record type the exchange documents, exactly as written. */
export const spotTaxTypes: ReadonlyArray<string> = [
  "Deposit",
  "Withdrawal",
  "User fees",
  "Fiat withdrawal success - Deduct",
  "Sell",
  "Buy",
  "Transaction fee deduct",
  "Strategic purchase-user accounts",
  "Subscribe to trader-user accounts",
  "System charges fees",
  "Strategic refund-User account",
  "Subscription fee refund-user account",
  "Strategic Income-Traders' accounts",
  "Crypto Voucher Distribution",
  "Copy Trade expense",
  "Judicial recall",
  "Copy Trade profit",
  "Refund Copy Trade commission",
  "Buy Crypto",
  "Deduction of judicial recall",
  "Buy with card",
  "Airdrop Reward-B",
  "Decrease due to ETF settlement",
  "Increase due to ETF settlement",
  "System lock-up",
  "User lock-up",
  "Trading fee rebate",
  "Manage background lock positions",
  "Automatic deposit",
  "Automatic withdrawal",
  "Deposit from strategy account",
  "Withdraw to strategy account",
  "Lotto rewards",
  "User contract trial fund",
  "User contract simulation fund",
  "Delegate",
  "Undelegate",
  "Rebate rewards",
  "Consumption",
  "Gains",
  "Unlock locked order",
  "Deduction",
  "Return",
  "Release",
  "Repayment",
  "Forced liquidation return",
  "The locked order is returned to the system",
  "Failed",
  "Withdrawal frozen",
  "Mirror fund",
  "Supplement fund",
  "Reduce fund",
  "Settlement out",
  "Withdrawal unfreeze",
  "Ordinary Withdrawal",
  "Fast withdrawal fee",
  "Airdrop Reward-A",
  "Subscribe",
  "Interest",
  "Penalty",
  "Redemption",
  "Activity fund(USDT-Ⓜ)",
  "Activity fund",
  "Activity fund(Coin-Ⓜ)",
  "Increase exchange rate",
  "Reduce exchange rate",
  "Transfer in",
  "Activity issuance",
  "Transfer out",
  "Super account",
  "Exchange spending",
  "Exchange income",
  "Sent",
  "Received",
  "MegaSwap Transfer in",
  "MegaSwap Transfer out",
  "Channel referral rewards",
  "System account",
  "Sell Crypto",
  "Fiat deposit"
]

const common: ReadonlyArray<readonly [string, number]> = [
  ["Buy", 22],
  ["Sell", 20],
  ["Transaction fee deduct", 8],
  ["Deposit", 8],
  ["Withdrawal", 6],
  ["Transfer in", 5],
  ["Transfer out", 5],
  ["Interest", 3],
  ["Trading fee rebate", 3],
  ["Airdrop Reward-A", 1],
  ["Fiat deposit", 1],
  ["Buy Crypto", 1],
  ["Sell Crypto", 1],
  ["*", 10]
]

const coins: ReadonlyArray<readonly [readonly [string, number, number], number]> = [
  [["USDT", 1, 6], 40],
  [["BTC", 95_000, 8], 15],
  [["ETH", 3_300, 8], 12],
  [["USDC", 1, 6], 8],
  [["SOL", 180, 6], 6],
  [["BGB", 4.6, 6], 6],
  [["XRP", 2.3, 6], 5],
  [["BTC$", 0.042, 4], 4],
  [["币安人生", 0.15, 4], 4]
]

const negative = new RegExp(
  [
    "Withdraw",
    "Sell",
    "[Dd]educt",
    "out$",
    "fees?$",
    "expense",
    "Decrease",
    "lock-up",
    "^Delegate$",
    "Consumption",
    "frozen",
    "Reduce",
    "^Subscribe",
    "Penalty",
    "spending",
    "^Sent$",
    "purchase",
    "recall",
    "Failed"
  ].join("|")
)
const positive = /rebate|[Rr]efund|unfreeze|Undelegate/

/** The records of one key. */
export interface Dataset {
  readonly seed: number
  readonly timeline: Timeline.Timeline
}

/** Builds the data set of one key; `runLength` records (if > 1) share one timestamp about a week before the anchor. */
export const make = (options: {
  readonly seed: number
  readonly anchor: number
  readonly size: number
  readonly spanDays: number
  readonly runLength: number
}): Dataset => {
  const runLength = Math.min(options.runLength, Math.floor(options.size / 2))
  const runStart = Math.min(Math.floor((options.size * 7) / Math.max(options.spanDays, 8)), options.size - runLength)
  return {
    seed: options.seed,
    timeline: Timeline.make({
      seed: options.seed,
      size: options.size,
      newest: options.anchor - 45_000,
      span: options.spanDays * DAY,
      idBase: 1_150_000_000_000_000_000n + BigInt(hash(options.seed, 2) % 1000) * 1_000_000_000_000n,
      run: runLength > 1 ? { start: runStart, length: runLength } : undefined
    })
  }
}

const inRun = (self: Dataset, i: number) => {
  const run = self.timeline.run
  return run !== undefined && i >= run.start && i < run.start + run.length
}

const coinOf = (self: Dataset, i: number): readonly [string, number, number] =>
  inRun(self, i) ? ["USDT", 1, 6] : Draw.at(self.seed, 61, i).weighted(coins)

/** The JSON record of record `i`. */
export const record = (self: Dataset, i: number) => {
  const [coin, usd, decimals] = coinOf(self, i)
  const draw = Draw.at(self.seed, 62, i)
  const picked = inRun(self, i) ? "Trading fee rebate" : draw.weighted(common)
  const spotTaxType = picked === "*" ? draw.pick(spotTaxTypes) : picked
  const sign = positive.test(spotTaxType) || !negative.test(spotTaxType) ? 1 : -1
  const value = inRun(self, i) ? draw.between(0.01, 2) : draw.between(5, 20_000)
  const amount = Math.max(round(value / usd, decimals), 10 ** -decimals)
  const trade = spotTaxType === "Buy" || spotTaxType === "Sell"
  const ts = Timeline.timeAt(self.timeline, i)
  const phase = (hash(self.seed, 63, coin.length) % 1000) / 159
  const balance = (50_000 / usd) * (1.05 + Math.sin(ts / (9 * DAY) + phase))
  const id = Timeline.idAt(self.timeline, i)
  return {
    id: id.toString(),
    coin,
    spotTaxType,
    amount: fixed(sign * amount, decimals),
    fee: trade ? fixed(round(amount * 0.001, decimals), decimals) : "0",
    balance: fixed(round(balance, decimals), decimals),
    ts: String(ts),
    bizOrderId: trade || spotTaxType === "Withdrawal" || spotTaxType === "Deposit"
      ? (id + 2_000_000_000_000_000_000n).toString()
      : ""
  }
}

/** The matcher of the coin filter. */
export const matcher = (self: Dataset, coin: string | undefined): Timeline.Matcher => {
  if (coin === undefined) return Timeline.all
  const wanted = coin.toUpperCase()
  if (!coins.some(([[name]]) => name.toUpperCase() === wanted)) return { _tag: "None" }
  return { _tag: "Some", test: (i) => coinOf(self, i)[0].toUpperCase() === wanted }
}
