/**
 * What an export to a file says and leaves when it fails, run in process
 * against a sandbox: a configuration or credential error is caught before any
 * file is touched or anything sent; a failure before the first record leaves
 * no file, and an earlier export's checkpoint as it was; `--resume` is
 * offered only when the checkpoint holds progress and running again can get
 * past the failure (an interruption, the network), never after an auth or
 * permission failure; "is replaced" is said only when it is.
 */
import { Dataset, Fault, Sandbox } from "@bitget-effect/sandbox"
import { assert, describe, layer } from "@effect/vitest"
import { Effect, Fiber, Schedule } from "effect"
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { DAY } from "../src/internal/timeRange.js"
import { inProcess, type Ran, readCsv, variablesOf } from "./support.js"

// about a thousand tax records per 30-day window: two pages (of 500) each
const sizes = { taxRecords: 12_000, taxDays: 365, taxBurst: 0, p2pOrders: 10, futuresOrders: 10 }

const iso = (millis: number) => new Date(millis).toISOString()

/** A directory for one test, removed after it. */
const tempDir = Effect.acquireRelease(
  Effect.sync(() => mkdtempSync(join(tmpdir(), "bitget-cli-"))),
  (dir) => Effect.sync(() => rmSync(dir, { recursive: true, force: true }))
)

/** A file's text, `undefined` when there is none. */
const textOf = (path: string) => existsSync(path) ? readFileSync(path, "utf8") : undefined

/** The files an export to `out` may leave, as they are now. */
const filesOf = (out: string) => ({
  out: textOf(out),
  part: textOf(`${out}.part`),
  checkpoint: textOf(`${out}.checkpoint.json`)
})

/** No file at all. */
const none = { out: undefined, part: undefined, checkpoint: undefined }

/** An earlier export's `.part` and checkpoint at `out`, as an interrupted run leaves them (keeping `kept` lines). */
const earlierExport = (out: string, from: number, to: number, kept = "") => {
  const header = "id,coin,spotTaxType,amount,fee,balance,ts,bizOrderId\n"
  writeFileSync(`${out}.part`, header + kept)
  writeFileSync(
    `${out}.checkpoint.json`,
    JSON.stringify({
      version: 2,
      kind: "tax-records",
      productType: null,
      format: "csv",
      from: iso(from),
      to: iso(to),
      bytes: Buffer.byteLength(header + kept),
      records: kept.split("\n").length - 1,
      stream: null
    })
  )
}

/** Waits until `condition` holds (checked every 20 ms, for at most 20 s). */
const waitUntil = (condition: () => boolean) =>
  Effect.sync(condition).pipe(
    Effect.repeat({ schedule: Schedule.spaced("20 millis"), until: (holds) => holds }),
    Effect.timeout("20 seconds")
  )

/** The records a checkpoint keeps, once there is one. */
const checkpointRecords = (out: string): number =>
  existsSync(`${out}.checkpoint.json`)
    ? (JSON.parse(readFileSync(`${out}.checkpoint.json`, "utf8")) as { readonly records: number }).records
    : 0

describe("bitget export --out: failures", () => {
  layer(Sandbox.layer({ seed: 20, sizes, limits: false }), { excludeTestServices: true })((it) => {
    /** The command line of a 90-day tax export to `out`. */
    const exportTo = (sandbox: Sandbox.Sandbox.Service, out: string) => [
      "export",
      "tax-records",
      "--from",
      iso(sandbox.anchor - 90 * DAY),
      "--to",
      iso(sandbox.anchor),
      "--out",
      out
    ]

    it.effect("a configuration or credential error: exit 2 before anything is sent or any file touched", () =>
      Effect.gen(function*() {
        const sandbox = yield* Sandbox.Sandbox
        const dir = yield* tempDir
        const fresh = join(dir, "fresh.csv")
        const earlier = join(dir, "earlier.csv")
        earlierExport(earlier, sandbox.anchor - 90 * DAY, sandbox.anchor)
        const before = filesOf(earlier)
        const cases: ReadonlyArray<readonly [string, Record<string, string | undefined>, string]> = [
          [
            "no credentials",
            { BITGET_API_KEY: undefined, BITGET_API_SECRET: undefined, BITGET_API_PASSPHRASE: undefined },
            "hint: signed operations need credentials: set BITGET_API_KEY"
          ],
          ["no secret", { BITGET_API_SECRET: undefined }, "BITGET_API_SECRET: incomplete credentials"],
          ["a bad BITGET_TIMEOUT", { BITGET_TIMEOUT: "soon" }, "BITGET_TIMEOUT"]
        ]
        yield* sandbox.clearRequests
        for (const [what, env, message] of cases) {
          for (const out of [fresh, earlier]) {
            const where = `${what}, to ${out === fresh ? "a new file" : "a file with an earlier checkpoint"}`
            const ran = yield* inProcess(exportTo(sandbox, out), variablesOf(sandbox, env))
            assert.strictEqual(ran.code, 2, `${where}: ${ran.stderr}`)
            assert.include(ran.stderr, message, where)
            assert.notInclude(ran.stderr, "--resume", where)
            assert.notInclude(ran.stderr, "checkpoint", where)
            assert.strictEqual(ran.stderr.split("\n").filter((line) => line.startsWith("error:")).length, 1, where)
          }
          assert.deepStrictEqual(filesOf(fresh), none, `${what}: no file`)
          assert.deepStrictEqual(filesOf(earlier), before, `${what}: the earlier export's files are as they were`)
        }
        assert.deepStrictEqual(yield* sandbox.requests, [], "nothing was sent")
      }).pipe(Effect.scoped))

    it.effect("a wrong secret: exit 1, what to fix, no --resume, no file; an earlier checkpoint stays as it was", () =>
      Effect.gen(function*() {
        const sandbox = yield* Sandbox.Sandbox
        const dir = yield* tempDir
        const fresh = join(dir, "fresh.csv")
        const earlier = join(dir, "earlier.csv")
        earlierExport(earlier, sandbox.anchor - 90 * DAY, sandbox.anchor)
        const before = filesOf(earlier)
        for (const out of [fresh, earlier]) {
          const ran = yield* inProcess(exportTo(sandbox, out), variablesOf(sandbox, { BITGET_API_SECRET: "wrong" }))
          assert.strictEqual(ran.code, 1, ran.stderr)
          const lines = ran.stderr.trimEnd().split("\n")
          assert.strictEqual(lines.length, 2, ran.stderr)
          assert.match(lines[0]!, /^error: GET \/api\/v2\/tax\/spot-record failed with code 40009 \(Auth/)
          assert.match(lines[1]!, /^hint: check the API key, its secret/)
        }
        assert.deepStrictEqual(filesOf(fresh), none, "no file")
        assert.deepStrictEqual(filesOf(earlier), before, "the earlier export's files are as they were")
      }).pipe(Effect.scoped))

    it.effect("a network failure before the first record: exit 1, no file, no --resume", () =>
      Effect.gen(function*() {
        const sandbox = yield* Sandbox.Sandbox
        const dir = yield* tempDir
        const out = join(dir, "tax.csv")
        yield* sandbox.inject("tax-records", Fault.connectionReset, { times: "forever" })
        const ran = yield* inProcess(exportTo(sandbox, out), variablesOf(sandbox, { BITGET_MAX_ATTEMPTS: "1" })).pipe(
          Effect.ensuring(sandbox.clearFaults())
        )
        assert.strictEqual(ran.code, 1, ran.stderr)
        assert.include(ran.stderr, "error: GET /api/v2/tax/spot-record transport failure")
        assert.notInclude(ran.stderr, "--resume")
        assert.notInclude(ran.stderr, "stopped")
        assert.deepStrictEqual(filesOf(out), none, "no file")
      }).pipe(Effect.scoped))

    /**
     * Runs the export to `out` with the client's rate limit on (a page a
     * second), injects `fault` on every later request once `ready` holds,
     * and yields how the run ended.
     */
    const failingMidway = (
      sandbox: Sandbox.Sandbox.Service,
      out: string,
      ready: () => boolean,
      fault: Fault.Fault
    ) =>
      Effect.gen(function*() {
        const running = yield* Effect.forkChild(
          inProcess(
            exportTo(sandbox, out),
            variablesOf(sandbox, { BITGET_RATE_LIMIT: "true", BITGET_MAX_ATTEMPTS: "1" })
          )
        )
        yield* waitUntil(ready)
        yield* sandbox.inject("tax-records", fault, { times: "forever" })
        return yield* Fiber.join(running)
      }).pipe(Effect.ensuring(sandbox.clearFaults()))

    it.effect(
      "a network failure after some pages: the checkpoint is kept, --resume is offered and ends with every record once",
      () =>
        Effect.gen(function*() {
          const sandbox = yield* Sandbox.Sandbox
          const dir = yield* tempDir
          const out = join(dir, "tax.csv")
          const ran = yield* failingMidway(sandbox, out, () => checkpointRecords(out) > 0, Fault.connectionReset)
          assert.strictEqual(ran.code, 1, ran.stderr)
          const kept = checkpointRecords(out)
          assert.isAbove(kept, 0)
          const lines = ran.stderr.split("\n")
          const stopped = lines.filter((line) => line.includes("stopped"))
          assert.strictEqual(stopped.length, 1, ran.stderr)
          assert.match(
            stopped[0]!,
            new RegExp(
              `^tax-records: stopped after [\\d,]+ records; ${out}\\.checkpoint\\.json keeps the first ` +
                `${kept.toLocaleString("en-US")}: run the same command with --resume to continue$`
            )
          )
          assert.isTrue(lines.some((line) => line.startsWith("error: GET /api/v2/tax/spot-record transport failure")))
          assert.isFalse(existsSync(out))

          const resumed = yield* inProcess([...exportTo(sandbox, out), "--resume"], variablesOf(sandbox))
          assert.strictEqual(resumed.code, 0, resumed.stderr)
          assert.isFalse(existsSync(`${out}.part`))
          assert.isFalse(existsSync(`${out}.checkpoint.json`))
          const [, ...rows] = readCsv(readFileSync(out, "utf8"))
          const expected = Dataset.make(sandbox).taxRecords(sandbox.credentials.hmac.apiKey, {
            start: sandbox.anchor - 90 * DAY,
            end: sandbox.anchor
          })
          assert.isAbove(expected.length, kept)
          assert.deepStrictEqual(rows.map((row) => row[0]).sort(), expected.map((record) => record.id).sort())
        }).pipe(Effect.scoped),
      30_000
    )

    it.effect(
      "a permission failure after some pages: the checkpoint is kept, --resume is not offered",
      () =>
        Effect.gen(function*() {
          const sandbox = yield* Sandbox.Sandbox
          const dir = yield* tempDir
          const out = join(dir, "tax.csv")
          const ran = yield* failingMidway(sandbox, out, () => checkpointRecords(out) > 0, Fault.errorCode("40014"))
          assert.strictEqual(ran.code, 1, ran.stderr)
          assert.isAbove(checkpointRecords(out), 0)
          assert.include(ran.stderr, `${out}.checkpoint.json keeps the first`)
          assert.include(ran.stderr, "code 40014 (Permission")
          assert.include(ran.stderr, "hint: the API key lacks a permission")
          assert.notInclude(ran.stderr, "--resume")
        }).pipe(Effect.scoped),
      30_000
    )

    it.effect(
      "a failure mid-window: the checkpoint keeps whole pages, exactly the records in its bytes, none twice",
      () =>
        Effect.gen(function*() {
          const sandbox = yield* Sandbox.Sandbox
          const dir = yield* tempDir
          const out = join(dir, "tax.csv")
          const ran = yield* failingMidway(sandbox, out, () => existsSync(`${out}.part`), Fault.connectionReset)
          assert.strictEqual(ran.code, 1, ran.stderr)
          assert.include(ran.stderr, "--resume")
          const checkpoint = JSON.parse(readFileSync(`${out}.checkpoint.json`, "utf8")) as {
            readonly bytes: number
            readonly records: number
            readonly stream: { readonly next: unknown } | null
          }
          assert.isAbove(checkpoint.records, 0)
          assert.isNotNull(checkpoint.stream)
          assert.isNotNull(checkpoint.stream!.next, "the walk is not done")
          const [header, ...rows] = readCsv(readFileSync(`${out}.part`).subarray(0, checkpoint.bytes).toString("utf8"))
          assert.strictEqual(header![0], "id")
          assert.strictEqual(rows.length, checkpoint.records, "the bytes hold exactly the records counted")
          const ids = rows.map((row) => row[0]!)
          assert.strictEqual(new Set(ids).size, ids.length, "none twice")
          const expected = new Set(
            Dataset.make(sandbox).taxRecords(sandbox.credentials.hmac.apiKey, {
              start: sandbox.anchor - 90 * DAY,
              end: sandbox.anchor
            }).map((record) => record.id)
          )
          assert.isTrue(ids.every((id) => expected.has(id)), "every record kept is one of the range")
        }).pipe(Effect.scoped),
      30_000
    )

    it.effect("a new export says it replaces an earlier checkpoint when it does, and only then", () =>
      Effect.gen(function*() {
        const sandbox = yield* Sandbox.Sandbox
        const dir = yield* tempDir
        const out = join(dir, "tax.csv")
        earlierExport(out, sandbox.anchor - 90 * DAY, sandbox.anchor)
        const ran = yield* inProcess(exportTo(sandbox, out), variablesOf(sandbox))
        assert.strictEqual(ran.code, 0, ran.stderr)
        assert.include(
          ran.stderr,
          `note: starting over; the checkpoint of an earlier export to ${out} is replaced (--resume continues one)`
        )
        assert.isTrue(existsSync(out))
        assert.isFalse(existsSync(`${out}.part`))
        assert.isFalse(existsSync(`${out}.checkpoint.json`))
        // without an earlier checkpoint, nothing is said (--force: the file of the first run is replaced)
        const again = yield* inProcess([...exportTo(sandbox, out), "--force"], variablesOf(sandbox))
        assert.strictEqual(again.code, 0, again.stderr)
        assert.include(again.stderr, `records to ${out}`)
        assert.notInclude(again.stderr, "replaced")
      }).pipe(Effect.scoped))

    it.effect(
      "an existing --out FILE is replaced only with --force (or --resume): otherwise exit 2, before anything is sent",
      () =>
        Effect.gen(function*() {
          const sandbox = yield* Sandbox.Sandbox
          const dir = yield* tempDir
          const out = join(dir, "tax.csv")
          const year = yield* inProcess(exportTo(sandbox, out), variablesOf(sandbox))
          assert.strictEqual(year.code, 0, year.stderr)
          const finished = filesOf(out)
          /** A two-day export to `out`, with `extra` flags. */
          const twoDays = (...extra: ReadonlyArray<string>) =>
            inProcess(
              [
                "export",
                "tax-records",
                "--from",
                iso(sandbox.anchor - 2 * DAY),
                "--to",
                iso(sandbox.anchor),
                "--out",
                out,
                ...extra
              ],
              variablesOf(sandbox)
            )
          /** Asserts a run refused to start, with `message`, leaving the files as `before` and sending nothing. */
          const refused = (ran: Ran, message: string, before: typeof finished) =>
            Effect.gen(function*() {
              assert.strictEqual(ran.code, 2, ran.stderr)
              assert.strictEqual(ran.stderr.split("\n")[0], `error: ${message}`)
              assert.deepStrictEqual(filesOf(out), before, "the files are as they were")
              assert.deepStrictEqual(yield* sandbox.requests, [], "nothing was sent")
            })

          yield* sandbox.clearRequests
          yield* refused(
            yield* twoDays(),
            `--out ${out} already exists: add --force to replace it, or choose another --out`,
            finished
          )
          // an interrupted export beside it: --resume continues that one
          const kept = "kept-by-the-earlier-run,USDT,Buy,1,0,1,2025-01-01T00:00:00.000Z,\n"
          earlierExport(out, sandbox.anchor - 90 * DAY, sandbox.anchor, kept)
          const interrupted = filesOf(out)
          yield* refused(
            yield* twoDays(),
            `--out ${out} already exists: add --force to replace it, or --resume to continue the export ` +
              `${out}.checkpoint.json keeps`,
            interrupted
          )
          const resumed = yield* inProcess([...exportTo(sandbox, out), "--resume"], variablesOf(sandbox))
          assert.strictEqual(resumed.code, 0, resumed.stderr)
          const after = filesOf(out)
          assert.notStrictEqual(after.out, finished.out, "replaced by the export resumed")
          assert.isTrue(after.out?.startsWith(interrupted.part!), "which goes on from the earlier run's part")
          assert.deepStrictEqual({ ...after, out: undefined }, none, "no .part, no checkpoint")

          const forced = yield* twoDays("--force")
          assert.strictEqual(forced.code, 0, forced.stderr)
          // the summary counts in the singular where there is one
          assert.match(forced.stderr, /^tax-records: [\d,]+ records to .* in \d+:\d\d \(1 page, 1 window\)$/m)
          const [, ...rows] = readCsv(filesOf(out).out ?? "")
          const expected = Dataset.make(sandbox).taxRecords(sandbox.credentials.hmac.apiKey, {
            start: sandbox.anchor - 2 * DAY,
            end: sandbox.anchor
          })
          assert.deepStrictEqual(rows.map((row) => row[0]).sort(), expected.map((record) => record.id).sort())
          assert.isBelow(rows.length, readCsv(finished.out ?? "").length - 1, "the file of the two days only")
        }).pipe(Effect.scoped),
      30_000
    )
  })
})
