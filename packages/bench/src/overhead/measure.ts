/**
 * Driving the measurements: the per-call rows over client workers (round by
 * round, clients interleaved), the decode worker, one fresh process per
 * client for the tax-record walk, and one for the same walk synced into a
 * Postgres of the bench's own. A client whose runtime is missing is left
 * out: its figures are `undefined`; without PostgreSQL the sync is skipped.
 */
import * as PostgresServer from "@bitget-effect/postgres-server"
import { Effect } from "effect"
import type { DecodeFigures } from "./decode.js"
import type { Child, Launcher } from "./ipc.js"
import { spawn } from "./ipc.js"
import type { ClientName, PlannedClient, Row, Size } from "./plan.js"
import { callsOf, clients, rows } from "./plan.js"
import type { Command, Reply, SyncCommand, SyncReply } from "./protocol.js"
import type { Availability } from "./runtimes.js"
import { launcherOf } from "./runtimes.js"
import type { Summary } from "./stats.js"
import { summarize } from "./stats.js"

/** A row's figures: microseconds per call for each client, `undefined` where it has no method. */
export interface CallFigures {
  readonly row: Row
  readonly byClient: ReadonlyMap<ClientName, Summary | undefined>
}

/** A client's walk over the whole tax ledger, `undefined` when it has no way to page or its runtime is missing. */
export interface WalkFigures {
  readonly client: ClientName
  readonly walk: Extract<Reply, { kind: "walked" }> | undefined
}

const progress = (text: string) => process.stderr.write(`${text}\n`)

type Worker = Child<Command, Reply>

/** Sends a command and unwraps the answer: a `failed` reply or an unexpected kind throws. */
const ask = async <K extends Reply["kind"]>(
  worker: Worker,
  command: Command,
  kind: K
): Promise<Extract<Reply, { kind: K }>> => {
  const reply = await worker.ask(command)
  if (reply.kind === "failed") throw new Error(`worker failed: ${reply.message}`)
  if (reply.kind !== kind) throw new Error(`worker answered ${reply.kind}, expected ${kind}`)
  return reply as Extract<Reply, { kind: K }>
}

/** A client whose runtime is available, with the launcher of its workers. */
interface Runnable {
  readonly plan: PlannedClient
  readonly launcher: Launcher
}

/** The clients whose runtime is available, in table order. */
const runnable = (available: ReadonlyArray<Availability>): ReadonlyArray<Runnable> =>
  clients.flatMap((plan) => {
    const launcher = launcherOf(available, plan.runtime)
    return launcher === undefined ? [] : [{ plan, launcher }]
  })

/** Starts a worker for a client and waits until it is ready. */
const start = async ({ launcher, plan }: Runnable, baseUrl: string) => {
  const worker = spawn<Command, Reply>("./worker.js", [plan.implementation, baseUrl], launcher)
  const ready = await worker.next()
  if (ready.kind !== "ready") throw new Error(`the ${plan.name} worker did not start: ${JSON.stringify(ready)}`)
  return { client: plan.name, worker, ready }
}

/** Runs every row on every available client for a warm-up round and `size.rounds` measured rounds. */
export const measureCalls = async (
  baseUrl: string,
  size: Size,
  available: ReadonlyArray<Availability>
): Promise<ReadonlyArray<CallFigures>> => {
  const workers = await Promise.all(runnable(available).map((client) => start(client, baseUrl)))
  const samples = rows.map(() => new Map<ClientName, Array<number>>())
  try {
    for (let round = 0; round <= size.rounds; round++) {
      progress(round === 0 ? "per-call rows: warm-up round" : `per-call rows: round ${round} of ${size.rounds}`)
      for (const [index, row] of rows.entries()) {
        for (const { client, ready, worker } of workers) {
          if (!ready.operations.includes(row.operation)) continue
          const command: Command = {
            kind: "run",
            operation: row.operation,
            concurrency: row.concurrency,
            calls: callsOf(row, size)
          }
          const { microsPerCall } = await ask(worker, command, "ran")
          if (round === 0) continue
          const byClient = samples[index] as Map<ClientName, Array<number>>
          byClient.set(client, [...(byClient.get(client) ?? []), microsPerCall])
        }
      }
    }
  } finally {
    await Promise.all(workers.map(({ worker }) => worker.close()))
  }
  return rows.map((row, index) => ({
    row,
    byClient: new Map(clients.map(({ name }) => {
      const values = samples[index]?.get(name)
      return [name, values === undefined ? undefined : summarize(values)]
    }))
  }))
}

/** A decode payload's figures: microseconds per `JSON.parse`, and per parse plus decode. */
export interface DecodeSummary {
  readonly label: string
  readonly records: number
  readonly bytes: number
  readonly parse: Summary
  readonly decode: Summary
}

/** Times `JSON.parse` against parse plus decode, in a worker of its own. */
export const measureDecode = async (size: Size): Promise<ReadonlyArray<DecodeSummary>> => {
  progress("decode alone vs JSON.parse")
  const worker = spawn<never, ReadonlyArray<DecodeFigures>>("./decode.js", [
    String(size.decodeRounds),
    String(size.decodeIterations)
  ])
  const figures = await worker.next()
  await worker.close()
  return figures.map((f) => ({
    label: f.label,
    records: f.records,
    bytes: f.bytes,
    parse: summarize(f.parse),
    decode: summarize(f.decode)
  }))
}

/** Walks the whole tax ledger once per available client, each in a fresh process; checks the record count. */
export const measureWalks = async (
  baseUrl: string,
  size: Size,
  available: ReadonlyArray<Availability>
): Promise<ReadonlyArray<WalkFigures>> => {
  const results: Array<WalkFigures> = []
  for (const runnableClient of runnable(available)) {
    progress(`tax-record walk (${size.streamRecords.toLocaleString("en-US")} records): ${runnableClient.plan.name}`)
    const { client, ready, worker } = await start(runnableClient, baseUrl)
    try {
      const walk = ready.walks ? await ask(worker, { kind: "walk" }, "walked") : undefined
      if (walk !== undefined && walk.records !== size.streamRecords) {
        throw new Error(`${client} walked ${walk.records} records, not ${size.streamRecords}`)
      }
      results.push({ client, walk })
    } finally {
      await worker.close()
    }
  }
  return results
}

/** The sync into Postgres: its figures and the server's version, or why it did not run. */
export type SyncFigures =
  | {
    readonly _tag: "Synced"
    readonly sync: Extract<SyncReply, { kind: "synced" }>
    /** `PostgreSQL 16.9`, say. */
    readonly server: string
  }
  | { readonly _tag: "Skipped"; readonly reason: string }

/** The database the sync writes into, created empty on the bench's own server. */
const databaseName = "bitget_bench"

/** Runs the sync worker once against `database`; a failure or an unexpected answer throws. */
const syncInWorker = async (baseUrl: string, database: SyncCommand["database"]) => {
  const worker = spawn<SyncCommand, SyncReply>("./sync.js", [baseUrl])
  try {
    const ready = await worker.next()
    if (ready.kind !== "ready") throw new Error(`the sync worker did not start: ${JSON.stringify(ready)}`)
    const reply = await worker.ask({ kind: "sync", database })
    if (reply.kind !== "synced") throw new Error(`sync into Postgres failed: ${JSON.stringify(reply)}`)
    return reply
  } finally {
    await worker.close()
  }
}

/** `postgres (PostgreSQL) 16.9 (Debian 16.9-1)` as `PostgreSQL 16.9`. */
const serverName = (version: string | undefined): string => {
  const number = /\(PostgreSQL\) ([\d.]+)/.exec(version ?? "")?.[1]
  return number === undefined ? "PostgreSQL" : `PostgreSQL ${number}`
}

/**
 * Syncs the whole tax ledger into Postgres in a fresh process: a server of the
 * bench's own (a fresh cluster, started here and stopped after) and an empty
 * database on it. Checks that the pipeline added, and the table holds, exactly
 * the records of the ledger. Without PostgreSQL installed it is skipped,
 * saying why.
 */
export const measureSync = async (baseUrl: string, size: Size): Promise<SyncFigures> => {
  const records = size.streamRecords
  if (!PostgresServer.available) {
    progress(`sync into Postgres: skipped, ${PostgresServer.notInstalled}`)
    return { _tag: "Skipped", reason: PostgresServer.notInstalled }
  }
  const server = serverName(PostgresServer.version())
  progress(`sync into Postgres (${records.toLocaleString("en-US")} records): starting ${server}`)
  const sync = await Effect.runPromise(Effect.scoped(Effect.gen(function*() {
    const running = yield* PostgresServer.server
    yield* PostgresServer.createDatabase(running, databaseName)
    progress(`sync into Postgres: server ready on port ${running.port} in ${running.startMillis} ms; syncing`)
    const { host, password, port, username } = running
    return yield* Effect.tryPromise({
      try: () => syncInWorker(baseUrl, { host, port, username, password, database: databaseName }),
      catch: (error) => error instanceof Error ? error : new Error(String(error))
    })
  })))
  if (sync.added !== records || sync.rows !== records) {
    throw new Error(
      `sync into Postgres: the pipeline added ${sync.added} rows and the table holds ${sync.rows}, not ${records}`
    )
  }
  return { _tag: "Synced", sync, server }
}
