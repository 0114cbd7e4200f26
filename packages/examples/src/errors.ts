import { BitgetError, Credentials, FailureText, Symbols, TaxRecords } from "@bitget-effect/core"
import { BitgetNode } from "@bitget-effect/platform-node"
import { Cause, Console, DateTime, Effect } from "effect"

const lastDays = (days: number) =>
  Effect.flatMap(
    DateTime.now,
    (end) => TaxRecords.spotRecords({ startTime: DateTime.subtract(end, { days }), endTime: end })
  )

const program = Effect.gen(function*() {
  // by tag: the exchange's answer, typed (here 40009, kind "Auth": the secret below is wrong)
  yield* lastDays(1).pipe(
    Effect.catchTag("BitgetApiError", (error) => Console.log(`${error.kind} ${error.code}: ${error.msg}`))
  )

  // by the family of the exchange's code, whatever the code
  yield* Symbols.symbols({ symbol: "BTCUSDT" }).pipe(
    Effect.catchIf(BitgetError.isApiErrorOfKind("Maintenance"), () => Effect.succeed([]))
  )

  // bad input fails before anything is sent: the tax endpoint takes at most 30 days
  const refused = yield* Effect.flip(lastDays(45))
  yield* Console.log(`${refused._tag}: ${refused.message}`)

  // for a person: what failed and what to do, never a secret
  yield* Console.log(FailureText.describe(Cause.fail(refused)).join("\n"))
})

program.pipe(
  Effect.provide(BitgetNode.layer({
    baseUrl: process.env.BITGET_BASE_URL ?? "http://127.0.0.1:8080",
    credentials: Credentials.hmac({
      apiKey: process.env.BITGET_API_KEY ?? "",
      secret: "a-deliberately-wrong-secret",
      passphrase: process.env.BITGET_API_PASSPHRASE ?? ""
    })
  })),
  BitgetNode.runMain
)
