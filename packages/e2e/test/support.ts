/**
 * End-to-end support: the real client (`BitgetNode.layer`: undici and
 * node:crypto) pointed at a running sandbox, helpers to read the sandbox's
 * request log, and an oracle that knows which records the sandbox holds.
 *
 * Every test file shares one sandbox per `describe` block through
 * `layer(..., { excludeTestServices: true })`, so the clock is the live one
 * (the client's timeouts, backoff and limiter sleep for real), and calls
 * `sandbox.reset` first.
 */
import type { BitgetConfig, Schemas } from "@bitget-effect/core"
import { BitgetClient, Credentials } from "@bitget-effect/core"
import { BitgetNode } from "@bitget-effect/platform-node"
import type { RequestLog, Route } from "@bitget-effect/sandbox"
import { Dataset, Fault, Sandbox } from "@bitget-effect/sandbox"
import { assert } from "@effect/vitest"
import type { Duration } from "effect"
import { BigDecimal, Cause, DateTime, Effect, Exit, Option, Stream } from "effect"

/** The demo keys of a sandbox. */
export type KeyName = "hmac" | "rsa" | "marketMaker"

/** The credentials of a demo key, as the client takes them. */
export const credentialsOf = (sandbox: Sandbox.Sandbox.Service, key: KeyName): Credentials.Credentials =>
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
export const clientLayer = (sandbox: Sandbox.Sandbox.Service, options: ClientOptions = {}) => {
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
  within: Duration.DurationInput = "10 seconds"
): Effect.Effect<E, never, R> =>
  Effect.gen(function*() {
    const exit = yield* Effect.exit(Effect.timeoutOption(effect, within))
    if (Exit.isSuccess(exit)) {
      return Option.isNone(exit.value)
        ? assert.fail(`no answer within ${String(within)}: the call hung`)
        : assert.fail(`expected a failure, got a success: ${String(exit.value.value)}`)
    }
    assert.isFalse(Cause.isDie(exit.cause), `a defect instead of a typed failure:\n${Cause.pretty(exit.cause)}`)
    assert.isFalse(Cause.isInterrupted(exit.cause), `interrupted:\n${Cause.pretty(exit.cause)}`)
    const failure = Cause.failureOption(exit.cause)
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
export const queryOf = (entry: RequestLog.Entry): URLSearchParams => new URLSearchParams(entry.query)

/** Asserts that a list of ids has no duplicates and strictly decreases as big integers. */
export const assertNewestFirstUnique = (ids: ReadonlyArray<string>, what: string) => {
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

/** The client's view of the exchange's clock offset. */
export const clientClockOffset: Effect.Effect<number, never, BitgetClient.BitgetClient> = Effect.flatMap(
  BitgetClient.BitgetClient,
  (client) => client.clockOffset
)

/** Asserts an exact decimal equals the exchange's string. */
export const assertDecimal = (actual: BigDecimal.BigDecimal, expected: string, what: string) =>
  assert.isTrue(
    BigDecimal.equals(actual, BigDecimal.unsafeFromString(expected)),
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
 * Passes a stream through, running each planned effect once `after` elements
 * have been emitted, before the stream is pulled further (so before the next
 * page is requested): faults land mid-way through a walk.
 */
export const midway = <A, E, R, R2>(
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

/**
 * The faults a walk must ride out, injected on one route at four points: a
 * 503 gateway page, a burst of two 429s, a reset connection, and an answer
 * held back longer than the client's timeout.
 */
export const walkFaults = (
  sandbox: Sandbox.Sandbox.Service,
  route: Route.RouteName,
  points: readonly [number, number, number, number],
  delay: Duration.DurationInput
) =>
  [
    [points[0], sandbox.inject(route, Fault.httpError(503))],
    [points[1], sandbox.inject(route, Fault.tooManyRequests, { times: 2 })],
    [points[2], sandbox.inject(route, Fault.connectionReset)],
    [points[3], sandbox.inject(route, Fault.delay(delay))]
  ] as const

/** The fault column of a route's log entries that carried one, in order. */
export const faultsSeen = (entries: ReadonlyArray<RequestLog.Entry>): ReadonlyArray<string> =>
  entries.flatMap((entry) => (entry.fault === undefined ? [] : [entry.fault]))

/** The pages a route answered normally (HTTP 200, no fault). */
export const cleanPages = (entries: ReadonlyArray<RequestLog.Entry>): ReadonlyArray<RequestLog.Entry> =>
  entries.filter((entry) => entry.status === 200 && entry.fault === undefined && entry.code === "00000")

/** The distinct `startTime`–`endTime` windows a route was asked for. */
export const windowsAsked = (entries: ReadonlyArray<RequestLog.Entry>): ReadonlyArray<string> => [
  ...new Set(entries.map((entry) => `${queryOf(entry).get("startTime")}-${queryOf(entry).get("endTime")}`))
]
