/**
 * Test support: the `bitget` command run in this process or as a subprocess
 * from source against a sandbox, a CSV reader written here (independently of
 * the command's writer), and the comparison of exported rows with the
 * sandbox's dataset.
 */
import type { Sandbox } from "@bitget-effect/sandbox"
import { assert } from "@effect/vitest"
import { BigDecimal, ConfigProvider, Effect } from "effect"
import { type ChildProcess, spawn } from "node:child_process"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { vi } from "vitest"
import * as Cli from "../src/Cli.js"
import { exitCode } from "../src/internal/exit.js"
import { packageVersion } from "../src/internal/packageVersion.js"

const packageDir = fileURLToPath(new URL("..", import.meta.url))

/** The command from source, as the package's script runs it (`npx -y pnpm@10 bitget …`). */
const bin = join(packageDir, "src/bin/bitget.ts")

/** How a run ended and what it printed. */
export interface Ran {
  readonly code: number | null
  readonly signal: NodeJS.Signals | null
  readonly stdout: string
  readonly stderr: string
}

/** The `BITGET_*` variables of a run: the sandbox's URL and HMAC key, no client-side rate limit, then `extra`. */
export const variablesOf = (
  sandbox: Sandbox.Sandbox.Service,
  extra: Readonly<Record<string, string | undefined>> = {}
): Record<string, string | undefined> => {
  const { hmac } = sandbox.credentials
  return {
    BITGET_BASE_URL: sandbox.url,
    BITGET_API_KEY: hmac.apiKey,
    BITGET_API_SECRET: hmac.secret,
    BITGET_API_PASSPHRASE: hmac.passphrase,
    BITGET_RATE_LIMIT: "false",
    ...extra
  }
}

/** This process's environment without its `BITGET_*` variables. */
export const envWithoutBitget = (): NodeJS.ProcessEnv => {
  const env: NodeJS.ProcessEnv = {}
  for (const [name, value] of Object.entries(process.env)) {
    if (!name.startsWith("BITGET_")) env[name] = value
  }
  return env
}

/** The environment of a subprocess: this one's without its `BITGET_*` variables, and `variablesOf`. */
export const envOf = (
  sandbox: Sandbox.Sandbox.Service,
  extra: Readonly<Record<string, string | undefined>> = {}
): NodeJS.ProcessEnv => ({ ...envWithoutBitget(), ...variablesOf(sandbox, extra) })

/**
 * Runs `bitget …` in this process, reading its configuration from `env`
 * alone (none of this process's variables): yields its exit code, what it
 * printed on standard output with `console.log` (help, the version), and
 * everything on standard error (`console.error`, the progress view).
 */
export const inProcess = (
  args: ReadonlyArray<string>,
  env: Readonly<Record<string, string | undefined>> = {}
): Effect.Effect<Ran> => inProcessWith(args, ConfigProvider.fromEnvRecord({ ...env }))

/** `inProcess`, reading its configuration from `provider`. */
export const inProcessWith = (
  args: ReadonlyArray<string>,
  provider: ConfigProvider.ConfigProvider
): Effect.Effect<Ran> =>
  Effect.acquireUseRelease(
    Effect.sync(() => {
      const stdout: Array<string> = []
      const stderr: Array<string> = []
      const line = (into: Array<string>) => (...parts: ReadonlyArray<unknown>) => {
        into.push(`${parts.map(String).join(" ")}\n`)
      }
      const spies = [
        vi.spyOn(console, "log").mockImplementation(line(stdout)),
        vi.spyOn(console, "error").mockImplementation(line(stderr)),
        vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
          stderr.push(String(chunk))
          return true
        })
      ]
      return { stdout, stderr, spies }
    }),
    ({ stderr, stdout }) =>
      Cli.run(["node", bin, ...args], packageVersion(["node", bin])).pipe(
        Effect.provideService(ConfigProvider.ConfigProvider, provider),
        Effect.exit,
        Effect.map((exit): Ran => ({
          code: exitCode(exit, undefined),
          signal: null,
          stdout: stdout.join(""),
          stderr: stderr.join("")
        }))
      ),
    ({ spies }) => Effect.sync(() => spies.forEach((spy) => spy.mockRestore()))
  )

/** The demo key's secrets, none of which may ever be printed. */
export const secretsOf = (sandbox: Sandbox.Sandbox.Service): ReadonlyArray<string> => {
  const { hmac } = sandbox.credentials
  return [hmac.apiKey, hmac.secret, hmac.passphrase]
}

/** A started run: the process, what it has printed on standard output so far, and its end. */
export interface Started {
  readonly child: ChildProcess
  readonly stdout: () => string
  readonly ended: Effect.Effect<Ran>
}

/**
 * Starts a script of this package from source (`args` after it) on `node`
 * (this process's Node.js unless given); the process is killed when the
 * scope closes, if it still runs.
 */
export const startScript = (
  script: string,
  args: ReadonlyArray<string>,
  env: NodeJS.ProcessEnv,
  node: string = process.execPath
) =>
  Effect.acquireRelease(
    Effect.sync((): Started => {
      const child = spawn(
        node,
        ["--conditions=@bitget-effect/source", "--import", "tsx", script, ...args],
        { cwd: packageDir, env, stdio: ["ignore", "pipe", "pipe"] }
      )
      let stdout = ""
      let stderr = ""
      child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()))
      child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()))
      const ended = new Promise<Ran>((resolve) =>
        child.once("close", (code, signal) => resolve({ code, signal, stdout, stderr }))
      )
      return { child, stdout: () => stdout, ended: Effect.promise(() => ended) }
    }),
    ({ child }) => Effect.sync(() => child.exitCode === null && child.signalCode === null && child.kill("SIGKILL"))
  )

/** Starts `bitget …` from source, on `node` (this process's Node.js unless given). */
export const start = (args: ReadonlyArray<string>, env: NodeJS.ProcessEnv, node?: string) =>
  startScript(bin, args, env, node)

/** Runs `bitget …` to its end, checking that no secret was printed. */
export const run = (args: ReadonlyArray<string>, sandbox: Sandbox.Sandbox.Service, extra = {}) =>
  Effect.scoped(Effect.flatMap(start(args, envOf(sandbox, extra)), (started) => started.ended)).pipe(
    Effect.tap((ran) => Effect.sync(() => assertNoSecret(ran, sandbox)))
  )

/** Asserts that neither output holds the API key, the secret or the passphrase. */
export const assertNoSecret = (ran: Ran, sandbox: Sandbox.Sandbox.Service) => {
  for (const secret of secretsOf(sandbox)) {
    assert.notInclude(ran.stdout, secret)
    assert.notInclude(ran.stderr, secret)
  }
}

/** Reads CSV per RFC 4180 (quoted fields may hold commas, doubled quotes and line breaks). */
export const readCsv = (text: string): Array<Array<string>> => {
  const rows: Array<Array<string>> = []
  let row: Array<string> = []
  let field = ""
  let quoted = false
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!
    if (quoted) {
      if (c === "\"" && text[i + 1] === "\"") {
        field += "\""
        i++
      } else if (c === "\"") {
        quoted = false
      } else {
        field += c
      }
    } else if (c === "\"" && field === "") {
      quoted = true
    } else if (c === ",") {
      row.push(field)
      field = ""
    } else if (c === "\n") {
      row.push(field)
      rows.push(row)
      row = []
      field = ""
    } else {
      field += c
    }
  }
  assert.strictEqual(field, "", "the output ends with a line break")
  assert.strictEqual(row.length, 0, "the output ends with a line break")
  return rows
}

/** One exported record: its columns by name (a CSV cell as text, an NDJSON value as parsed). */
export type Row = Readonly<Record<string, unknown>>

/** The records of an export's output, checking the header (CSV) or the keys of every line (NDJSON). */
export const rowsOf = (format: "csv" | "ndjson", text: string, columns: ReadonlyArray<string>): Array<Row> => {
  if (format === "csv") {
    const [header, ...rows] = readCsv(text)
    assert.deepStrictEqual(header, [...columns], "the CSV header names the documented columns")
    return rows.map((cells) => {
      assert.strictEqual(cells.length, columns.length)
      return Object.fromEntries(columns.map((name, i) => [name, cells[i]]))
    })
  }
  const lines = text.split("\n")
  assert.strictEqual(lines.pop(), "", "the output ends with a line break")
  const fields = [...new Set(columns.map((name) => name.split(".")[0]!))]
  return lines.map((line) => {
    const row = JSON.parse(line) as Row
    assert.deepStrictEqual(Object.keys(row), fields, "every NDJSON object has the documented fields, in order")
    // a nested object's fields as the dotted columns of CSV (`null` when the object is)
    return Object.fromEntries(columns.map((name) => [name, wireValue(row, name) ?? null]))
  })
}

/** How a column's exported value relates to the sandbox's wire value. */
export type Kind = "text" | "decimal" | "time" | "enum" | "list"

const fixedPoint = /^-?\d+(\.\d+)?$/

/**
 * Compares an exported cell with the wire value the sandbox serves: `""` as
 * an empty cell or `null`, decimals in fixed point (with the wire's digits
 * when it sent fixed point, else equal in value), times as ISO
 * 8601 UTC, enums ignoring case (the library reads some case-insensitively),
 * lists as JSON.
 */
export const assertCell = (
  format: "csv" | "ndjson",
  kind: Kind,
  wire: unknown,
  exported: unknown,
  where: string
) => {
  if (wire === "" || wire === null || wire === undefined) {
    assert.strictEqual(exported, format === "csv" ? "" : null, `${where}: absent`)
    return
  }
  const list = kind === "list" && format === "csv" ? JSON.parse(exported as string) as unknown : exported
  switch (kind) {
    case "text":
      return assert.strictEqual(exported, wire, where)
    case "enum":
      return assert.strictEqual(String(exported).toLowerCase(), String(wire).toLowerCase(), where)
    case "time":
      return assert.strictEqual(exported, new Date(Number(wire)).toISOString(), where)
    case "decimal":
      assert.match(String(exported), fixedPoint, `${where}: fixed point`)
      // the digits the exchange sent, trailing zeros included
      if (typeof wire === "string" && fixedPoint.test(wire)) return assert.strictEqual(exported, wire, where)
      return assert.isTrue(
        BigDecimal.equals(BigDecimal.fromStringUnsafe(String(exported)), BigDecimal.fromStringUnsafe(String(wire))),
        `${where}: ${String(exported)} = ${String(wire)}`
      )
    case "list":
      return assert.deepStrictEqual(list, wire, where)
  }
}

/** The value at a dotted path (`paymentInfo.paymethodName`) of a wire record. */
export const wireValue = (record: unknown, path: string): unknown =>
  path.split(".").reduce<unknown>(
    (value, key) => (typeof value === "object" && value !== null ? (value as Record<string, unknown>)[key] : undefined),
    record
  )
