/**
 * The processes of a run: a `redis-server` on loopback for the shared store,
 * and the workers that drive the workload (each a child process, started
 * together once all are loaded, stopped together).
 */
import { Effect } from "effect"
import type { Scope } from "effect"
import { type ChildProcess, fork, spawn } from "node:child_process"
import { createServer } from "node:net"
import { fileURLToPath } from "node:url"
import type { Limiter, Target } from "./Workload.js"

/** What the parent tells a worker: first its part, then when to start and stop. */
export type Order =
  | { readonly _tag: "Setup"; readonly limiter: Limiter; readonly target: Target }
  | { readonly _tag: "Go" }
  | { readonly _tag: "Stop" }

/** A free TCP port on loopback. */
const freePort = Effect.callback<number>((resume) => {
  const server = createServer()
  server.listen(0, "127.0.0.1", () => {
    const address = server.address()
    const port = typeof address === "object" && address !== null ? address.port : 0
    server.close(() => resume(Effect.succeed(port)))
  })
})

/** A `redis-server` on loopback (no persistence) for the scope; answers its port. */
export const redisServer: Effect.Effect<number, Error, Scope.Scope> = Effect.gen(function*() {
  const port = yield* freePort
  yield* Effect.acquireRelease(
    Effect.callback<ChildProcess, Error>((resume) => {
      const child = spawn("redis-server", [
        "--port",
        String(port),
        "--bind",
        "127.0.0.1",
        "--save",
        "",
        "--appendonly",
        "no"
      ])
      child.on("error", (error) => resume(Effect.fail(error)))
      child.stdout.on("data", (chunk: Buffer) => {
        if (chunk.toString().includes("Ready to accept connections")) resume(Effect.succeed(child))
      })
    }),
    (child) => Effect.sync(() => child.kill())
  )
  return port
})

const workerModule = fileURLToPath(new URL("./worker.ts", import.meta.url))

/** Waits for a worker's "ready". */
const ready = (child: ChildProcess) =>
  Effect.callback<void, Error>((resume) => {
    child.once("message", () => resume(Effect.void))
    child.once("exit", (code) => resume(Effect.fail(new Error(`a worker exited early (code ${code})`))))
  })

/** Waits for a worker to end. */
const ended = (child: ChildProcess) =>
  Effect.callback<void>((resume) => {
    if (child.exitCode !== null || child.signalCode !== null) return resume(Effect.void)
    child.once("exit", () => resume(Effect.void))
  })

/**
 * Starts `count` workers on `limiter` (with the loader flags of this process,
 * so they run the same sources), waits until all are loaded, then runs
 * `measured` between their start and their stop.
 */
export const workers = <A, E>(
  count: number,
  limiter: Limiter,
  target: Target,
  measured: (go: Effect.Effect<void>) => Effect.Effect<A, E>
): Effect.Effect<A, E | Error, Scope.Scope> =>
  Effect.gen(function*() {
    const children = yield* Effect.acquireRelease(
      Effect.sync(() => Array.from({ length: count }, () => fork(workerModule, [], { stdio: "inherit" }))),
      (children) =>
        Effect.andThen(
          Effect.sync(() => children.forEach((child) => child.connected && child.send({ _tag: "Stop" }))),
          Effect.forEach(children, ended, { discard: true })
        )
    )
    const send = (order: Order) => Effect.sync(() => children.forEach((child) => child.send(order)))
    yield* send({ _tag: "Setup", limiter, target })
    yield* Effect.forEach(children, ready, { concurrency: "unbounded", discard: true })
    return yield* measured(send({ _tag: "Go" }))
  })
