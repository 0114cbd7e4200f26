/**
 * End-to-end support: the real client (`BitgetNode.layer`: undici and
 * node:crypto) pointed at a running sandbox, helpers to read the sandbox's
 * request log, an oracle that knows which records the sandbox holds, and the
 * checks of a stream walked to its end.
 *
 * Every test file shares one sandbox per `describe` block through
 * `onSandbox`, so the clock is the live one (the client's timeouts, backoff
 * and limiter sleep for real), and calls `sandbox.reset` first.
 *
 * Suites that must cover every endpoint take the list from `descriptors` (a
 * walk of core's modules) and keep their entries in a table by endpoint name
 * (`covered`), so that a new endpoint fails them until it has an entry.
 */
import * as Core from "@bitget-effect/core"
import type { BitgetConfig, BitgetError, Schemas } from "@bitget-effect/core"
import { BitgetClient, Credentials } from "@bitget-effect/core"
import { BitgetNode } from "@bitget-effect/platform-node"
import type { RequestLog, Route } from "@bitget-effect/sandbox"
import { Dataset, Fault, Sandbox } from "@bitget-effect/sandbox"
import { assert, it, layer } from "@effect/vitest"
import type { Duration } from "effect"
import { BigDecimal, Cause, DateTime, Effect, Exit, Option, Stream } from "effect"

/** The demo keys of a sandbox. */
export type KeyName = "hmac" | "rsa" | "marketMaker"

/** The credentials of a demo key, as the client takes them. */
const credentialsOf = (sandbox: Sandbox.Sandbox.Service, key: KeyName): Credentials.Credentials =>
  key === "rsa" ? Credentials.rsa(sandbox.credentials.rsa) : Credentials.hmac(sandbox.credentials[key])

/** The API key string of a demo key. */
export const apiKeyOf = (sandbox: Sandbox.Sandbox.Service, key: KeyName): string => sandbox.credentials[key].apiKey

/** Client options for a test: everything but the base URL; `key` picks a demo key (`"none"`: no credentials). */
export type ClientOptions = Omit<BitgetConfig.BitgetOptionsInput, "baseUrl" | "credentials"> & {
  readonly key?: KeyName | "none"
  /** Credentials other than the demo keys (wins over `key`). */
  readonly credentials?: Credentials.Credentials
}

/** The real client over undici, pointed at the sandbox. */
const clientLayer = (sandbox: Sandbox.Sandbox.Service, options: ClientOptions = {}) => {
  const { credentials, key = "hmac", ...rest } = options
  const chosen = credentials ?? (key === "none" ? undefined : credentialsOf(sandbox, key))
  return BitgetNode.layer({ ...rest, baseUrl: sandbox.url, ...(chosen === undefined ? {} : { credentials: chosen }) })
}

/** Runs an effect with a fresh client (own limiter, own clock offset) on the sandbox in context. */
export const withClient = (options: ClientOptions = {}) =>
<A, E, R>(
  effect: Effect.Effect<A, E, R>
): Effect.Effect<A, E, Exclude<R, BitgetClient.BitgetClient> | Sandbox.Sandbox> =>
  Effect.flatMap(Sandbox.Sandbox, (sandbox) => Effect.provide(effect, clientLayer(sandbox, options)))

/**
 * The tests of a block, sharing one sandbox started from `options`, on the
 * live clock: `onSandbox({ seed: 7 })((it) => …)`.
 */
export const onSandbox = (options: Sandbox.Options) => layer(Sandbox.layer(options), { excludeTestServices: true })

/** The sandbox in context, reset to its seeded state (orders, faults, clock, limits, empty log). */
export const freshSandbox: Effect.Effect<Sandbox.Sandbox.Service, never, Sandbox.Sandbox> = Effect.tap(
  Sandbox.Sandbox,
  (sandbox) => sandbox.reset
)

/**
 * The failure of an effect that must fail: asserts it fails (within
 * `within`, so a hang is a test failure and not a timeout of the runner) with
 * a typed error in the error channel, never a defect or an interruption.
 */
export const failureOf = <A, E, R>(
  effect: Effect.Effect<A, E, R>,
  within: Duration.Input = "10 seconds"
): Effect.Effect<E, never, R> =>
  Effect.gen(function*() {
    const exit = yield* Effect.exit(Effect.timeoutOption(effect, within))
    if (Exit.isSuccess(exit)) {
      return Option.isNone(exit.value)
        ? assert.fail(`no answer within ${String(within)}: the call hung`)
        : assert.fail(`expected a failure, got a success: ${String(exit.value.value)}`)
    }
    assert.isFalse(Cause.hasDies(exit.cause), `a defect instead of a typed failure:\n${Cause.pretty(exit.cause)}`)
    assert.isFalse(Cause.hasInterrupts(exit.cause), `interrupted:\n${Cause.pretty(exit.cause)}`)
    const failure = Cause.findErrorOption(exit.cause)
    return Option.isSome(failure) ? failure.value : assert.fail(`no typed failure in:\n${Cause.pretty(exit.cause)}`)
  })

/** The request log entries of some routes (all routes when none are given), oldest first. */
export const logOf = (
  ...routes: ReadonlyArray<Route.RouteName>
): Effect.Effect<ReadonlyArray<RequestLog.Entry>, never, Sandbox.Sandbox> =>
  Effect.map(
    Effect.flatMap(Sandbox.Sandbox, (sandbox) => sandbox.requests),
    (entries) =>
      routes.length === 0
        ? entries
        : entries.filter((entry) => entry.route !== undefined && routes.includes(entry.route))
  )

/** A compact view of log entries: `route status code fault`, for readable assertions. */
export const describeLog = (entries: ReadonlyArray<RequestLog.Entry>): ReadonlyArray<string> =>
  entries.map((entry) =>
    [entry.route ?? entry.path, String(entry.status ?? "-"), entry.code ?? "-", entry.fault ?? ""].join(" ").trim()
  )

/** The decoded query parameters of a log entry. */
const queryOf = (entry: RequestLog.Entry): URLSearchParams => new URLSearchParams(entry.query)

/** Asserts that a list of ids has no duplicates and strictly decreases as big integers. */
const assertNewestFirstUnique = (ids: ReadonlyArray<string>, what: string) => {
  assert.strictEqual(new Set(ids).size, ids.length, `${what}: duplicate ids`)
  for (let i = 1; i < ids.length; i++) {
    if (!(BigInt(ids[i] as string) < BigInt(ids[i - 1] as string))) {
      assert.fail(`${what}: id ${ids[i]} at ${i} does not follow ${ids[i - 1]} (newest first)`)
    }
  }
}

/**
 * What the sandbox holds, computed from its seed, anchor and sizes by the
 * sandbox's own data model (`Dataset`, not its HTTP paging), so a stream can be
 * compared with the truth rather than with another walk through the same
 * server code.
 */
export const oracle = (sandbox: Sandbox.Sandbox.Service) => {
  const dataset = Dataset.make(sandbox)
  return {
    dataset,
    taxIds: (key: KeyName, start: number, end: number) =>
      dataset.taxRecords(apiKeyOf(sandbox, key), { start, end }).map((record) => record.id),
    p2pIds: (key: KeyName, start: number, end: number) =>
      dataset.p2pOrders(apiKeyOf(sandbox, key), { start, end }).map((order) => order.orderId),
    futuresIds: (
      key: KeyName,
      productType: "USDT-FUTURES" | "COIN-FUTURES" | "USDC-FUTURES",
      start: number,
      end: number
    ) => dataset.futuresOrders(apiKeyOf(sandbox, key), productType, { start, end }).map((order) => order.orderId)
  }
}

/** Milliseconds in a day. */
export const DAY = 86_400_000

/** An endpoint descriptor of core, whatever its request and answer. */
export type Descriptor = Core.Endpoint.Endpoint<unknown, unknown, object, unknown>

/** Every endpoint descriptor core exports, each once. */
export const descriptors: ReadonlyArray<Descriptor> = Core.Endpoint.collect(Core)

/** A suite's entries, one per endpoint, keyed by the endpoint's name (`tax.spotRecords`). */
export type ByEndpoint<A> = { readonly [name: string]: A }

/**
 * Each entry of a suite's table with its descriptor, in the table's order,
 * and a test that fails, naming them, when the table lacks an endpoint or
 * names one core does not have.
 */
export const covered = <A>(table: ByEndpoint<A>): ReadonlyArray<readonly [Descriptor, A]> => {
  it("has an entry for every endpoint core exports", () => {
    assert.deepStrictEqual(Core.Endpoint.gaps(descriptors, table), [], "endpoints and the suite's table differ")
  })
  return Object.entries(table).flatMap(([name, entry]) => {
    const endpoint = descriptors.find((descriptor) => descriptor.name === name)
    return endpoint === undefined ? [] : [[endpoint, entry] as const]
  })
}

/** The client's view of the exchange's clock offset. */
export const clientClockOffset: Effect.Effect<number, never, BitgetClient.BitgetClient> = Effect.flatMap(
  BitgetClient.BitgetClient,
  (client) => client.clockOffset
)

/** Asserts an exact decimal equals the exchange's string. */
export const assertDecimal = (actual: BigDecimal.BigDecimal, expected: string, what: string) =>
  assert.isTrue(
    BigDecimal.equals(actual, BigDecimal.fromStringUnsafe(expected)),
    `${what}: decoded ${BigDecimal.format(actual)}, sent ${JSON.stringify(expected)}`
  )

/** Asserts an optional decimal: `None` for the exchange's `""`, else the exact value. */
export const assertMaybeDecimal = (actual: Option.Option<BigDecimal.BigDecimal>, expected: string, what: string) =>
  expected === ""
    ? assert.isTrue(Option.isNone(actual), `${what}: expected None for "", got ${String(actual)}`)
    : Option.isSome(actual)
    ? assertDecimal(actual.value, expected, what)
    : assert.fail(`${what}: expected ${expected}, got None`)

/** Asserts a timestamp equals the exchange's millisecond string. */
export const assertTime = (actual: DateTime.Utc, expected: string, what: string) =>
  assert.strictEqual(DateTime.toEpochMillis(actual), Number(expected), what)

/** Asserts an optional timestamp: `None` for `""`, else the exact instant. */
export const assertMaybeTime = (actual: Option.Option<DateTime.Utc>, expected: string, what: string) =>
  assert.deepStrictEqual(
    Option.map(actual, DateTime.toEpochMillis),
    expected === "" ? Option.none() : Option.some(Number(expected)),
    what
  )

/** An open enum value as text: the known literal, or `?raw` for a value the client did not recognise. */
export const enumText = <L extends string>(value: Schemas.OpenEnum<L>): string =>
  typeof value === "string" ? value : `?${value.value}`

/**
 * Client options for a walk: `operation`'s own limiter set to `perSecond`
 * (the sandbox's limit as scaled by its `limitScale`), a 400 ms timeout and
 * 20 ms backoff, so the walk is quick and the faults of
 * `assertWalkRidesOutFaults` are ridden out by retries.
 */
export const walkClient = (operation: string, perSecond: number): ClientOptions => ({
  rateLimit: { overrides: { [operation]: { limit: perSecond, window: "1 second" } } },
  timeout: "400 millis",
  retry: { baseDelay: "20 millis" }
})

/** A stream under test: how to walk it on a sandbox, and what it must yield there. */
export interface Walk<A> {
  /** Names the walk in assertion messages. */
  readonly name: string
  /** The route its pages are asked of. */
  readonly route: Route.RouteName
  readonly client: ClientOptions
  readonly stream: (
    sandbox: Sandbox.Sandbox.Service
  ) => Stream.Stream<A, BitgetError.BitgetError, BitgetClient.BitgetClient>
  readonly id: (item: A) => string
  /** The ids the sandbox holds for the walk (from the `oracle`, not its HTTP paging), newest first. */
  readonly expected: (sandbox: Sandbox.Sandbox.Service) => ReadonlyArray<string>
}

/**
 * Runs a stream to its end with a fresh client and asserts its ids are
 * unique, newest first, and exactly the walk's expected ones; the elements.
 */
const assertYields = <A>(
  walk: Walk<A>,
  sandbox: Sandbox.Sandbox.Service,
  stream: Stream.Stream<A, BitgetError.BitgetError, BitgetClient.BitgetClient>,
  what: string
): Effect.Effect<ReadonlyArray<A>, BitgetError.BitgetError, Sandbox.Sandbox> =>
  Effect.gen(function*() {
    const expected = walk.expected(sandbox)
    const items = yield* Stream.runCollect(stream).pipe(withClient(walk.client))
    const ids = items.map(walk.id)
    assertNewestFirstUnique(ids, what)
    assert.deepStrictEqual(ids, expected, `${what}: exactly the sandbox's records, in order`)
    return items
  })

/** Walks a stream on the sandbox, asserting as `assertYields` does; the elements, for the test's own checks. */
export const assertWalk = <A>(
  walk: Walk<A>,
  sandbox: Sandbox.Sandbox.Service
): Effect.Effect<ReadonlyArray<A>, BitgetError.BitgetError, Sandbox.Sandbox> =>
  assertYields(walk, sandbox, walk.stream(sandbox), walk.name)

/** The pages a route answered normally (HTTP 200, no fault). */
export const cleanPages = (entries: ReadonlyArray<RequestLog.Entry>): ReadonlyArray<RequestLog.Entry> =>
  entries.filter((entry) => entry.status === 200 && entry.fault === undefined && entry.code === "00000")

/** Asserts the walk's route answered it in ≥ 10 pages, every one clean (no 429, no error); the route's log. */
export const assertCleanWalk = <A>(
  walk: Walk<A>
): Effect.Effect<ReadonlyArray<RequestLog.Entry>, never, Sandbox.Sandbox> =>
  Effect.gen(function*() {
    const log = yield* logOf(walk.route)
    assert.isAtLeast(cleanPages(log).length, 10)
    assert.strictEqual(cleanPages(log).length, log.length, "no 429 and no error on the way")
    return log
  })

/**
 * Passes a stream through, running each planned effect once `after` elements
 * have been emitted, before the stream is pulled further (so before the next
 * page is requested): faults land mid-way through a walk.
 */
const midway = <A, E, R, R2>(
  stream: Stream.Stream<A, E, R>,
  plan: ReadonlyArray<readonly [after: number, effect: Effect.Effect<void, never, R2>]>
): Stream.Stream<A, E, R | R2> =>
  stream.pipe(
    Stream.zipWithIndex,
    Stream.tap(([, index]) =>
      Effect.forEach(plan.filter(([after]) => after === index + 1), ([, effect]) => effect, { discard: true })
    ),
    Stream.map(([item]) => item)
  )

/** The fault column of a route's log entries that carried one, in order. */
const faultsSeen = (entries: ReadonlyArray<RequestLog.Entry>): ReadonlyArray<string> =>
  entries.flatMap((entry) => (entry.fault === undefined ? [] : [entry.fault]))

/**
 * Walks a stream with faults injected on its route after the given numbers
 * of elements (a 503 gateway page, a burst of two 429s, a reset connection,
 * and an answer held back 700 ms, past `walkClient`'s timeout) and asserts
 * the elements are still as `assertWalk` wants them, each fault was met once
 * (the delay aside: its abandoned request may not be logged yet), none is
 * left unused, and no page was fetched twice after a success; the route's log.
 */
export const assertWalkRidesOutFaults = <A>(
  walk: Walk<A>,
  sandbox: Sandbox.Sandbox.Service,
  points: readonly [number, number, number, number]
): Effect.Effect<ReadonlyArray<RequestLog.Entry>, BitgetError.BitgetError, Sandbox.Sandbox> =>
  Effect.gen(function*() {
    const inject = (fault: Fault.Fault, times = 1) => sandbox.inject(walk.route, fault, { times })
    const faulty = midway(walk.stream(sandbox), [
      [points[0], inject(Fault.httpError(503))],
      [points[1], inject(Fault.tooManyRequests, 2)],
      [points[2], inject(Fault.connectionReset)],
      [points[3], inject(Fault.delay("700 millis"))]
    ])
    yield* assertYields(walk, sandbox, faulty, `${walk.name} with faults`)
    const log = yield* logOf(walk.route)
    assert.deepStrictEqual(faultsSeen(log).filter((f) => !f.startsWith("delay")), ["503", "429", "429", "reset"])
    assert.strictEqual((yield* sandbox.stats).faultsInjected, 5)
    assert.deepStrictEqual(yield* sandbox.pendingFaults, [])
    assert.strictEqual(
      new Set(cleanPages(log).map((e) => e.query)).size,
      cleanPages(log).length,
      "no page was fetched twice after a success"
    )
    return log
  })

/** The distinct `startTime`–`endTime` windows a route was asked for. */
export const windowsAsked = (entries: ReadonlyArray<RequestLog.Entry>): ReadonlyArray<string> => [
  ...new Set(entries.map((entry) => `${queryOf(entry).get("startTime")}-${queryOf(entry).get("endTime")}`))
]
