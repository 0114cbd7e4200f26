import { BitgetFetch, FailureText, Symbols, TaxRecords } from "@bitget-effect/core"
import { Console, DateTime, Effect, Exit, Stream } from "effect"

const program = Effect.gen(function*() {
  const symbols = yield* Symbols.symbols() // public
  const end = yield* DateTime.now
  const records = yield* TaxRecords.stream({ startTime: DateTime.subtract(end, { days: 30 }), endTime: end }).pipe(
    Stream.runCount // signed, through WebCrypto
  )
  yield* Effect.log(`${symbols.length} symbols, ${records} tax records`)
})

// fetch and WebCrypto only: this file runs as it is on Node, Bun and Deno, configured by the BITGET_* variables
const main = program.pipe(
  Effect.provide(BitgetFetch.layerConfig()),
  Effect.tapCause((cause) => Effect.forEach(FailureText.describe(cause), (line) => Console.error(line)))
)

Effect.runPromiseExit(main).then((exit) => {
  process.exitCode = Exit.isFailure(exit) ? 1 : 0
})
