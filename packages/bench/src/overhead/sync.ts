/**
 * The sync worker: the tax-record walk written into Postgres by
 * @bitget-effect/sql, alone in its process, as a user runs it:
 * `Pipelines.taxRecords` over `BitgetNode.layer` (the walk's options) and
 * `BitgetSql.layer`, each page's rows and the stream's checkpoint in one
 * transaction. The client, the pool and the migration are built before the
 * clock starts, as the walk's client is. argv: the responder's base URL; the
 * database arrives as the one command (`protocol.ts`). Answers with the time,
 * the memory, what the pipeline says it wrote, and what `count(*)` finds in the
 * table afterwards.
 */
import * as BitgetSql from "@bitget-effect/sql/BitgetSql"
import * as Pipelines from "@bitget-effect/sql/Pipelines"
import * as RecordTables from "@bitget-effect/sql/RecordTables"
import { Effect, Layer, ManagedRuntime, Redacted } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { lastDay } from "./clients/bitgetEffect.js"
import * as BitgetNodeClient from "./clients/bitgetNode.js"
import type { Database, SyncCommand, SyncReply } from "./protocol.js"

const reply = (message: SyncReply) => process.send?.(message)

/** The rows of the tax-record table, whoever wrote them. */
const countRows = Effect.gen(function*() {
  const sql = yield* SqlClient
  const [row] = yield* sql<{ readonly rows: number }>`SELECT count(*)::int AS rows FROM ${
    sql(RecordTables.taxRecords.name)
  }`
  return row?.rows ?? 0
})

const sync = async (baseUrl: string, database: Database): Promise<SyncReply> => {
  const runtime = ManagedRuntime.make(Layer.merge(
    BitgetNodeClient.layer(baseUrl),
    BitgetSql.layer({ ...database, password: Redacted.make(database.password) })
  ))
  try {
    await runtime.context()
    const rssBefore = process.memoryUsage().rss
    const start = performance.now()
    const summary = await runtime.runPromise(Pipelines.taxRecords({ account: "bench", ...lastDay() }))
    const seconds = (performance.now() - start) / 1000
    const peakRss = process.resourceUsage().maxRSS * 1024
    const rows = await runtime.runPromise(countRows)
    return { kind: "synced", added: summary.added, pages: summary.pages, rows, seconds, rssBefore, peakRss }
  } finally {
    await runtime.dispose()
  }
}

const main = () => {
  const [baseUrl] = process.argv.slice(2)
  if (baseUrl === undefined) throw new Error("usage: sync <base URL>")
  process.on("message", (command: SyncCommand) => {
    sync(baseUrl, command.database).then(
      reply,
      (error: unknown) => reply({ kind: "failed", message: error instanceof Error ? error.message : String(error) })
    )
  })
  process.on("disconnect", () => process.exit(0))
  reply({ kind: "ready" })
}

main()
