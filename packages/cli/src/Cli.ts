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
import * as Command from "@effect/cli/Command"
import * as ValidationError from "@effect/cli/ValidationError"
import * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
import * as NodePath from "@effect/platform-node/NodePath"
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import * as NodeTerminal from "@effect/platform-node/NodeTerminal"
import * as Cause from "effect/Cause"
import * as ConfigError from "effect/ConfigError"
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
  ValidationError.isValidationError(error) ||
  ConfigError.isConfigError(error) ||
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
  if (Cause.isInterruptedOnly(exit.cause)) return signal === undefined ? exitCodes.SIGINT : exitCodes[signal]
  const failure = Cause.failureOption(exit.cause)
  if (Option.isSome(failure)) {
    if (Predicate.isTagged(failure.value, "StdoutClosed")) return exitCodes.ok
    if (isUsage(failure.value)) return exitCodes.usage
  }
  return exitCodes.failure
}

/**
 * The lines a failed run ends with on standard error: a usage error and its
 * hint, the library's description of any other failure (nothing for an
 * interruption, a closed standard output, or a command line @effect/cli has
 * already described).
 *
 * @since 0.1.0
 * @category running
 */
export const failureLines = (cause: Cause.Cause<unknown>): ReadonlyArray<string> => {
  const failure = Cause.failureOption(cause)
  if (Option.isSome(failure)) {
    const error = failure.value
    if (Predicate.isTagged(error, "StdoutClosed")) return []
    if (ValidationError.isValidationError(error)) {
      return ValidationError.isHelpRequested(error) ? [] : ["hint: bitget export --help lists the options"]
    }
    if (isUsageError(error)) return [`error: ${error.message}`, "hint: bitget export --help lists the options"]
  }
  return describeFailure(cause)
}

const platform = Layer.mergeAll(NodeFileSystem.layer, NodePath.layer, NodeTerminal.layer)

/**
 * Runs a command line (`[node, script, ...args]`, as `process.argv`); a
 * failure ends with the lines of `failureLines` on standard error.
 *
 * @since 0.1.0
 * @category running
 */
export const run = (argv: ReadonlyArray<string>): Effect.Effect<void, unknown> =>
  Command.run(command, { name: "bitget", version })(argv).pipe(
    Effect.tapErrorCause((cause) => Effect.forEach(failureLines(cause), (line) => Console.error(line))),
    Effect.provide(platform)
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
  process.once("SIGINT", () => (signal ??= "SIGINT"))
  process.once("SIGTERM", () => (signal ??= "SIGTERM"))
  NodeRuntime.runMain(run(argv), {
    disableErrorReporting: true,
    disablePrettyLogger: true,
    teardown: (exit, onExit) => onExit(exitCode(exit, signal))
  })
}
