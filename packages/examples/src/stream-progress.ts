import { StreamProgress, TaxRecords } from "@bitget-effect/core"
import { BitgetNode } from "@bitget-effect/platform-node"
import { DateTime, Duration, Effect, Option, Stream } from "effect"

// 45 days of tax records, oldest window first, with a progress line per page and per window
const program = Effect.gen(function*() {
  const end = yield* DateTime.now
  const records = yield* TaxRecords.stream({
    startTime: DateTime.subtract(end, { days: 45 }),
    endTime: end,
    order: "oldestFirst"
  }).pipe(
    StreamProgress.observe((progress) =>
      Effect.log(
        `${progress.records} records, ${progress.pages} pages, ` +
          `${progress.windowsDone} of ${progress.windowsTotal} windows done` +
          Option.match(progress.window, {
            onNone: () => "",
            onSome: (window) => `, reading from ${DateTime.formatIso(window.start)}`
          }) +
          `; waited ${Duration.format(progress.limiterWait)} for the rate limiter`
      )
    ),
    Stream.runCount
  )
  yield* Effect.log(`${records} tax records`)
})

program.pipe(Effect.provide(BitgetNode.layerConfig()), BitgetNode.runMain)
