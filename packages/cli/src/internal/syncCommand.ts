/**
 * `bitget sync <tax-records|futures-orders|p2p-orders> --database URL
 * [--from …] [--to …] [--full] [--account NAME] [--product-type …]
 * [--base-url URL] [--quiet]`: the records into Postgres with
 * `@bitget-effect/sql`'s pipelines, each page and the stream's checkpoint in
 * one transaction. A run goes on where an interrupted one stopped, or fetches
 * only what is new since the last complete one (less five minutes of
 * overlap); `--full` walks the whole range again. The database (opened and
 * migrated) and the configuration are checked before anything is fetched;
 * the database's password is never printed.
 *
 * @since 0.3.0
 */
import type { BitgetOptions } from "@bitget-effect/core/BitgetConfig"
import * as FuturesHistory from "@bitget-effect/core/FuturesHistory"
import * as StreamProgress from "@bitget-effect/core/StreamProgress"
import * as BitgetSql from "@bitget-effect/sql/BitgetSql"
import * as Pipelines from "@bitget-effect/sql/Pipelines"
import { Argument, Command, Flag } from "effect/cli"
import * as Config from "effect/Config"
import * as Console from "effect/Console"
import * as DateTime from "effect/DateTime"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import { identity } from "effect/Function"
import * as Logger from "effect/Logger"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as References from "effect/References"
import * as Result from "effect/Result"
import { createHash } from "node:crypto"
import * as Client from "./client.js"
import * as ExportKind from "./exportKind.js"
import * as Flags from "./flags.js"
import * as ProgressView from "./progressView.js"
import * as TimeRange from "./timeRange.js"
import { UsageError } from "./usageError.js"

/**
 * The command line of a sync, as parsed.
 *
 * @since 0.3.0
 * @category models
 */
export interface SyncArgs {
  readonly kind: ExportKind.Kind
  readonly database: Option.Option<string>
  readonly from: Option.Option<string>
  readonly to: Option.Option<string>
  readonly full: boolean
  readonly account: Option.Option<string>
  readonly productType: Option.Option<ExportKind.ProductType>
  readonly baseUrl: Option.Option<string>
  readonly quiet: boolean
}

/**
 * A sync, checked: what to walk, as whom, into which database.
 *
 * @since 0.3.0
 * @category models
 */
export interface Plan {
  readonly kind: ExportKind.Kind
  /** `None`: from `BITGET_DATABASE_URL`. */
  readonly database: Option.Option<Redacted.Redacted<string>>
  readonly from: Option.Option<DateTime.Utc>
  readonly to: Option.Option<DateTime.Utc>
  readonly full: boolean
  readonly account: Option.Option<string>
  readonly productType: ExportKind.ProductType | null
  readonly baseUrl: Option.Option<string>
  readonly quiet: boolean
}

const usage = (problem: string) => Result.fail(new UsageError({ problem }))

const accountPattern = /^[\w.@+-]{1,64}$/

/** A `postgres://` URL, or what is wrong with it (never repeating the text: it may hold a password). */
const checkDatabase = (text: string): Result.Result<Redacted.Redacted<string>, UsageError> => {
  const url = URL.parse(text.trim())
  return url === null || !/^postgres(ql)?:$/.test(url.protocol) || url.hostname === ""
    ? usage("--database: expected postgres://USER:PASSWORD@HOST:PORT/DATABASE")
    : Result.succeed(Redacted.make(text.trim()))
}

/** The URL as it may be shown: the password replaced. */
const shown = (url: Redacted.Redacted<string>): string => {
  const parsed = new URL(Redacted.value(url))
  if (parsed.password !== "") parsed.password = "***"
  parsed.search = ""
  return parsed.href
}

/**
 * Checks a command line (`now` is the default `--to`). Fails with a
 * `UsageError` for anything that does not fit; nothing is opened or sent
 * before this passes.
 *
 * @since 0.3.0
 * @category constructors
 */
export const plan = (args: SyncArgs, now: DateTime.Utc): Result.Result<Plan, UsageError> => {
  const time = (flag: string, text: Option.Option<string>, end: TimeRange.End) =>
    Option.match(text, {
      onNone: () => Result.succeed(Option.none<DateTime.Utc>()),
      onSome: (text) =>
        Result.mapError(
          Result.map(TimeRange.parse(text, end), Option.some),
          (problem) => new UsageError({ problem: `${flag}: ${problem}` })
        )
    })
  const from = time("--from", args.from, "start")
  if (Result.isFailure(from)) return Result.fail(from.failure)
  const to = time("--to", args.to, "end")
  if (Result.isFailure(to)) return Result.fail(to.failure)
  const end = Option.getOrElse(to.success, () => now)
  if (Option.isSome(from.success)) {
    const start = from.success.value
    if (DateTime.isGreaterThan(start, end)) {
      return usage(`--from (${DateTime.formatIso(start)}) is after --to (${DateTime.formatIso(end)})`)
    }
    if (DateTime.toEpochMillis(start) < 0) return usage("--from: the exchange holds nothing before 1970")
  }
  const productType = Flags.checkProductType(args.kind, args.productType)
  if (Result.isFailure(productType)) return Result.fail(productType.failure)
  if (productType.success !== null) {
    const kept = DateTime.subtract(now, { days: FuturesHistory.historyDays })
    if (DateTime.isLessThan(end, kept)) {
      return usage(
        `--to (${DateTime.formatIso(end)}) is before ${DateTime.formatIso(kept)}: the exchange keeps ` +
          `${FuturesHistory.historyDays} days of futures orders, so the range holds none`
      )
    }
  }
  const baseUrl = Flags.checkBaseUrl(args.baseUrl)
  if (Result.isFailure(baseUrl)) return Result.fail(baseUrl.failure)
  const account = Option.map(args.account, (name) => name.trim())
  if (Option.isSome(account) && !accountPattern.test(account.value)) {
    return usage(`--account: 1 to 64 letters, digits or . _ @ + -, got "${account.value}"`)
  }
  const database = Option.match(args.database, {
    onNone: () => Result.succeed(Option.none<Redacted.Redacted<string>>()),
    onSome: (text) => Result.map(checkDatabase(text), Option.some)
  })
  if (Result.isFailure(database)) return Result.fail(database.failure)
  return Result.succeed({
    kind: args.kind,
    database: database.success,
    from: from.success,
    to: to.success,
    full: args.full,
    account,
    productType: productType.success,
    baseUrl: baseUrl.success,
    quiet: args.quiet
  })
}

/**
 * The account's name when `--account` is not given: `key-` and the first 8 hex
 * digits of the SHA-256 of the API key (the key cannot be read back from it).
 *
 * @since 0.3.0
 * @category constructors
 */
export const accountOf = (options: BitgetOptions): string =>
  Option.match(options.credentials, {
    onNone: () => "public",
    onSome: (credentials) =>
      `key-${createHash("sha256").update(Redacted.value(credentials.apiKey)).digest("hex").slice(0, 8)}`
  })

/** `--database`, or `BITGET_DATABASE_URL`; without either, a usage error. */
const databaseUrl = (plan: Plan) =>
  Option.match(plan.database, {
    onSome: Effect.succeed,
    onNone: () =>
      Effect.flatMap(Config.option(Config.Redacted("BITGET_DATABASE_URL")), (url) =>
        Option.match(url, {
          onNone: () => Effect.fail(new UsageError({ problem: "give --database URL or set BITGET_DATABASE_URL" })),
          onSome: (url) => Effect.fromResult(checkDatabase(Redacted.value(url)))
        }))
  })

/** The pipeline of a plan's kind. */
const pipeline = (plan: Plan, account: string) => {
  const options = {
    account,
    startTime: Option.getOrUndefined(plan.from),
    endTime: Option.getOrUndefined(plan.to),
    full: plan.full
  }
  switch (plan.kind) {
    case "tax-records":
      return Pipelines.taxRecords(options)
    case "futures-orders":
      return Pipelines.futuresHistory({ ...options, productType: plan.productType ?? ExportKind.defaultProductType })
    case "p2p-orders":
      return Pipelines.p2pOrders(options)
  }
}

const modes: Readonly<Record<Pipelines.Mode, string>> = {
  first: "first run",
  resumed: "resumed",
  incremental: "incremental",
  full: "full"
}

/**
 * The line a sync ends with.
 *
 * @example
 * ```ts
 * // tax-records of key-1a2b3c4d: 3,000 rows added, 0 updated, 0 unchanged, 13 pages;
 * //   2025-11-27T02:00:00.000Z to 2026-11-27T02:00:00.000Z (first run) into postgres://bitget:***@db:5432/ledger
 * ```
 *
 * @since 0.3.0
 * @category formatting
 */
export const summaryLine = (kind: ExportKind.Kind, summary: Pipelines.Summary, database: string): string =>
  `${kind} of ${summary.account}: ${ProgressView.counted(summary.added, "row")} added, ` +
  `${ProgressView.count(summary.updated)} updated, ${ProgressView.count(summary.unchanged)} unchanged, ` +
  `${ProgressView.counted(summary.pages, "page")}; ${DateTime.formatIso(summary.range.start)} to ` +
  `${DateTime.formatIso(summary.range.end)} (${modes[summary.mode]}) into ${database}`

/**
 * Runs a checked sync: checks the runtime and the configuration, opens and
 * migrates the database (a wrong address, login or version fails here, with
 * exit code 2), then syncs with progress and Effect's log on standard error,
 * and prints the summary on standard output.
 *
 * @since 0.3.0
 * @category running
 */
export const run = (plan: Plan) =>
  Effect.gen(function*() {
    const kind = ExportKind.byKind[plan.kind]
    const options = yield* Client.checkConfig(kind, plan.baseUrl)
    const account = Option.getOrElse(plan.account, () => accountOf(options))
    const url = yield* databaseUrl(plan)
    const summary = yield* Effect.scoped(walk(plan, account, url))
    yield* Console.log(summaryLine(plan.kind, summary, shown(url)))
  })

/** The sync itself, with its progress view (erased when the scope closes, before the summary is printed). */
const walk = (plan: Plan, account: string, url: Redacted.Redacted<string>) =>
  Effect.gen(function*() {
    const state = { records: 0, progress: undefined as StreamProgress.StreamProgress | undefined }
    const started = Date.now()
    const view = yield* ProgressView.make({
      mode: ProgressView.modeOf({ quiet: plan.quiet, terminal: process.stderr.isTTY === true }),
      snapshot: () => ({
        label: `${plan.kind} (${account})`,
        records: state.progress?.records ?? 0,
        progress: state.progress,
        elapsed: Duration.millis(Date.now() - started)
      })
    })
    return yield* pipeline(plan, account).pipe(
      Effect.provideService(StreamProgress.Observer, (progress) =>
        Effect.sync(() => {
          state.progress = progress
        })),
      Effect.provide(Client.client(plan.baseUrl)),
      Effect.provide(BitgetSql.layer({ url, applicationName: "bitget-sync" })),
      Effect.onInterrupt(() =>
        Effect.sync(() =>
          view.finish(`${plan.kind}: interrupted; what was written is kept, run the same command again to go on`)
        )
      ),
      Effect.provide(Logger.layer([view.logger])),
      plan.quiet ? Effect.provideService(References.MinimumLogLevel, "Error") : identity
    )
  })

const kind = Argument.Literals("sync", ExportKind.kinds).pipe(
  Argument.withDescription("what to sync: tax-records, futures-orders or p2p-orders")
)

const flags = {
  database: Flag.String("database").pipe(
    Flag.withMetavar("URL"),
    Flag.withDescription("postgres://USER:PASSWORD@HOST:PORT/DATABASE (default: BITGET_DATABASE_URL, safer)"),
    Flag.optional
  ),
  from: Flag.String("from").pipe(
    Flag.withMetavar("DATE"),
    Flag.withDescription("start of a first or --full run (default: what the exchange keeps); later runs go on"),
    Flag.optional
  ),
  to: Flag.String("to").pipe(
    Flag.withMetavar("DATE"),
    Flag.withDescription("end of the range, included: a date (to 23:59:59.999Z of that day) or a date and time"),
    Flag.optional
  ),
  full: Flag.Boolean("full").pipe(
    Flag.withDescription("walk the whole range again, whatever is stored (rows are upserted, never doubled)"),
    Flag.withDefault(false)
  ),
  account: Flag.String("account").pipe(
    Flag.withMetavar("NAME"),
    Flag.withDescription("the account's name in the tables (default: key- and a hash of the API key)"),
    Flag.optional
  ),
  productType: Flags.productType,
  baseUrl: Flags.baseUrl,
  quiet: Flags.quiet
}

/**
 * The `sync` command.
 *
 * @since 0.3.0
 * @category running
 */
export const command = Command.make(
  "sync",
  { kind, ...flags },
  (args) => Effect.flatMap(DateTime.now, (now) => Effect.flatMap(Effect.fromResult(plan(args, now)), run))
).pipe(
  Command.withDescription(
    "Sync records into Postgres: a first run fetches the range, later runs only what is new. Credentials from " +
      "BITGET_API_KEY, BITGET_API_SECRET and BITGET_API_PASSPHRASE."
  )
)
