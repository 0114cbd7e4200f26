/**
 * A local Bitget exchange on a real HTTP server (loopback), for end-to-end
 * tests, demos and benchmarks: the operations of the spec plus server
 * time and futures prices, the exchange's authentication (demo trading
 * included), rate limits and error codes (in English or Chinese), seeded
 * data of any size, mutable order state, fault injection and a request log.
 *
 * @since 0.1.0
 */
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import { HttpRouter, HttpServer } from "effect/http"
import * as Layer from "effect/Layer"
import { NetAddress } from "effect/net"
import * as Option from "effect/Option"
import type * as Scope from "effect/Scope"
import { createServer } from "node:http"
import type { PlanOrder, Position, SpotOrder } from "./Account.js"
import { productTypes } from "./Account.js"
import type { DemoCredentials } from "./DemoKey.js"
import * as DemoKey from "./DemoKey.js"
import type * as Fault from "./Fault.js"
import * as Prices from "./internal/data/prices.js"
import { MINUTE } from "./internal/data/time.js"
import { World } from "./internal/data/world.js"
import type * as RequestLog from "./RequestLog.js"
import * as Route from "./Route.js"
import { SandboxError } from "./SandboxError.js"
import type { Verifier } from "./server/auth.js"
import { verifier } from "./server/auth.js"
import { routes } from "./server/router.js"
import { State } from "./server/state.js"
import * as Shapes from "./Shapes.js"
import type { Sizes } from "./Sizes.js"
import { defaultSizes } from "./Sizes.js"

/**
 * Options of a sandbox; every field is optional.
 *
 * @since 0.1.0
 * @category models
 */
export interface Options {
  /** TCP port; `0` (the default) picks a free one. */
  readonly port?: number
  /** Address to bind; `127.0.0.1` by default. */
  readonly host?: string
  /** Seed of all generated data; `1` by default. */
  readonly seed?: number
  /** Time the data is generated back from, ms; the start time floored to the minute by default. */
  readonly anchor?: number
  readonly sizes?: Partial<Sizes>
  /** Whether frequency limits apply; `true` by default. */
  readonly limits?: boolean
  /** Multiplies every frequency limit (e.g. `100` for benchmarks); `1` by default. */
  readonly limitScale?: number
  /** The overall ceiling per client address across routes, per rolling minute (before `limitScale`); 6000 by default. */
  readonly ipCeilingPerMinute?: number
  /** Faults installed at start and again by `reset`. */
  readonly faults?: ReadonlyArray<Fault.Injection>
  /** Offset of server time from the wall clock, ms (may be negative); `0` by default. */
  readonly clockOffset?: number
  /** Request log entries kept (the most recent); `10000` by default. */
  readonly logCapacity?: number
  /** The RSA demo key's private key (PKCS#8 or PKCS#1 PEM); generated once per process by default. */
  readonly rsaPrivateKeyPem?: string
  /**
   * Serve the RPI order book to every caller, as the spec's unsigned example
   * suggests; by default only keys flagged as RPI market makers may read it.
   */
  readonly rpiOpen?: boolean
  /**
   * Reproduce the reported tax-record paging defect: `idLessThan` resolves to
   * the cursor record's timestamp (inclusive), so pages repeat records and a
   * burst larger than `limit` stalls. Off by default.
   */
  readonly taxTimestampPaging?: boolean
  /**
   * Where live answers vary in shape, send every shape, drawn from the seed
   * (`varied`, the default), or one fixed shape (`canonical`); see `Shapes`.
   */
  readonly shapes?: Shapes.Shapes
  /**
   * How long an address that crossed `ipCeilingPerMinute` is locked out, ms:
   * every call it makes meanwhile gets 429. 5 minutes by default, as on the
   * live exchange (shorten it in tests).
   */
  readonly ipLockoutMillis?: number
}

/**
 * A running sandbox.
 *
 * @since 0.1.0
 * @category services
 */
export class Sandbox extends Context.Service<Sandbox, Sandbox.Service>()("@bitget-effect/sandbox/Sandbox") {}

/**
 * The types that belong to the `Sandbox` service.
 *
 * @since 0.1.0
 * @category models
 */
export declare namespace Sandbox {
  /**
   * A running sandbox: its address, seed and demo keys, and the controls a
   * test uses (faults, clock, limits, request log, account state, reset).
   *
   * @since 0.1.0
   * @category models
   */
  export interface Service {
    /** Base URL, e.g. `http://127.0.0.1:41234` (no trailing slash). */
    readonly url: string
    readonly port: number
    readonly seed: number
    /** The time the data is generated back from, ms. */
    readonly anchor: number
    readonly sizes: Sizes
    /** Whether answers vary in shape where live ones do (see `Shapes`). */
    readonly shapes: Shapes.Shapes
    readonly credentials: DemoCredentials
    /** Queues a fault on a route (or `"*"`) for the next `times` requests (1 by default). */
    readonly inject: (
      target: Fault.Target,
      fault: Fault.Fault,
      options?: { readonly times?: Fault.Times }
    ) => Effect.Effect<void>
    /** Drops pending faults of a target, or all of them. */
    readonly clearFaults: (target?: Fault.Target) => Effect.Effect<void>
    /** The faults still pending. */
    readonly pendingFaults: Effect.Effect<ReadonlyArray<Fault.Injection>>
    /** Sets the offset of server time from the wall clock, ms (negative: the server is behind). */
    readonly setClockOffset: (millis: number) => Effect.Effect<void>
    /** Server time, ms (wall clock plus the offset). */
    readonly serverTime: Effect.Effect<number>
    /** Switches frequency limits on or off and sets their scale; counters restart. */
    readonly setLimits: (settings: { readonly enabled?: boolean; readonly scale?: number }) => Effect.Effect<void>
    /** The most recent requests, oldest first. */
    readonly requests: Effect.Effect<ReadonlyArray<RequestLog.Entry>>
    /** Empties the request log. */
    readonly clearRequests: Effect.Effect<void>
    /** Counters since start (or the last reset). */
    readonly stats: Effect.Effect<RequestLog.Stats>
    /** Open spot orders of a key, oldest first. */
    readonly openOrders: (apiKey: string) => Effect.Effect<ReadonlyArray<SpotOrder>>
    /** Futures positions of a key. */
    readonly positions: (apiKey: string) => Effect.Effect<ReadonlyArray<Position>>
    /** TP/SL plans placed by a key, oldest first. */
    readonly plans: (apiKey: string) => Effect.Effect<ReadonlyArray<PlanOrder>>
    /**
     * The mark price of a futures contract now (server time), as the
     * symbol-price route serves it: a decimal string, changing once a second.
     * place-pos-tpsl checks trigger prices against it (a long's take profit
     * above it, its stop loss below; the reverse for a short). `None` for an
     * unknown product type (any case) or symbol.
     *
     * @since 0.2.0
     */
    readonly markPrice: (productType: string, symbol: string) => Effect.Effect<Option.Option<string>>
    /** Restores the seeded state, the initial faults, clock offset and limits, and clears the log. */
    readonly reset: Effect.Effect<void>
  }
}

const liveClock = Clock.Clock.defaultValue()

const validate = (options: Options, sizes: Sizes): Effect.Effect<void, SandboxError> => {
  const problems: Array<string> = []
  const port = options.port ?? 0
  if (!Number.isInteger(port) || port < 0 || port > 65_535) problems.push(`port must be 0-65535, got ${port}`)
  const scale = options.limitScale ?? 1
  if (!Number.isFinite(scale) || scale <= 0) problems.push(`limitScale must be positive, got ${scale}`)
  for (const [name, value] of Object.entries(sizes)) {
    if (!Number.isSafeInteger(value) || value < 0) {
      problems.push(`sizes.${name} must be a non-negative integer, got ${value}`)
    }
  }
  const lockout = options.ipLockoutMillis ?? 0
  if (!Number.isSafeInteger(lockout) || lockout < 0) {
    problems.push(`ipLockoutMillis must be a non-negative integer, got ${lockout}`)
  }
  if (options.shapes !== undefined && !Shapes.modes.includes(options.shapes)) {
    problems.push(`shapes must be ${Shapes.modes.join(" or ")}, got ${String(options.shapes)}`)
  }
  if (sizes.taxDays < 1 || sizes.p2pDays < 1) problems.push("p2pDays and taxDays must be at least 1")
  return problems.length === 0
    ? Effect.void
    : Effect.fail(new SandboxError({ reason: "Options", description: problems.join("; ") }))
}

/** The demo keys: the fixed HMAC keys and the RSA key (from the given PEM, or generated). */
const demoCredentials = (rsaPrivateKeyPem: string | undefined): Effect.Effect<DemoCredentials, SandboxError> =>
  DemoKey.makeRsa(rsaPrivateKeyPem).pipe(
    Effect.catchDefect(() =>
      Effect.fail(new SandboxError({ reason: "Key", description: "the RSA private key is not a readable PEM key" }))
    ),
    Effect.map((rsa) => ({ hmac: DemoKey.hmac, rsa, marketMaker: DemoKey.marketMaker, demo: DemoKey.demo }))
  )

/** The mutable state of a new sandbox, with what `reset` restores. */
const makeState = (options: Options, world: World, keys: ReadonlyArray<DemoKey.DemoKey>): State =>
  new State(
    world,
    keys,
    {
      faults: options.faults ?? [],
      clockOffset: options.clockOffset ?? 0,
      limits: options.limits ?? true,
      limitScale: options.limitScale ?? 1
    },
    {
      openOrders: world.sizes.openOrders,
      logCapacity: Math.max(1, options.logCapacity ?? 10_000),
      ipCeilingPerMinute: options.ipCeilingPerMinute ?? Route.ipCeilingPerMinute,
      ipLockoutMillis: options.ipLockoutMillis ?? Route.ipLockoutMillis,
      rpiOpen: options.rpiOpen ?? false,
      taxTimestampPaging: options.taxTimestampPaging ?? false,
      shapes: world.shapes
    }
  )

/** Serves the routes on a Node HTTP server in the current scope; its base URL and port. */
const listen = (
  options: Options,
  state: State,
  verifiers: ReadonlyMap<string, Verifier>
): Effect.Effect<{ readonly href: string; readonly port: number }, SandboxError, Scope.Scope> => {
  const served = HttpRouter.serve(routes(state, verifiers), { disableLogger: true, disableListenLog: true }).pipe(
    Layer.provideMerge(
      NodeHttpServer.layerServer(() => createServer({ keepAliveTimeout: 5_000 }), {
        port: options.port ?? 0,
        host: options.host ?? "127.0.0.1"
      })
    ),
    // requests keep real time (delays), also in a sandbox started under a TestClock
    Layer.provide(Layer.succeed(Clock.Clock, liveClock))
  )
  return Layer.build(served).pipe(
    Effect.mapError((error) =>
      new SandboxError({
        reason: "Serve",
        description: String(error.cause instanceof Error ? error.cause.message : error.cause)
      })
    ),
    Effect.map((context) => {
      const address = Context.get(context, HttpServer.HttpServer).address
      const port = address._tag === "UnixPathAddress" ? 0 : address.port
      const host = address._tag === "UnixPathAddress" ? "127.0.0.1" : NetAddress.formatHost(address)
      return { href: `http://${host.includes(":") ? `[${host}]` : host}:${port}`, port }
    })
  )
}

/** The controls of a running sandbox, over its state. */
const controls = (
  state: State
): Omit<Sandbox.Service, "url" | "port" | "seed" | "anchor" | "sizes" | "shapes" | "credentials"> => ({
  inject: (target, fault, options) => Effect.sync(() => state.inject({ target, fault, times: options?.times ?? 1 })),
  clearFaults: (target) => Effect.sync(() => state.clearFaults(target)),
  pendingFaults: Effect.sync(() => state.pendingFaults()),
  setClockOffset: (millis) =>
    Effect.sync(() => {
      state.clockOffset = millis
    }),
  serverTime: Effect.sync(() => state.now()),
  setLimits: (settings) =>
    Effect.sync(() => {
      if (settings.enabled !== undefined) state.limits = settings.enabled
      if (settings.scale !== undefined && Number.isFinite(settings.scale) && settings.scale > 0) {
        state.limitScale = settings.scale
      }
      state.limiter.clear()
      state.lockouts.clear()
    }),
  requests: Effect.sync(() => state.log()),
  clearRequests: Effect.sync(() => state.clearLog()),
  stats: Effect.sync(() => state.stats()),
  openOrders: (apiKey) => Effect.sync(() => [...state.account(apiKey).orders.values()]),
  positions: (apiKey) => Effect.sync(() => state.account(apiKey).positions),
  plans: (apiKey) => Effect.sync(() => state.account(apiKey).plans.slice()),
  markPrice: (productType, symbol) =>
    Effect.sync(() => {
      const known = productTypes.find((candidate) => candidate === productType.toUpperCase())
      const future = known === undefined ? undefined : state.world.future(known, symbol)
      return future === undefined ? Option.none() : Option.some(Prices.markPrice(future, state.now()))
    }),
  reset: Effect.sync(() => state.reset())
})

/**
 * Starts a sandbox in the current scope; closing the scope stops it.
 *
 * @example
 * ```ts
 * import { Sandbox } from "@bitget-effect/sandbox"
 * import { Effect } from "effect"
 *
 * const program = Effect.gen(function*() {
 *   const sandbox = yield* Sandbox.make({ seed: 42, limits: false })
 *   // A client points at `sandbox.url` with `sandbox.credentials.hmac` (or `.rsa`, `.marketMaker`,
 *   // or `.demo` with the header `paptrading: 1`).
 *   const response = yield* Effect.promise(() => fetch(`${sandbox.url}/api/v2/spot/public/symbols?symbol=BTCUSDT`))
 *   yield* Effect.promise(() => response.text())
 *   const stats = yield* sandbox.stats
 *   assert.strictEqual(response.status, 200)
 *   assert.strictEqual(stats.requests, 1)
 * }).pipe(Effect.scoped) // the server stops when the scope closes
 *
 * Effect.runPromise(program)
 * ```
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (options: Options = {}): Effect.Effect<Sandbox.Service, SandboxError, Scope.Scope> =>
  Effect.gen(function*() {
    const sizes: Sizes = { ...defaultSizes, ...options.sizes }
    yield* validate(options, sizes)
    const seed = options.seed ?? 1
    const anchor = options.anchor ?? Math.floor(Date.now() / MINUTE) * MINUTE
    const credentials = yield* demoCredentials(options.rsaPrivateKeyPem)
    const keys = DemoKey.toArray(credentials)
    const shapes = options.shapes ?? "varied"
    const state = makeState(options, new World(seed, anchor, sizes, shapes), keys)
    const url = yield* listen(options, state, new Map(keys.map((key) => [key.apiKey, verifier(key)])))
    return Sandbox.of({
      url: url.href,
      port: url.port,
      seed,
      anchor,
      sizes,
      shapes,
      credentials,
      ...controls(state)
    })
  })

/**
 * The sandbox as a layer: started when the layer is built, stopped when its
 * scope closes.
 *
 * @example
 * ```ts
 * import { Fault, Sandbox } from "@bitget-effect/sandbox"
 * import { Effect } from "effect"
 *
 * // The first two calls of the time route meet a gateway error.
 * const test = Effect.gen(function*() {
 *   const sandbox = yield* Sandbox.Sandbox
 *   yield* sandbox.inject("time", Fault.httpError(503), { times: 2 })
 *   const call = Effect.promise(() => fetch(`${sandbox.url}/api/v2/public/time`).then((response) => response.text()))
 *   yield* Effect.repeat(call, { times: 2 })
 *   const log = yield* sandbox.requests
 *   assert.deepStrictEqual(log.map((entry) => entry.status), [503, 503, 200])
 * })
 *
 * Effect.runPromise(test.pipe(Effect.provide(Sandbox.layer({ limits: false }))))
 * ```
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = (options: Options = {}): Layer.Layer<Sandbox, SandboxError> => Layer.effect(Sandbox, make(options))

/**
 * The running sandbox's service, from the context.
 *
 * @since 0.1.0
 * @category accessors
 */
export const service: Effect.Effect<Sandbox.Service, never, Sandbox> = Sandbox
