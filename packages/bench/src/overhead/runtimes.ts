/**
 * The runtimes the client workers run on: the workspace's Node, and Bun and
 * Deno from the npm registry (`npx -y bun@1`, `npx -y deno@2`). A runtime npx
 * cannot bring (no network, an unsupported platform) is reported missing with
 * the reason, and its columns read "—": a missing runtime never fails a run.
 */
import { execFile } from "node:child_process"
import type { Launcher } from "./ipc.js"
import { node } from "./ipc.js"
import type { Runtime } from "./plan.js"

/** A runtime that can start workers, with its version; or why it cannot. */
export type Availability =
  | { readonly _tag: "Found"; readonly runtime: Runtime; readonly version: string; readonly launcher: Launcher }
  | { readonly _tag: "Missing"; readonly runtime: Runtime; readonly reason: string }

/** The runtimes other than Node. */
const others = ["bun", "deno"] as const satisfies ReadonlyArray<Runtime>

/**
 * How each runtime other than Node is found (npx's package and a script that
 * prints its path and version), and how it runs a worker.
 */
const probes: Readonly<
  Record<(typeof others)[number], {
    readonly args: ReadonlyArray<string>
    readonly execArgv: ReadonlyArray<string>
  }>
> = {
  bun: {
    args: ["bun@1", "-e", "console.log(JSON.stringify({ execPath: process.execPath, version: Bun.version }))"],
    execArgv: []
  },
  deno: {
    args: ["deno@2", "eval", "console.log(JSON.stringify({ execPath: Deno.execPath(), version: Deno.version.deno }))"],
    execArgv: ["run", "--allow-all", "--no-lock"]
  }
}

/** Runs `npx -y <args>` and resolves to its standard output; rejects with the first line of its complaint. */
const npx = (args: ReadonlyArray<string>): Promise<string> =>
  new Promise((resolve, reject) =>
    execFile("npx", ["-y", ...args], { timeout: 180_000 }, (error, stdout, stderr) =>
      error === null
        ? resolve(stdout)
        : reject(new Error(stderr.trim().split("\n")[0] || error.message)))
  )

const locate = async (runtime: (typeof others)[number]): Promise<Availability> => {
  const probe = probes[runtime]
  try {
    const found = JSON.parse(await npx(probe.args)) as { readonly execPath: string; readonly version: string }
    return {
      _tag: "Found",
      runtime,
      version: found.version,
      launcher: { execPath: found.execPath, execArgv: probe.execArgv }
    }
  } catch (error) {
    return { _tag: "Missing", runtime, reason: error instanceof Error ? error.message : String(error) }
  }
}

/** Every runtime, Node first (always found), then Bun and Deno as npx brings them. */
export const runtimes = async (): Promise<ReadonlyArray<Availability>> => [
  { _tag: "Found", runtime: "node", version: process.versions.node, launcher: node },
  ...await Promise.all(others.map(locate))
]

/** The launcher of `runtime`, if it was found. */
export const launcherOf = (available: ReadonlyArray<Availability>, runtime: Runtime): Launcher | undefined => {
  const found = available.find((a) => a.runtime === runtime)
  return found?._tag === "Found" ? found.launcher : undefined
}
