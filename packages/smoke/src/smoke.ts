/**
 * The consumer smoke test: what a user gets, tried outside the workspace.
 *
 * 1. The README's user-facing command blocks run as written, line by line,
 *    in a temporary folder where this repository stands in for the clone:
 *    the install route (build and pack the tarballs, `npm init` a project,
 *    `npm install` them with the peer ranges), the Quickstart (its program
 *    saved as `quickstart.ts`, run with tsx against `npx bitget-sandbox`) and
 *    the export (`npx bitget export`); each printed line the README shows
 *    after a command (`# …`) must appear, numbers and times aside;
 * 2. publint and arethetypeswrong on each tarball;
 * 3. starts `bitget-sandbox` from that install;
 * 4. runs an ESM and a CommonJS script, each with a public and a signed call,
 *    on every supported Node line (22.19, the oldest supported, then 24 and
 *    26, each a binary from the npm registry's `node` package), and the
 *    installed `bitget export` command (and its usage-error exit code);
 * 5. type-checks a TypeScript file using the API with its exported types and
 *    error tags, plus every docs example, under strict NodeNext and Bundler
 *    resolution, with TypeScript 5.9 and the current release, `@types/node` 22
 *    and 24, without `skipLibCheck`;
 * 6. runs every docs example program against the sandbox, compiled by the
 *    consumer's `tsc` and run by plain `node`; the Postgres sync example into
 *    a PostgreSQL started for the run (`@bitget-effect/postgres-server`), two
 *    accounts on the sandbox's two HMAC keys (`BITGET_*`, `DESK2_*`), run twice:
 *    each account's rows in the tables are those its first run added, and the
 *    second adds none (without PostgreSQL installed it is skipped, as the Redis
 *    example is without `redis-server`; CI installs both);
 * 7. the installed `bitget sync tax-records` into that database, twice
 *    (`--database`, then `BITGET_DATABASE_URL`): the first run's summary line
 *    counts the rows stored, the second adds none; exit 0 both times;
 * 8. beyond Node: Bun, Deno, miniflare (workerd) and esbuild from the npm
 *    registry, installed into the project; one program (`portable/`) with
 *    `BitgetFetch` run as it is by Node, Bun and Deno, and bundled as a
 *    Cloudflare Worker that workerd runs: the ten operations, a stream, an
 *    HMAC and an RSA key, a 40009, the size cap and the deadline (and limits
 *    in Redis where a TCP client exists), each line compared with the
 *    sandbox's `Dataset`; then `bitget export` and `bitget-sandbox` under Bun.
 *
 * `SMOKE_KEEP=1` keeps the project for a look afterwards.
 */
import * as PostgresServer from "@bitget-effect/postgres-server"
import { Effect, Exit, Scope } from "effect"
import { execFile, spawn } from "node:child_process"
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  unlinkSync,
  writeFileSync
} from "node:fs"
import { createServer as createHttpServer } from "node:http"
import { connect, createServer } from "node:net"
import { tmpdir } from "node:os"
import { delimiter, dirname, join } from "node:path"
import { createInterface } from "node:readline"
import { setTimeout as sleep } from "node:timers/promises"
import { fileURLToPath } from "node:url"
import { manifest, published, root } from "./packages.js"
import type { Line } from "./readme.js"
import { commandBlocks, example } from "./readme.js"

const here = fileURLToPath(new URL("..", import.meta.url))
const bin = (name: string) => join(root, "node_modules/.bin", name)

/**
 * The environment of every command: `node` on the PATH is the binary running
 * this script. The workspace's own `node_modules/.bin/node` is pnpm's shell
 * shim, which does not pass a signal on, so a bin started through it
 * (`#!/usr/bin/env node`) would outlive a SIGTERM, as no user's bin does.
 */
const baseEnv: NodeJS.ProcessEnv = {
  ...process.env,
  PATH: `${dirname(process.execPath)}${delimiter}${process.env.PATH}`
}

/** The peer ranges of the platform, as the packages declare them (and the README's install line repeats). */
const peers = Object.entries(
  Object.fromEntries(published.flatMap((dir) => Object.entries(manifest(dir).peerDependencies ?? {})))
).filter(([name]) => !name.startsWith("@bitget-effect/")).map(([name, range]) => `${name}@${range}`)

/** The OpenTelemetry packages the observability examples use, at the ranges the examples declare. */
const telemetry = Object.entries(manifest(join(root, "packages/examples")).dependencies ?? {})
  .filter(([name]) => name.startsWith("@effect/opentelemetry") || name.startsWith("@opentelemetry/"))
  .map(([name, range]) => `${name}@${range}`)

const compilers = ["typescript@~5.9.3", "typescript@latest"]
const nodeTypes = ["@types/node@^22", "@types/node@^24"]

/**
 * The Node releases a consumer may run: the oldest the packages support
 * (`engines`), and the latest of each newer line. The workspace's own Node
 * (26, which runs this script) is the last.
 */
const nodeReleases = ["node@22.19.0", "node@24"]

/** The other runtimes, and what the worker is bundled and run with: each from the npm registry, into the project. */
const portableTools = ["bun@1", "deno@2", "miniflare@4", "esbuild"]

/** How long the second sandbox holds every answer, in ms: far past the portable programs' deadline (300 ms). */
const slowDelay = 10_000

/** What each portable program checks (portable/checks.ts), for the step names. */
const portableChecks =
  "ten operations, a stream, HMAC and RSA, 40009, the size cap with and without a length, the deadline"

/** The `key=value` fields of a portable line (`runtime=… symbols=400 …`). */
const fieldsOf = (line: string): ReadonlyMap<string, string> =>
  new Map(line.split(" ").map((field) => [field.slice(0, field.indexOf("=")), field.slice(field.indexOf("=") + 1)]))

/**
 * A portable program's output, checked: its line must hold every value of
 * `expected` (the Dataset's line) but the runtime's and those `omitted`, and
 * nothing else. Returns the line and the notes, for the log.
 */
const checkPortable = (out: string, expected: string, omitted: ReadonlyArray<string> = []): string => {
  const printed = out.split("\n").find((line) => line.startsWith("runtime="))
  if (printed === undefined) throw new Error(`no runtime= line:\n${out}`)
  const got = fieldsOf(printed)
  const want = [...fieldsOf(expected)].filter(([key]) => key !== "runtime" && !omitted.includes(key))
  const wrong = [
    ...want.flatMap(([key, value]) =>
      got.get(key) === value ? [] : [`${key}: printed ${got.get(key) ?? "nothing"}, expected ${value}`]
    ),
    ...[...got.keys()].flatMap((key) =>
      key === "runtime" || want.some(([name]) => name === key) ? [] : [`${key}: printed, not expected`]
    )
  ]
  if (wrong.length > 0) throw new Error(`${wrong.join("\n")}\n${out}`)
  return out.split("\n").filter((line) => line.startsWith("runtime=") || line.startsWith("note ")).join("\n")
}

/** Prints what a step found under its `ok` line, indented. */
const report = (text: string | undefined) => {
  if (text !== undefined) console.log(text.split("\n").map((line) => `      ${line}`).join("\n"))
}

/** Runs a command to its end; fails with its output. */
const run = (
  command: string,
  args: ReadonlyArray<string>,
  options: { readonly cwd: string; readonly env?: NodeJS.ProcessEnv }
) =>
  new Promise<string>((resolve, reject) => {
    execFile(
      command,
      args,
      { cwd: options.cwd, env: { ...baseEnv, ...options.env }, maxBuffer: 64 * 1024 * 1024, timeout: 10 * 60_000 },
      (error, stdout, stderr) =>
        error === null
          ? resolve(stdout)
          : reject(
            new Error(`${command} ${args.join(" ")} failed (${error.code ?? error.signal}):\n${stdout}\n${stderr}`)
          )
    )
  })

/** How a command ended: its exit code and what it printed. */
interface Outcome {
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
}

/** Runs a command to its end, whatever its exit code. */
const outcome = (
  command: string,
  args: ReadonlyArray<string>,
  options: { readonly cwd: string; readonly env?: NodeJS.ProcessEnv }
) =>
  new Promise<Outcome>((resolve) => {
    execFile(
      command,
      args,
      { cwd: options.cwd, env: { ...baseEnv, ...options.env }, timeout: 5 * 60_000 },
      (error, stdout, stderr) =>
        resolve({ code: error === null ? 0 : typeof error.code === "number" ? error.code : null, stdout, stderr })
    )
  })

let failures = 0

/** Runs one named step, printing its outcome and time. */
const step = async <A>(name: string, body: () => Promise<A>): Promise<A | undefined> => {
  const started = Date.now()
  try {
    const result = await body()
    console.log(`ok    ${name} (${((Date.now() - started) / 1000).toFixed(1)} s)`)
    return result
  } catch (error) {
    failures++
    console.log(`FAIL  ${name}\n${error instanceof Error ? error.message : String(error)}`)
    return undefined
  }
}

/** A free TCP port on loopback. */
const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const address = server.address()
      server.close(() => resolve(typeof address === "object" && address !== null ? address.port : 0))
    })
  })

/** Starts a long-running process and resolves with it once `ready` holds for its output. */
const start = (command: string, args: ReadonlyArray<string>, cwd: string, ready: (line: string) => boolean) =>
  new Promise<{ readonly line: string; readonly stop: () => void }>((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: baseEnv, stdio: ["ignore", "pipe", "pipe"] })
    let err = ""
    child.stderr.on("data", (chunk: Buffer) => (err += chunk.toString()))
    child.once("error", reject)
    child.once("exit", (code) => reject(new Error(`${command} exited with ${code}: ${err}`)))
    createInterface({ input: child.stdout }).on("line", (line) => {
      if (ready(line)) resolve({ line, stop: () => child.kill("SIGTERM") })
    })
  })

/** `true` while something accepts connections on the loopback port. */
const listening = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, "127.0.0.1")
    socket.once("connect", () => (socket.destroy(), resolve(true)))
    socket.once("error", () => resolve(false))
  })

/** Waits up to `seconds` for the port to be `open` (or closed). */
const awaitPort = async (port: number, open: boolean, seconds: number) => {
  for (let waited = 0; waited < seconds * 4; waited++) {
    if (await listening(port) === open) return
    await sleep(250)
  }
  throw new Error(`port ${port} is still ${open ? "closed" : "open"} after ${seconds} s`)
}

/** Starts a README line meant for a second terminal, in its own process group; resolves with its stop once its port is open. */
const startBackground = async (line: Extract<Line, { _tag: "Background" }>, cwd: string) => {
  if (await listening(line.port)) throw new Error(`port ${line.port} is taken, and the README's line needs it`)
  const child = spawn("bash", ["-c", `exec ${line.command}`], {
    cwd,
    env: baseEnv,
    detached: true,
    stdio: ["ignore", "ignore", "pipe"]
  })
  let err = ""
  child.stderr.on("data", (chunk: Buffer) => (err += chunk.toString()))
  const stop = async () => {
    if (child.exitCode === null) process.kill(-child.pid!, "SIGTERM")
    await awaitPort(line.port, false, 10)
  }
  try {
    await awaitPort(line.port, true, 60)
  } catch (error) {
    await stop()
    throw new Error(`${line.command}: ${error instanceof Error ? error.message : error}\n${err}`)
  }
  return stop
}

/**
 * Runs a README command block line by line from `cwd`, each line a step: a
 * command in bash (its output, standard error included, is what the next
 * `# …` line must match), a second-terminal command in the background until
 * the block ends. Stops at the first failure; resolves with the folder the
 * block's commands left it in.
 */
const runBlock = async (name: string, lines: ReadonlyArray<Line>, from: string): Promise<string> => {
  const stopping: Array<() => Promise<void>> = []
  let cwd = from
  let output = ""
  try {
    for (const line of lines) {
      if (line._tag === "Skip") {
        console.log(`skip  ${name}: ${line.command}: ${line.why}`)
        continue
      }
      const done = await step(
        `${name}: ${line._tag === "Expect" ? `prints "${line.text}"` : line.command}`,
        async () => {
          switch (line._tag) {
            case "Background":
              return stopping.push(await startBackground(line, cwd))
            case "Run": {
              const out = await run("bash", ["-c", `set -e\n{ ${line.command}\n} 2>&1\necho "::cwd::$PWD"`], { cwd })
              const marker = out.lastIndexOf("::cwd::")
              cwd = out.slice(marker + 7).trim()
              output = out.slice(0, marker)
              return true
            }
            case "Expect":
              if (!line.pattern.test(output)) throw new Error(`the output has no line like "${line.text}":\n${output}`)
              return true
          }
        }
      )
      if (done === undefined) break
    }
  } finally {
    for (const stop of stopping) await stop()
  }
  return cwd
}

/** The folder the README's commands start in: the repository under test is linked there as the clone. */
const workdir = mkdtempSync(join(tmpdir(), "bitget-effect-smoke-"))
symlinkSync(root, join(workdir, "bitget-effect"))
const readme = readFileSync(join(root, "README.md"), "utf8")
/** What the run started, each stopped at the end (a server's scope closed, its files removed). */
const stops: Array<() => unknown> = []

let project = join(workdir, "my-app")
try {
  const [install = [], quickstart = [], exported = []] = commandBlocks(readme, "consumer")
  await step("the README's install lines name the packages' peer ranges", async () => {
    const missing = peers.filter((peer) => !install.some((line) => line._tag === "Run" && line.command.includes(peer)))
    if (missing.length > 0 || peers.length === 0) throw new Error(`not in the README's install lines: ${missing}`)
  })
  project = await runBlock("README install", install, workdir)
  console.log(`consumer project: ${project}`)
  const packed = readdirSync(join(root, "tarballs")).map((file) => join(root, "tarballs", file))

  writeFileSync(join(project, "quickstart.ts"), example(readme, "packages/examples/src/quickstart.ts"))
  await runBlock("README Quickstart", quickstart, project)
  await runBlock("README export", exported, project)
  await step("README export: tax-records.csv holds every record the summary counts", async () => {
    const lines = readFileSync(join(project, "tax-records.csv"), "utf8").trimEnd().split("\n")
    if (lines[0] !== "id,coin,spotTaxType,amount,fee,balance,ts,bizOrderId" || lines.length !== 20_001) {
      throw new Error(`tax-records.csv: ${lines.length} lines, starting ${lines.slice(0, 2).join("\n")}`)
    }
  })

  for (const tarball of packed) {
    const size = (readFileSync(tarball).length / 1024).toFixed(1)
    await step(`publint ${tarball.split("/").at(-1)} (${size} KiB)`, async () => {
      const out = await run(bin("publint"), ["run", tarball, "--strict", "--level", "suggestion"], { cwd: project })
      if (!out.includes("All good!")) throw new Error(out)
    })
    await step(
      `attw ${tarball.split("/").at(-1)}`,
      () => run(bin("attw"), [tarball, "--format", "table-flipped"], { cwd: project })
    )
  }

  await step(`the rest as ES modules, with ${[...telemetry, compilers[0], nodeTypes[0]].join(" ")}`, async () => {
    cpSync(join(here, "fixtures"), project, { recursive: true })
    cpSync(join(root, "packages/examples/src"), join(project, "examples"), { recursive: true })
    await run("npm", ["pkg", "set", "type=module"], { cwd: project })
    await run("npm", [
      "install",
      "--no-audit",
      "--no-fund",
      "--loglevel=error",
      ...telemetry,
      compilers[0]!,
      nodeTypes[0]!
    ], { cwd: project })
  })

  await runBlock(
    "docs/testing.md",
    commandBlocks(readFileSync(join(root, "docs/testing.md"), "utf8"), "testing").flat(),
    project
  )
  await step("docs/testing.md: its mock tests pass under the consumer's vitest", async () => {
    mkdirSync(join(project, "test"))
    for (const test of ["mock.test.ts", "mock-stream.test.ts"]) {
      cpSync(join(root, "packages/examples/test", test), join(project, "test", test))
    }
    const out = await run(join(project, "node_modules/.bin/vitest"), ["run", "test", "--reporter=dot"], {
      cwd: project
    })
    if (!/Tests +3 passed \(3\)/.test(out.replace(/\u001b\[[\d;]*m/g, ""))) throw new Error(out)
  })

  // its RSA demo key in a file too, for the sandbox started under Bun to hold the same key
  const rsaKeyFile = join(project, "sandbox-rsa.pem")
  const sandbox = await step("start bitget-sandbox from the install", async () => {
    const started = await start(
      join(project, "node_modules/.bin/bitget-sandbox"),
      ["--port", "0", "--json", "--print-rsa-key", "--rsa-key-out", rsaKeyFile],
      project,
      (line) => line.startsWith("{")
    )
    stops.push(started.stop)
    return JSON.parse(started.line) as {
      readonly url: string
      readonly seed: number
      readonly anchor: number
      readonly credentials: {
        readonly hmac: { readonly apiKey: string; readonly secret: string; readonly passphrase: string }
        readonly marketMaker: { readonly apiKey: string; readonly secret: string; readonly passphrase: string }
        readonly rsa: { readonly apiKey: string; readonly privateKeyPem: string }
      }
    }
  })
  const env: NodeJS.ProcessEnv = sandbox === undefined ? {} : {
    BITGET_BASE_URL: sandbox.url,
    BITGET_API_KEY: sandbox.credentials.hmac.apiKey,
    BITGET_API_SECRET: sandbox.credentials.hmac.secret,
    BITGET_API_PASSPHRASE: sandbox.credentials.hmac.passphrase
  }
  /** The sync example's accounts: "main" on the BITGET_* key above, "desk-2" on the sandbox's other HMAC key. */
  const syncAccounts = ["main", "desk-2"] as const
  const desk2: NodeJS.ProcessEnv = sandbox === undefined ? {} : {
    DESK2_BASE_URL: sandbox.url,
    DESK2_API_KEY: sandbox.credentials.marketMaker.apiKey,
    DESK2_API_SECRET: sandbox.credentials.marketMaker.secret,
    DESK2_API_PASSPHRASE: sandbox.credentials.marketMaker.passphrase
  }

  const nodes: Array<readonly [string, string]> = []
  for (const release of nodeReleases) {
    const binary = await step(`npm install ${release} (a Node binary from the registry)`, async () => {
      const prefix = join(project, "runtimes", release)
      mkdirSync(prefix, { recursive: true })
      await run("npm", ["install", "--prefix", prefix, "--no-audit", "--no-fund", "--loglevel=error", release], {
        cwd: project
      })
      return join(prefix, "node_modules/.bin/node")
    })
    if (binary !== undefined) nodes.push([binary, release])
  }
  nodes.push([process.execPath, `node@${process.versions.node}`])

  for (const [node, release] of nodes) {
    for (const script of ["esm.mjs", "cjs.cjs"]) {
      await step(`${release} ${script}: a public and a signed call`, async () => {
        const out = await run(node, [script], { cwd: project, env })
        if (!/symbols=1 taxRecords=\d+/.test(out)) throw new Error(`unexpected output: ${out}`)
      })
    }
  }

  await step("node@20 (older than supported): BitgetNode and bitget end with one readable line", async () => {
    const prefix = join(project, "runtimes", "node@20")
    mkdirSync(prefix, { recursive: true })
    await run("npm", ["install", "--prefix", prefix, "--no-audit", "--no-fund", "--loglevel=error", "node@20"], {
      cwd: project
    })
    const node20 = join(prefix, "node_modules/.bin/node")
    const version = (await run(node20, ["--version"], { cwd: project })).trim().slice(1)
    const oneLine = (what: string, outcome: Outcome, code: number) => {
      const lines = outcome.stderr.trimEnd().split("\n")
      const line = lines[0] ?? ""
      if (
        outcome.code !== code || lines.length !== 1 || !["22.19", version, "BitgetFetch"].every((w) => line.includes(w))
      ) {
        throw new Error(`${what}: exit ${outcome.code} (expected ${code}), stderr:\n${outcome.stderr}`)
      }
    }
    oneLine("old-node.mjs", await outcome(node20, ["old-node.mjs"], { cwd: project, env }), 1)
    const onPath = { ...env, PATH: `${dirname(node20)}${delimiter}${baseEnv.PATH}` }
    const bitget = join(project, "node_modules/.bin/bitget")
    const exportArgs = ["export", "tax-records", "--from", "2025-01-01"]
    oneLine("bitget export", await outcome(bitget, exportArgs, { cwd: project, env: onPath }), 2)
  })

  await step("bitget export --out: a finished file is replaced only with --force", async () => {
    const bitget = join(project, "node_modules/.bin/bitget")
    const from = new Date(Date.now() - 2 * 86_400_000).toISOString()
    const args = ["export", "tax-records", "--from", from, "--out", "out-twice.csv", "--quiet"]
    await run(bitget, args, { cwd: project, env })
    const first = readFileSync(join(project, "out-twice.csv"), "utf8")
    const again = await outcome(bitget, args, { cwd: project, env })
    if (again.code !== 2 || !again.stderr.includes("--force")) {
      throw new Error(`a second run without --force: exit ${again.code}, stderr:\n${again.stderr}`)
    }
    if (readFileSync(join(project, "out-twice.csv"), "utf8") !== first) throw new Error("the file was changed")
    await run(bitget, [...args, "--force"], { cwd: project, env })
  })

  /** `bitget export tax-records` of the last 30 days as CSV, run by `command` (with `args` before `export`). */
  const exportCsv = async (command: string, args: ReadonlyArray<string>) => {
    const from = new Date(Date.now() - 30 * 86_400_000).toISOString()
    const out = await run(command, [...args, "export", "tax-records", "--from", from, "--format", "csv", "--quiet"], {
      cwd: project,
      env
    })
    const lines = out.split("\n")
    if (lines[0] !== "id,coin,spotTaxType,amount,fee,balance,ts,bizOrderId" || lines.length < 100) {
      throw new Error(`unexpected output: ${lines.slice(0, 3).join("\n")}`)
    }
  }
  await step(
    "bitget export tax-records from the install (the CLI), 30 days as CSV",
    () => exportCsv(join(project, "node_modules/.bin/bitget"), [])
  )

  await step("bitget: a usage error exits with 2, before anything is sent", async () => {
    const args = ["export", "tax-records", "--from", "2025-02-01", "--to", "2025-01-01"]
    const { code } = await outcome(join(project, "node_modules/.bin/bitget"), args, { cwd: project, env })
    if (code !== 2) throw new Error(`exit code ${code}, expected 2`)
  })

  for (const compiler of compilers) {
    for (const types of nodeTypes) {
      await step(`tsc (${compiler}, ${types}) strict NodeNext and Bundler, no skipLibCheck`, async () => {
        await run("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error", "--save-dev", compiler, types], {
          cwd: project
        })
        await run(join(project, "node_modules/.bin/tsc"), ["-p", "tsconfig.nodenext.json", "--noEmit"], {
          cwd: project
        })
        await run(join(project, "node_modules/.bin/tsc"), ["-p", "tsconfig.bundler.json"], { cwd: project })
      })
    }
  }

  await step(
    "compile the docs examples with the consumer's tsc (NodeNext)",
    () => run(join(project, "node_modules/.bin/tsc"), ["-p", "tsconfig.nodenext.json"], { cwd: project })
  )

  const redisPort = await freePort()
  const redis = existsSync("/usr/bin/redis-server") || process.env.CI === "true"
    ? await step("start redis-server for the shared rate-limiter example", async () => {
      const started = await start(
        "redis-server",
        ["--port", String(redisPort), "--bind", "127.0.0.1", "--save", ""],
        project,
        (line) => line.includes("Ready to accept connections")
      )
      stops.push(started.stop)
      return started
    })
    : undefined

  // a PostgreSQL of packages/postgres-server (initdb into a temporary folder) for the sync example and `bitget sync`
  const postgres = PostgresServer.available || process.env.CI === "true"
    ? await step(
      `start PostgreSQL (${PostgresServer.version() ?? "not installed"}) for the sync example and bitget sync`,
      async () => {
        const scope = Effect.runSync(Scope.make())
        stops.push(() => Effect.runPromise(Scope.close(scope, Exit.void)))
        const server = await Effect.runPromise(Scope.provide(PostgresServer.server, scope))
        await Effect.runPromise(PostgresServer.createDatabase(server, "ledger"))
        const url = `postgres://${server.username}:${server.password}@${server.host}:${server.port}/ledger`
        /** A table's rows per account, as psql counts them. */
        const rows = async (table: string): Promise<ReadonlyMap<string, number>> => {
          const sql = `SELECT account, count(*) FROM ${table} GROUP BY 1`
          const out = await run(join(PostgresServer.binDir!, "psql"), [url, "-At", "-F", " ", "-c", sql], {
            cwd: project
          })
          return new Map(
            out.trim().split("\n").filter((line) => line !== "").map((line) => {
              const [account = "", count] = line.split(" ")
              return [account, Number(count)] as const
            })
          )
        }
        return { url, password: server.password, rows }
      }
    )
    : undefined
  const syncEnv: NodeJS.ProcessEnv = postgres === undefined ? {} : { ...desk2, DATABASE_URL: postgres.url }

  /** The tables the sync example writes, by the stream its summary lines name. */
  const syncTables = { "tax-records": "bitget_tax_records", "p2p-orders": "bitget_p2p_orders" } as const

  /**
   * A run of the sync example, checked: one summary line per account and stream
   * (`main tax-records: 19999 added, 0 updated, 0 unchanged (first)`), each in
   * `mode`, with `added(stored)` rows added, where `stored` is the number of the
   * account's rows in the stream's table after the run (`> 0`). Returns the
   * lines and the rows stored.
   */
  const checkSync = async (out: string, mode: string, added: (stored: number) => number) => {
    const lines = [
      ...out.matchAll(/(\S+) (tax-records|p2p-orders): (\d+) added, \d+ updated, \d+ unchanged \((\w+)\)/g)
    ]
    const stored = new Map<string, number>()
    const wrong: Array<string> = []
    for (const [stream, table] of Object.entries(syncTables)) {
      const rows = await postgres!.rows(table)
      for (const account of syncAccounts) {
        const count = rows.get(account) ?? 0
        stored.set(`${account} ${stream}`, count)
        const line = lines.find(([, a, s]) => a === account && s === stream)
        if (line === undefined || line[4] !== mode || Number(line[3]) !== added(count) || count === 0) {
          wrong.push(
            `${line?.[0] ?? `no line for ${account} ${stream}`}: expected ${mode}, ${
              added(count)
            } added, ${count} rows of ${account} in ${table}`
          )
        }
      }
    }
    if (wrong.length > 0 || lines.length !== 4) throw new Error(`${wrong.join("\n")}\n${out}`)
    return { lines: lines.map(([line]) => line).join("\n"), stored }
  }

  // an OTLP collector for otel-otlp that takes every export (the docs check looks at what one receives)
  const collector = await new Promise<{ readonly url: string }>((resolve) => {
    const server = createHttpServer((request, response) => {
      request.resume()
      request.on("end", () => response.writeHead(200, { "content-type": "application/json" }).end("{}"))
    }).listen(0, "127.0.0.1", () => {
      const address = server.address()
      resolve({ url: `http://127.0.0.1:${typeof address === "object" && address !== null ? address.port : 0}` })
    })
    stops.push(() => server.close())
  })

  for (const example of readdirSync(join(project, "examples")).filter((file) => file.endsWith(".ts"))) {
    const name = example.replace(/\.ts$/, "")
    if (name === "redis-rate-limiter" && redis === undefined) {
      console.log(`skip  examples/${example}: no redis-server on this machine (CI installs one)`)
      continue
    }
    if (name === "sync-postgres" && postgres === undefined) {
      console.log(`skip  examples/${example}: PostgreSQL is not installed on this machine (CI installs it)`)
      continue
    }
    const exampleEnv = { ...env, ...syncEnv, REDIS_PORT: String(redisPort), OTEL_EXPORTER_OTLP_ENDPOINT: collector.url }
    const runExample = () =>
      run(process.execPath, [join("out/examples", `${name}.js`)], { cwd: project, env: exampleEnv })
    if (name === "sync-postgres") {
      // two accounts (the sandbox's two HMAC keys), a year of records each, into Postgres; then again
      const first = await step(
        `node examples/${name}.js against the sandbox and PostgreSQL: two accounts, each row added stored`,
        async () => checkSync(await runExample(), "first", (stored) => stored)
      )
      report(first?.lines)
      if (first !== undefined) {
        report(
          await step(`node examples/${name}.js again: incremental, 0 added, the same rows stored`, async () => {
            const again = await checkSync(await runExample(), "incremental", () => 0)
            const changed = [...again.stored].filter(([key, count]) => first.stored.get(key) !== count)
            if (changed.length > 0) {
              throw new Error(`rows changed: ${changed} (after the first run: ${[...first.stored]})`)
            }
            return [again.lines, ...[...again.stored].map(([key, count]) => `${key}: ${count} rows stored`)].join("\n")
          })
        )
      }
      continue
    }
    await step(`node examples/${name}.js against the sandbox`, async () => {
      const out = await runExample()
      if (name === "export-csv") {
        const csv = readFileSync(join(project, "tax-records.csv"), "utf8").split("\n")
        if (csv[0] !== "id,coin,spotTaxType,amount,fee,balance,ts" || csv.length < 100) {
          throw new Error(`tax-records.csv: ${csv.slice(0, 3)}`)
        }
      }
      return out
    })
  }

  // the installed `bitget sync`: the last 30 days of the BITGET_* account (key-<hash>), then again from what is stored
  if (postgres === undefined) console.log("skip  bitget sync tax-records: PostgreSQL is not installed on this machine")
  else {
    const bitget = join(project, "node_modules/.bin/bitget")
    const from = new Date(Date.now() - 30 * 86_400_000).toISOString()
    /** A `bitget sync tax-records` run: exit 0, one summary line on stdout, then the account's rows in the table. */
    const sync = async (args: ReadonlyArray<string>, extraEnv: NodeJS.ProcessEnv) => {
      const out = await run(bitget, ["sync", "tax-records", "--from", from, "--quiet", ...args], {
        cwd: project,
        env: { ...env, ...extraEnv }
      })
      const line = out.trimEnd()
      const found = /^tax-records of (\S+): ([\d,]+) rows? added, .* \((first run|incremental)\) into (\S+)$/.exec(line)
      if (found === null || line.includes("\n")) throw new Error(`not one summary line on stdout:\n${out}`)
      const [, account = "", added = "", mode = "", into = ""] = found
      if (into.includes(postgres.password)) throw new Error(`the summary line shows the password: ${line}`)
      const stored = (await postgres.rows("bitget_tax_records")).get(account) ?? 0
      return { line, account, added: Number(added.replaceAll(",", "")), mode, stored }
    }
    const first = await step(
      "bitget sync tax-records --database URL (the install's CLI): rows added and stored",
      async () => {
        const synced = await sync(["--database", postgres.url], {})
        if (synced.mode !== "first run" || synced.added === 0 || synced.stored !== synced.added) {
          throw new Error(`${synced.line}\n${synced.stored} rows of ${synced.account} stored`)
        }
        return synced
      }
    )
    report(first?.line)
    if (first !== undefined) {
      report(
        await step(
          "bitget sync tax-records again (BITGET_DATABASE_URL): 0 rows added, the same rows stored",
          async () => {
            const again = await sync([], { BITGET_DATABASE_URL: postgres.url })
            if (again.mode !== "incremental" || again.added !== 0 || again.stored !== first.stored) {
              throw new Error(`${again.line}\n${again.stored} rows of ${again.account} stored, ${first.stored} before`)
            }
            return `${again.line}\n${again.account}: ${again.stored} rows stored`
          }
        )
      )
    }
  }

  // beyond Node: one program with BitgetFetch under Node, Bun and Deno, and as a Cloudflare Worker in workerd
  const projectBin = (name: string) => join(project, "node_modules/.bin", name)
  const tools = await step(
    `npm install ${portableTools.join(" ")} into the project (Bun, Deno and workerd: binaries from the registry)`,
    async () => {
      await run("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error", "--save-dev", ...portableTools], {
        cwd: project
      })
      const version = async (name: string, pattern: RegExp) => {
        const out = await run(projectBin(name), ["--version"], { cwd: project })
        const found = pattern.exec(out)?.[1]
        if (found === undefined) throw new Error(`${name} --version printed ${out}`)
        return found
      }
      const miniflare = JSON.parse(readFileSync(join(project, "node_modules/miniflare/package.json"), "utf8")) as {
        readonly version: string
      }
      return {
        bun: await version("bun", /^(\S+)/),
        deno: await version("deno", /^deno (\S+)/),
        miniflare: miniflare.version
      }
    }
  )
  await step(
    "tsc: the portable programs type-check (strict, Bundler)",
    () => run(join(project, "node_modules/.bin/tsc"), ["-p", "tsconfig.portable.json"], { cwd: project })
  )
  const slow = await step(
    `start a second bitget-sandbox that holds every answer (--fault '*=delay:${slowDelay}@forever'), for the deadline`,
    async () => {
      const started = await start(
        join(project, "node_modules/.bin/bitget-sandbox"),
        ["--port", "0", "--json", "--fault", `*=delay:${slowDelay}@forever`],
        project,
        (line) => line.startsWith("{")
      )
      stops.push(started.stop)
      return (JSON.parse(started.line) as { readonly url: string }).url
    }
  )
  // an answer past any small cap that declares no length and never ends: a transport that read to the end would hang
  const endless = await new Promise<string>((resolve) => {
    const server = createHttpServer((request, response) => {
      request.resume()
      response.writeHead(200, { "content-type": "application/json" })
      response.write(`{"code":"00000","msg":"success","requestTime":0,"data":[${"{},".repeat(4096)}`)
    }).listen(0, "127.0.0.1", () => {
      const address = server.address()
      resolve(`http://127.0.0.1:${typeof address === "object" && address !== null ? address.port : 0}`)
    })
    stops.push(() => (server.closeAllConnections(), server.close()))
  })
  if (redis === undefined) console.log("skip  limits in Redis under each runtime: no redis-server on this machine")
  if (tools !== undefined && sandbox !== undefined && slow !== undefined) {
    const portableEnv: NodeJS.ProcessEnv = {
      ...env,
      PORTABLE_SEED: String(sandbox.seed),
      PORTABLE_ANCHOR: String(sandbox.anchor),
      PORTABLE_RSA_API_KEY: sandbox.credentials.rsa.apiKey,
      PORTABLE_RSA_PRIVATE_KEY: sandbox.credentials.rsa.privateKeyPem,
      PORTABLE_MAKER_API_KEY: sandbox.credentials.marketMaker.apiKey,
      PORTABLE_MAKER_SECRET: sandbox.credentials.marketMaker.secret,
      PORTABLE_SLOW_URL: slow,
      PORTABLE_ENDLESS_URL: endless,
      ...(redis === undefined ? {} : { REDIS_PORT: String(redisPort) })
    }
    const checked = `${portableChecks}${redis === undefined ? "" : ", limits in Redis"}`
    const expected = await step(
      "the sandbox's Dataset: what every runtime must print (node portable/expected.ts)",
      async () => (await run(process.execPath, ["portable/expected.ts"], { cwd: project, env: portableEnv })).trim()
    )
    report(expected)
    if (expected !== undefined) {
      const programs: ReadonlyArray<readonly [string, string, ReadonlyArray<string>]> = [
        [`node ${process.versions.node}`, process.execPath, ["portable/program.ts"]],
        [`bun ${tools.bun}`, projectBin("bun"), ["portable/program.ts"]],
        [`deno ${tools.deno}`, projectBin("deno"), [
          "run",
          "--allow-net=127.0.0.1",
          "--allow-env",
          "portable/program.ts"
        ]]
      ]
      for (const [runtime, command, args] of programs) {
        const name = [command.split("/").at(-1), ...args].join(" ")
        report(
          await step(
            `${runtime}: ${name}, BitgetFetch from the tarballs (${checked}), as the Dataset holds`,
            async () => checkPortable(await run(command, args, { cwd: project, env: portableEnv }), expected)
          )
        )
      }

      const workerd = `workerd (miniflare ${tools.miniflare})`
      const bundled = await step(
        `${workerd}: esbuild bundles portable/worker.ts from the tarballs (ESM, no nodejs_compat)`,
        async () => {
          await run(projectBin("esbuild"), [
            "portable/worker.ts",
            "--bundle",
            "--format=esm",
            "--platform=neutral",
            "--main-fields=module,main",
            "--outfile=portable/worker.js",
            "--log-level=warning"
          ], { cwd: project })
          return `portable/worker.js: ${(statSync(join(project, "portable/worker.js")).size / 1024).toFixed(0)} KiB`
        }
      )
      report(bundled)
      if (bundled !== undefined) {
        report(
          await step(
            `${workerd}: the worker, configured from its bindings, against the sandbox on 127.0.0.1 (${portableChecks}), as the Dataset holds`,
            async () =>
              checkPortable(
                await run(process.execPath, ["portable/workerd.ts"], { cwd: project, env: portableEnv }),
                expected,
                [
                  "redis"
                ]
              )
          )
        )
      }

      // the bins under Bun (`--bun`: plain bunx starts a `#!/usr/bin/env node` bin with the node on the PATH)
      await step(
        `bun ${tools.bun}: bunx --bun bitget export tax-records (the CLI under Bun, through BitgetFetch), 30 days as CSV`,
        () => exportCsv(projectBin("bunx"), ["--bun", "bitget"])
      )
      report(
        await step(
          `bun ${tools.bun}: bunx --bun bitget-sandbox (the same anchor and RSA key) serves node portable/program.ts as the Dataset holds`,
          async () => {
            const started = await start(
              projectBin("bunx"),
              [
                "--bun",
                "bitget-sandbox",
                "--port",
                "0",
                "--json",
                "--anchor",
                String(sandbox.anchor),
                "--rsa-key",
                rsaKeyFile
              ],
              project,
              (line) => line.startsWith("{")
            )
            try {
              const url = (JSON.parse(started.line) as { readonly url: string }).url
              const out = await run(process.execPath, ["portable/program.ts"], {
                cwd: project,
                env: { ...portableEnv, BITGET_BASE_URL: url }
              })
              return checkPortable(out, expected)
            } finally {
              started.stop()
            }
          }
        )
      )
    }
  }
} finally {
  for (const stop of stops) await stop()
  // the link first, so that nothing can follow it into the repository
  unlinkSync(join(workdir, "bitget-effect"))
  if (process.env.SMOKE_KEEP === "1") console.log(`kept ${workdir}`)
  else rmSync(workdir, { recursive: true, force: true })
}

console.log(failures === 0 ? "smoke: all steps passed" : `smoke: ${failures} step(s) failed`)
process.exitCode = failures === 0 ? 0 : 1
