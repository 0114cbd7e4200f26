/**
 * `bitget export` where undici cannot send (Bun's stand-in, whose `Agent` has
 * no `request`): BitgetNode's transport refuses to build there, so the export
 * goes through BitgetFetch (fetch, WebCrypto) with the same configuration. The
 * smoke test runs the command under Bun itself (`bunx --bun bitget export`).
 */
import { Dataset, Sandbox } from "@bitget-effect/sandbox"
import { assert, describe, layer } from "@effect/vitest"
import { Effect } from "effect"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { vi } from "vitest"
import { DAY } from "../src/internal/timeRange.js"
import { inProcess, readCsv, variablesOf } from "./support.js"

// Bun's undici: an `Agent` that has neither `request` nor `close` (in place of the undici platform-node loads)
vi.mock("../../platform-node/node_modules/undici", () => ({ Agent: class Agent {} }))

const sizes = { taxRecords: 2_000, taxDays: 60, taxBurst: 0 }

describe("bitget export where undici cannot send (as under Bun)", () => {
  layer(Sandbox.layer({ seed: 5, sizes, limits: false }), { excludeTestServices: true })((it) => {
    it.effect(
      "goes through fetch: the file holds every record of the range, as the sandbox holds them",
      () =>
        Effect.gen(function*() {
          const sandbox = yield* Sandbox.Sandbox
          const range = { start: sandbox.anchor - 40 * DAY, end: sandbox.anchor }
          const dir = yield* Effect.acquireRelease(
            Effect.sync(() => mkdtempSync(join(tmpdir(), "bitget-runtime-"))),
            (dir) => Effect.sync(() => rmSync(dir, { recursive: true, force: true }))
          )
          const out = join(dir, "tax.csv")
          const ran = yield* inProcess(
            [
              "export",
              "tax-records",
              "--from",
              new Date(range.start).toISOString(),
              "--to",
              new Date(range.end).toISOString(),
              "--out",
              out,
              "--quiet"
            ],
            variablesOf(sandbox)
          )
          assert.strictEqual(ran.code, 0, ran.stderr)
          const [, ...rows] = readCsv(readFileSync(out, "utf8"))
          const expected = Dataset.make(sandbox).taxRecords(sandbox.credentials.hmac.apiKey, range)
          assert.isAbove(expected.length, 100)
          // each record once (the export walks the oldest window first)
          assert.deepStrictEqual(rows.map((row) => row[0]).sort(), expected.map((record) => record.id).sort())
        }).pipe(Effect.scoped),
      30_000
    )
  })
})
