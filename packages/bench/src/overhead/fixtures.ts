/**
 * The canned answers of the static responder and the requests every client
 * sends, in one place: the payloads are plain JSON text in the exchange's
 * field shapes (every field a string, as the exchange sends them), so that
 * each client parses and decodes the same bytes.
 */
import { day } from "../time.js"

/** The fake key every signed row uses (the responder never checks signatures). */
export const credentials = {
  apiKey: "bg_bench0123456789abcdef",
  secret: "bench-secret-0123456789abcdef0123456789abcdef",
  passphrase: "bench-passphrase"
} as const

/** The symbol the one-record symbols row asks for. */
export const oneSymbol = "BTCUSDT"

/** How many pairs the all-symbols answer lists. */
export const symbolCount = 1000

/** Records per tax page (the exchange's maximum). */
export const taxPageSize = 500

/** Orders per futures history page (the exchange's maximum). */
export const futuresPageSize = 100

/** The orders the batch-cancel row names (the exchange's maximum of 50), all by order id. */
export const cancelOrderIds: ReadonlyArray<string> = Array.from({ length: 50 }, (_, i) => String(1_300_000_000_001 + i))

/** The product type of the futures row. */
export const productType = "USDT-FUTURES"

/** When the canned data was made: every timestamp in it is a little before this. */
const base = Date.now()

const pick = <A>(values: ReadonlyArray<A>, index: number): A => values[index % values.length] as A

const coins = ["BTC", "ETH", "SOL", "XRP", "DOGE", "ADA", "TRX", "LINK", "AVAX", "DOT", "LTC", "BCH", "UNI", "ATOM"]

/** One spot pair; the first is `BTCUSDT`. */
const symbolRecord = (index: number) => {
  const baseCoin = index === 0 ? "BTC" : `${pick(coins, index)}${index}`
  return {
    symbol: `${baseCoin}USDT`,
    baseCoin,
    quoteCoin: "USDT",
    minTradeAmount: "0",
    maxTradeAmount: "900000000000000000000",
    takerFeeRate: "0.002",
    makerFeeRate: "0.002",
    pricePrecision: String(2 + (index % 6)),
    quantityPrecision: String(index % 8),
    quotePrecision: String(6 + (index % 3)),
    status: index % 50 === 49 ? "halt" : "online",
    minTradeUSDT: "1",
    buyLimitPriceRatio: "0.05",
    sellLimitPriceRatio: "0.05",
    areaSymbol: index % 10 === 9 ? "yes" : "no",
    orderQuantity: "200",
    openTime: String(base - day * (400 + index)),
    offTime: ""
  }
}

/** The `data` of the symbols answer: all pairs, or only `BTCUSDT`. */
export const symbolsData = (all: boolean): ReadonlyArray<ReturnType<typeof symbolRecord>> =>
  Array.from({ length: all ? symbolCount : 1 }, (_, i) => symbolRecord(i))

const taxTypes = ["Buy", "Sell", "Transaction fee deduct", "Deposit", "Withdrawal", "Transfer in", "Transfer out"]

/**
 * One spot ledger record as JSON text. Ids are positive integers; a record's
 * time falls as its id does (one millisecond apart), ending just before `base`.
 */
export const taxRecordJson = (id: number): string => {
  const amount = ((id % 9973) / 100 + 0.01).toFixed(4)
  const fee = id % 3 === 0 ? `-${((id % 97) / 10_000).toFixed(6)}` : "0"
  return `{"id":"${id}","coin":"${pick(coins, id)}","spotTaxType":"${pick(taxTypes, id)}","amount":"${amount}",` +
    `"fee":"${fee}","balance":"${(10_000 + (id % 100_000) / 7).toFixed(8)}","ts":"${base - 10_000_000 + id}",` +
    `"bizOrderId":"${id % 4 === 0 ? "" : String(1_200_000_000_000 + id)}"}`
}

/** The `data` of one tax page as JSON text: ids from `highest` down, at most `count` of them, none below 1. */
export const taxPageJson = (highest: number, count: number): string => {
  const parts: Array<string> = []
  for (let id = highest; id > highest - count && id >= 1; id--) parts.push(taxRecordJson(id))
  return `[${parts.join(",")}]`
}

const tradeSides = ["open", "close", "buy_single", "sell_single"]
const orderSources = ["normal", "market", "profit_market", "plan_limit"]

/** One historical futures order. */
const futuresOrder = (index: number) => {
  const filled = index % 5 !== 4
  const price = (60_000 + index * 3.5).toFixed(1)
  return {
    symbol: index % 3 === 0 ? "ETHUSDT" : "BTCUSDT",
    size: (0.001 * (1 + (index % 40))).toFixed(3),
    orderId: String(1_100_000_000_000 - index),
    clientOid: index % 2 === 0 ? `bench-${index}` : "",
    baseVolume: filled ? (0.001 * (1 + (index % 40))).toFixed(3) : "0",
    fee: filled ? `-${(0.0123 * (1 + (index % 7))).toFixed(8)}` : "0",
    price: index % 4 === 3 ? "" : price,
    priceAvg: filled ? price : "",
    status: filled ? "filled" : "canceled",
    side: index % 2 === 0 ? "buy" : "sell",
    force: "gtc",
    totalProfits: (index % 11 - 5).toFixed(4),
    posSide: index % 2 === 0 ? "long" : "short",
    marginCoin: "USDT",
    quoteVolume: filled ? (60 + index).toFixed(4) : "0",
    leverage: String(1 + (index % 20)),
    marginMode: index % 2 === 0 ? "crossed" : "isolated",
    reduceOnly: "NO",
    enterPointSource: index % 3 === 0 ? "web" : "API",
    tradeSide: pick(tradeSides, index),
    posMode: "hedge_mode",
    orderType: index % 4 === 3 ? "market" : "limit",
    orderSource: pick(orderSources, index),
    liqPrice: "",
    cTime: String(base - 3_600_000 - index * 1000),
    uTime: String(base - 3_600_000 - index * 1000 + 250),
    presetStopSurplusPrice: "",
    presetStopLossPrice: "",
    posAvg: filled ? price : ""
  }
}

/** The `data` of one futures history page: 100 orders and the id of the last. */
export const futuresData = () => {
  const entrustedList = Array.from({ length: futuresPageSize }, (_, i) => futuresOrder(i))
  return { entrustedList, endId: entrustedList.at(-1)?.orderId ?? "" }
}

/** The perpetual contracts of the futures page's orders (both in `USDT-FUTURES`). */
const contractSymbols = ["BTCUSDT", "ETHUSDT"]

/** One USDT-margined perpetual contract, in the shape of `/api/v2/mix/market/contracts`. */
const contractRecord = (symbol: string) => ({
  symbol,
  baseCoin: symbol.slice(0, -4),
  quoteCoin: "USDT",
  buyLimitPriceRatio: "0.01",
  sellLimitPriceRatio: "0.01",
  feeRateUpRatio: "0.005",
  makerFeeRate: "0.0002",
  takerFeeRate: "0.0006",
  openCostUpRatio: "0.01",
  supportMarginCoins: ["USDT"],
  minTradeNum: "0.001",
  priceEndStep: "1",
  volumePlace: "3",
  pricePlace: "1",
  sizeMultiplier: "0.001",
  symbolType: "perpetual",
  minTradeUSDT: "5",
  maxSymbolOrderNum: "200",
  maxProductOrderNum: "400",
  maxPositionNum: "150",
  symbolStatus: "normal",
  offTime: "-1",
  limitOpenTime: "-1",
  deliveryTime: "",
  deliveryStartTime: "",
  deliveryPeriod: "",
  launchTime: "",
  fundInterval: "8",
  minLever: "1",
  maxLever: "125",
  posLimit: "0.05",
  maintainTime: ""
})

/**
 * The `data` of the contracts answer of a product type: the two contracts of
 * the futures page for `USDT-FUTURES`, none for the others. Only ccxt's
 * unified client asks, loading its markets once before it is timed, so that
 * it can name the futures orders' markets.
 */
export const contractsData = (type: string | undefined): ReadonlyArray<ReturnType<typeof contractRecord>> =>
  type === productType ? contractSymbols.map(contractRecord) : []

/** The `data` of the batch-cancel answer: every order of `cancelOrderIds` cancelled. */
export const batchCancelData = () => ({
  successList: cancelOrderIds.map((orderId, i) => ({ orderId, clientOid: `bench-cancel-${i}` })),
  failureList: []
})

/** A success envelope around `data`, already JSON text. */
export const envelope = (dataJson: string, requestTime: number = base): string =>
  `{"code":"00000","msg":"success","requestTime":${requestTime},"data":${dataJson}}`

/** The answers measured by the decode rows, as whole envelopes. */
export const payloads = () => ({
  tax: envelope(taxPageJson(taxPageSize, taxPageSize)),
  symbols: envelope(JSON.stringify(symbolsData(true))),
  futures: envelope(JSON.stringify(futuresData()))
})
