/**
 * How a run of the `bitget` command ends: its exit code, and the lines a
 * failure leaves on standard error.
 *
 * @since 0.2.0
 */
import { describeFailure } from "@bitget-effect/platform-node/BitgetNode"
import { isUnsupportedNode } from "@bitget-effect/platform-node/UndiciTransport"
import * as Cause from "effect/Cause"
import { CliError } from "effect/cli"
import * as Config from "effect/Config"
import * as Exit from "effect/Exit"
import * as Option from "effect/Option"
import * as Predicate from "effect/Predicate"
import { isUsageError } from "./usageError.js"

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

/** The failures of opening a database (`@bitget-effect/sql`'s): an address, a login or tables the command cannot use. */
const databaseErrors = ["DatabaseUnreachableError", "DatabaseAuthenticationError", "SchemaVersionError"]

/**
 * `true` for a failure found before anything was sent: the command line, the configuration, the runtime or the
 * database.
 */
const isUsage = (error: unknown): boolean =>
  isUsageError(error) ||
  databaseErrors.some((tag) => Predicate.isTagged(error, tag)) ||
  isUnsupportedNode(error) ||
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

/**
 * The lines a failed run of `bitget <command>` (`export` unless given) ends
 * with on standard error: a usage error and its hint, the library's
 * description of any other failure (one line for a Node.js too old for undici;
 * nothing for an interruption, a closed standard output, or a request for
 * help; only the hint for a command line `presenter` has already described).
 *
 * @since 0.1.0
 * @category running
 */
export const failureLines = (cause: Cause.Cause<unknown>, command = "export"): ReadonlyArray<string> => {
  const hint = `hint: bitget ${command} --help lists the options`
  const failure = Cause.findErrorOption(cause)
  if (Option.isSome(failure)) {
    const error = failure.value
    if (Predicate.isTagged(error, "StdoutClosed")) return []
    if (CliError.isCliError(error)) return error._tag === "ShowHelp" && error.errors.length === 0 ? [] : [hint]
    if (isUsageError(error)) return [`error: ${error.message}`, hint]
  }
  return describeFailure(cause)
}
