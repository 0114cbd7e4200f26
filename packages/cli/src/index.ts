/**
 * The `bitget` command's modules, for programs that want its pieces: the
 * command itself (`Cli`, `Export`), the column tables and line writers
 * (`Columns`, `Format`), checkpoints, progress, outputs and times.
 *
 * `Checkpoint`: the checkpoint of an interrupted export to a file.
 *
 * @since 0.1.0
 */
export * as Checkpoint from "./Checkpoint.js"

/**
 * The `bitget` command: its subcommands, how it runs and how it exits.
 *
 * @since 0.1.0
 */
export * as Cli from "./Cli.js"

/**
 * The columns of each export, one table per record type.
 *
 * @since 0.1.0
 */
export * as Columns from "./Columns.js"

/**
 * `bitget export`: the command, its checks and its run.
 *
 * @since 0.1.0
 */
export * as Export from "./Export.js"

/**
 * What can be exported: each kind's columns and stream.
 *
 * @since 0.1.0
 */
export * as ExportKind from "./ExportKind.js"

/**
 * CSV and NDJSON line writers driven by a column table.
 *
 * @since 0.1.0
 */
export * as Format from "./Format.js"

/**
 * Where records go: standard output or a partial file, written with backpressure.
 *
 * @since 0.1.0
 */
export * as Output from "./Output.js"

/**
 * Progress and log lines on standard error.
 *
 * @since 0.1.0
 */
export * as ProgressView from "./ProgressView.js"

/**
 * The times of `--from` and `--to`.
 *
 * @since 0.1.0
 */
export * as TimeRange from "./TimeRange.js"

/**
 * A command line the export cannot run (exit code 2).
 *
 * @since 0.1.0
 */
export * as UsageError from "./UsageError.js"
