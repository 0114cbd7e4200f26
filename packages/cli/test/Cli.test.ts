/**
 * The command line in process: every usage error exits with 2 and a readable
 * message before anything is sent (the sandbox's request log stays empty),
 * and how a run's end maps to an exit code.
 */
import { Sandbox } from "@bitget-effect/sandbox"
import { assert, describe, it, layer } from "@effect/vitest"
import { Cause, Effect, Exit } from "effect"
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { vi } from "vitest"
import * as Cli from "../src/Cli.js"
import { UsageError } from "../src/UsageError.js"

/** Runs `bitget …` in this process; yields its exit code and what it printed with `console.error`. */
const bitget = (args: ReadonlyArray<string>) =>
  Effect.acquireUseRelease(
    Effect.sync(() => {
      const lines: Array<string> = []
      const spy = vi.spyOn(console, "error").mockImplementation((...args: ReadonlyArray<unknown>) => {
        lines.push(`${args.map(String).join(" ")}\n`)
      })
      return { lines, spy }
    }),
    ({ lines }) =>
      Effect.map(Effect.exit(Cli.run(["node", "bitget", ...args])), (exit) => ({
        code: Cli.exitCode(exit, undefined),
        stderr: lines.join("")
      })),
    ({ spy }) => Effect.sync(() => spy.mockRestore())
  )

describe("bitget (in process)", () => {
  layer(Sandbox.layer({ seed: 3, sizes: { taxRecords: 10, p2pOrders: 10, futuresOrders: 10 } }), {
    excludeTestServices: true
  })((it) => {
    it.effect("exits with 2 on each usage error, with a readable message, before anything is sent", () =>
      Effect.gen(function*() {
        const sandbox = yield* Sandbox.Sandbox
        const dir = mkdtempSync(join(tmpdir(), "bitget-cli-"))
        yield* Effect.addFinalizer(() => Effect.sync(() => rmSync(dir, { recursive: true, force: true })))
        const other = join(dir, "other.csv")
        writeFileSync(`${other}.part`, "id\n")
        writeFileSync(
          `${other}.checkpoint.json`,
          JSON.stringify({
            version: 1,
            kind: "p2p-orders",
            productType: null,
            format: "csv",
            from: "2025-01-01T00:00:00.000Z",
            to: "2025-01-31T23:59:59.999Z",
            resumeFrom: "2025-01-01T00:00:00.000Z",
            bytes: 3,
            records: 0
          })
        )
        writeFileSync(join(dir, "broken.csv.checkpoint.json"), "{")
        const at = ["--base-url", sandbox.url]
        const cases: ReadonlyArray<readonly [ReadonlyArray<string>, string]> = [
          [["export", "tax-records", "--from", "2025-01-01", "--format", "xml"], "\"csv\" | \"ndjson\""],
          [["export", "tax-records", "--from", "2025-02-01", "--to", "2025-01-01"], "is after --to"],
          [["export", "tax-records", "--from", "2025-02-30"], "not a calendar date"],
          [["export", "tax-records", "--from", "yesterday"], "expected a date"],
          [["export", "tax-records", "--from", "2025-01-01", "--to", "2025-01-01T25:00Z"], "--to"],
          [
            ["export", "trades", "--from", "2025-01-01"],
            "\"tax-records\" | \"futures-orders\" | \"p2p-orders\""
          ],
          [["export", "tax-records"], "--from"],
          [["export", "tax-records", "--from", "2025-01-01", "--resume"], "--out"],
          [["export", "p2p-orders", "--from", "2025-01-01", "--product-type", "USDT-FUTURES"], "futures-orders only"],
          [["export", "futures-orders", "--from", "2025-01-01", "--product-type", "SPOT"], "USDT-FUTURES"],
          [["export", "tax-records", "--from", "2025-01-01", "--out", join(dir, "x.csv"), "--resume"], "no checkpoint"],
          [
            ["export", "tax-records", "--from", "2025-01-01", "--out", join(dir, "broken.csv"), "--resume"],
            "cannot read"
          ],
          [
            ["export", "p2p-orders", "--from", "2025-01-01", "--to", "2025-02-01", "--out", other, "--resume"],
            "--to is 2025-02-01T23:59:59.999Z, the checkpoint's is 2025-01-31T23:59:59.999Z"
          ],
          [
            ["export", "tax-records", "--from", "2025-01-01", "--out", other, "--resume"],
            "the export is tax-records, the checkpoint's is p2p-orders"
          ],
          [["export", "tax-records", "--from", "2025-01-01", "--base-url", "ftp://example"], "--base-url"],
          [["export", "tax-records", "--from", "2025-01-01", "--unknown"], "--unknown"]
        ]
        for (const [args, message] of cases) {
          const { code, stderr } = yield* bitget([...args, ...(args.includes("--base-url") ? [] : at)])
          assert.strictEqual(code, 2, `${args.join(" ")}: ${stderr}`)
          assert.include(stderr, message, args.join(" "))
          assert.include(stderr, "bitget export --help", args.join(" "))
        }
        assert.deepStrictEqual(yield* sandbox.requests, [], "nothing was sent")
      }).pipe(Effect.scoped))
  })

  it("maps a run's end to its exit code", () => {
    assert.strictEqual(Cli.exitCode(Exit.void, undefined), 0)
    assert.strictEqual(Cli.exitCode(Exit.interrupt(0), "SIGINT"), 130)
    assert.strictEqual(Cli.exitCode(Exit.failCause(Cause.interrupt(0)), "SIGTERM"), 143)
    assert.strictEqual(Cli.exitCode(Exit.fail(new UsageError({ problem: "no" })), undefined), 2)
    assert.strictEqual(Cli.exitCode(Exit.fail(new Error("boom")), undefined), 1)
    assert.strictEqual(Cli.exitCode(Exit.die("bug"), undefined), 1)
  })
})

describe("bitget --version", () => {
  it("prints the version of the package (one fact: package.json's, which a release bumps)", () => {
    const manifest = JSON.parse(readFileSync(join(import.meta.dirname, "../package.json"), "utf8")) as {
      readonly version: string
    }
    assert.strictEqual(Cli.version, manifest.version)
  })
})
