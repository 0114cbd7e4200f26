/**
 * The `bitget` command: its subcommands (`export`, `sync`), and how it ends.
 * Exit codes: 0 done; 1 a failure of the exchange, the network, the file
 * system or the database (one readable line on standard error, never a
 * secret); 2 a usage or configuration error, or a database that cannot be
 * opened (nothing was sent); 130 after Ctrl+C (SIGINT) and 143 after SIGTERM,
 * once the checkpoint is written.
 *
 * @stability unstable
 * @since 0.1.0
 */
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import * as NodeServices from "@effect/platform-node/NodeServices"
import { CliOutput, Command, TerminalCapabilities } from "effect/cli"
import * as Config from "effect/Config"
import * as ConfigProvider from "effect/ConfigProvider"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Environment from "./internal/environment.js"
import { exitCode, exitCodes, failureLines } from "./internal/exit.js"
import * as ExportCommand from "./internal/exportCommand.js"
import * as SyncCommand from "./internal/syncCommand.js"

/**
 * The root command.
 *
 * @since 0.1.0
 * @category running
 */
export const command = Command.make("bitget").pipe(
  Command.withDescription("Bitget from the command line."),
  Command.withSubcommands([ExportCommand.command, SyncCommand.command])
)

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
 * Runs a command line (`[node, script, ...args]`, as `process.argv`), with
 * the `version` that `bitget --version` prints; a failure ends with one
 * readable line on standard error (and a hint for a usage error).
 *
 * @since 0.1.0
 * @category running
 */
export const run = (argv: ReadonlyArray<string>, version: string): Effect.Effect<void, unknown> =>
  Command.runWith(command, { version })(argv.slice(2)).pipe(
    Effect.provideService(CliOutput.Presenter, presenter),
    Effect.provide(services),
    // `TerminalCapabilities` dies when a variable it reads cannot be; that is a configuration error like any other
    Effect.catchDefect((defect) => defect instanceof Config.ConfigError ? Effect.fail(defect) : Effect.die(defect)),
    Effect.tapCause((cause) =>
      Effect.forEach(failureLines(cause, argv[2] === "sync" ? "sync" : "export"), (line) => Console.error(line), {
        discard: true
      })
    )
  )

/**
 * Runs the command line (`process.argv`) as the main of the process, with
 * the `version` that `bitget --version` prints, reading the environment one
 * variable at a time (a variable the runtime will not let it read, as Deno
 * without `--allow-env` for it, is a configuration error naming it): Ctrl+C
 * and SIGTERM interrupt it (an export to a file writes its checkpoint first),
 * and it exits with the code its end calls for (see the module's description).
 *
 * @since 0.1.0
 * @category running
 */
export const main = (argv: ReadonlyArray<string>, version: string): void => {
  let signal: "SIGINT" | "SIGTERM" | undefined
  // the first signal interrupts the run (NodeRuntime's own listener); a second one stops the process at once
  const onSignal = (received: "SIGINT" | "SIGTERM") => {
    if (signal === undefined) signal = received
    else process.exit(exitCodes[received])
  }
  process.on("SIGINT", onSignal)
  process.on("SIGTERM", onSignal)
  NodeRuntime.runMain(
    Effect.provideService(run(argv, version), ConfigProvider.ConfigProvider, Environment.provider()),
    {
      disableErrorReporting: true,
      teardown: (exit, onExit) => onExit(exitCode(exit, signal))
    }
  )
}
