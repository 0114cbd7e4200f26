import { Schemas, TaxRecords } from "@bitget-effect/core"
import { BitgetNode } from "@bitget-effect/platform-node"
import * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
import { DateTime, Effect, FileSystem, Layer, Stream } from "effect"

/** A CSV field: quoted when it holds a comma, a quote or a line break. */
const field = (text: string) => (/[",\r\n]/.test(text) ? `"${text.replaceAll("\"", "\"\"")}"` : text)

const row = (record: TaxRecords.SpotTaxRecord) =>
  [
    record.id,
    field(record.coin),
    field(Schemas.enumText(record.spotTaxType)),
    Schemas.formatDecimal(record.amount), // exact decimals, fixed point
    Schemas.formatDecimal(record.fee),
    Schemas.formatDecimal(record.balance),
    DateTime.formatIso(record.ts)
  ].join(",") + "\n"

// The last 90 days of tax records into a file: three 30-day windows, pages of 500, 1 call a second,
// pulled lazily as the file is written.
const program = Effect.gen(function*() {
  const fs = yield* FileSystem.FileSystem
  const end = yield* DateTime.now
  const records = TaxRecords.stream({ startTime: DateTime.subtract(end, { days: 90 }), endTime: end })
  yield* Stream.make("id,coin,spotTaxType,amount,fee,balance,ts\n").pipe(
    Stream.concat(Stream.map(records, row)),
    Stream.encodeText,
    Stream.run(fs.sink("tax-records.csv"))
  )
  yield* Effect.log(`wrote tax-records.csv`)
})

program.pipe(Effect.provide(Layer.merge(BitgetNode.layerConfig(), NodeFileSystem.layer)), BitgetNode.runMain)
