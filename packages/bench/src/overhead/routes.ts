/**
 * What the static responder answers: a request's method and URL mapped to a
 * canned, pre-serialised envelope (no signature checks, no state). Pure, so
 * that a test can serve it too; `responder.ts` puts it behind a server. The
 * ledger holds `taxRecords` tax records (ids 1 to n, served newest first in
 * pages of 500 with `idLessThan` paging).
 */
import type * as Http from "node:http"
import * as Fixtures from "./fixtures.js"

/** A ready answer: the bytes and their headers. */
export interface Answer {
  readonly status: number
  readonly body: Buffer
  readonly headers: Http.OutgoingHttpHeaders
}

const answer = (json: string, status = 200): Answer => {
  const body = Buffer.from(json)
  return { status, body, headers: { "content-type": "application/json", "content-length": body.length } }
}

const ok = (dataJson: string) => answer(Fixtures.envelope(dataJson))

/** Every page a walk from the newest record asks for, keyed by its highest id (0: the empty page past the end). */
const taxPages = (taxRecords: number): Map<number, Answer> => {
  const pages = new Map<number, Answer>()
  for (let highest = taxRecords; highest >= 1; highest -= Fixtures.taxPageSize) {
    pages.set(highest, ok(Fixtures.taxPageJson(highest, Fixtures.taxPageSize)))
  }
  pages.set(0, ok("[]"))
  return pages
}

const number = (query: string, name: string): number | undefined => {
  const match = new RegExp(`(?:^|&)${name}=(\\d+)`).exec(query)
  return match?.[1] === undefined ? undefined : Number(match[1])
}

const text = (query: string, name: string): string | undefined => new RegExp(`(?:^|&)${name}=([^&]*)`).exec(query)?.[1]

/** The responder's answers for a ledger of `taxRecords` records: `(method, url) => Answer`. */
export const routes = (taxRecords: number): (method: string | undefined, url: string) => Answer => {
  const canned = {
    symbolsOne: ok(JSON.stringify(Fixtures.symbolsData(false))),
    symbolsAll: ok(JSON.stringify(Fixtures.symbolsData(true))),
    futures: ok(JSON.stringify(Fixtures.futuresData())),
    batchCancel: ok(JSON.stringify(Fixtures.batchCancelData())),
    tax: taxPages(taxRecords),
    // asked only by ccxt's unified client: its `fetchMarkets` (margin pairs) and its `loadMarkets` before timing
    empty: ok("[]"),
    contracts: ok(JSON.stringify(Fixtures.contractsData(Fixtures.productType))),
    notFound: answer(`{"code":"40404","msg":"Request URL NOT FOUND","requestTime":${Date.now()},"data":null}`, 404)
  }

  /** The tax page below the cursor: canned when the walk is aligned to whole pages, made up otherwise. */
  const taxPage = (query: string): Answer => {
    const cursor = number(query, "idLessThan")
    const highest = Math.max(0, cursor === undefined ? taxRecords : cursor - 1)
    const limit = number(query, "limit") ?? Fixtures.taxPageSize
    return (limit === Fixtures.taxPageSize ? canned.tax.get(highest) : undefined) ??
      ok(Fixtures.taxPageJson(highest, limit))
  }

  return (method, url) => {
    const mark = url.indexOf("?")
    const path = mark === -1 ? url : url.slice(0, mark)
    const query = mark === -1 ? "" : url.slice(mark + 1)
    if (method === "POST") {
      return path === "/api/v2/spot/trade/batch-cancel-order" ? canned.batchCancel : canned.notFound
    }
    switch (path) {
      case "/api/v2/spot/public/symbols":
        return /(?:^|&)symbol=[^&]/.test(query) ? canned.symbolsOne : canned.symbolsAll
      case "/api/v2/tax/spot-record":
        return taxPage(query)
      case "/api/v2/mix/order/orders-history":
        return canned.futures
      case "/api/v2/public/time":
        return ok(`{"serverTime":"${Date.now()}"}`)
      case "/api/v2/margin/currencies":
      case "/api/v2/spot/public/coins":
        return canned.empty
      case "/api/v2/mix/market/contracts":
        return text(query, "productType") === Fixtures.productType ? canned.contracts : canned.empty
      default:
        return canned.notFound
    }
  }
}
