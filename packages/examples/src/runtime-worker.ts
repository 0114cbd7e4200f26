import { BitgetFetch, FailureText, RateLimiter, Symbols, TaxRecords } from "@bitget-effect/core"
import { ConfigProvider, DateTime, Effect, Layer } from "effect"

/** The worker's bindings: BITGET_API_KEY, BITGET_API_SECRET and BITGET_API_PASSPHRASE as secrets, other BITGET_* as vars. */
type Env = Readonly<Record<string, string>>

const counts = Effect.gen(function*() {
  const symbols = yield* Symbols.symbols() // public
  const end = yield* DateTime.now
  const taxRecords = yield* TaxRecords.spotRecords({ startTime: DateTime.subtract(end, { days: 7 }), endTime: end })
  return { symbols: symbols.length, taxRecords: taxRecords.length } // signed
})

// The rate limits' store is plain data: one per isolate, shared by the requests it serves. The client itself is
// built per request, since a Worker may not carry I/O from one request into another.
const limits = Layer.succeed(RateLimiter.RateLimiterStore, Effect.runSync(RateLimiter.makeMemoryStore))

export default {
  fetch: (_request: Request, env: Env): Promise<Response> =>
    counts.pipe(
      Effect.map((body) => Response.json(body)),
      Effect.provide(BitgetFetch.layerConfig().pipe(Layer.provide(limits))),
      Effect.provideService(ConfigProvider.ConfigProvider, ConfigProvider.fromEnvRecord(env)), // not process.env
      Effect.catchCause((cause) =>
        Effect.succeed(new Response(FailureText.describe(cause).join("\n"), { status: 502 }))
      ),
      Effect.runPromise
    )
}
