/**
 * `bitget export` from a program: `plan` checks the values of a command line
 * (`<tax-records|futures-orders|p2p-orders> --from … [--to …]
 * [--product-type …] [--format csv|ndjson] [--out FILE [--resume] [--force]]
 * [--base-url URL] [--quiet]`) and `run` exports every record of the range,
 * oldest window first, as CSV or NDJSON on standard output or in a file. A
 * file appears only complete (written as `FILE.part`, renamed at the end); an
 * export that stops after some progress keeps `FILE.checkpoint.json`, and
 * `--resume` continues it. An existing `FILE` is replaced only with `--force`
 * (or `--resume`). The configuration is checked before any file is touched.
 *
 * @stability unstable
 * @since 0.1.0
 */
import type { BitgetError } from "@bitget-effect/core/BitgetError"
import type * as Config from "effect/Config"
import * as DateTime from "effect/DateTime"
import * as Effect from "effect/Effect"
import type * as FileSystem from "effect/FileSystem"
import { identity } from "effect/Function"
import * as Logger from "effect/Logger"
import * as Option from "effect/Option"
import type * as PlatformError from "effect/PlatformError"
import * as References from "effect/References"
import * as Result from "effect/Result"
import type * as Schema from "effect/Schema"
import * as Checkpoint from "./internal/checkpoint.js"
import * as Client from "./internal/client.js"
import * as ExportKind from "./internal/exportKind.js"
import * as FileExport from "./internal/fileExport.js"
import * as Flags from "./internal/flags.js"
import * as Formats from "./internal/format.js"
import * as Job from "./internal/job.js"
import * as Output from "./internal/output.js"
import type { StdoutClosed } from "./internal/output.js"
import * as TimeRange from "./internal/timeRange.js"
import { UsageError } from "./internal/usageError.js"

/**
 * An export name: `tax-records`, `futures-orders` or `p2p-orders`.
 *
 * @since 0.2.0
 * @category models
 */
export type Kind = ExportKind.Kind

/**
 * A futures product type (`--product-type`), such as `USDT-FUTURES`.
 *
 * @since 0.2.0
 * @category models
 */
export type ProductType = ExportKind.ProductType

/**
 * An output format (`--format`): `csv` or `ndjson`.
 *
 * @since 0.2.0
 * @category models
 */
export type Format = Formats.Format

export {
  /**
   * `true` for a `UsageError`.
   *
   * @since 0.2.0
   * @category predicates
   */
  isUsageError,
  /**
   * A command line the export cannot run (`plan` and `run` fail with it; the command exits with code 2).
   *
   * @since 0.2.0
   * @category errors
   */
  UsageError
} from "./internal/usageError.js"

export {
  /**
   * Standard output was closed by its reader (`run` to standard output, piped into `head`).
   *
   * @since 0.2.0
   * @category errors
   */
  StdoutClosed
} from "./internal/output.js"

/**
 * The command line of an export, as parsed.
 *
 * @since 0.1.0
 * @category models
 */
export interface ExportArgs {
  readonly kind: Kind
  readonly from: string
  readonly to: Option.Option<string>
  readonly productType: Option.Option<ProductType>
  readonly format: Option.Option<Format>
  readonly out: Option.Option<string>
  readonly resume: boolean
  /** Replace `--out FILE` if it exists. */
  readonly force: boolean
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
  readonly kind: Kind
  readonly from: DateTime.Utc
  /** `None` when `--to` was not given: now, or the checkpoint's when resuming. */
  readonly to: Option.Option<DateTime.Utc>
  /** The product type of a futures export; `null` for the others. */
  readonly productType: ProductType | null
  readonly format: Format
  readonly out: Option.Option<string>
  readonly resume: boolean
  /** Replace `out` if it exists (without it, or `resume`, an existing file stops the export before it starts). */
  readonly force: boolean
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
  const productType = Flags.checkProductType(args.kind, args.productType)
  if (Result.isFailure(productType)) return Result.fail(productType.failure)
  if (args.resume && Option.isNone(args.out)) return usage("--resume continues an export to a file: give --out FILE")
  if (args.force && Option.isNone(args.out)) return usage("--force replaces an existing --out FILE: give --out FILE")
  const baseUrl = Flags.checkBaseUrl(args.baseUrl)
  if (Result.isFailure(baseUrl)) return Result.fail(baseUrl.failure)
  return Result.succeed({
    kind: args.kind,
    from: from.success,
    to: to.success,
    productType: productType.success,
    format: Option.getOrElse(args.format, () => Formats.fromFileName(Option.getOrUndefined(args.out))),
    out: args.out,
    resume: args.resume,
    force: args.force,
    baseUrl: baseUrl.success,
    quiet: args.quiet
  })
}

const stdoutName = "standard output"

/** An export to standard output; interrupted, it says how many records it wrote. */
const toStdout = (job: Job.Job) =>
  Effect.gen(function*() {
    const output = yield* Output.stdout
    yield* output.write(job.kind.header(job.format))
    yield* Job.writeAll(job, output, () => {}, Effect.void)
    Job.finish(job, stdoutName)
  }).pipe(Effect.onInterrupt(() => Effect.sync(() => Job.interrupted(job, stdoutName))))

/**
 * Runs a checked export: resolves where it starts (reading the checkpoint
 * for `--resume`), refuses to replace an existing `--out` file without
 * `--force` (or `--resume`), checks the runtime and the configuration
 * (`BITGET_*` and `--base-url`), then walks the range through the client,
 * writing as it goes, with progress and Effect's log on standard error.
 * Nothing is sent or written, and no earlier checkpoint replaced, before
 * these checks pass.
 *
 * @since 0.1.0
 * @category running
 */
export const run = (
  plan: Plan
): Effect.Effect<
  void,
  BitgetError | Config.ConfigError | PlatformError.PlatformError | Schema.SchemaError | StdoutClosed | UsageError,
  FileSystem.FileSystem
> =>
  Effect.gen(function*() {
    const kind = ExportKind.byKind[plan.kind]
    const paths = Option.map(plan.out, Checkpoint.paths)
    const wanted: Checkpoint.Wanted = {
      kind: plan.kind,
      productType: plan.productType,
      format: plan.format,
      from: plan.from,
      to: plan.to
    }
    const resumed = Option.isSome(paths) && plan.resume
      ? Option.some(yield* Checkpoint.resumePoint(paths.value, wanted))
      : Option.none()
    if (Option.isSome(paths) && !plan.resume && !plan.force) yield* Checkpoint.refuseToReplace(paths.value)
    yield* Client.checkConfig(kind, plan.baseUrl)
    const now = yield* DateTime.now
    const job = yield* Job.start({
      kind,
      format: plan.format,
      walk: {
        start: plan.from,
        end: Option.getOrElse(plan.to, () => Option.match(resumed, { onNone: () => now, onSome: (c) => c.to })),
        productType: plan.productType ?? ExportKind.defaultProductType,
        resume: Option.getOrUndefined(Option.flatMapNullishOr(resumed, (c) => c.stream))
      },
      records: Option.match(resumed, { onNone: () => 0, onSome: (c) => c.records }),
      quiet: plan.quiet
    })
    const exported = Option.match(paths, {
      onNone: () => toStdout(job),
      onSome: (paths) => FileExport.toFile(job, { paths, resumed, wanted })
    })
    yield* exported.pipe(
      Effect.provide(Client.client(plan.baseUrl)),
      // Effect's log goes to standard error, never among the records (in place of every logger installed)
      Effect.provide(Logger.layer([job.view.logger])),
      // otherwise the level is Effect's default (info), or the one `--log-level` sets
      plan.quiet ? Effect.provideService(References.MinimumLogLevel, "Error") : identity
    )
  }).pipe(Effect.scoped)
