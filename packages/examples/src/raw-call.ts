import { BitgetClient, Endpoint } from "@bitget-effect/core"

// any endpoint without schemas: a GET's query as strings, a POST's body as JSON, the answer's `data` as JSON
export const accountAssets = Endpoint.raw({
  method: "GET",
  path: "/api/v2/spot/account/assets",
  auth: "signed", // signed with the configured credentials, as the library's own calls are
  rateLimit: { limit: 10, window: "1 second", scope: "uid" }, // "10 times/1s (UID)": required, never guessed
  idempotency: "idempotent"
})

// Effect<Schema.Json, BitgetError, BitgetClient>: narrow the JSON yourself, or write schemas (custom-endpoint.ts)
export const assets = (coin: string) => BitgetClient.execute(accountAssets, { coin })
