/**
 * The floor: raw `undici.request()` on a pooled keep-alive Agent and
 * `JSON.parse` of the body; no signing, no validation, no decoding.
 */
import { Agent, request } from "undici"
import * as Fixtures from "../fixtures.js"
import { dataOf, lengthOf, walkPages } from "./answers.js"
import type { MakeClient } from "./Client.js"
import { taxWindow } from "./Client.js"

/** The floor client. */
export const make: MakeClient = (baseUrl) => {
  const dispatcher = new Agent({ keepAliveTimeout: 600_000, keepAliveMaxTimeout: 600_000 })
  const send = async (path: string, body?: string): Promise<unknown> => {
    const response = await request(`${baseUrl}${path}`, {
      dispatcher,
      ...(body === undefined ? {} : { method: "POST", body, headers: { "content-type": "application/json" } })
    })
    return dataOf(JSON.parse(await response.body.text()))
  }
  const taxPage = (cursor?: string) => {
    const { endTime, startTime } = taxWindow()
    const query = `startTime=${startTime}&endTime=${endTime}&limit=${Fixtures.taxPageSize}`
    return send(`/api/v2/tax/spot-record?${query}${cursor === undefined ? "" : `&idLessThan=${cursor}`}`)
  }
  const cancel = JSON.stringify({
    symbol: Fixtures.oneSymbol,
    orderList: Fixtures.cancelOrderIds.map((orderId) => ({ orderId }))
  })
  return {
    operations: {
      symbolsOne: async () => lengthOf(await send(`/api/v2/spot/public/symbols?symbol=${Fixtures.oneSymbol}`)),
      symbolsAll: async () => lengthOf(await send("/api/v2/spot/public/symbols")),
      taxPage: async () => lengthOf(await taxPage()),
      futuresPage: async () =>
        lengthOf(
          await send(`/api/v2/mix/order/orders-history?productType=${Fixtures.productType}&limit=100`),
          "entrustedList"
        ),
      batchCancel: async () => lengthOf(await send("/api/v2/spot/trade/batch-cancel-order", cancel), "successList")
    },
    walkTaxRecords: () => walkPages(taxPage, Fixtures.taxPageSize)
  }
}
