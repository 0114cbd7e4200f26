/**
 * A client worker: one client, alone in its process, answering the parent's
 * commands (see `protocol.ts`). argv: the client's module (`Implementation`)
 * and the responder's base URL. It runs on Node, Bun and Deno alike (the
 * `bitgetFetch` client is the one meant for all three). Every timed batch starts with one untimed wave of calls whose
 * answers are checked for the expected number of records.
 */
import type { Client, MakeClient } from "./clients/Client.js"
import type { Implementation } from "./plan.js"
import { expectedRecords } from "./plan.js"
import type { Command, Reply } from "./protocol.js"

const loaders: Readonly<Record<Implementation, () => Promise<{ readonly make: MakeClient }>>> = {
  floor: () => import("./clients/floor.js"),
  bitgetNode: () => import("./clients/bitgetNode.js"),
  bitgetFetch: () => import("./clients/bitgetFetch.js"),
  ccxt: () => import("./clients/ccxt.js"),
  ccxtUnified: () => import("./clients/ccxtUnified.js"),
  bitgetApi: () => import("./clients/bitgetApi.js")
}

const reply = (message: Reply) => process.send?.(message)

/** An error as text, whatever was thrown (bitget-api throws plain objects). */
const describe = (error: unknown): string => {
  if (error instanceof Error) return error.message
  try {
    return JSON.stringify(error).slice(0, 500)
  } catch {
    return String(error)
  }
}

/** `concurrency` calls at once. */
const wave = (call: () => Promise<number>, concurrency: number): Promise<ReadonlyArray<number>> =>
  concurrency === 1 ? call().then((n) => [n]) : Promise.all(Array.from({ length: concurrency }, call))

const run = async (client: Client, command: Extract<Command, { kind: "run" }>): Promise<Reply> => {
  const call = client.operations[command.operation]
  if (call === undefined) throw new Error(`no method for ${command.operation}`)
  const expected = expectedRecords[command.operation]
  const checked = await wave(call, command.concurrency)
  if (checked.some((records) => records !== expected)) {
    throw new Error(`${command.operation}: expected ${expected} records, got ${checked.join(", ")}`)
  }
  const waves = Math.max(1, Math.round(command.calls / command.concurrency))
  const start = performance.now()
  for (let i = 0; i < waves; i++) await wave(call, command.concurrency)
  return { kind: "ran", microsPerCall: ((performance.now() - start) * 1000) / (waves * command.concurrency) }
}

const walk = async (client: Client): Promise<Reply> => {
  if (client.walkTaxRecords === undefined) throw new Error("no way to walk the tax records")
  const rssBefore = process.memoryUsage().rss
  const start = performance.now()
  const records = await client.walkTaxRecords()
  const seconds = (performance.now() - start) / 1000
  return { kind: "walked", records, seconds, rssBefore, peakRss: process.resourceUsage().maxRSS * 1024 }
}

const main = async () => {
  const [name, baseUrl] = process.argv.slice(2)
  const load = loaders[name as Implementation]
  if (load === undefined || baseUrl === undefined) throw new Error(`usage: worker <module> <base URL>, got ${name}`)
  const client = await (await load()).make(baseUrl)
  process.on("message", (command: Command) => {
    const answer = command.kind === "run" ? run(client, command) : walk(client)
    answer.then(reply, (error: unknown) => reply({ kind: "failed", message: describe(error) }))
  })
  process.on("disconnect", () => process.exit(0))
  reply({
    kind: "ready",
    operations: Object.keys(client.operations) as Array<keyof Client["operations"]>,
    walks: client.walkTaxRecords !== undefined
  })
}

main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
