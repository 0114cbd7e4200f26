import { available } from "@bitget-effect/postgres-server"
import { assert, describe, layer } from "@effect/vitest"
import { Effect, Layer, Option, Schedule } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { type ChildProcess, spawn } from "node:child_process"
import { fileURLToPath } from "node:url"
import * as BitgetSql from "../src/BitgetSql.js"
import * as Sync from "../src/Sync.js"
import { freshDatabase, layer as postgres, Postgres } from "./database.js"

const worker = fileURLToPath(new URL("./fixtures/crashWorker.ts", import.meta.url))
const root = fileURLToPath(new URL("../../..", import.meta.url))
const size = 20
/** Far more pages than the rounds commit (a few hundred on 2 cores), so a run is always killed mid-stream. */
const last = 1500
const rounds = 5
/** Fewer pages left than this and the rounds stop: a run could finish before its kill. */
const margin = 300

/** The worker under the workspace's Node, through tsx; its exit code, stdout and stderr once it ends. */
const start = (port: number, database: string, password: string) => {
  const child = spawn(
    process.execPath,
    [
      "--import",
      "tsx",
      "--conditions=@bitget-effect/source",
      worker,
      String(port),
      database,
      String(size),
      String(last)
    ],
    { cwd: root, env: { ...process.env, PGPASSWORD: password }, stdio: ["ignore", "pipe", "pipe"] }
  )
  let out = ""
  child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()))
  child.stderr.on("data", (chunk: Buffer) => (out += chunk.toString()))
  const exit = Effect.callback<{ readonly code: number | null; readonly signal: string | null; readonly out: string }>(
    (resume) => {
      if (child.exitCode !== null || child.signalCode !== null) {
        return resume(Effect.succeed({ code: child.exitCode, signal: child.signalCode, out }))
      }
      child.on("exit", (code, signal) => resume(Effect.succeed({ code, signal, out })))
    }
  )
  return { child, exit }
}

const id = { account: "crash", stream: "tax-records" }

/** The page of the stored checkpoint (-1 before the first). */
const storedPage = Effect.map(
  Sync.state(id),
  Option.match({ onNone: () => -1, onSome: (state) => (state.checkpoint as { readonly page: number }).page })
)

/** Count, smallest and largest id of the rows, and the rollbacks the server has counted. */
const stored = Effect.gen(function*() {
  const sql = yield* SqlClient
  const [rows] = yield* sql<{ readonly n: number; readonly low: number | null; readonly high: number | null }>`
    SELECT count(*)::int AS n, min(id::int) AS low, max(id::int) AS high FROM bitget_tax_records`
  return rows!
})

const rollbacks = Effect.gen(function*() {
  const sql = yield* SqlClient
  yield* sql`SELECT pg_stat_clear_snapshot()`
  const [row] = yield* sql<{ readonly n: number }>`
    SELECT xact_rollback::int AS n FROM pg_stat_database WHERE datname = current_database()`
  return row!.n
})

/** Until the killed worker's session is gone from the server (its transaction rolled back). */
const sessionGone = Effect.gen(function*() {
  const sql = yield* SqlClient
  yield* Effect.repeat(
    sql<
      { readonly n: number }
    >`SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'crash-worker'`,
    { until: ([row]) => row!.n === 0, schedule: Schedule.spaced("20 millis") }
  ).pipe(
    Effect.timeoutOrElse({
      duration: "30 seconds",
      orElse: () => Effect.die(new Error("the killed worker's session is still on the server after 30 s"))
    })
  )
})

const kill = (child: ChildProcess) => Effect.sync(() => child.kill("SIGKILL"))

describe.skipIf(!available && process.env.CI !== "true")("a writer killed at random", () => {
  layer(postgres, { timeout: 240_000, excludeTestServices: true })((it) => {
    it.effect("leaves exactly the pages up to the stored checkpoint, never part of one", () =>
      Effect.gen(function*() {
        const server = yield* Postgres
        const opts = yield* freshDatabase
        const database = Layer.fresh(BitgetSql.layer(opts))
        yield* Effect.gen(function*() {
          const figures: Array<string> = []
          let before = -1
          let inTransaction = 0
          for (let round = 0; round < rounds && before < last - margin; round++) {
            const { child, exit } = start(server.port, opts.database!, server.password)
            // until this run has committed a page of its own, then a random moment later
            const exited = () => child.exitCode !== null || child.signalCode !== null
            yield* Effect.repeat(storedPage, {
              until: (page) => page > before || exited(),
              schedule: Schedule.spaced("10 millis")
            }).pipe(
              Effect.timeoutOrElse({
                duration: "60 seconds",
                orElse: () => Effect.die(new Error(`no page committed within 60 s of round ${round}'s start`))
              })
            )
            if (exited()) assert.fail(`the worker ended before it committed a page: ${(yield* exit).out}`)
            yield* Effect.sleep(`${Math.floor(Math.random() * 300)} millis`)
            const rolledBack = yield* rollbacks
            yield* kill(child)
            const ended = yield* exit
            assert.strictEqual(ended.signal, "SIGKILL", `the worker ended before it was killed: ${ended.out}`)
            yield* sessionGone
            if ((yield* rollbacks) > rolledBack) inTransaction++
            const page = yield* storedPage
            const rows = yield* stored
            // every page up to the checkpoint, whole, and nothing after it
            assert.deepStrictEqual(rows, { n: (page + 1) * size, low: 0, high: (page + 1) * size - 1 })
            assert.isAbove(page, before)
            figures.push(`${page + 1}`)
            before = page
          }
          assert.isAtLeast(figures.length, 3, "kills before the stream was nearly done")
          // a last run, not killed, finishes the stream from where the last kill left it
          const { exit } = start(server.port, opts.database!, server.password)
          const ended = yield* exit
          assert.strictEqual(ended.code, 0, ended.out)
          const summary = JSON.parse(ended.out) as Sync.Summary
          assert.strictEqual(summary.pages, last - before)
          assert.strictEqual(summary.added, (last - before) * size)
          assert.deepStrictEqual(yield* stored, { n: (last + 1) * size, low: 0, high: (last + 1) * size - 1 })
          assert.isTrue(Option.getOrThrow(yield* Sync.state(id)).complete)
          yield* Effect.logInfo(
            `crash test: ${figures.length} kills, pages committed before each (cumulative) ${figures.join(", ")}; ` +
              `${inTransaction} of ${figures.length} kills fell inside an open transaction; final ${
                (last + 1) * size
              } rows`
          )
        }).pipe(Effect.provide(database))
      }), 240_000)
  })
})
