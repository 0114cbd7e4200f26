/**
 * The `bitget` command: its subcommands (`export`), and how it ends. Exit
 * codes: 0 done; 1 a failure of the exchange, the network or the file system
 * (one readable line on standard error, never a secret); 2 a usage or
 * configuration error (nothing was sent); 130 after Ctrl+C (SIGINT) and 143
 * after SIGTERM, once the checkpoint is written.
 *
 * @since 0.1.0
 */
import { describeFailure } from "@bitget-effect/core/BitgetError"
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import * as NodeServices from "@effect/platform-node/NodeServices"
import * as Cause from "effect/Cause"
import { CliError, CliOutput, Command, TerminalCapabilities } from "effect/cli"
import * as Config from "effect/Config"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Predicate from "effect/Predicate"
import * as Export from "./Export.js"
import { isUsageError } from "./UsageError.js"

/**
 * The version `bitget --version` prints.
 *
 * @since 0.1.0
 * @category constants
 */
export const version = "0.1.0"

/**
 * The root command.
 *
 * @since 0.1.0
 * @category commands
 */
export const command = Command.make("bitget").pipe(
  Command.withDescription("Bitget from the command line."),
  Command.withSubcommands([Export.command])
)

/**
 * Exit codes.
 *
 * @since 0.1.0
 * @category constants
 */
export const exitCodes = {
  ok: 0,
  failure: 1,
  usage: 2,
  SIGINT: 130,
  SIGTERM: 143
} as const

/** `true` for a failure found before anything was sent: the command line or the configuration. */
const isUsage = (error: unknown): boolean =>
  isUsageError(error) ||
  CliError.isCliError(error) ||
  error instanceof Config.ConfigError ||
  (Predicate.isTagged(error, "BitgetRequestError") && Predicate.hasProperty(error, "reason") &&
    error.reason === "NoCredentials")

/**
 * The exit code of a run: 0, 1 (a failure), 2 (usage or configuration), or
 * 128 + the signal number after an interruption by a signal (130 without one).
 *
 * @since 0.1.0
 * @category running
 */
export const exitCode = (exit: Exit.Exit<unknown, unknown>, signal: "SIGINT" | "SIGTERM" | undefined): number => {
  if (Exit.isSuccess(exit)) return exitCodes.ok
  if (Cause.hasInterruptsOnly(exit.cause)) return signal === undefined ? exitCodes.SIGINT : exitCodes[signal]
  const failure = Cause.findErrorOption(exit.cause)
  if (Option.isSome(failure)) {
    if (Predicate.isTagged(failure.value, "StdoutClosed")) return exitCodes.ok
    if (isUsage(failure.value)) return exitCodes.usage
  }
  return exitCodes.failure
}

const hint = "hint: bitget export --help lists the options"

/**
 * The lines a failed run ends with on standard error: a usage error and its
 * hint, the library's description of any other failure (nothing for an
 * interruption, a closed standard output, or a request for help; only the
 * hint for a command line `presenter` has already described).
 *
 * @since 0.1.0
 * @category running
 */
export const failureLines = (cause: Cause.Cause<unknown>): ReadonlyArray<string> => {
  const failure = Cause.findErrorOption(cause)
  if (Option.isSome(failure)) {
    const error = failure.value
    if (Predicate.isTagged(error, "StdoutClosed")) return []
    if (CliError.isCliError(error)) return error._tag === "ShowHelp" && error.errors.length === 0 ? [] : [hint]
    if (isUsageError(error)) return [`error: ${error.message}`, hint]
  }
  return describeFailure(cause)
}

/**
 * What `effect/cli` prints itself: help and the version on standard output
 * (asked for, or `bitget` alone), and a command line it cannot parse as one
 * `error: …` line per problem on standard error, without the help, so that
 * standard output only ever holds records or what was asked for.
 */
const presenter: CliOutput.Presenter = {
  present: (event) =>
    event._tag === "InvalidInvocation"
      ? Effect.forEach(event.errors, (error) => Console.error(`error: ${error.message}`), { discard: true })
      : CliOutput.defaultPresenter.present(event)
}

/**
 * Node's services, and what the terminal can do as this run finds it: help is
 * coloured only when standard output is a terminal and neither `NO_COLOR` nor
 * `TERM=dumb` is set (read from the `ConfigProvider`, the environment by
 * default; `FORCE_COLOR` forces it).
 */
const services = Layer.provideMerge(TerminalCapabilities.layer, NodeServices.layer)

/**
 * Runs a command line (`[node, script, ...args]`, as `process.argv`); a
 * failure ends with the lines of `failureLines` on standard error.
 *
 * @since 0.1.0
 * @category running
 */
export const run = (argv: ReadonlyArray<string>): Effect.Effect<void, unknown> =>
  Command.runWith(command, { version })(argv.slice(2)).pipe(
    Effect.tapCause((cause) => Effect.forEach(failureLines(cause), (line) => Console.error(line), { discard: true })),
    Effect.provideService(CliOutput.Presenter, presenter),
    Effect.provide(services)
  )

/**
 * Runs the command line (`process.argv`) as the main of the process:
 * Ctrl+C and SIGTERM interrupt it (an export to a file writes its checkpoint
 * first), and it exits with the code `exitCode` gives.
 *
 * @since 0.1.0
 * @category running
 */
export const main = (argv: ReadonlyArray<string>): void => {
  let signal: "SIGINT" | "SIGTERM" | undefined
  // the first signal interrupts the run (NodeRuntime's own listener); a second one stops the process at once
  const onSignal = (received: "SIGINT" | "SIGTERM") => {
    if (signal === undefined) signal = received
    else process.exit(exitCodes[received])
  }
  process.on("SIGINT", onSignal)
  process.on("SIGTERM", onSignal)
  NodeRuntime.runMain(run(argv), {
    disableErrorReporting: true,
    teardown: (exit, onExit) => onExit(exitCode(exit, signal))
  })
}
