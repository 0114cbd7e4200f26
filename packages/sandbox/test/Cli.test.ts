import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { type ChildProcess, spawn } from "node:child_process"
import { fileURLToPath } from "node:url"
import type { DemoCredentials } from "../src/DemoKey.js"
import { code, data, paths, send } from "./support.js"

const packageDir = fileURLToPath(new URL("..", import.meta.url))

interface Started {
  readonly url: string
  readonly seed: number
  readonly credentials: DemoCredentials
}

/** Runs the CLI as a subprocess until the scope closes; yields the JSON line it prints. */
const cli = (args: ReadonlyArray<string>) =>
  Effect.acquireRelease(
    Effect.sync(() => spawn(process.execPath, ["--import", "tsx", "src/bin.ts", ...args], { cwd: packageDir })),
    (child) =>
      Effect.async<void>((resume) => {
        if (child.exitCode !== null) return resume(Effect.void)
        child.once("exit", () => resume(Effect.void))
        child.kill("SIGTERM")
      })
  ).pipe(
    Effect.flatMap((child: ChildProcess) =>
      Effect.async<{ readonly child: ChildProcess; readonly started: Started }, Error>((resume) => {
        let out = ""
        let err = ""
        child.stdout?.on("data", (chunk: Buffer) => {
          out += chunk.toString()
          const newline = out.indexOf("\n")
          if (newline >= 0) resume(Effect.succeed({ child, started: JSON.parse(out.slice(0, newline)) as Started }))
        })
        child.stderr?.on("data", (chunk: Buffer) => {
          err += chunk.toString()
        })
        child.once("exit", (status) => resume(Effect.fail(new Error(`exited with ${status}: ${err}`))))
      })
    )
  )

describe("CLI", () => {
  it.live("runs as a subprocess, prints its URL and credentials, and stops on SIGTERM", () =>
    Effect.gen(function*() {
      const { child, started } = yield* cli(["--port", "0", "--seed", "5", "--no-limits", "--fault", "symbols=503@2", "--json"])
      assert.match(started.url, /^http:\/\/127\.0\.0\.1:\d+$/)
      assert.strictEqual(started.seed, 5)
      assert.match(started.credentials.rsa.privateKeyPem, /^-----BEGIN PRIVATE KEY-----/)
      assert.isTrue(started.credentials.marketMaker.rpiMarketMaker)
      const time = yield* send(`${started.url}${paths.time}`)
      assert.match(data<{ serverTime: string }>(time).serverTime, /^\d{13}$/)
      const faulted = yield* Effect.forEach([1, 2, 3], () => send(`${started.url}${paths.symbols}?symbol=BTCUSDT`))
      assert.deepStrictEqual(faulted.map((reply) => reply.status), [503, 503, 200])
      const burst = yield* Effect.forEach([1, 2, 3], () => send(`${started.url}${paths.netFlow}?symbol=BTCUSDT`))
      assert.isTrue(burst.every((reply) => code(reply) === "00000"), "--no-limits")
      const exited = yield* Effect.async<number | null>((resume) => {
        child.once("exit", (status) => resume(Effect.succeed(status)))
        child.kill("SIGTERM")
      })
      assert.strictEqual(exited, 0)
    }).pipe(Effect.scoped), 30_000)

  it.live("rejects bad flags with a usage message", () =>
    Effect.gen(function*() {
      const result = yield* Effect.either(cli(["--fault", "nowhere=500"]))
      assert.isTrue(result._tag === "Left" && result.left.message.includes("unknown route"))
    }).pipe(Effect.scoped), 30_000)
})
