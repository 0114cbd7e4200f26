/**
 * An export to a file: `FILE.part`, checkpointed after every page, renamed
 * to `FILE` when complete. The files are opened at the first records (or at
 * the end of an export that has none): until then an earlier export's
 * `FILE.part` and checkpoint stay as they are, and a run that stops leaves
 * nothing. One that stops later keeps its checkpoint if it holds any
 * progress, and removes both files if it holds none.
 *
 * @since 0.2.0
 */
import { isBitgetError } from "@bitget-effect/core/BitgetError"
import type * as Resumable from "@bitget-effect/core/Resumable"
import * as Retry from "@bitget-effect/core/Retry"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as FileSystem from "effect/FileSystem"
import * as Option from "effect/Option"
import type * as PlatformError from "effect/PlatformError"
import type * as Scope from "effect/Scope"
import * as Checkpoint from "./checkpoint.js"
import type * as ExportKind from "./exportKind.js"
import * as Job from "./job.js"
import * as Output from "./output.js"
import * as ProgressView from "./progressView.js"

/**
 * Where an export to a file goes, and what it starts from.
 *
 * @since 0.2.0
 * @category models
 */
export interface Target {
  readonly paths: Checkpoint.Paths
  /** The checkpoint of an earlier run that this one continues (`--resume`). */
  readonly resumed: Option.Option<Checkpoint.Checkpoint>
  /** The export as asked, which every checkpoint names (with the end of the walk as its `to`). */
  readonly wanted: Checkpoint.Wanted
}

/** An export to a file as it goes. */
interface FileRun {
  readonly job: Job.Job
  readonly paths: Checkpoint.Paths
  readonly fs: FileSystem.FileSystem
  /** A checkpoint of this export: `bytes` long, with the records written so far, after `stream`. */
  readonly at: (stream: Resumable.Checkpoint | null, bytes: number) => Checkpoint.Checkpoint
  /** The file, once opened. */
  output: Output.FileOutput | undefined
  /** The latest point up to which the file is complete, and the one on disk. */
  latest: Checkpoint.Checkpoint | undefined
  saved: Checkpoint.Checkpoint | undefined
}

/** Writes the latest checkpoint, unless it is the one on disk. */
const save = (run: FileRun) =>
  Effect.suspend(() => {
    const checkpoint = run.latest
    return checkpoint === undefined || checkpoint === run.saved ? Effect.void : Effect.andThen(
      Checkpoint.write(run.paths.checkpoint, checkpoint),
      Effect.sync(() => {
        run.saved = checkpoint
      })
    )
  })

/**
 * Opens `FILE.part`: cut back to the checkpoint when resuming; for a new
 * export, with the header and a first checkpoint, which replaces any earlier
 * one (the file no longer matches it).
 */
const open = (run: FileRun) =>
  Effect.gen(function*() {
    const { job, paths } = run
    const opened = yield* Output.file(paths.part, run.saved?.bytes)
    run.output = opened
    if (run.saved !== undefined) return opened
    const replaced = yield* Effect.orElseSucceed(run.fs.exists(paths.checkpoint), () => false)
    yield* opened.write(job.kind.header(job.format))
    run.latest = run.at(null, opened.bytes())
    yield* save(run)
    if (replaced) {
      job.view.print(
        `note: starting over; the checkpoint of an earlier export to ${paths.out} is replaced ` +
          "(--resume continues one)"
      )
    }
    return opened
  })

/**
 * Moves the checkpoint on once a page is written: the file up to here holds
 * exactly the records before the page's checkpoint.
 */
const advance = (run: FileRun) => (batch: ExportKind.Batch): void => {
  if (run.output !== undefined) run.latest = run.at(batch.checkpoint, run.output.bytes())
}

/**
 * `true` when running the export again may get past what stopped it: an
 * interruption, the file system, or a failure the client retries (the
 * network, a busy exchange). Not an auth, permission or parameter error, a
 * request refused before sending, or a defect: those need a fix first.
 */
const resumable = (run: FileRun, cause: Cause.Cause<unknown>): boolean =>
  Option.match(Cause.findErrorOption(cause), {
    onNone: () => Cause.hasInterruptsOnly(cause),
    onSome: (error) => !isBitgetError(error) || Retry.isRetryable(run.job.kind.endpoint.idempotency)(error)
  })

/** What a stopped export leaves: its checkpoint if it holds progress, else no file at all. */
const stopped = (run: FileRun, cause: Cause.Cause<unknown>) =>
  Effect.gen(function*() {
    const { job, paths } = run
    yield* Effect.ignore(save(run))
    const saved = run.saved
    if (saved === undefined) return
    const stop = `${job.kind.kind}: stopped after ${ProgressView.counted(job.state.records, "record")}`
    if (Checkpoint.isEmpty(saved)) {
      yield* Effect.ignore(run.fs.remove(paths.checkpoint))
      yield* Effect.ignore(run.fs.remove(paths.part))
      return job.view.finish(`${stop}, before the first page was written: nothing is kept`)
    }
    job.view.finish(
      `${stop}; ${paths.checkpoint} keeps the first ${ProgressView.count(saved.records)}` +
        (resumable(run, cause) ? ": run the same command with --resume to continue" : "")
    )
  })

/** Writes the records to `FILE.part`, opened at the first write and closed with the scope. */
const writePart = (run: FileRun) =>
  Effect.gen(function*() {
    // the file is opened later, in this scope
    const context = yield* Effect.context<FileSystem.FileSystem | Scope.Scope>()
    const opened = Effect.suspend(() =>
      run.output !== undefined ? Effect.succeed(run.output) : open(run).pipe(Effect.provide(context))
    )
    const file: Output.Output<PlatformError.PlatformError> = {
      write: (text) => Effect.flatMap(opened, (output) => output.write(text))
    }
    yield* Job.writeAll(run.job, file, advance(run), save(run)).pipe(Effect.onError((cause) => stopped(run, cause)))
    yield* Effect.flatMap(opened, (output) => output.sync)
  })

/**
 * Runs a job to a file; once `FILE.part` is complete and closed, it becomes
 * `FILE`, and the checkpoint goes.
 *
 * @since 0.2.0
 * @category operations
 */
export const toFile = (job: Job.Job, target: Target) =>
  Effect.gen(function*() {
    const fs = yield* FileSystem.FileSystem
    const { paths, resumed, wanted } = target
    const base = {
      version: 2 as const,
      kind: wanted.kind,
      productType: wanted.productType,
      format: wanted.format,
      from: wanted.from,
      to: job.walk.end
    }
    const run: FileRun = {
      job,
      paths,
      fs,
      at: (stream, bytes) => new Checkpoint.Checkpoint({ ...base, stream, bytes, records: job.state.records }),
      output: undefined,
      latest: Option.getOrUndefined(resumed),
      saved: Option.getOrUndefined(resumed)
    }
    yield* Effect.scoped(writePart(run))
    yield* fs.rename(paths.part, paths.out)
    yield* Effect.ignore(fs.remove(paths.checkpoint))
    Job.finish(job, paths.out)
  })
