/**
 * bitget-api's `RestClientV2` (axios) with its base URL at the responder and
 * a keep-alive `http.Agent` (its own `keepAlive` option only covers https).
 * It signs the symbols call too: its `getSpotSymbolInfo` goes through the
 * private path.
 */
import { RestClientV2 } from "bitget-api"
import * as Http from "node:http"
import * as Fixtures from "../fixtures.js"
import { dataOf, lengthOf, walkPages } from "./answers.js"
import type { MakeClient } from "./Client.js"
import { taxWindow } from "./Client.js"

/** The bitget-api client. */
export const make: MakeClient = (baseUrl) => {
  const client = new RestClientV2(
    {
      apiKey: Fixtures.credentials.apiKey,
      apiSecret: Fixtures.credentials.secret,
      apiPass: Fixtures.credentials.passphrase,
      baseUrl
    },
    { httpAgent: new Http.Agent({ keepAlive: true }) }
  )
  const taxPage = (cursor?: string) => {
    const { endTime, startTime } = taxWindow()
    return client.getSpotTransactionRecords({
      startTime: String(startTime),
      endTime: String(endTime),
      limit: String(Fixtures.taxPageSize),
      ...(cursor === undefined ? {} : { idLessThan: cursor })
    }).then(dataOf)
  }
  return {
    operations: {
      symbolsOne: async () => lengthOf(dataOf(await client.getSpotSymbolInfo({ symbol: Fixtures.oneSymbol }))),
      symbolsAll: async () => lengthOf(dataOf(await client.getSpotSymbolInfo())),
      taxPage: async () => lengthOf(await taxPage()),
      futuresPage: async () =>
        lengthOf(
          dataOf(
            await client.getFuturesHistoricOrders({
              productType: Fixtures.productType,
              limit: String(Fixtures.futuresPageSize)
            })
          ),
          "entrustedList"
        ),
      batchCancel: async () =>
        lengthOf(
          dataOf(
            await client.spotBatchCancelOrders({
              symbol: Fixtures.oneSymbol,
              orderList: Fixtures.cancelOrderIds.map((orderId) => ({ orderId }))
            })
          ),
          "successList"
        )
    },
    walkTaxRecords: () => walkPages(taxPage, Fixtures.taxPageSize)
  }
}
