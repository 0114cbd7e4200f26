/**
 * The per-call overhead benchmark: bitget-effect (on `BitgetNode`, and on
 * `BitgetFetch` under Node, Bun and Deno) against raw undici (the floor), ccxt
 * (raw and unified) and bitget-api, each in its own process, against a static
 * responder in another; and the tax-record walk synced into a Postgres the bench starts
 * and stops (skipped, saying why, without PostgreSQL). Prints ratio and
 * absolute tables; at full size also rewrites the overhead section of
 * docs/benchmarks.md. Figures are never asserted: only a crash (or a count
 * that is off) fails.
 *
 *   pnpm bench                      (full size, about 2 to 4 minutes)
 *   BENCH_SIZE=tiny pnpm bench      (CI smoke, well under a minute)
 */
import { readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { checkResponder } from "./check.js"
import { coldImports, importCases } from "./coldImport.js"
import { overheadSection, spliceSection } from "./docs.js"
import { spawn } from "./ipc.js"
import { describeMachine, machine } from "./machine.js"
import { measureCalls, measureDecode, measureSync, measureWalks } from "./measure.js"
import { repositoryRoot } from "./paths.js"
import { size } from "./plan.js"
import type { Results } from "./report.js"
import { absoluteTables, describeRuntimes, ratioTables } from "./report.js"
import { runtimes } from "./runtimes.js"
import { toText } from "./table.js"

const docsPath = join(repositoryRoot, "docs", "benchmarks.md")

const main = async () => {
  const started = performance.now()
  const at = size()
  const responder = spawn<never, { readonly port: number }>("./responder.js", [String(at.streamRecords)])
  try {
    const { port } = await responder.next()
    const baseUrl = `http://127.0.0.1:${port}`
    process.stderr.write(`${at.name} size; responder at ${baseUrl}; checking its answers decode\n`)
    await checkResponder(baseUrl)
    const available = await runtimes()
    process.stderr.write(`runtimes: ${describeRuntimes(available)}\n`)
    const calls = await measureCalls(baseUrl, at, available)
    const decode = await measureDecode(at)
    const walks = await measureWalks(baseUrl, at, available)
    const sync = await measureSync(baseUrl, at)
    process.stderr.write("cold imports\n")
    const runs = await coldImports(at.importRuns)
    const imports = importCases.map((importCase, index) => ({ importCase, runs: runs[index] ?? [] }))
    const results: Results = { size: at, machine: machine(), runtimes: available, calls, decode, walks, sync, imports }
    const elapsed = (performance.now() - started) / 1000
    console.log([
      `bitget-effect overhead benchmark, ${at.name} size`,
      `machine: ${describeMachine(results.machine)}`,
      `runtimes: ${describeRuntimes(available)}`,
      "",
      ...[...ratioTables(results), ...absoluteTables(results)].flatMap((table) => [toText(table), ""]),
      `took ${elapsed.toFixed(0)} s`
    ].join("\n"))
    if (at.name === "full") {
      writeFileSync(docsPath, spliceSection(readFileSync(docsPath, "utf8"), overheadSection(results, elapsed)))
      console.log(`updated the overhead section of ${docsPath}`)
    }
  } finally {
    await responder.close()
  }
}

main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
