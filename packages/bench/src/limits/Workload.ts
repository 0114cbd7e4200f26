/**
 * The mixed workload of the rate-limit benchmark: four endpoints, each kept
 * under pressure by more callers than its limit lets through, and the
 * programs that drive it through each limiter compared. Every endpoint core
 * exports has an entry in its table (`table.ts`): its part in the workload, or
 * why it has none; the bench refuses to start without one.
 */
import * as BitgetClient from "@bitget-effect/core/BitgetClient"
import * as BitgetConfig from "@bitget-effect/core/BitgetConfig"
import * as Credentials from "@bitget-effect/core/Credentials"
import * as FuturesHistory from "@bitget-effect/core/FuturesHistory"
import * as HttpTransport from "@bitget-effect/core/HttpTransport"
import * as OpenInterestLimit from "@bitget-effect/core/OpenInterestLimit"
import * as RateLimiter from "@bitget-effect/core/RateLimiter"
import * as Symbols from "@bitget-effect/core/Symbols"
import * as TaxRecords from "@bitget-effect/core/TaxRecords"
import { BitgetNode, NodeSigner, RedisRateLimiter, UndiciTransport } from "@bitget-effect/platform-node"
import type { RouteName } from "@bitget-effect/sandbox/Route"
import * as NodeRedis from "@effect/platform-node/NodeRedis"
import ccxt from "ccxt"
import { DateTime, Duration, Effect, Layer, Stream } from "effect"
import { RateLimiter as EffectRateLimiter } from "effect/persistence"
import { day } from "../time.js"
import type { Workload } from "./table.js"
import * as Table from "./table.js"

/** The workload: each endpoint with a part in it, in the table's order; the bench refuses to start on a gap. */
export const workloads: ReadonlyArray<Workload> = Table.workloads()

/** The limiters compared: ours, Effect's `effect/persistence` RateLimiter (two algorithms), ccxt's. */
export const limiters = ["ours", "effect-window", "effect-bucket", "ccxt"] as const

/** A limiter compared. */
export type Limiter = (typeof limiters)[number]

/** Where a worker sends its calls, and the shared store when there is one. */
export interface Target {
  readonly url: string
  readonly apiKey: string
  readonly secret: string
  readonly passphrase: string
  /** The Redis the processes share, with a key prefix of this run's own; absent: each process limits alone. */
  readonly redis?: { readonly port: number; readonly prefix: string }
}

/** Keeps `width` callers busy on one call, forever. */
const pressure = <A, E, R>(call: Effect.Effect<A, E, R>, width: number) =>
  Effect.all(Array.from({ length: width }, () => Effect.forever(Effect.ignore(call))), {
    concurrency: "unbounded",
    discard: true
  })

const widthOf = (route: RouteName): number => workloads.find((w) => w.route === route)?.callers ?? 1

/** The workload through a bitget-effect client, whichever limiter it runs with. */
const throughClient: Effect.Effect<void, never, BitgetClient.BitgetClient> = Effect.gen(function*() {
  const now = yield* DateTime.now
  const taxes = TaxRecords.stream({ startTime: DateTime.subtract(now, { days: 360 }), endTime: now }).pipe(
    Stream.runDrain,
    Effect.ignore,
    Effect.forever
  )
  yield* Effect.all([
    taxes,
    pressure(FuturesHistory.ordersHistory({ productType: "USDT-FUTURES" }), widthOf("futures-history")),
    pressure(Symbols.symbols(), widthOf("symbols")),
    pressure(
      OpenInterestLimit.openInterestLimit({ symbol: "BTCUSDT", category: "USDT-FUTURES" }),
      widthOf("open-interest-limit")
    )
  ], { concurrency: "unbounded", discard: true })
})

const options = (target: Target) => ({
  baseUrl: target.url,
  credentials: Credentials.hmac({ apiKey: target.apiKey, secret: target.secret, passphrase: target.passphrase })
})

/** Our limiter, in memory or over the shared Redis store. */
const ours = (target: Target): Layer.Layer<BitgetClient.BitgetClient> => {
  const client = BitgetNode.layer(options(target))
  return target.redis === undefined
    ? client
    : client.pipe(
      Layer.provide(RedisRateLimiter.layer({ host: "127.0.0.1", port: target.redis.port, prefix: target.redis.prefix }))
    )
}

/**
 * Effect's limiter in place of ours: our limiter off, every request (retries
 * included) waits in the transport for `RateLimiter.consume` with
 * `onExceeded: "delay"`, under the same keys, limits and 2 ms margin as ours.
 */
const effect = (target: Target, algorithm: "fixed-window" | "token-bucket"): Layer.Layer<BitgetClient.BitgetClient> => {
  const paced = Layer.effect(
    HttpTransport.HttpTransport,
    Effect.gen(function*() {
      const inner = yield* UndiciTransport.make()
      const limiter = yield* EffectRateLimiter.RateLimiter
      const byPath = new Map(workloads.map((w) => [w.endpoint.path, w.endpoint]))
      return HttpTransport.HttpTransport.of({
        send: (request) => {
          const endpoint = byPath.get(new URL(request.url).pathname)
          if (endpoint === undefined) return inner.send(request)
          const { limit, scope, window } = endpoint.rateLimit
          return EffectRateLimiter.sleep(limiter, {
            key: RateLimiter.bucketKey(endpoint.name, scope, target.apiKey),
            limit,
            window: Duration.sum(Duration.fromInputUnsafe(window), Duration.millis(2)),
            algorithm
          }).pipe(Effect.orDie, Effect.andThen(inner.send(request)))
        }
      })
    })
  )
  const store = target.redis === undefined
    ? EffectRateLimiter.layerStoreMemory
    : EffectRateLimiter.layerStoreRedis({ prefix: target.redis.prefix }).pipe(
      Layer.provide(NodeRedis.layer({ socket: { host: "127.0.0.1", port: target.redis.port } })),
      Layer.orDie
    )
  return BitgetClient.layerTransport.pipe(
    Layer.provide(Layer.mergeAll(
      NodeSigner.layer,
      paced.pipe(Layer.provide(Layer.provide(EffectRateLimiter.layer, store))),
      BitgetConfig.layer({ ...options(target), rateLimit: { enabled: false } })
    ))
  )
}

const sections = ["spot", "mix", "user", "p2p", "broker", "margin", "common", "tax", "convert", "copy", "earn", "uta"]

/** ccxt 4.5 with its own rate limiter on (per process: it has no shared store). */
const throughCcxt = (target: Target) =>
  Effect.suspend(() => {
    const exchange = new ccxt.bitget({
      apiKey: target.apiKey,
      secret: target.secret,
      password: target.passphrase,
      enableRateLimit: true,
      urls: { api: Object.fromEntries(sections.map((section) => [section, target.url])) },
      options: { uta: false }
    })
    const call = (f: () => Promise<unknown>) => Effect.tryPromise(f)
    const taxWalk = Effect.gen(function*() {
      const end = Date.now()
      let cursor: string | undefined
      for (;;) {
        const page = (yield* call(() =>
          exchange.privateTaxGetV2TaxSpotRecord({
            startTime: String(end - (TaxRecords.maxWindowDays - 1) * day),
            endTime: String(end),
            limit: String(TaxRecords.maxLimit),
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
      pressure(
        call(() => exchange.privateMixGetV2MixOrderOrdersHistory({ productType: "USDT-FUTURES" })),
        widthOf("futures-history")
      ),
      pressure(call(() => exchange.publicSpotGetV2SpotPublicSymbols()), widthOf("symbols")),
      pressure(
        call(() => exchange.privateUtaGetV3AccountOpenInterestLimit({ symbol: "BTCUSDT", category: "USDT-FUTURES" })),
        widthOf("open-interest-limit")
      )
    ], { concurrency: "unbounded", discard: true })
  })

/** The workload driven through `limiter` at `target`, until interrupted. */
export const drive = (limiter: Limiter, target: Target): Effect.Effect<void> => {
  switch (limiter) {
    case "ours":
      return Effect.provide(throughClient, ours(target))
    case "effect-window":
      return Effect.provide(throughClient, effect(target, "fixed-window"))
    case "effect-bucket":
      return Effect.provide(throughClient, effect(target, "token-bucket"))
    case "ccxt":
      return throughCcxt(target)
  }
}
