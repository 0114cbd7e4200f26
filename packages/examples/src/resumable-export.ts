import { Json, Resumable, TaxRecords } from "@bitget-effect/core"
import { BitgetNode } from "@bitget-effect/platform-node"
import * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
import { DateTime, Effect, FileSystem, Layer, Schema, Stream } from "effect"

const out = "tax-records.ndjson"
// Beside the output: how much of it is complete (bytes) and the stream's checkpoint after those bytes.
const progressFile = `${out}.progress.json`
const Progress = Schema.fromJsonString(Schema.Struct({ bytes: Schema.Int, checkpoint: Resumable.Checkpoint }))

const line = Json.encode(TaxRecords.SpotTaxRecord)

// The last 90 days of tax records as NDJSON, resumable: run it again after a crash or Ctrl-C and it goes
// on after the last saved page, neither repeating nor skipping a record.
const program = Effect.gen(function*() {
  const fs = yield* FileSystem.FileSystem
  const saved = (yield* fs.exists(progressFile))
    ? Schema.decodeUnknownSync(Progress)(yield* fs.readFileString(progressFile))
    : undefined
  // what was written after the saved checkpoint is cut off: it is fetched and written again
  let bytes = saved?.bytes ?? 0
  if (saved === undefined) yield* fs.writeFileString(out, "")
  else yield* fs.truncate(out, bytes)

  const end = yield* DateTime.now
  const pages = TaxRecords.pages({
    startTime: DateTime.subtract(end, { days: 90 }),
    endTime: end,
    resume: saved?.checkpoint
  })
  yield* Stream.runForEach(pages, (page) =>
    Effect.gen(function*() {
      const lines = yield* Effect.forEach(page.records, (record) => Effect.map(line(record), JSON.stringify))
      const text = lines.map((json) => json + "\n").join("")
      yield* fs.writeFileString(out, text, { flag: "a" })
      bytes += Buffer.byteLength(text)
      // the checkpoint replaces the old one in one step (a rename): it never runs ahead of the output
      yield* fs.writeFileString(
        `${progressFile}.tmp`,
        Schema.encodeSync(Progress)({ bytes, checkpoint: page.checkpoint })
      )
      yield* fs.rename(`${progressFile}.tmp`, progressFile)
    }))
  yield* fs.remove(progressFile)
  yield* Effect.log(`wrote ${out}: ${bytes} bytes`)
})

program.pipe(Effect.provide(Layer.merge(BitgetNode.layerConfig(), NodeFileSystem.layer)), BitgetNode.runMain)
