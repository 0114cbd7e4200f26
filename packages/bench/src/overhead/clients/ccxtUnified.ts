/**
 * ccxt's unified methods, which build its structures from the answer (markets
 * and orders: numbers as JavaScript floats, times as milliseconds plus an ISO
 * string, the raw record kept in `info`): the "ccxt unified" column, the same
 * work as bitget-effect's decoding. Rows with no unified method on the same
 * endpoint have none here (`fetchLedger` reads `/api/v2/spot/account/bills`,
 * not the tax record endpoint). The markets the order methods need are loaded
 * once, before anything is timed, as a user does; the timed calls send only
 * their own requests (the bench's tests check which).
 */
import * as Fixtures from "../fixtures.js"
import type { Json } from "./answers.js"
import { exchange } from "./ccxt.js"
import type { MakeClient } from "./Client.js"

/** The spot symbol of the batch-cancel row, as ccxt names it. */
const cancelSymbol = "BTC/USDT"

/** How many of `list` are parsed structures, `-1` when it is not a list. */
const structures = (list: unknown, parsed: (structure: Json) => boolean): number => {
  if (!Array.isArray(list)) return -1
  let count = 0
  for (const item of list as ReadonlyArray<Json>) if (parsed(item)) count++
  return count
}

/** A market of the spot symbols answer, parsed (`BTC/USDT`, say). */
const spotMarket = (market: Json) => market.spot === true && typeof market.symbol === "string"

/** A futures order parsed onto its loaded swap market (`BTC/USDT:USDT`), its times read. */
const futuresOrder = (order: Json) =>
  typeof order.id === "string" && typeof order.timestamp === "number" && typeof order.symbol === "string" &&
  order.symbol.endsWith(":USDT")

/** A cancelled order as ccxt builds it from the answer's `successList` (an id on its market, no times). */
const cancelledOrder = (order: Json) => typeof order.id === "string" && order.symbol === cancelSymbol

/** The ccxt client through its unified methods; resolves once its markets are loaded. */
export const make: MakeClient = async (baseUrl) => {
  // `fetchMarkets` reads spot only (as the symbols rows do): `/api/v2/spot/public/symbols` and, beside it,
  // `/api/v2/margin/currencies` (the responder answers an empty list)
  const markets = exchange(baseUrl, { fetchMarkets: { types: ["spot"] } })
  // the order methods need spot and swap markets to name the orders' markets: loaded once, here
  const account = exchange(baseUrl)
  await account.loadMarkets()
  return {
    operations: {
      symbolsOne: async () => structures(await markets.fetchMarkets({ symbol: Fixtures.oneSymbol }), spotMarket),
      symbolsAll: async () => structures(await markets.fetchMarkets(), spotMarket),
      futuresPage: async () =>
        structures(
          await account.fetchCanceledAndClosedOrders(undefined, undefined, Fixtures.futuresPageSize, {
            type: "swap",
            productType: Fixtures.productType
          }),
          futuresOrder
        ),
      batchCancel: async () =>
        structures(await account.cancelOrders([...Fixtures.cancelOrderIds], cancelSymbol), cancelledOrder)
    }
  }
}
