import { BitgetClient, Endpoint, Schemas } from "@bitget-effect/core"
import { Schema } from "effect"

// GET /api/v2/spot/market/tickers, which the library does not ship: its request (the query), the `data` of its
// answer, and its descriptor, from the endpoint's page of Bitget's API docs

export const TickersRequest = Schema.Struct({
  symbol: Schema.optionalKey(Schemas.NonBlank) // all pairs when left out
})

export class Ticker extends Schema.Class<Ticker>("Ticker")({
  symbol: Schema.String,
  lastPr: Schemas.Decimal, // decimals as BigDecimal, times as DateTime.Utc
  bidPr: Schemas.Decimal,
  askPr: Schemas.Decimal,
  change24h: Schemas.Decimal,
  ts: Schemas.Timestamp
}) {} // fields the class does not name are dropped

export const tickersEndpoint = Endpoint.get({
  name: "spot.tickers", // in errors, spans, metrics and rate-limit buckets
  path: "/api/v2/spot/market/tickers",
  auth: "public", // never signed; "signed" needs credentials
  rateLimit: { limit: 20, window: "1 second", scope: "ip" }, // "20 times/1s (IP)": required, never guessed
  idempotency: "idempotent", // a read: retried on network failures, 5xx and 429
  request: TickersRequest,
  response: Schema.Array(Ticker)
})

// an operation like the library's own: Effect<ReadonlyArray<Ticker>, BitgetPublicError, BitgetClient>
export const tickers = (request: typeof TickersRequest.Type = {}) => BitgetClient.execute(tickersEndpoint, request)
