import { FundNetFlow, Symbols, TaxRecords } from "@bitget-effect/core"
import { BitgetNode } from "@bitget-effect/platform-node"
import { DateTime, Effect, Stream } from "effect"

const program = Effect.gen(function*() {
  const symbols = yield* Symbols.symbols() // public: no credentials needed
  const flow = yield* FundNetFlow.fundNetFlow({ symbol: "BTCUSDT" })

  const end = yield* DateTime.now // signed: a stream over 90 days,
  const records = yield* TaxRecords.stream({ // split into 30-day windows and pages
    startTime: DateTime.subtract(end, { days: 90 }),
    endTime: end
  }).pipe(Stream.runCount)

  yield* Effect.log(`${symbols.length} symbols, ${flow.length} flow points, ${records} tax records`)
})

// credentials and base URL from BITGET_* variables; a failure ends in one or two readable lines
program.pipe(Effect.provide(BitgetNode.layerConfig()), BitgetNode.runMain)
