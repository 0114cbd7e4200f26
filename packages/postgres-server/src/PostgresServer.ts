/**
 * A real PostgreSQL server for @bitget-effect/sql's tests and the benchmark:
 * `initdb` into a fresh temporary directory, `postgres` on 127.0.0.1 and a
 * free port with a password for the test role (SCRAM), stopped and its
 * directory removed when the scope closes. As root it runs as the `postgres`
 * user the Debian package creates (the server refuses root). Without
 * PostgreSQL installed it fails saying how to install it (`.ci/run` does).
 */
import type { Scope } from "effect"
import { Effect } from "effect"
import { execFileSync, spawn } from "node:child_process"
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"

/** A running server: where it listens, its superuser and that user's password. */
export interface Server {
  readonly host: string
  readonly port: number
  readonly username: string
  readonly password: string
  /** Milliseconds from `initdb` to the server accepting connections. */
  readonly startMillis: number
}

/** The directory of PostgreSQL's programs (`/usr/lib/postgresql/<major>/bin`, the newest), if installed. */
export const binDir: string | undefined = (() => {
  const root = "/usr/lib/postgresql"
  if (!existsSync(root)) return undefined
  const major = readdirSync(root).filter((name) => /^\d+$/.test(name)).sort((a, b) => Number(b) - Number(a))[0]
  return major === undefined ? undefined : join(root, major, "bin")
})()

/** Whether the tests can start a server; CI installs PostgreSQL (`.ci/run`), so there they always run. */
export const available = binDir !== undefined

/** Why no server can start when `available` is false, and how to fix it. */
export const notInstalled = "PostgreSQL is not installed (no /usr/lib/postgresql/*/bin): apt-get install -y postgresql"

/** The installed server's version as it states it (`postgres (PostgreSQL) 16.9 (...)`), if installed. */
export const version = (): string | undefined =>
  binDir === undefined
    ? undefined
    : execFileSync(join(binDir, "postgres"), ["--version"], { encoding: "utf8", stdio: "pipe" }).trim()

const freePort = Effect.callback<number>((resume) => {
  const server = createServer()
  server.listen(0, "127.0.0.1", () => {
    const address = server.address()
    const port = typeof address === "object" && address !== null ? address.port : 0
    server.close(() => resume(Effect.succeed(port)))
  })
})

/** The ids to run the server as: the `postgres` user when we are root (the server refuses root), else ours. */
const runAs = (): { readonly uid: number; readonly gid: number } | undefined => {
  if (process.getuid?.() !== 0) return undefined
  try {
    return {
      uid: Number(execFileSync("id", ["-u", "postgres"], { stdio: "pipe" })),
      gid: Number(execFileSync("id", ["-g", "postgres"], { stdio: "pipe" }))
    }
  } catch {
    throw new Error("running as root, and there is no postgres user to run the server as (apt-get install postgresql)")
  }
}

/** A program of PostgreSQL's, as the server's user. */
const command = (ids: ReturnType<typeof runAs>, program: string, args: ReadonlyArray<string>) =>
  ids === undefined
    ? { file: join(binDir!, program), args }
    : {
      file: "setpriv",
      args: [`--reuid=${ids.uid}`, `--regid=${ids.gid}`, "--clear-groups", "--", join(binDir!, program), ...args]
    }

/** Starts `postgres` and waits until it accepts connections (its log in the failure if it exits first). */
const startServer = (dir: string, port: number, ids: ReturnType<typeof runAs>) =>
  Effect.callback<ReturnType<typeof spawn>, Error>((resume) => {
    const { args, file } = command(ids, "postgres", [
      "-D",
      join(dir, "data"),
      "-p",
      String(port),
      "-c",
      "listen_addresses=127.0.0.1",
      "-c",
      "unix_socket_directories=",
      "-c",
      "fsync=off",
      "-c",
      "full_page_writes=off"
    ])
    const child = spawn(file, args, { stdio: ["ignore", "ignore", "pipe"], env: { ...process.env, LC_ALL: "C" } })
    let log = ""
    child.stderr?.on("data", (chunk: Buffer) => {
      log += chunk.toString()
      if (log.includes("database system is ready to accept connections")) resume(Effect.succeed(child))
    })
    child.on("exit", (code) => resume(Effect.fail(new Error(`postgres exited (${code}) before it was ready:\n${log}`))))
    return Effect.sync(() => child.kill("SIGKILL"))
  })

/** Stops the server (fast shutdown: open sessions are ended) and waits for it to exit. */
const stopServer = (child: ReturnType<typeof spawn>) =>
  Effect.callback<void>((resume) => {
    if (child.exitCode !== null || child.signalCode !== null) return resume(Effect.void)
    child.on("exit", () => resume(Effect.void))
    child.kill("SIGINT")
  })

/**
 * A PostgreSQL server for the scope: a fresh cluster whose superuser is
 * `bitget`, password `password`, on 127.0.0.1.
 */
export const server: Effect.Effect<Server, Error, Scope.Scope> = Effect.gen(function*() {
  if (binDir === undefined) {
    return yield* Effect.fail(new Error(notInstalled))
  }
  const started = Date.now()
  const ids = runAs()
  const dir = yield* Effect.acquireRelease(
    Effect.sync(() => mkdtempSync(join(tmpdir(), "bitget-sql-pg-"))),
    (dir) => Effect.sync(() => rmSync(dir, { recursive: true, force: true }))
  )
  const password = "password"
  writeFileSync(join(dir, "pwfile"), password)
  if (ids !== undefined) {
    chownSync(dir, ids.uid, ids.gid)
    chownSync(join(dir, "pwfile"), ids.uid, ids.gid)
  }
  const initdb = command(ids, "initdb", [
    "-D",
    join(dir, "data"),
    "--username=bitget",
    `--pwfile=${join(dir, "pwfile")}`,
    "--auth=scram-sha-256",
    "--encoding=UTF8",
    "--locale=C",
    "--no-sync"
  ])
  yield* Effect.try({
    try: () => execFileSync(initdb.file, initdb.args, { stdio: "pipe" }),
    catch: (error) => new Error(`initdb failed: ${String(error)}`)
  })
  const port = yield* freePort
  yield* Effect.acquireRelease(startServer(dir, port, ids), stopServer)
  return { host: "127.0.0.1", port, username: "bitget", password, startMillis: Date.now() - started }
})

/** Creates the empty database `name` on `server`, owned by its superuser (PostgreSQL's `createdb`). */
export const createDatabase = (server: Server, name: string): Effect.Effect<void, Error> =>
  Effect.try({
    try: () => {
      if (binDir === undefined) throw new Error(notInstalled)
      execFileSync(
        join(binDir, "createdb"),
        ["--host", server.host, "--port", String(server.port), "--username", server.username, name],
        { stdio: "pipe", env: { ...process.env, PGPASSWORD: server.password } }
      )
    },
    catch: (error) => new Error(`createdb ${name} failed: ${String(error)}`)
  })
