/**
 * The command line in process: every usage error exits with 2 and a readable
 * message before anything is sent (the sandbox's request log stays empty),
 * how a run's end maps to an exit code, and the help (short, specific, `bitget`
 * in its usage line, coloured only on a terminal without `NO_COLOR`).
 */
import * as UndiciTransport from "@bitget-effect/platform-node/UndiciTransport"
import { Sandbox } from "@bitget-effect/sandbox"
import { assert, describe, it, layer } from "@effect/vitest"
import { Cause, Effect, Exit } from "effect"
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { exitCode, failureLines } from "../src/internal/exit.js"
import { packageVersion } from "../src/internal/packageVersion.js"
import { UsageError } from "../src/internal/usageError.js"
import { inProcess, start } from "./support.js"

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
            version: 2,
            kind: "p2p-orders",
            productType: null,
            format: "csv",
            from: "2025-01-01T00:00:00.000Z",
            to: "2025-01-31T23:59:59.999Z",
            bytes: 3,
            records: 0,
            stream: null
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
          [["export", "tax-records", "--from", "2025-01-01", "--force"], "--force replaces an existing --out FILE"],
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
          const { code, stderr } = yield* inProcess([...args, ...(args.includes("--base-url") ? [] : at)])
          assert.strictEqual(code, 2, `${args.join(" ")}: ${stderr}`)
          assert.include(stderr, message, args.join(" "))
          assert.include(stderr, "bitget export --help", args.join(" "))
        }
        assert.deepStrictEqual(yield* sandbox.requests, [], "nothing was sent")
      }).pipe(Effect.scoped))
  })

  it("maps a run's end to its exit code", () => {
    assert.strictEqual(exitCode(Exit.void, undefined), 0)
    assert.strictEqual(exitCode(Exit.interrupt(0), "SIGINT"), 130)
    assert.strictEqual(exitCode(Exit.failCause(Cause.interrupt(0)), "SIGTERM"), 143)
    assert.strictEqual(exitCode(Exit.fail(new UsageError({ problem: "no" })), undefined), 2)
    assert.strictEqual(exitCode(Exit.fail(new Error("boom")), undefined), 1)
    assert.strictEqual(exitCode(Exit.die("bug"), undefined), 1)
  })

  it.effect("a Node.js older than 22.19: exit 2, one line naming the version, the range and BitgetFetch", () =>
    Effect.gen(function*() {
      const exit = yield* Effect.exit(UndiciTransport.checkNodeVersion({ node: "20.20.2" }))
      assert.strictEqual(exitCode(exit, undefined), 2)
      assert.isTrue(Exit.isFailure(exit))
      if (Exit.isFailure(exit)) {
        const lines = failureLines(exit.cause)
        assert.strictEqual(lines.length, 1, lines.join("\n"))
        assert.match(lines[0] ?? "", /^error: Node\.js 20\.20\.2 is not supported: .*>=22\.19.*BitgetFetch\.layer/)
      }
    }))
})

describe("bitget --version", () => {
  it.live("prints package.json's version, read there (one fact, which a release bumps)", () =>
    Effect.gen(function*() {
      const manifest = JSON.parse(readFileSync(join(import.meta.dirname, "../package.json"), "utf8")) as {
        readonly version: string
      }
      const ran = yield* Effect.scoped(Effect.flatMap(start(["--version"], process.env), (started) => started.ended))
      assert.strictEqual(ran.code, 0, ran.stderr)
      assert.strictEqual(ran.stdout, `bitget v${manifest.version}\n`)
    }), 30_000)

  it("reads the version of the package the script is in: from source, built (ESM, CommonJS) or installed", () => {
    const project = mkdtempSync(join(tmpdir(), "bitget-version-"))
    const cli = "node_modules/@bitget-effect/cli"
    try {
      const files: Record<string, string> = {
        "package.json": JSON.stringify({ name: "a-project", version: "1.0.0" }),
        [`${cli}/package.json`]: JSON.stringify({ name: "@bitget-effect/cli", version: "9.8.7" }),
        // what tshy writes beside each build: the module format, no version
        [`${cli}/dist/esm/package.json`]: JSON.stringify({ type: "module" }),
        [`${cli}/dist/commonjs/package.json`]: JSON.stringify({ type: "commonjs" }),
        [`${cli}/src/bin/bitget.ts`]: "",
        [`${cli}/dist/esm/bin/bitget.js`]: "",
        [`${cli}/dist/commonjs/bin/bitget.js`]: "",
        [`${cli}/bin/bitget.mjs`]: ""
      }
      for (const [path, text] of Object.entries(files)) {
        mkdirSync(dirname(join(project, path)), { recursive: true })
        writeFileSync(join(project, path), text)
      }
      // npm links the bin into the project's node_modules/.bin
      mkdirSync(join(project, "node_modules/.bin"))
      symlinkSync(join(project, cli, "bin/bitget.mjs"), join(project, "node_modules/.bin/bitget"))
      const scripts = ["src/bin/bitget.ts", "dist/esm/bin/bitget.js", "dist/commonjs/bin/bitget.js", "bin/bitget.mjs"]
      for (const script of [...scripts.map((path) => `${cli}/${path}`), "node_modules/.bin/bitget"]) {
        assert.strictEqual(packageVersion(["node", join(project, script)]), "9.8.7", script)
      }
    } finally {
      rmSync(project, { recursive: true, force: true })
    }
  })

  it("passes over a package.json without a version or unreadable, and reads \"unknown\" without a script file", () => {
    const project = mkdtempSync(join(tmpdir(), "bitget-version-"))
    try {
      const files: Record<string, string> = {
        "package.json": JSON.stringify({ name: "a-project", version: "1.2.3" }),
        "dist/package.json": "{",
        "dist/bin/package.json": JSON.stringify({ type: "module" }),
        "dist/bin/bitget.js": ""
      }
      for (const [path, text] of Object.entries(files)) {
        mkdirSync(dirname(join(project, path)), { recursive: true })
        writeFileSync(join(project, path), text)
      }
      assert.strictEqual(packageVersion(["node", join(project, "dist/bin/bitget.js")]), "1.2.3")
      // a bundle run from standard input, or whose file is gone: no throw before the CLI's exit handling
      assert.strictEqual(packageVersion(["node"]), "unknown")
      assert.strictEqual(packageVersion(["node", join(project, "missing.js")]), "unknown")
    } finally {
      rmSync(project, { recursive: true, force: true })
    }
  })
})

/** Runs `effect` with standard output taken for a terminal (as `isTTY` says), or not. */
const withStdoutTerminal = <A, E, R>(terminal: boolean, effect: Effect.Effect<A, E, R>) =>
  Effect.acquireUseRelease(
    Effect.sync(() => {
      const saved = Object.getOwnPropertyDescriptor(process.stdout, "isTTY")
      Object.defineProperty(process.stdout, "isTTY", { value: terminal, configurable: true, writable: true })
      return saved
    }),
    () => effect,
    (saved) =>
      Effect.sync(() =>
        saved === undefined
          ? Reflect.deleteProperty(process.stdout, "isTTY")
          : Object.defineProperty(process.stdout, "isTTY", saved)
      )
  )

const ESC = "\u001b"

describe("bitget --help", () => {
  const helps = [["--help"], ["export", "--help"], ["export", "tax-records", "--help"]] as const

  it.live("is short and specific: `bitget` in the usage line, a description of its own for every option", () =>
    Effect.gen(function*() {
      for (const args of helps) {
        const where = `bitget ${args.join(" ")}`
        const { code, stderr, stdout } = yield* inProcess(args)
        assert.strictEqual(code, 0, `${where}: ${stderr}`)
        assert.strictEqual(stderr, "", where)
        const lines = stdout.trimEnd().split("\n")
        assert.isAtMost(lines.length, 40, where)
        const usage = lines[lines.indexOf("USAGE") + 1]
        assert.match(usage ?? "", args[0] === "export" ? /^ {2}bitget export / : /^ {2}bitget /, where)
        assert.notInclude(stdout, "A user-defined piece of text", where)
        // each option (`  --name …`) is followed by its description
        const options = lines.filter((line) => /^ {2}-/.test(line))
        assert.isNotEmpty(options, where)
        for (const option of options) assert.match(option, /^ {2}-\S.*? {2,}\S/, `${where}: ${option}`)
        if (args[0] === "export") {
          for (
            const flag of ["--from", "--to", "--product-type", "--format", "--out", "--resume", "--force", "--base-url"]
          ) {
            assert.include(stdout, `  ${flag} `, where)
          }
        }
      }
    }))

  it.live("is coloured on a terminal only, and never with NO_COLOR", () =>
    Effect.gen(function*() {
      for (const args of helps) {
        const where = `bitget ${args.join(" ")}`
        const piped = yield* withStdoutTerminal(false, inProcess(args))
        assert.notInclude(piped.stdout, ESC, `${where}, piped`)
        // the control: the same run on a terminal is coloured, so the two below could fail
        const terminal = yield* withStdoutTerminal(true, inProcess(args))
        assert.include(terminal.stdout, ESC, `${where}, on a terminal`)
        for (const NO_COLOR of ["1", "true"]) {
          const noColor = yield* withStdoutTerminal(true, inProcess(args, { NO_COLOR }))
          assert.notInclude(noColor.stdout, ESC, `${where}, on a terminal with NO_COLOR=${NO_COLOR}`)
          assert.strictEqual(noColor.stdout, piped.stdout, where)
        }
      }
    }))
})
