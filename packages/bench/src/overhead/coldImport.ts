/**
 * Cold imports: a fresh `node --input-type=module -e` process per run that
 * imports packages the ordinary way (bitget-effect resolves to its built
 * `dist/esm`, no tsx, no source condition), against a process that imports
 * nothing. Runs are interleaved across packages.
 */
import { spawn } from "node:child_process"
import { benchDir } from "./paths.js"

/** A package (or set of them) to import cold. */
export interface ImportCase {
  readonly label: string
  readonly specifiers: ReadonlyArray<string>
}

/**
 * What is imported: nothing (the floor), then each client's entry points;
 * `@bitget-effect/platform-node` alone also, which loads only the core modules it uses.
 */
export const importCases: ReadonlyArray<ImportCase> = [
  { label: "node, nothing imported", specifiers: [] },
  { label: "bitget-effect for BitgetNode", specifiers: ["@bitget-effect/core", "@bitget-effect/platform-node"] },
  { label: "bitget-effect platform-node alone", specifiers: ["@bitget-effect/platform-node"] },
  { label: "bitget-effect for BitgetFetch", specifiers: ["@bitget-effect/core"] },
  { label: "ccxt", specifiers: ["ccxt"] },
  { label: "bitget-api", specifiers: ["bitget-api"] }
]

/** One run: the process's wall time from spawn to exit, the import's own time, and the peak RSS. */
export interface ImportRun {
  readonly wallMs: number
  readonly importMs: number
  readonly peakRss: number
}

const script = (specifiers: ReadonlyArray<string>) =>
  [
    "const start = performance.now()",
    ...specifiers.map((specifier) => `await import(${JSON.stringify(specifier)})`),
    "const importMs = performance.now() - start",
    "process.stdout.write(JSON.stringify({ importMs, peakRss: process.resourceUsage().maxRSS * 1024 }))"
  ].join("\n")

/** Runs one fresh process importing `specifiers`. */
export const importOnce = (specifiers: ReadonlyArray<string>): Promise<ImportRun> =>
  new Promise((resolve, reject) => {
    const start = performance.now()
    const child = spawn(process.execPath, ["--input-type=module", "-e", script(specifiers)], {
      cwd: benchDir,
      env: { ...process.env, NODE_OPTIONS: "" },
      stdio: ["ignore", "pipe", "inherit"]
    })
    let out = ""
    child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()))
    child.once("error", reject)
    child.once("exit", (code) => {
      const wallMs = performance.now() - start
      if (code !== 0) return reject(new Error(`importing ${specifiers.join(", ")} exited with code ${code}`))
      const parsed = JSON.parse(out) as { readonly importMs: number; readonly peakRss: number }
      resolve({ wallMs, importMs: parsed.importMs, peakRss: parsed.peakRss })
    })
  })

/** `runs` interleaved rounds over every case; the runs of each case in order. */
export const coldImports = async (runs: number): Promise<ReadonlyArray<ReadonlyArray<ImportRun>>> => {
  const results: Array<Array<ImportRun>> = importCases.map(() => [])
  for (let run = 0; run < runs; run++) {
    for (const [index, importCase] of importCases.entries()) {
      results[index]?.push(await importOnce(importCase.specifiers))
    }
  }
  return results
}
