/**
 * Mixed-workload rate-limit benchmark: four endpoints driven in parallel
 * against the sandbox with its real limits, by bitget-effect and by ccxt (rate
 * limiter on), in one run. Prints achieved/allowed rate per endpoint and 429s.
 *
 *   pnpm bench:limits            (BENCH_SECONDS=20 by default, after a 2 s warm-up)
 */
import * as BitgetConfig from "@bitget-effect/core/BitgetConfig"
import * as Credentials from "@bitget-effect/core/Credentials"
import * as FuturesHistory from "@bitget-effect/core/FuturesHistory"
import * as OpenInterestLimit from "@bitget-effect/core/OpenInterestLimit"
import * as Symbols from "@bitget-effect/core/Symbols"
import * as TaxRecords from "@bitget-effect/core/TaxRecords"
import { BitgetNode } from "@bitget-effect/platform-node"
import { Sandbox } from "@bitget-effect/sandbox"
import ccxt from "ccxt"
import { DateTime, Duration, Effect, Fiber, Stream } from "effect"

const seconds = Number(process.env.BENCH_SECONDS ?? 20)
const warmUp = 2

interface Workload {
  readonly name: string
  readonly route: string
  readonly perSecond: number
}

const workloads: ReadonlyArray<Workload> = [
  { name: "tax-record stream", route: "tax-records", perSecond: 1 },
  { name: "futures history", route: "futures-history", perSecond: 10 },
  { name: "symbols", route: "symbols", perSecond: 20 },
  { name: "open interest limit", route: "open-interest-limit", perSecond: 5 }
]

interface Figures {
  readonly achieved: ReadonlyMap<string, number>
  readonly rejected: number
}

/** Counts answered requests per route in the measured span, and every 429. */
const measure = (sandbox: Sandbox.Sandbox.Service, from: number) =>
  Effect.map(sandbox.requests, (entries): Figures => {
    const to = from + seconds * 1000
    const achieved = new Map<string, number>()
    for (const entry of entries) {
      if (entry.route === undefined || entry.status !== 200 || entry.time < from || entry.time >= to) continue
      achieved.set(entry.route, (achieved.get(entry.route) ?? 0) + 1)
    }
    return { achieved, rejected: entries.filter((e) => e.rateLimited).length }
  })

/** Runs `drive` for warm-up + measured seconds and measures the measured part. */
const run = <E>(sandbox: Sandbox.Sandbox.Service, drive: Effect.Effect<void, E>) =>
  Effect.gen(function*() {
    yield* sandbox.clearRequests
    const start = yield* sandbox.serverTime
    const fiber = yield* Effect.forkChild(drive)
    yield* Effect.sleep(Duration.seconds(warmUp + seconds))
    yield* Fiber.interrupt(fiber)
    return yield* measure(sandbox, start + warmUp * 1000)
  })

/** Keeps `width` callers busy on one call, forever. */
const pressure = <A, E, R>(call: Effect.Effect<A, E, R>, width: number) =>
  Effect.all(Array.from({ length: width }, () => Effect.forever(Effect.ignore(call))), {
    concurrency: "unbounded",
    discard: true
  })

const ours = (sandbox: Sandbox.Sandbox.Service) => {
  const key = sandbox.credentials.hmac
  const layer = BitgetNode.layer(
    {
      baseUrl: sandbox.url,
      credentials: Credentials.hmac({ apiKey: key.apiKey, secret: key.secret, passphrase: key.passphrase })
    } satisfies BitgetConfig.BitgetOptionsInput
  )
  return Effect.gen(function*() {
    const now = yield* DateTime.now
    const taxes = TaxRecords.stream({ startTime: DateTime.subtract(now, { days: 360 }), endTime: now }).pipe(
      Stream.runDrain,
      Effect.ignore,
      Effect.forever
    )
    yield* Effect.all([
      taxes,
      pressure(FuturesHistory.ordersHistory({ productType: "USDT-FUTURES" }), 20),
      pressure(Symbols.symbols(), 40),
      pressure(OpenInterestLimit.openInterestLimit({ symbol: "BTCUSDT", category: "USDT-FUTURES" }), 10)
    ], { concurrency: "unbounded", discard: true })
  }).pipe(Effect.provide(layer))
}

const sections = ["spot", "mix", "user", "p2p", "broker", "margin", "common", "tax", "convert", "copy", "earn", "uta"]

const theirs = (sandbox: Sandbox.Sandbox.Service) =>
  Effect.suspend(() => {
    const key = sandbox.credentials.hmac
    const exchange = new ccxt.bitget({
      apiKey: key.apiKey,
      secret: key.secret,
      password: key.passphrase,
      enableRateLimit: true,
      urls: { api: Object.fromEntries(sections.map((section) => [section, sandbox.url])) },
      options: { uta: false }
    })
    const call = (f: () => Promise<unknown>) => Effect.tryPromise(f)
    const taxWalk = Effect.gen(function*() {
      const end = Date.now()
      let cursor: string | undefined
      for (;;) {
        const page = (yield* call(() =>
          exchange.privateTaxGetV2TaxSpotRecord({
            startTime: String(end - 29 * 86_400_000),
            endTime: String(end),
            limit: "500",
            ...(cursor === undefined ? {} : { idLessThan: cursor })
          })
        )) as { data?: ReadonlyArray<{ id: string }> }
        const last = page.data?.at(-1)
        if (last === undefined) return
        cursor = last.id
      }
    })
    return Effect.all([
      Effect.forever(Effect.ignore(taxWalk)),
      pressure(call(() => exchange.privateMixGetV2MixOrderOrdersHistory({ productType: "USDT-FUTURES" })), 20),
      pressure(call(() => exchange.publicSpotGetV2SpotPublicSymbols()), 40),
      pressure(
        call(() => exchange.privateUtaGetV3AccountOpenInterestLimit({ symbol: "BTCUSDT", category: "USDT-FUTURES" })),
        10
      )
    ], { concurrency: "unbounded", discard: true })
  })

const utilization = (figures: Figures, workload: Workload) =>
  (figures.achieved.get(workload.route) ?? 0) / (workload.perSecond * seconds)

const program = Effect.scoped(Effect.gen(function*() {
  const sandbox = yield* Sandbox.make({ sizes: { taxRecords: 200_000, futuresOrders: 50_000 } })
  yield* Effect.sync(() =>
    console.log(`sandbox ${sandbox.url}, limits on; ${warmUp} s warm-up, ${seconds} s measured per client\n`)
  )
  const a = yield* run(sandbox, ours(sandbox))
  const b = yield* run(sandbox, theirs(sandbox))
  const pad = (text: string, width: number) => text.padEnd(width)
  const cell = (figures: Figures, w: Workload) => {
    const u = utilization(figures, w)
    return `${u.toFixed(3)} (${((figures.achieved.get(w.route) ?? 0) / seconds).toFixed(2)}/s)`
  }
  const lines = [
    `${pad("endpoint", 22)}${pad("allowed", 10)}${pad("bitget-effect", 20)}ccxt (rate limiter on)`,
    ...workloads.map((w) => `${pad(w.name, 22)}${pad(`${w.perSecond}/s`, 10)}${pad(cell(a, w), 20)}${cell(b, w)}`),
    `${pad("429s", 32)}${pad(String(a.rejected), 20)}${b.rejected}`,
    "",
    `ccxt: mixed-workload: min-utilization=${
      Math.min(...workloads.map((w) => utilization(b, w))).toFixed(3)
    } 429s=${b.rejected}`,
    `mixed-workload: min-utilization=${
      Math.min(...workloads.map((w) => utilization(a, w))).toFixed(3)
    } 429s=${a.rejected}`
  ]
  yield* Effect.sync(() => console.log(lines.join("\n")))
}))

Effect.runPromise(program).catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
