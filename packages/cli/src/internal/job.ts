/**
 * A running export: what it walks and writes, what it has written so far,
 * and the progress view that shows it; how its batches are written, and the
 * summary it ends with.
 *
 * @since 0.2.0
 */
import type * as BitgetClient from "@bitget-effect/core/BitgetClient"
import type { BitgetError } from "@bitget-effect/core/BitgetError"
import * as StreamProgress from "@bitget-effect/core/StreamProgress"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import type * as FileSystem from "effect/FileSystem"
import type * as PlatformError from "effect/PlatformError"
import type * as Schema from "effect/Schema"
import type * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import type * as ExportKind from "./exportKind.js"
import type * as Format from "./format.js"
import type * as Output from "./output.js"
import * as ProgressView from "./progressView.js"

/**
 * What the progress view reads: records written so far and the stream's latest report.
 *
 * @since 0.2.0
 * @category models
 */
export interface State {
  records: number
  progress: StreamProgress.StreamProgress | undefined
}

/**
 * A running export.
 *
 * @since 0.2.0
 * @category models
 */
export interface Job {
  readonly kind: ExportKind.ExportKind
  readonly format: Format.Format
  /** The range still to walk (from the checkpoint's time when resuming) and the product type. */
  readonly walk: ExportKind.Walk
  readonly state: State
  readonly view: ProgressView.ProgressView
  /** When this run started walking (ms since the epoch). */
  readonly started: number
}

/**
 * Starts a job, with `records` already written (those an earlier run kept)
 * and its progress view, shown until the scope closes.
 *
 * @since 0.2.0
 * @category constructors
 */
export const start = (options: {
  readonly kind: ExportKind.ExportKind
  readonly format: Format.Format
  readonly walk: ExportKind.Walk
  readonly records: number
  readonly quiet: boolean
}): Effect.Effect<Job, never, Scope.Scope> =>
  Effect.gen(function*() {
    const { format, kind, walk } = options
    const state: State = { records: options.records, progress: undefined }
    const started = Date.now()
    const view = yield* ProgressView.make({
      mode: ProgressView.modeOf({ quiet: options.quiet, terminal: process.stderr.isTTY === true }),
      snapshot: () => ({
        label: kind.kind,
        records: state.records,
        progress: state.progress,
        elapsed: Duration.millis(Date.now() - started)
      })
    })
    return { kind, format, walk, state, view, started }
  })

/**
 * Writes the walk's batches to `output` (an empty page writes nothing),
 * counting records in the job's state; `onWritten` sees each batch once it
 * is written and counted, `afterWrite` runs after it.
 *
 * @since 0.2.0
 * @category operations
 */
export const writeAll = <E>(
  job: Job,
  output: Output.Output<E>,
  onWritten: (batch: ExportKind.Batch) => void,
  afterWrite: Effect.Effect<void, PlatformError.PlatformError, FileSystem.FileSystem>
): Effect.Effect<
  void,
  E | BitgetError | Schema.SchemaError | PlatformError.PlatformError,
  BitgetClient.BitgetClient | FileSystem.FileSystem
> =>
  job.kind.batches(job.walk, job.format).pipe(
    StreamProgress.observe((progress) =>
      Effect.sync(() => {
        job.state.progress = progress
      })
    ),
    // a batch is written (and waited for) before the next page is pulled; written, counted and seen together, so
    // that the count an interruption reports is the records written, and the checkpoint is the one after them
    Stream.runForEach((batch) =>
      Effect.uninterruptible(Effect.andThen(
        batch.records === 0 ? Effect.void : output.write(batch.text),
        Effect.sync(() => {
          job.state.records += batch.records
          onWritten(batch)
        })
      )).pipe(Effect.andThen(afterWrite))
    )
  )

/**
 * Ends the view with the summary of a finished export to `where`.
 *
 * @since 0.2.0
 * @category formatting
 */
export const finish = (job: Job, where: string): void => {
  const { progress, records } = job.state
  job.view.finish(
    `${job.kind.kind}: ${ProgressView.counted(records, "record")} to ${where} in ` +
      ProgressView.clock(Duration.millis(Date.now() - job.started)) +
      (progress === undefined
        ? ""
        : ` (${ProgressView.counted(progress.pages, "page")}, ${
          ProgressView.counted(progress.windowsTotal, "window")
        })`)
  )
}

/**
 * Ends the view with the line of an export to `where` interrupted (Ctrl+C,
 * SIGTERM): the records written there so far.
 *
 * @since 0.2.0
 * @category formatting
 */
export const interrupted = (job: Job, where: string): void =>
  job.view.finish(
    `${job.kind.kind}: interrupted after ${ProgressView.counted(job.state.records, "record")} to ${where}`
  )
