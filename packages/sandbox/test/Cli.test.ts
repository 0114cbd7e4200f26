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

/** Runs the CLI as a subprocess until the scope closes; yields its output once `done` holds for it. */
const run = (args: ReadonlyArray<string>, done: (out: string) => boolean) =>
  Effect.acquireRelease(
    Effect.sync(() =>
      spawn(process.execPath, [
        "--conditions=@bitget-effect/source",
        "--import",
        "tsx",
        "src/bin/bitget-sandbox.ts",
        ...args
      ], {
        cwd: packageDir
      })
    ),
    (child) =>
      Effect.callback<void>((resume) => {
        if (child.exitCode !== null) return resume(Effect.void)
        child.once("exit", () => resume(Effect.void))
        child.kill("SIGTERM")
      })
  ).pipe(
    Effect.flatMap((child: ChildProcess) =>
      Effect.callback<{ readonly child: ChildProcess; readonly out: string }, Error>((resume) => {
        let out = ""
        let err = ""
        child.stdout?.on("data", (chunk: Buffer) => {
          out += chunk.toString()
          if (done(out)) resume(Effect.succeed({ child, out }))
        })
        child.stderr?.on("data", (chunk: Buffer) => {
          err += chunk.toString()
        })
        child.once("exit", (status) => resume(Effect.fail(new Error(`exited with ${status}: ${err}`))))
      })
    )
  )

/** Runs the CLI with `--json`; yields the JSON line it prints. */
const cli = (args: ReadonlyArray<string>) =>
  run([...args, "--json"], (out) => out.includes("\n")).pipe(
    Effect.map(({ child, out }) => ({ child, started: JSON.parse(out.slice(0, out.indexOf("\n"))) as Started }))
  )

describe("CLI", () => {
  it.live("runs as a subprocess, prints its URL and credentials, and stops on SIGTERM", () =>
    Effect.gen(function*() {
      const { child, started } = yield* cli([
        "--port",
        "0",
        "--seed",
        "5",
        "--no-limits",
        "--fault",
        "symbols=503@2",
        "--print-rsa-key"
      ])
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
      const exited = yield* Effect.callback<number | null>((resume) => {
        child.once("exit", (status) => resume(Effect.succeed(status)))
        child.kill("SIGTERM")
      })
      assert.strictEqual(exited, 0)
    }).pipe(Effect.scoped), 30_000)

  it.live(
    "prints its URL and the demo credentials in a few lines; the RSA private key only on request",
    () =>
      Effect.gen(function*() {
        const { out } = yield* run(["--port", "0"], (text) => text.includes("Ctrl+C to stop."))
        const lines = out.trimEnd().split("\n")
        assert.isAtMost(lines.length, 5)
        assert.match(lines[0]!, /^Bitget sandbox on http:\/\/127\.0\.0\.1:\d+ \(seed 1, limits on\)$/)
        assert.include(out, "BITGET_API_KEY=bg_sandbox_hmac_0000000000000001")
        assert.match(out, /paptrading: 1\): apiKey bg_sandbox_demo_0000000000000004 secret sandbox-demo-secret-\d+\n/)
        assert.notInclude(out, "PRIVATE KEY")
        const { started } = yield* cli(["--port", "0"])
        assert.isUndefined(started.credentials.rsa.privateKeyPem as string | undefined)
        assert.strictEqual(started.credentials.rsa.apiKey, "bg_sandbox_rsa_00000000000000002")
        assert.deepInclude(started.credentials.demo, { apiKey: "bg_sandbox_demo_0000000000000004", demo: true })
      }).pipe(Effect.scoped),
    30_000
  )

  it.live("rejects bad flags with a usage message", () =>
    Effect.gen(function*() {
      const result = yield* Effect.result(cli(["--fault", "nowhere=500"]))
      assert.isTrue(result._tag === "Failure" && result.failure.message.includes("unknown route"))
    }).pipe(Effect.scoped), 30_000)
})
