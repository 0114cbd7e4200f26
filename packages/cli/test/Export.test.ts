/**
 * `bitget export` end to end: the command run as a subprocess from source
 * against a sandbox started here, its output compared with the sandbox's
 * dataset (the truth, not another walk): every export in both formats, an
 * export to a file stopped by signals and resumed, and the exit codes.
 */
import { Dataset, Fault, Sandbox } from "@bitget-effect/sandbox"
import { assert, describe, layer } from "@effect/vitest"
import { Effect, Schedule } from "effect"
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { DAY } from "../src/internal/timeRange.js"
import type { Kind, Row } from "./support.js"
import { assertCell, assertNoSecret, envOf, rowsOf, run, start, wireValue } from "./support.js"

const sizes = { taxRecords: 3_000, taxDays: 365, taxBurst: 200, p2pOrders: 500, p2pDays: 365, futuresOrders: 500 }

/** The documented columns of each export (packages/cli/README.md), with how each relates to the wire value. */
const columns: Readonly<
  Record<"tax-records" | "futures-orders" | "p2p-orders", ReadonlyArray<readonly [string, Kind]>>
> = {
  "tax-records": [
    ["id", "text"],
    ["coin", "text"],
    ["spotTaxType", "enum"],
    ["amount", "decimal"],
    ["fee", "decimal"],
    ["balance", "decimal"],
    ["ts", "time"],
    ["bizOrderId", "text"]
  ],
  "futures-orders": [
    ["symbol", "text"],
    ["size", "decimal"],
    ["orderId", "text"],
    ["clientOid", "text"],
    ["baseVolume", "decimal"],
    ["fee", "decimal"],
    ["price", "decimal"],
    ["priceAvg", "decimal"],
    ["status", "enum"],
    ["side", "enum"],
    ["force", "enum"],
    ["totalProfits", "decimal"],
    ["posSide", "enum"],
    ["marginCoin", "text"],
    ["quoteVolume", "decimal"],
    ["leverage", "decimal"],
    ["marginMode", "enum"],
    ["reduceOnly", "enum"],
    ["enterPointSource", "enum"],
    ["tradeSide", "enum"],
    ["posMode", "enum"],
    ["orderType", "enum"],
    ["orderSource", "enum"],
    ["liqPrice", "decimal"],
    ["cTime", "time"],
    ["uTime", "time"],
    ["presetStopSurplusPrice", "decimal"],
    ["presetStopLossPrice", "decimal"],
    ["posAvg", "decimal"]
  ],
  "p2p-orders": [
    ["orderId", "text"],
    ["orderNo", "text"],
    ["advNo", "text"],
    ["side", "enum"],
    ["count", "decimal"],
    ["coin", "text"],
    ["price", "decimal"],
    ["fiat", "text"],
    ["withdrawTime", "time"],
    ["representTime", "time"],
    ["releaseTime", "time"],
    ["paymentTime", "time"],
    ["amount", "decimal"],
    ["status", "enum"],
    ["buyerRealName", "text"],
    ["sellerRealName", "text"],
    ["ctime", "time"],
    ["utime", "time"],
    ["paymentInfo.paymethodName", "text"],
    ["paymentInfo.paymethodId", "text"],
    ["paymentInfo.paymethodInfo", "list"]
  ]
}

const iso = (millis: number) => new Date(millis).toISOString()
const isoDay = (millis: number) => iso(millis).slice(0, 10)

/** A test's export: the command line, and what the sandbox holds for it. */
interface Case {
  readonly kind: keyof typeof columns
  readonly format: "csv" | "ndjson"
  readonly args: ReadonlyArray<string>
  readonly env?: Readonly<Record<string, string>>
  /** The id column. */
  readonly id: string
  readonly expected: (data: Dataset.Dataset, apiKey: string) => ReadonlyArray<object>
}

/** Asserts an export's output: the documented columns, each of the dataset's records once with every field. */
const assertExport = (test: Case, stdout: string, data: Dataset.Dataset, apiKey: string) => {
  const table = columns[test.kind]
  const rows = rowsOf(test.format, stdout, table.map(([name]) => name))
  const expected = test.expected(data, apiKey)
  assert.isAbove(expected.length, 50, `${test.kind}: the range holds records`)
  const byId = new Map<unknown, Row>(rows.map((row) => [row[test.id], row]))
  assert.strictEqual(byId.size, rows.length, `${test.kind} ${test.format}: no record twice`)
  assert.strictEqual(rows.length, expected.length, `${test.kind} ${test.format}: every record, no other`)
  for (const record of expected) {
    const id = wireValue(record, test.id)
    const row = byId.get(id)
    assert.isDefined(row, `${test.kind} ${String(id)} exported`)
    for (const [name, kind] of table) {
      assertCell(test.format, kind, wireValue(record, name), row![name], `${test.kind} ${String(id)} ${name}`)
    }
  }
}

describe("bitget export", () => {
  layer(Sandbox.layer({ seed: 12, sizes, limits: false }), { excludeTestServices: true })((it) => {
    it.effect(
      "exports every kind in both formats: the dataset's records, each once, every field as documented",
      () =>
        Effect.gen(function*() {
          const sandbox = yield* Sandbox.Sandbox
          const data = Dataset.make(sandbox)
          const anchor = sandbox.anchor
          // the tax range cuts into the data; the P2P one is given as whole UTC days
          const tax = { start: anchor - 300 * DAY + 12_345, end: anchor - 3 * DAY }
          const p2pFrom = Date.parse(isoDay(anchor - 200 * DAY))
          const p2pTo = Date.parse(isoDay(anchor - DAY)) + DAY - 1
          const futures = { start: anchor - 89 * DAY, end: anchor }
          const cases: ReadonlyArray<Case> = (["csv", "ndjson"] as const).flatMap((format): ReadonlyArray<Case> => [
            {
              kind: "tax-records",
              format,
              args: ["--from", iso(tax.start), "--to", iso(tax.end)],
              id: "id",
              expected: (data, apiKey) => data.taxRecords(apiKey, tax)
            },
            {
              kind: "p2p-orders",
              format,
              // --base-url wins over BITGET_BASE_URL (here a closed port)
              args: ["--from", isoDay(p2pFrom), "--to", isoDay(p2pTo), "--base-url", sandbox.url],
              env: { BITGET_BASE_URL: "http://127.0.0.1:9" },
              id: "orderId",
              expected: (data, apiKey) => data.p2pOrders(apiKey, { start: p2pFrom, end: p2pTo })
            },
            {
              kind: "futures-orders",
              format,
              args: [
                "--from",
                iso(futures.start),
                "--to",
                iso(futures.end),
                ...(format === "csv" ? [] : ["--product-type", "COIN-FUTURES"])
              ],
              id: "orderId",
              expected: (data, apiKey) =>
                data.futuresOrders(apiKey, format === "csv" ? "USDT-FUTURES" : "COIN-FUTURES", futures)
            }
          ])
          // two gateway errors on the tax route: the retries are logged on standard error, never among the records
          yield* sandbox.inject("tax-records", Fault.httpError(503), { times: 2 })
          const logs = yield* Effect.forEach(cases, (test) =>
            Effect.gen(function*() {
              const ran = yield* run(["export", test.kind, ...test.args, "--format", test.format], sandbox, test.env)
              assert.strictEqual(ran.code, 0, ran.stderr)
              assertExport(test, ran.stdout, data, sandbox.credentials.hmac.apiKey)
              return ran.stderr
            }), { concurrency: 3 })
          assert.include(logs.join("\n"), "retry: GET /api/v2/tax/spot-record")
        }),
      40_000
    )

    it.effect(
      "--out: the file appears only complete; stopped by SIGINT and SIGTERM, --resume ends with every record once",
      () =>
        Effect.gen(function*() {
          const sandbox = yield* Sandbox.Sandbox
          const data = Dataset.make(sandbox)
          const dir = mkdtempSync(join(tmpdir(), "bitget-cli-"))
          yield* Effect.addFinalizer(() => Effect.sync(() => rmSync(dir, { recursive: true, force: true })))
          const out = join(dir, "tax.csv")
          const range = { start: sandbox.anchor - 360 * DAY, end: sandbox.anchor }
          const args = ["export", "tax-records", "--from", iso(range.start), "--to", iso(range.end), "--out", out]
          const checkpoint = () =>
            existsSync(`${out}.checkpoint.json`)
              ? JSON.parse(readFileSync(`${out}.checkpoint.json`, "utf8")) as {
                records: number
                bytes: number
                stream: { readonly next: unknown } | null
              }
              : undefined
          /** Runs with the client's 1/s tax limit on, and stops it by `signal` once the checkpoint moves past `records`. */
          const stopped = (extra: ReadonlyArray<string>, signal: NodeJS.Signals, records: number) =>
            Effect.scoped(Effect.gen(function*() {
              const started = yield* start([...args, ...extra], envOf(sandbox, { BITGET_RATE_LIMIT: "true" }))
              yield* Effect.suspend(() => Effect.succeed((checkpoint()?.records ?? 0) > records)).pipe(
                Effect.repeat({ schedule: Schedule.spaced("100 millis"), until: (moved) => moved }),
                Effect.timeout("20 seconds")
              )
              assert.isFalse(existsSync(out), "no output file before the export is complete")
              started.child.kill(signal)
              const ran = yield* started.ended
              assertNoSecret(ran, sandbox)
              return ran
            }))

          const first = yield* stopped([], "SIGINT", 0)
          assert.strictEqual(first.code, 130, first.stderr)
          assert.include(first.stderr, "--resume")
          const afterFirst = checkpoint()!
          assert.isAbove(afterFirst.records, 0)
          assert.isNotNull(afterFirst.stream?.next, "the stream's position after the pages kept")
          assert.isAtLeast(readFileSync(`${out}.part`).length, afterFirst.bytes)
          assert.isFalse(existsSync(out))

          const second = yield* stopped(["--resume"], "SIGTERM", afterFirst.records)
          assert.strictEqual(second.code, 143, second.stderr)
          assert.isAbove(checkpoint()!.records, afterFirst.records)
          assert.isFalse(existsSync(out))

          const last = yield* run([...args, "--resume", "--quiet"], sandbox)
          assert.strictEqual(last.code, 0, last.stderr)
          assert.strictEqual(last.stdout, "", "records go to the file only")
          assert.strictEqual(last.stderr, "", "--quiet")
          assert.isFalse(existsSync(`${out}.part`))
          assert.isFalse(existsSync(`${out}.checkpoint.json`))
          assertExport(
            {
              kind: "tax-records",
              format: "csv",
              args,
              id: "id",
              expected: (data, apiKey) => data.taxRecords(apiKey, range)
            },
            readFileSync(out, "utf8"),
            data,
            sandbox.credentials.hmac.apiKey
          )
        }).pipe(Effect.scoped),
      50_000
    )

    it.effect(
      "to standard output, stopped by SIGINT: exit 130, and one line saying so with the records written",
      () =>
        Effect.gen(function*() {
          const sandbox = yield* Sandbox.Sandbox
          const args = ["export", "tax-records", "--from", iso(sandbox.anchor - 360 * DAY), "--to", iso(sandbox.anchor)]
          // with the client's 1/s tax limit on, the export takes a dozen seconds
          const ran = yield* Effect.scoped(Effect.gen(function*() {
            const started = yield* start(args, envOf(sandbox, { BITGET_RATE_LIMIT: "true" }))
            yield* Effect.sync(() => started.stdout().includes("\n")).pipe(
              Effect.repeat({ schedule: Schedule.spaced("50 millis"), until: (some) => some }),
              Effect.timeout("20 seconds")
            )
            started.child.kill("SIGINT")
            return yield* started.ended
          }))
          assertNoSecret(ran, sandbox)
          assert.strictEqual(ran.code, 130, ran.stderr)
          const records = ran.stdout.split("\n").length - 1
          assert.isAbove(records, 0)
          assert.isTrue(ran.stdout.endsWith("\n"), "no record cut short")
          const lines = ran.stderr.trimEnd().split("\n")
          assert.strictEqual(
            lines.at(-1),
            `tax-records: interrupted after ${records.toLocaleString("en-US")} record${records === 1 ? "" : "s"} ` +
              "to standard output"
          )
          assert.strictEqual(lines.filter((line) => line.includes("interrupted")).length, 1, ran.stderr)
          assert.notInclude(ran.stderr, "error:")
        }),
      30_000
    )

    it.effect(
      "exits with 1 on an exchange failure, with one readable line naming the code",
      () =>
        Effect.gen(function*() {
          const sandbox = yield* Sandbox.Sandbox
          const from = ["--from", iso(sandbox.anchor - 10 * DAY), "--to", iso(sandbox.anchor)]
          yield* sandbox.inject("p2p-orders", Fault.errorCode("40015"), { times: "forever" })
          const [auth, maintenance] = yield* Effect.all([
            run(["export", "tax-records", ...from], sandbox, { BITGET_API_SECRET: "not-the-secret" }),
            run(["export", "p2p-orders", ...from], sandbox, { BITGET_MAX_ATTEMPTS: "1" })
          ], { concurrency: 2 }).pipe(Effect.ensuring(sandbox.clearFaults()))
          for (const [ran, code] of [[auth, "40009"], [maintenance, "40015"]] as const) {
            assert.strictEqual(ran.code, 1, ran.stderr)
            assert.strictEqual(ran.stdout, "")
            const errors = ran.stderr.split("\n").filter((line) => line.startsWith("error:"))
            assert.strictEqual(errors.length, 1, ran.stderr)
            assert.include(errors[0], `code ${code}`)
            assert.notInclude(ran.stderr, "not-the-secret")
          }
        }),
      30_000
    )

    it.effect(
      "exits with 2 on a usage error, before anything is sent (every case: Cli.test.ts)",
      () =>
        Effect.gen(function*() {
          const sandbox = yield* Sandbox.Sandbox
          yield* sandbox.clearRequests
          const cases: ReadonlyArray<readonly [ReadonlyArray<string>, string]> = [
            [["export", "tax-records", "--from", "2025-01-01", "--format", "xml"], "\"csv\" | \"ndjson\""],
            [["export", "p2p-orders", "--from", "2025-01-01", "--product-type", "USDT-FUTURES"], "futures-orders only"]
          ]
          yield* Effect.forEach(cases, ([args, message]) =>
            Effect.gen(function*() {
              const ran = yield* run(args, sandbox)
              assert.strictEqual(ran.code, 2, `${args.join(" ")}: ${ran.stderr}`)
              assert.include(ran.stderr, message, args.join(" "))
              assert.strictEqual(ran.stdout, "", args.join(" "))
            }), { concurrency: 2 })
          assert.deepStrictEqual(yield* sandbox.requests, [], "nothing was sent")
        }),
      30_000
    )
  })
})
