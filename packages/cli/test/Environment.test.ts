/**
 * How the command reads the environment: one variable at a time, so that
 * Deno's narrow `--allow-env=…` lets it run; a variable the runtime refuses
 * (Deno's `NotCapable`, faked here as Deno throws it) is a configuration
 * error naming it, in one line and exit code 2, not a stack trace. (Under
 * Deno itself: `npx -y deno@2 run --allow-env=BITGET_*,NO_COLOR,FORCE_COLOR,TERM …`.)
 */
import { describe as describeFailure } from "@bitget-effect/core/FailureText"
import { assert, describe, it } from "@effect/vitest"
import { Cause, Config, Effect, Option } from "effect"
import * as Environment from "../src/internal/environment.js"
import { inProcessWith } from "./support.js"

/** What Deno throws for a variable `--allow-env` does not list. */
class NotCapable extends Error {
  override name = "NotCapable"
}

/** An environment of `variables`, in which reading any of `refused` throws as Deno does. */
const denoEnv = (variables: Readonly<Record<string, string>>, refused: (name: string) => boolean) =>
  Environment.provider((name) => {
    if (refused(name)) throw new NotCapable(`Requires env access to "${name}", run again with the --allow-env flag`)
    return variables[name]
  })

/** The readable line for a variable that cannot be read. */
const refusedLine = (name: string) =>
  `error: bad configuration: ${name} cannot be read (NotCapable: Requires env access to "${name}", run again with ` +
  "the --allow-env flag): let bitget read its variables (on Deno: --allow-env=BITGET_*,NO_COLOR,FORCE_COLOR,TERM)"

describe("the environment, as the command reads it", () => {
  it.effect("reads each variable by name; an empty one is unset", () =>
    Effect.gen(function*() {
      const provider = denoEnv({ BITGET_LOCALE: "zh-CN", NO_COLOR: "" }, () => false)
      const read = (config: Config.Config<Option.Option<string>>) => config.parse(provider)
      assert.deepStrictEqual(yield* read(Config.option(Config.String("BITGET_LOCALE"))), Option.some("zh-CN"))
      assert.deepStrictEqual(yield* read(Config.option(Config.String("NO_COLOR"))), Option.none())
      assert.deepStrictEqual(yield* read(Config.option(Config.String("TERM"))), Option.none())
      const nested = Config.nested(Config.option(Config.String("LOCALE")), "BITGET")
      assert.deepStrictEqual(yield* read(nested), Option.some("zh-CN"))
    }))

  it.effect("a variable the runtime refuses fails as a configuration error naming it", () =>
    Effect.gen(function*() {
      const provider = denoEnv({}, (name) => name === "BITGET_TIMEOUT")
      const error = yield* Effect.flip(Config.String("BITGET_TIMEOUT").parse(provider))
      assert.instanceOf(error, Config.ConfigError)
      assert.deepStrictEqual(describeFailure(Cause.fail(error)), [refusedLine("BITGET_TIMEOUT")])
    }))

  for (
    const [what, refused] of [
      ["a variable of the client (BITGET_TIMEOUT)", "BITGET_TIMEOUT"],
      ["a variable of help's colours (TERM)", "TERM"]
    ] as const
  ) {
    // live: the command's lines go to the console, which a test's services would keep
    it.live(`bitget export, where ${what} cannot be read: exit 2, one line naming it`, () =>
      Effect.gen(function*() {
        const ran = yield* inProcessWith(
          ["export", "tax-records", "--from", "2025-01-01", "--to", "2025-01-02", "--base-url", "http://127.0.0.1:9"],
          denoEnv(
            { BITGET_API_KEY: "k", BITGET_API_SECRET: "s", BITGET_API_PASSPHRASE: "p" },
            (name) => name === refused
          )
        )
        assert.strictEqual(ran.code, 2, ran.stderr)
        assert.strictEqual(ran.stderr, `${refusedLine(refused)}\n`)
      }))
  }
})
