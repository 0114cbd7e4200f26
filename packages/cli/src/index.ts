/**
 * The `bitget` command (`Cli`), and its export for programs (`Export`).
 *
 * `Cli`: the `bitget` command: its subcommands, how it runs and how it exits.
 *
 * @since 0.1.0
 */
export * as Cli from "./Cli.js"

/**
 * `bitget export` from a program: the checks of a command line, and the run.
 *
 * @since 0.1.0
 */
export * as Export from "./Export.js"
