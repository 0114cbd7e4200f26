/**
 * ccxt's bitget class with every API section pointed at the responder and
 * its rate limiter off, called through the implicit (raw) methods: they sign
 * and parse, but do not turn the answer into ccxt's unified structures (the
 * "ccxt raw" column; `ccxtUnified.ts` is the other).
 */
import ccxt from "ccxt"
import * as Fixtures from "../fixtures.js"
import { dataOf, lengthOf, walkPages } from "./answers.js"
import type { MakeClient } from "./Client.js"
import { taxWindow } from "./Client.js"

const sections = ["spot", "mix", "user", "p2p", "broker", "margin", "common", "tax", "convert", "copy", "earn", "uta"]

/**
 * ccxt's bitget class against `baseUrl`: the bench's key, rate limiting off,
 * the classic (not unified-trading) account; `options` add to ccxt's own.
 */
export const exchange = (baseUrl: string, options: Readonly<Record<string, unknown>> = {}) =>
  new ccxt.bitget({
    apiKey: Fixtures.credentials.apiKey,
    secret: Fixtures.credentials.secret,
    password: Fixtures.credentials.passphrase,
    enableRateLimit: false,
    urls: { api: Object.fromEntries(sections.map((section) => [section, baseUrl])) },
    options: { uta: false, ...options }
  })

/** The ccxt client through its implicit methods. */
export const make: MakeClient = (baseUrl) => {
  const client = exchange(baseUrl)
  const taxPage = (cursor?: string) => {
    const { endTime, startTime } = taxWindow()
    return client.privateTaxGetV2TaxSpotRecord({
      startTime: String(startTime),
      endTime: String(endTime),
      limit: String(Fixtures.taxPageSize),
      ...(cursor === undefined ? {} : { idLessThan: cursor })
    }).then(dataOf)
  }
  const cancel = {
    symbol: Fixtures.oneSymbol,
    orderList: Fixtures.cancelOrderIds.map((orderId) => ({ orderId }))
  }
  return {
    operations: {
      symbolsOne: async () =>
        lengthOf(dataOf(await client.publicSpotGetV2SpotPublicSymbols({ symbol: Fixtures.oneSymbol }))),
      symbolsAll: async () => lengthOf(dataOf(await client.publicSpotGetV2SpotPublicSymbols())),
      taxPage: async () => lengthOf(await taxPage()),
      futuresPage: async () =>
        lengthOf(
          dataOf(
            await client.privateMixGetV2MixOrderOrdersHistory({
              productType: Fixtures.productType,
              limit: String(Fixtures.futuresPageSize)
            })
          ),
          "entrustedList"
        ),
      batchCancel: async () =>
        lengthOf(dataOf(await client.privateSpotPostV2SpotTradeBatchCancelOrder(cancel)), "successList")
    },
    walkTaxRecords: () => walkPages(taxPage, Fixtures.taxPageSize)
  }
}
