/**
 * The environment as the command reads it: each variable by name, when it is
 * asked for (`BITGET_*`; `NO_COLOR`, `FORCE_COLOR` and `TERM` for help's
 * colours), never the whole environment at once. A runtime that refuses to
 * let one be read (Deno, when `--allow-env` does not list it) fails naming
 * the variable, as a configuration error (exit code 2).
 *
 * @since 0.2.0
 */
import * as ConfigProvider from "effect/ConfigProvider"
import * as Effect from "effect/Effect"

/** Deno's permission for every variable the command reads. */
const allowEnv = "--allow-env=BITGET_*,NO_COLOR,FORCE_COLOR,TERM"

/**
 * A `ConfigProvider` over the environment that reads each variable by name
 * (with `read`, from `process.env` by default) when it is asked for: an empty
 * one is unset, as with `ConfigProvider.fromEnv`, and one that cannot be read
 * fails with a `SourceError` naming it and the permission to give.
 *
 * @since 0.2.0
 * @category constructors
 */
export const provider = (
  read: (name: string) => string | undefined = (name) => process.env[name]
): ConfigProvider.ConfigProvider =>
  ConfigProvider.make((path) => {
    const name = path.map(String).join("_")
    return Effect.try({
      try: () => read(name),
      catch: (error) =>
        new ConfigProvider.SourceError({
          message: `${name} cannot be read (${String(error)}): let bitget read its variables (on Deno: ${allowEnv})`,
          cause: error
        })
    }).pipe(Effect.map((value) => value === undefined || value === "" ? undefined : ConfigProvider.makeValue(value)))
  })
