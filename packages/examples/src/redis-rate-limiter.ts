import { FundNetFlow } from "@bitget-effect/core"
import { BitgetNode, RedisRateLimiter } from "@bitget-effect/platform-node"
import { Duration, Effect, Layer } from "effect"

// Several processes (or hosts) on one API key or address share their buckets through Redis:
// run this twice at once and together they still make one net-flow call a second.
const program = Effect.gen(function*() {
  const [elapsed] = yield* Effect.timed(
    Effect.all([1, 2, 3].map(() => FundNetFlow.fundNetFlow({ symbol: "BTCUSDT" })), { concurrency: "unbounded" })
  )
  yield* Effect.log(`3 net-flow calls in ${Duration.format(elapsed)}, shared through Redis`)
})

program.pipe(
  Effect.provide(
    BitgetNode.layerConfig().pipe(
      Layer.provide(RedisRateLimiter.layer({ host: "127.0.0.1", port: Number(process.env.REDIS_PORT ?? 6379) }))
    )
  ),
  BitgetNode.runMain
)
