/**
 * `bitget export <tax-records|futures-orders|p2p-orders> --from … [--to …]
 * [--product-type …] [--format csv|ndjson] [--out FILE [--resume]]
 * [--base-url URL] [--quiet]`: every record of a range, oldest window first,
 * as CSV or NDJSON on standard output or in a file. A file appears only
 * complete (written as `FILE.part`, renamed at the end); an export that stops
 * after some progress keeps `FILE.checkpoint.json`, and `--resume` continues
 * it. The configuration is checked before any file is touched.
 *
 * @since 0.1.0
 */
import type * as BitgetClient from "@bitget-effect/core/BitgetClient"
import * as BitgetConfig from "@bitget-effect/core/BitgetConfig"
import { type BitgetError, BitgetRequestError, isBitgetError } from "@bitget-effect/core/BitgetError"
import * as BitgetFetch from "@bitget-effect/core/BitgetFetch"
import * as Endpoint from "@bitget-effect/core/Endpoint"
import * as FuturesHistory from "@bitget-effect/core/FuturesHistory"
import * as Retry from "@bitget-effect/core/Retry"
import * as StreamProgress from "@bitget-effect/core/StreamProgress"
import * as BitgetNode from "@bitget-effect/platform-node/BitgetNode"
import * as UndiciTransport from "@bitget-effect/platform-node/UndiciTransport"
import * as Cause from "effect/Cause"
import { Argument, Command, Flag } from "effect/cli"
import type * as Config from "effect/Config"
import * as ConfigProvider from "effect/ConfigProvider"
import * as DateTime from "effect/DateTime"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as FileSystem from "effect/FileSystem"
import { identity } from "effect/Function"
import * as Layer from "effect/Layer"
import * as Logger from "effect/Logger"
import * as Option from "effect/Option"
import type * as PlatformError from "effect/PlatformError"
import * as References from "effect/References"
import * as Result from "effect/Result"
import type * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import * as Checkpoint from "./Checkpoint.js"
import * as ExportKind from "./ExportKind.js"
import * as Format from "./Format.js"
import * as Output from "./Output.js"
import * as ProgressView from "./ProgressView.js"
import * as TimeRange from "./TimeRange.js"
import { UsageError } from "./UsageError.js"

/**
 * The command line of an export, as parsed.
 *
 * @since 0.1.0
 * @category models
 */
export interface ExportArgs {
  readonly kind: ExportKind.Kind
  readonly from: string
  readonly to: Option.Option<string>
  readonly productType: Option.Option<ExportKind.ProductType>
  readonly format: Option.Option<Format.Format>
  readonly out: Option.Option<string>
  readonly resume: boolean
  readonly baseUrl: Option.Option<string>
  readonly quiet: boolean
}

/**
 * An export, checked and resolved: what to walk, in which format, to where.
 *
 * @since 0.1.0
 * @category models
 */
export interface Plan {
  readonly kind: ExportKind.ExportKind
  readonly from: DateTime.Utc
  /** `None` when `--to` was not given: now, or the checkpoint's when resuming. */
  readonly to: Option.Option<DateTime.Utc>
  /** The product type of a futures export; `null` for the others. */
  readonly productType: ExportKind.ProductType | null
  readonly format: Format.Format
  readonly out: Option.Option<string>
  readonly resume: boolean
  readonly baseUrl: Option.Option<string>
  readonly quiet: boolean
}

const usage = (problem: string) => Result.fail(new UsageError({ problem }))

/**
 * Checks a command line and resolves it (`now` is the default `--to` of the
 * comparison with `--from`). Fails with a `UsageError` for anything that
 * does not fit; nothing is sent before this passes.
 *
 * @since 0.1.0
 * @category constructors
 */
export const plan = (args: ExportArgs, now: DateTime.Utc): Result.Result<Plan, UsageError> => {
  const kind = ExportKind.byKind[args.kind]
  const from = TimeRange.parse(args.from, "start")
  if (Result.isFailure(from)) return usage(`--from: ${from.failure}`)
  const to = Option.match(args.to, {
    onNone: () => Result.succeed(Option.none<DateTime.Utc>()),
    onSome: (text) => Result.map(TimeRange.parse(text, "end"), Option.some)
  })
  if (Result.isFailure(to)) return usage(`--to: ${to.failure}`)
  const end = Option.getOrElse(to.success, () => now)
  if (DateTime.isGreaterThan(from.success, end)) {
    return usage(`--from (${DateTime.formatIso(from.success)}) is after --to (${DateTime.formatIso(end)})`)
  }
  if (!kind.futures && Option.isSome(args.productType)) {
    return usage(`--product-type applies to futures-orders only, not to ${args.kind}`)
  }
  if (args.resume && Option.isNone(args.out)) return usage("--resume continues an export to a file: give --out FILE")
  const baseUrl = args.baseUrl.pipe(Option.map((url) => url.trim()))
  if (Option.isSome(baseUrl) && !/^https?:\/\/[^\s/]+/i.test(baseUrl.value)) {
    return usage(`--base-url: expected an http(s) URL, got "${baseUrl.value}"`)
  }
  return Result.succeed({
    kind,
    from: from.success,
    to: to.success,
    productType: kind.futures ? Option.getOrElse(args.productType, () => ExportKind.defaultProductType) : null,
    format: Option.getOrElse(args.format, () => Format.fromFileName(Option.getOrUndefined(args.out))),
    out: args.out,
    resume: args.resume,
    baseUrl,
    quiet: args.quiet
  })
}

/** What the progress view reads: records written so far and the stream's latest report. */
interface State {
  records: number
  progress: StreamProgress.StreamProgress | undefined
}

/** `layer` reading `--base-url` in place of `BITGET_BASE_URL` (and every other variable as configured). */
const withBaseUrl = <A, E, R>(layer: Layer.Layer<A, E, R>, baseUrl: Option.Option<string>): Layer.Layer<A, E, R> =>
  Option.match(baseUrl, {
    onNone: () => layer,
    onSome: (url) =>
      layer.pipe(
        Layer.provide(
          ConfigProvider.layerAdd(ConfigProvider.fromEnv({ env: { BITGET_BASE_URL: url } }), { asPrimary: true })
        )
      )
  })

/** Whether a layer died because this runtime's undici cannot send: `UndiciTransport`'s own check of its agent (Bun). */
const undiciCannotSend = (cause: Cause.Cause<unknown>): boolean =>
  cause.reasons.some((reason) => Cause.isDieReason(reason) && UndiciTransport.isUnsupported(reason.defect))

/**
 * The client of an export, from `BITGET_*` and `--base-url`: `BitgetNode`'s (undici, node:crypto), or, where
 * undici cannot send (Bun's stand-in), `BitgetFetch`'s (fetch, WebCrypto), with the same configuration.
 */
const client = (plan: Plan): Layer.Layer<BitgetClient.BitgetClient, Config.ConfigError> =>
  withBaseUrl(BitgetNode.layerConfig(), plan.baseUrl).pipe(
    Layer.catchCause((cause) =>
      undiciCannotSend(cause)
        ? withBaseUrl(BitgetFetch.layerConfig(), plan.baseUrl)
        : Layer.effectContext(Effect.failCause(cause))
    )
  )

/**
 * Reads the configuration as the client will, and fails as the export would
 * (a bad `BITGET_*` value, incomplete credentials, or none for a signed
 * export), before anything is sent or any file touched.
 */
const checkConfig = (plan: Plan): Effect.Effect<void, Config.ConfigError | BitgetRequestError> =>
  Effect.gen(function*() {
    const options = yield* BitgetConfig.BitgetConfig.pipe(
      Effect.provide(withBaseUrl(BitgetConfig.layerConfig(), plan.baseUrl))
    )
    const { endpoint } = plan.kind
    if (endpoint.auth === "signed" && Option.isNone(options.credentials)) {
      return yield* new BitgetRequestError({
        endpoint: Endpoint.label(endpoint),
        reason: "NoCredentials",
        issue: `${plan.kind.kind} reads your account: it needs an API key`
      })
    }
  })

/** Where an export starts: the range, and for a resumed file what the earlier run left. */
interface Start {
  readonly walk: ExportKind.Walk
  readonly resumed: Option.Option<Checkpoint.Checkpoint>
}

/** Writes the walk's batches to `output`, counting records in `state`; `afterWrite` runs after each batch. */
const writeAll = <E>(
  plan: Plan,
  walk: ExportKind.Walk,
  output: Output.Output<E>,
  state: State,
  onProgress: (progress: StreamProgress.StreamProgress) => void,
  afterWrite: Effect.Effect<void, PlatformError.PlatformError, FileSystem.FileSystem>
): Effect.Effect<
  void,
  E | BitgetError | PlatformError.PlatformError,
  BitgetClient.BitgetClient | FileSystem.FileSystem
> =>
  plan.kind.batches(walk, plan.format).pipe(
    StreamProgress.observe((progress) =>
      Effect.sync(() => {
        state.progress = progress
        onProgress(progress)
      })
    ),
    // a batch is written (and waited for) before the next page is pulled
    Stream.runForEach((batch) =>
      output.write(batch.text).pipe(
        Effect.andThen(Effect.sync(() => {
          state.records += batch.records
        })),
        Effect.andThen(afterWrite)
      )
    )
  )

/** The summary of a finished export. */
const summary = (plan: Plan, state: State, elapsed: Duration.Duration, where: string) =>
  `${plan.kind.kind}: ${ProgressView.count(state.records)} records to ${where} in ${ProgressView.clock(elapsed)}` +
  (state.progress === undefined
    ? ""
    : ` (${ProgressView.count(state.progress.pages)} pages, ${state.progress.windowsTotal} windows)`)

/** An export to standard output. */
const toStdout = (plan: Plan, walk: ExportKind.Walk, state: State, view: ProgressView.ProgressView, started: number) =>
  Effect.gen(function*() {
    const output = yield* Output.stdout
    yield* output.write(plan.kind.header(plan.format))
    yield* writeAll(plan, walk, output, state, () => {}, Effect.void)
    view.finish(summary(plan, state, Duration.millis(Date.now() - started), "standard output"))
  })

/** Reads and checks what `--resume` continues from; fails with a `UsageError` when it cannot. */
const resumePoint = (plan: Plan, paths: Checkpoint.Paths) =>
  Effect.gen(function*() {
    const fs = yield* FileSystem.FileSystem
    const saved = yield* Checkpoint.read(paths.checkpoint)
    if (Option.isNone(saved)) {
      return yield* new UsageError({
        problem: `nothing to resume: there is no checkpoint ${paths.checkpoint} (run without --resume to start)`
      })
    }
    const checkpoint = saved.value
    const differences = Checkpoint.differences(checkpoint, {
      kind: plan.kind.kind,
      productType: plan.productType,
      format: plan.format,
      from: plan.from,
      to: plan.to
    })
    if (differences.length > 0) {
      return yield* new UsageError({
        problem: `the checkpoint ${paths.checkpoint} is of another export: ${differences.join("; ")}`
      })
    }
    const size = yield* fs.stat(paths.part).pipe(
      Effect.map((info) => Number(info.size)),
      Effect.orElseSucceed(() => -1)
    )
    if (size < checkpoint.bytes) {
      return yield* new UsageError({
        problem:
          `${paths.part} is ${
            size < 0 ? "missing" : `shorter than the checkpoint says (${size} < ${checkpoint.bytes} bytes)`
          }: ` +
          `delete ${paths.checkpoint} to start over`
      })
    }
    return checkpoint
  })

/**
 * `true` when running the export again may get past what stopped it: an
 * interruption, the file system, or a failure the client retries (the
 * network, a busy exchange). Not an auth, permission or parameter error, a
 * request refused before sending, or a defect: those need a fix first.
 */
const resumable = (plan: Plan, cause: Cause.Cause<unknown>): boolean =>
  Option.match(Cause.findErrorOption(cause), {
    onNone: () => Cause.hasInterruptsOnly(cause),
    onSome: (error) => !isBitgetError(error) || Retry.isRetryable(plan.kind.endpoint.idempotency)(error)
  })

/**
 * An export to a file: `FILE.part`, checkpointed, renamed to `FILE` when
 * complete. The files are opened at the first records (or at the end of an
 * export that has none): until then an earlier export's `FILE.part` and
 * checkpoint stay as they are, and a run that stops leaves nothing. One that
 * stops later keeps its checkpoint if it holds any progress, and removes both
 * files if it holds none.
 */
const toFile = (
  plan: Plan,
  paths: Checkpoint.Paths,
  start: Start,
  state: State,
  view: ProgressView.ProgressView,
  started: number
) =>
  Effect.gen(function*() {
    const fs = yield* FileSystem.FileSystem
    // the file is opened later, in this scope
    const context = yield* Effect.context<FileSystem.FileSystem | Scope.Scope>()
    const { walk } = start
    const base = {
      version: 1 as const,
      kind: plan.kind.kind,
      productType: plan.productType,
      format: plan.format,
      from: plan.from,
      to: walk.end
    }
    // the file once opened; the latest point up to which it is complete, and the one on disk
    let output: Output.FileOutput | undefined
    let latest = Option.getOrUndefined(start.resumed)
    let saved = latest
    let windowsDone = 0
    const save = Effect.suspend(() => {
      const checkpoint = latest
      return checkpoint === undefined || checkpoint === saved ? Effect.void : Effect.andThen(
        Checkpoint.write(paths.checkpoint, checkpoint),
        Effect.sync(() => {
          saved = checkpoint
        })
      )
    })
    const open = Effect.suspend(() =>
      output !== undefined ? Effect.succeed(output) : Effect.gen(function*() {
        const opened = yield* Output.file(paths.part, saved?.bytes)
        output = opened
        if (saved !== undefined) return opened
        // a new export: its first checkpoint replaces any earlier one, which the file no longer matches
        const replaced = yield* Effect.orElseSucceed(fs.exists(paths.checkpoint), () => false)
        yield* opened.write(plan.kind.header(plan.format))
        latest = new Checkpoint.Checkpoint({ ...base, resumeFrom: walk.start, bytes: opened.bytes(), records: 0 })
        yield* save
        if (replaced) {
          view.print(
            `note: starting over; the checkpoint of an earlier export to ${paths.out} is replaced ` +
              "(--resume continues one)"
          )
        }
        return opened
      }).pipe(Effect.provide(context))
    )
    // With windows walked oldest first, a report that counts one more window
    // done and names the next one means every record before that window's
    // start has been pulled, and so written: the file up to here holds
    // exactly those records.
    const onProgress = (progress: StreamProgress.StreamProgress) => {
      if (
        output !== undefined && latest !== undefined && progress.windowsDone > windowsDone &&
        Option.isSome(progress.window)
      ) {
        const resumeFrom = progress.window.value.start
        if (DateTime.isGreaterThan(resumeFrom, latest.resumeFrom)) {
          latest = new Checkpoint.Checkpoint({ ...base, resumeFrom, bytes: output.bytes(), records: state.records })
        }
      }
      windowsDone = Math.max(windowsDone, progress.windowsDone)
    }
    const file: Output.Output<PlatformError.PlatformError> = {
      write: (text) => Effect.flatMap(open, (opened) => opened.write(text)),
      bytes: () => output?.bytes() ?? 0
    }
    /** What a stopped export leaves: its checkpoint if it holds progress, else no file at all. */
    const stopped = (cause: Cause.Cause<unknown>) =>
      Effect.gen(function*() {
        yield* Effect.ignore(save)
        if (saved === undefined) return
        const stop = `${plan.kind.kind}: stopped after ${ProgressView.count(state.records)} records`
        if (Checkpoint.isEmpty(saved)) {
          yield* Effect.ignore(fs.remove(paths.checkpoint))
          yield* Effect.ignore(fs.remove(paths.part))
          return view.finish(`${stop}, before a time window was complete: nothing is kept`)
        }
        view.finish(
          `${stop}; ${paths.checkpoint} keeps the first ${ProgressView.count(saved.records)}` +
            (resumable(plan, cause) ? ": run the same command with --resume to continue" : "")
        )
      })
    yield* writeAll(plan, walk, file, state, onProgress, save).pipe(Effect.onError((cause) => stopped(cause)))
    yield* Effect.flatMap(open, (opened) => opened.sync)
  }).pipe(
    Effect.scoped,
    // the file is closed here; it becomes the output, and the checkpoint goes
    Effect.andThen(Effect.gen(function*() {
      const fs = yield* FileSystem.FileSystem
      yield* fs.rename(paths.part, paths.out)
      yield* Effect.ignore(fs.remove(paths.checkpoint))
      view.finish(summary(plan, state, Duration.millis(Date.now() - started), paths.out))
    }))
  )

/**
 * Runs a checked export: resolves where it starts (reading the checkpoint
 * for `--resume`), checks the configuration (`BITGET_*` and `--base-url`),
 * then walks the range through the client, writing as it goes, with
 * progress and Effect's log on standard error. Nothing is written, and no
 * earlier checkpoint replaced, before the configuration passes.
 *
 * @since 0.1.0
 * @category running
 */
export const run = (
  plan: Plan
): Effect.Effect<
  void,
  BitgetError | Config.ConfigError | PlatformError.PlatformError | Output.StdoutClosed | UsageError,
  FileSystem.FileSystem
> =>
  Effect.gen(function*() {
    const paths = Option.map(plan.out, Checkpoint.paths)
    const resumed = Option.isSome(paths) && plan.resume
      ? Option.some(yield* resumePoint(plan, paths.value))
      : Option.none()
    yield* checkConfig(plan)
    const now = yield* DateTime.now
    const walk: ExportKind.Walk = {
      start: Option.match(resumed, { onNone: () => plan.from, onSome: (c) => c.resumeFrom }),
      end: Option.getOrElse(plan.to, () => Option.match(resumed, { onNone: () => now, onSome: (c) => c.to })),
      productType: plan.productType ?? ExportKind.defaultProductType
    }
    const state: State = {
      records: Option.match(resumed, { onNone: () => 0, onSome: (c) => c.records }),
      progress: undefined
    }
    const started = Date.now()
    const view = yield* ProgressView.make({
      mode: ProgressView.modeOf({ quiet: plan.quiet, terminal: process.stderr.isTTY === true }),
      snapshot: () => ({
        label: plan.kind.kind,
        records: state.records,
        progress: state.progress,
        elapsed: Duration.millis(Date.now() - started)
      })
    })
    const exported = Option.match(paths, {
      onNone: () => toStdout(plan, walk, state, view, started),
      onSome: (paths) => toFile(plan, paths, { walk, resumed }, state, view, started)
    })
    yield* exported.pipe(
      Effect.provide(client(plan)),
      // Effect's log goes to standard error, never among the records (in place of every logger installed)
      Effect.provide(Logger.layer([view.logger])),
      // otherwise the level is Effect's default (info), or the one `--log-level` sets
      plan.quiet ? Effect.provideService(References.MinimumLogLevel, "Error") : identity
    )
  }).pipe(Effect.scoped)

const kind = Argument.Literals("export", ExportKind.kinds).pipe(
  Argument.withDescription("what to export: tax-records, futures-orders or p2p-orders")
)

const flags = {
  from: Flag.String("from").pipe(
    Flag.withMetavar("DATE"),
    Flag.withDescription(
      "start of the range: a date (2025-01-01, from 00:00:00.000Z) or a date and time (2025-01-01T12:00:00Z)"
    )
  ),
  to: Flag.String("to").pipe(
    Flag.withMetavar("DATE"),
    Flag.withDescription(
      "end of the range, included: a date (to 23:59:59.999Z of that day) or a date and time; default now"
    ),
    Flag.optional
  ),
  productType: Flag.Literals("product-type", FuturesHistory.productTypes).pipe(
    Flag.withDescription(`futures-orders only: the product type (default ${ExportKind.defaultProductType})`),
    Flag.optional
  ),
  format: Flag.Literals("format", Format.formats).pipe(
    Flag.withDescription("csv or ndjson (default: csv for an --out file ending in .csv, ndjson otherwise)"),
    Flag.optional
  ),
  out: Flag.String("out").pipe(
    Flag.withMetavar("FILE"),
    Flag.withDescription("write to FILE (via FILE.part, renamed when complete) instead of standard output"),
    Flag.optional
  ),
  resume: Flag.Boolean("resume").pipe(
    Flag.withDescription("continue an interrupted export to --out FILE from FILE.checkpoint.json"),
    Flag.withDefault(false)
  ),
  baseUrl: Flag.String("base-url").pipe(
    Flag.withMetavar("URL"),
    Flag.withDescription("the exchange's address (default: BITGET_BASE_URL, or https://api.bitget.com)"),
    Flag.optional
  ),
  quiet: Flag.Boolean("quiet").pipe(
    Flag.withAlias("q"),
    Flag.withDescription("no progress and no log on standard error (errors still)"),
    Flag.withDefault(false)
  )
}

/**
 * The `export` command.
 *
 * @since 0.1.0
 * @category commands
 */
export const command = Command.make(
  "export",
  { kind, ...flags },
  (args) => Effect.flatMap(DateTime.now, (now) => Effect.flatMap(Effect.fromResult(plan(args, now)), run))
).pipe(
  Command.withDescription(
    "Export every record of a range as CSV or NDJSON. Credentials from BITGET_API_KEY, BITGET_API_SECRET and " +
      "BITGET_API_PASSPHRASE."
  )
)
