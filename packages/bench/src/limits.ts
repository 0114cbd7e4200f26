/**
 * Mixed-workload rate-limit benchmark: four endpoints driven in parallel
 * against the sandbox with its real limits, each under more pressure than its
 * limit lets through, by worker processes on one API key. Prints, per
 * endpoint and limiter, how close the calls came to the allowed rate and the
 * 429s.
 *
 *   pnpm bench:limits                                 ours and ccxt, one process each
 *   pnpm bench:limits --processes 4                   ours, 4 processes sharing one Redis store
 *   pnpm bench:limits --limiters ours,effect-window,effect-bucket --rounds 3
 *
 * Options: `--processes N` (default 1), `--limiters` (any of ours, effect-window,
 * effect-bucket, ccxt; default ours,ccxt for one process, ours for several),
 * `--store memory|redis` (default memory for one process, redis for several:
 * a `redis-server` started on a free loopback port and stopped after),
 * `--rounds R` (limiters interleaved R times, medians printed), `--seconds S`
 * (or BENCH_SECONDS; 20 by default, after a 2 s warm-up).
 */
import { Sandbox } from "@bitget-effect/sandbox"
import { Duration, Effect } from "effect"
import { loadavg } from "node:os"
import { parseArgs } from "node:util"
import * as Figures from "./limits/Figures.js"
import { redisServer, workers } from "./limits/Processes.js"
import type { Limiter, Target } from "./limits/Workload.js"
import { limiters, workloads } from "./limits/Workload.js"

const { values } = parseArgs({
  options: {
    processes: { type: "string", default: "1" },
    limiters: { type: "string" },
    store: { type: "string" },
    rounds: { type: "string", default: "1" },
    seconds: { type: "string", default: process.env.BENCH_SECONDS ?? "20" }
  }
})
const processes = Number(values.processes)
const rounds = Number(values.rounds)
const seconds = Number(values.seconds)
const warmUp = 2
const store = values.store ?? (processes > 1 ? "redis" : "memory")
const isLimiter = (name: string): name is Limiter => limiters.some((l) => l === name)
const chosen = (values.limiters ?? (processes > 1 ? "ours" : "ours,ccxt")).split(",").filter(isLimiter)

/** One run of one limiter: its workers start together, and the log of the measured span is read. */
const run = (sandbox: Sandbox.Sandbox.Service, limiter: Limiter, target: Target) =>
  Effect.scoped(workers(processes, limiter, target, (go) =>
    Effect.gen(function*() {
      yield* sandbox.clearRequests
      const start = yield* sandbox.serverTime
      yield* go
      // past the span by 2 s, so that its last calls have their successors a window later
      yield* Effect.sleep(Duration.seconds(warmUp + seconds + 2))
      const from = start + warmUp * 1000
      return Figures.measure(yield* sandbox.requests, workloads, from, from + seconds * 1000)
    })))

const load = () => loadavg().map((l) => l.toFixed(2)).join(" ")

const program = Effect.scoped(Effect.gen(function*() {
  if (chosen.length === 0 || !(processes >= 1) || !(rounds >= 1) || !(seconds > 0)) {
    return yield* Effect.fail(new Error(`bad arguments: ${JSON.stringify(values)}`))
  }
  const sandbox = yield* Sandbox.make({ sizes: { taxRecords: 200_000, futuresOrders: 50_000 }, logCapacity: 200_000 })
  const redis = store === "redis" ? yield* redisServer : undefined
  const key = sandbox.credentials.hmac
  const target = (name: string): Target => ({
    url: sandbox.url,
    apiKey: key.apiKey,
    secret: key.secret,
    passphrase: key.passphrase,
    ...(redis === undefined ? {} : { redis: { port: redis, prefix: `bench:${name}:` } })
  })
  const where = processes === 1 ? "1 process" : `${processes} processes`
  const shared = redis === undefined ? "each process limits alone" : `sharing redis-server on port ${redis}`
  yield* Effect.sync(() =>
    console.log(
      `sandbox ${sandbox.url}, limits on; ${where} on one API key, ${shared}; ${warmUp} s warm-up, ${seconds} s ` +
        `measured per run, ${rounds} round(s); load average ${load()}`
    )
  )
  const runs = new Map<Limiter, Array<Figures.Figures>>()
  for (let round = 0; round < rounds; round++) {
    for (const limiter of chosen) {
      const figures = yield* run(sandbox, limiter, target(`${round}:${limiter}`))
      runs.set(limiter, [...(runs.get(limiter) ?? []), figures])
      yield* Effect.sync(() =>
        console.log(
          `  round ${round + 1} ${limiter}: min ${Figures.lowest(figures, "spaced").toFixed(3)} spaced, ` +
            `${Figures.lowest(figures, "counted").toFixed(3)} counted, ${Figures.rejected(figures)} x 429` +
            `; load average ${load()}`
        )
      )
    }
  }
  const medians = chosen.map((limiter) => [limiter, Figures.median(runs.get(limiter) ?? [], workloads)] as const)
  const pad = (text: string, width: number) => text.padEnd(width)
  const cell = (figures: Figures.Figures, route: string) => {
    const row = figures.get(route)
    return row === undefined
      ? ""
      : `${row.spaced.toFixed(3)} (${row.perSecond.toFixed(2)}/s, ${row.counted.toFixed(3)})`
  }
  const lines = [
    "",
    `spaced = allowed rate / rate kept between each call and the one a limit later (1 = every window full);`,
    `in brackets: calls answered per second in the span, and that over the allowed rate (counted)${
      rounds > 1 ? `; medians of ${rounds} rounds, 429s summed` : ""
    }`,
    "",
    `${pad("endpoint", 22)}${pad("allowed", 10)}${medians.map(([limiter]) => pad(limiter, 28)).join("")}`,
    ...workloads.map((w) =>
      `${pad(w.name, 22)}${pad(`${w.endpoint.rateLimit.limit}/s`, 10)}${
        medians.map(([, figures]) => pad(cell(figures, w.route), 28)).join("")
      }`
    ),
    `${pad("429s", 32)}${medians.map(([, figures]) => pad(String(Figures.rejected(figures)), 28)).join("")}`,
    "",
    ...medians.map(([limiter, figures]) =>
      `mixed-workload[${limiter}, ${where}]: min-utilization=${Figures.lowest(figures, "spaced").toFixed(3)} ` +
      `(counted ${Figures.lowest(figures, "counted").toFixed(3)}) 429s=${Figures.rejected(figures)}`
    )
  ]
  yield* Effect.sync(() => console.log(lines.join("\n")))
}))

Effect.runPromise(program).catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
