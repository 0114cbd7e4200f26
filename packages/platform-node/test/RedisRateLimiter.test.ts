import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { execFile, execFileSync, spawn } from "node:child_process"
import { createServer } from "node:net"
import { fileURLToPath } from "node:url"

const hasRedis = (() => {
  try {
    execFileSync("redis-server", ["--version"])
    return true
  } catch {
    return false
  }
})()

const freePort = Effect.async<number>((resume) => {
  const server = createServer()
  server.listen(0, "127.0.0.1", () => {
    const address = server.address()
    const port = typeof address === "object" && address !== null ? address.port : 0
    server.close(() => resume(Effect.succeed(port)))
  })
})

/** A redis-server on loopback for the test's scope. */
const redisServer = Effect.gen(function*() {
  const port = yield* freePort
  yield* Effect.acquireRelease(
    Effect.async<ReturnType<typeof spawn>>((resume) => {
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
      child.stdout?.on("data", (chunk: Buffer) => {
        if (chunk.toString().includes("Ready to accept connections")) resume(Effect.succeed(child))
      })
    }),
    (child) => Effect.sync(() => child.kill())
  )
  return port
})

const worker = fileURLToPath(new URL("./fixtures/redisWorker.ts", import.meta.url))
const tsx = fileURLToPath(new URL("../../../node_modules/.bin/tsx", import.meta.url))

const runWorker = (port: number, takes: number) =>
  Effect.async<ReadonlyArray<number>, Error>((resume) => {
    execFile(tsx, ["--conditions=@bitget-effect/source", worker, String(port), String(takes)], {
      cwd: fileURLToPath(new URL("..", import.meta.url))
    }, (error, stdout, stderr) =>
      resume(
        error
          ? Effect.fail(new Error(`${error.message}\n${stderr}`))
          : Effect.succeed(JSON.parse(stdout) as Array<number>)
      ))
  })

describe("RedisRateLimiter", () => {
  // CI installs redis-server (.ci/run), so there the test always runs
  it.live.skipIf(!hasRedis && process.env.CI !== "true")(
    "keeps two processes sharing one key under the limit together",
    () =>
      Effect.scoped(Effect.gen(function*() {
        const port = yield* redisServer
        const [a, b] = yield* Effect.all([runWorker(port, 10), runWorker(port, 10)], { concurrency: 2 })
        const grants = [...a!, ...b!].sort((x, y) => x - y)
        assert.strictEqual(grants.length, 20)
        // 5 per second between them: no span shorter than a window holds more than 5 grants. Redis
        // grants on its own clock; each process stamps a grant after a round trip on a busy machine, so
        // allow 50 ms of skew (two unshared buckets would allow 10 a second: spans near 500 ms)
        for (let i = 0; i + 5 < grants.length; i++) {
          assert.isAtLeast(grants[i + 5]! - grants[i]!, 950, `grants ${i} and ${i + 5} too close`)
        }
        // and both processes were held back, not just one
        assert.isAbove(a!.at(-1)! - a![0]!, 1000)
        assert.isAbove(b!.at(-1)! - b![0]!, 1000)
      })),
    30_000
  )
})
