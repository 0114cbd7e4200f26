import { assert, describe, it } from "@effect/vitest"
import { ConfigProvider, Duration, Effect, Layer, Option, Redacted } from "effect"
import * as BitgetConfig from "../src/BitgetConfig.js"

const read = (env: Record<string, string>) =>
  Effect.flatMap(BitgetConfig.BitgetConfig, Effect.succeed).pipe(
    Effect.provide(
      BitgetConfig.layerConfig().pipe(
        Layer.provide(ConfigProvider.layer(ConfigProvider.fromEnvRecord(env)))
      )
    )
  )

describe("BitgetConfig", () => {
  it.effect("defaults to the real host with no credentials", () =>
    Effect.gen(function*() {
      const config = yield* read({})
      assert.strictEqual(config.baseUrl, "https://api.bitget.com")
      assert.isTrue(Option.isNone(config.credentials))
      assert.strictEqual(config.locale, "en-US")
      assert.isFalse(config.demoTrading)
      assert.isTrue(Duration.equals(config.timeout, Duration.seconds(10)))
      assert.isTrue(Option.isNone(config.channelApiCode))
    }))

  it.effect("reads every option from BITGET_* variables, secrets as Redacted", () =>
    Effect.gen(function*() {
      const config = yield* read({
        BITGET_API_KEY: "k",
        BITGET_API_SECRET: "hmac-secret-value",
        BITGET_API_PASSPHRASE: "pass-value",
        BITGET_BASE_URL: "http://127.0.0.1:8080/",
        BITGET_LOCALE: "zh-CN",
        BITGET_DEMO_TRADING: "true",
        BITGET_TIMEOUT: "3 seconds",
        BITGET_CHANNEL_API_CODE: "chan"
      })
      assert.strictEqual(config.baseUrl, "http://127.0.0.1:8080")
      assert.strictEqual(config.locale, "zh-CN")
      assert.isTrue(config.demoTrading)
      assert.isTrue(Duration.equals(config.timeout, Duration.seconds(3)))
      assert.deepStrictEqual(config.channelApiCode, Option.some("chan"))
      const credentials = Option.getOrThrow(config.credentials)
      assert.strictEqual(credentials.signingKey._tag, "Hmac")
      assert.strictEqual(Redacted.value(credentials.passphrase), "pass-value")
      assert.notInclude(JSON.stringify(config), "hmac-secret-value")
      assert.notInclude(String(credentials.passphrase), "pass-value")
    }))

  it.effect("takes an RSA key when no HMAC secret is set", () =>
    Effect.gen(function*() {
      const config = yield* read({
        BITGET_API_KEY: "k",
        BITGET_API_PASSPHRASE: "p",
        BITGET_RSA_PRIVATE_KEY: "-----BEGIN PRIVATE KEY-----"
      })
      assert.strictEqual(Option.getOrThrow(config.credentials).signingKey._tag, "Rsa")
    }))

  it.effect("fails on incomplete credentials instead of running unsigned", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(read({ BITGET_API_KEY: "k" }))
      // Effect 4 writes a config failure as `<message>\n  at ["<path>"]` (Effect 3: `Missing data at <path>`)
      assert.include(String(error), "at [\"BITGET_API_PASSPHRASE\"]")
      assert.include(
        String(error),
        "set BITGET_API_KEY, BITGET_API_PASSPHRASE and BITGET_API_SECRET (or BITGET_RSA_PRIVATE_KEY)"
      )
    }))

  it.effect("names the variable a user sets when a value is bad, under any prefix", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(read({ BITGET_TIMEOUT: "5x" }))
      // with examples of a value it reads, and never the value given
      assert.match(
        String(error),
        /Expected a duration such as "10 seconds", "5000 millis" or "1\.5 minutes"\n\s*at \["BITGET_TIMEOUT"\]/
      )
      assert.notInclude(String(error), "5x")
      assert.notInclude(String(error), "BITGET.TIMEOUT")
      assert.notInclude(String(error), "[\"BITGET\"]")
      const prefixed = yield* Effect.flip(
        Effect.provide(
          BitgetConfig.BitgetConfig,
          BitgetConfig.layerConfig("DESK").pipe(
            Layer.provide(ConfigProvider.layer(ConfigProvider.fromEnvRecord({ DESK_LOCALE: "fr-FR" })))
          )
        )
      )
      assert.match(String(prefixed), /Expected .*\n\s*at \["DESK_LOCALE"\]/)
    }))
})
