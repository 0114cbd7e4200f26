/**
 * Everything a Node.js program needs in one layer: the client over undici
 * (`UndiciTransport`) with the node:crypto signer. On a Node.js older than
 * 22.19 (which undici does not run on), or on a runtime whose `undici` cannot
 * send (Bun's), building these layers fails at once, naming the layer to use
 * there instead (core's `BitgetFetch.layer`).
 *
 * @since 0.1.0
 */
import * as BitgetClient from "@bitget-effect/core/BitgetClient"
import * as BitgetConfig from "@bitget-effect/core/BitgetConfig"
import * as FailureText from "@bitget-effect/core/FailureText"
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import * as Cause from "effect/Cause"
import type * as Config from "effect/Config"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as NodeSigner from "./NodeSigner.js"
import * as UndiciTransport from "./UndiciTransport.js"

const platform = Layer.merge(NodeSigner.layer, UndiciTransport.layer())

/**
 * The client configured from options given in code.
 *
 * @example
 * ```ts
 * import { Credentials, Symbols, TradeRates } from "@bitget-effect/core"
 * import { BitgetNode } from "@bitget-effect/platform-node"
 * import { Effect } from "effect"
 *
 * // Public operations need no credentials.
 * const pairs = Symbols.symbols().pipe(Effect.provide(BitgetNode.layer()))
 *
 * // Signed operations need a key; any other `BitgetConfig` option may be given too.
 * const client = BitgetNode.layer({
 *   credentials: Credentials.hmac({ apiKey: "bg_0123456789abcdef", secret: "0123456789abcdef", passphrase: "phrase" }),
 *   timeout: "5 seconds"
 * })
 * const rates = TradeRates.tradeRates({ businessType: "spot" }).pipe(Effect.provide(client))
 * ```
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = (options: BitgetConfig.BitgetOptionsInput = {}): Layer.Layer<BitgetClient.BitgetClient> =>
  BitgetClient.layerTransport.pipe(Layer.provide(Layer.merge(platform, BitgetConfig.layer(options))))

/**
 * The client configured from `Config` (environment variables `BITGET_*` by default).
 *
 * @example
 * ```ts
 * import { TaxRecords } from "@bitget-effect/core"
 * import { BitgetNode } from "@bitget-effect/platform-node"
 * import { DateTime, Effect, Stream } from "effect"
 *
 * // Credentials and options from BITGET_API_KEY, BITGET_API_SECRET, BITGET_API_PASSPHRASE, ...
 * const program = Effect.gen(function*() {
 *   const end = yield* DateTime.now
 *   return yield* Stream.runCount(TaxRecords.stream({ startTime: DateTime.subtract(end, { days: 90 }), endTime: end }))
 * }).pipe(Effect.provide(BitgetNode.layerConfig()))
 *
 * // A second account under another prefix: SUB_API_KEY, SUB_API_SECRET, ...
 * const subAccount = BitgetNode.layerConfig("SUB")
 * ```
 *
 * @since 0.1.0
 * @category layers
 */
export const layerConfig = (prefix?: string): Layer.Layer<BitgetClient.BitgetClient, Config.ConfigError> =>
  BitgetClient.layerTransport.pipe(Layer.provide(Layer.merge(platform, BitgetConfig.layerConfig(prefix))))

/** What a reason of a cause raised: its error or its defect (`undefined` for an interruption). */
const raised = (reason: Cause.Reason<unknown>): unknown =>
  Cause.isFailReason(reason) ? reason.error : Cause.isDieReason(reason) ? reason.defect : undefined

/**
 * A failed program's cause as lines for a person, as core's
 * `FailureText.describe` writes them, except that a Node.js too old
 * for undici (`UndiciTransport.isUnsupportedNode`, raised as a failure or a
 * defect) is one line: the version, the supported range and the layer to use.
 *
 * @example
 * ```ts
 * import { BitgetNode, UndiciTransport } from "@bitget-effect/platform-node"
 * import { Effect, Exit } from "effect"
 *
 * // what building BitgetNode.layer() dies with on Node.js 20
 * const exit = Effect.runSyncExit(Effect.orDie(UndiciTransport.checkNodeVersion({ node: "20.19.0" })))
 * if (Exit.isFailure(exit)) {
 *   // error: Node.js 20.19.0 is not supported: BitgetNode.layer's undici needs Node.js >=22.19; upgrade ...
 *   process.stderr.write(`${BitgetNode.describeFailure(exit.cause).join("\n")}\n`)
 * }
 * ```
 *
 * @since 0.2.0
 * @category formatting
 */
export const describeFailure = (cause: Cause.Cause<unknown>): ReadonlyArray<string> => {
  const oldNode = cause.reasons.map(raised).find(UndiciTransport.isUnsupportedNode)
  return oldNode === undefined ? FailureText.describe(cause) : [`error: ${oldNode.description}`]
}

/**
 * Runs a program as the main of a Node.js process, like
 * `NodeRuntime.runMain` (interrupted by Ctrl+C or SIGTERM), but a failure ends
 * with one or two lines a person can act on (what failed, the exchange's code
 * and message, what to do) on stderr instead of a fiber dump, and exit code 1.
 *
 * @example
 * ```ts
 * import { BitgetMock, Symbols } from "@bitget-effect/core"
 * import { BitgetNode } from "@bitget-effect/platform-node"
 * import { Effect } from "effect"
 *
 * const program = Effect.flatMap(Symbols.symbols(), (pairs) => Effect.log(`${pairs.length} spot pairs`))
 *
 * // A real main provides the exchange:
 * //   program.pipe(Effect.provide(BitgetNode.layerConfig()), BitgetNode.runMain)
 * // and a failure ends with lines like these on stderr, and exit code 1:
 * //   error: GET /api/v2/spot/public/symbols transport failure (Connect): request transport failure (ECONNREFUSED)
 * //   hint: check that the base URL is right and reachable (BITGET_BASE_URL)
 * // Here a mock answers, so that the example runs offline.
 * program.pipe(Effect.provide(BitgetMock.layer(BitgetMock.succeed(Symbols.endpoint, []))), BitgetNode.runMain)
 * ```
 *
 * @since 0.1.0
 * @category running
 */
export const runMain = <A, E>(program: Effect.Effect<A, E>): void =>
  NodeRuntime.runMain(
    Effect.tapCause(program, (cause) => Effect.forEach(describeFailure(cause), (line) => Console.error(line))),
    { disableErrorReporting: true }
  )
