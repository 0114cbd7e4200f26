import { BitgetConfig, FundNetFlow, Symbols } from "@bitget-effect/core"
import { BitgetNode } from "@bitget-effect/platform-node"
import { Duration, Effect } from "effect"

const program = Effect.gen(function*() {
  // fund net flow allows 1 call a second: the client spaces these three itself
  const [elapsed] = yield* Effect.timed(
    Effect.all([1, 2, 3].map(() => FundNetFlow.fundNetFlow({ symbol: "BTCUSDT" })), { concurrency: "unbounded" })
  )
  // each endpoint has its own bucket: symbols (20/s) is not held back by the net-flow calls
  const symbols = yield* Symbols.symbols({ symbol: "ETHUSDT" })
  yield* Effect.log(`3 net-flow calls in ${Duration.format(elapsed)}; ${symbols.length} symbol`)
})

program.pipe(
  Effect.provide(BitgetNode.layer({
    baseUrl: process.env.BITGET_BASE_URL ?? BitgetConfig.defaultBaseUrl,
    rateLimit: {
      overrides: { "tax.spotRecords": { limit: 2, window: "1 second" } }, // another tier
      maxWait: "5 seconds", // else RateLimitWaitExceeded
      margin: "2 millis",
      smoothing: 0.5
    },
    retry: { maxAttempts: 3, baseDelay: "250 millis", endpoints: { "spot.fundNetFlow": { maxAttempts: 5 } } }
  })),
  BitgetNode.runMain
)
