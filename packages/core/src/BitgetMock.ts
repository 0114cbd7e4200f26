/**
 * A mock client for testing code that uses Bitget: canned typed responses per
 * endpoint, the requests it was given available for assertions, and the same
 * request validation as the real client. Canned values round-trip through the
 * endpoint's schemas, so a mock answers exactly what a decoded response could hold.
 *
 * @since 0.1.0
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Ref from "effect/Ref"
import * as Schema from "effect/Schema"
import * as BitgetClient from "./BitgetClient.js"
import type { BitgetError } from "./BitgetError.js"
import { requestError } from "./client/envelope.js"
import type { Auth, Endpoint, Failure } from "./Endpoint.js"
import { encoder } from "./internal/encoder.js"

/**
 * A canned answer for one endpoint, made with `on`, `succeed` or `fail`.
 *
 * @since 0.1.0
 * @category models
 */
export interface Response {
  readonly name: string
  readonly respond: (params: unknown) => Effect.Effect<unknown, BitgetError>
}

/**
 * A call the mock received: the endpoint name and the parameters as they would
 * have been sent (query parameters or JSON body, encoded).
 *
 * @since 0.1.0
 * @category models
 */
export interface Call {
  readonly name: string
  readonly params: unknown
}

/**
 * The mock's recorder.
 *
 * @since 0.1.0
 * @category services
 */
export class BitgetMock extends Context.Service<BitgetMock, {
  /** Every call received, in order. */
  readonly calls: Effect.Effect<ReadonlyArray<Call>>
}>()("@bitget-effect/core/BitgetMock") {}

/**
 * Answers an endpoint with a handler of the typed request, failing only as
 * the endpoint can (a public one never with `BitgetSignerError`).
 *
 * @since 0.1.0
 * @category constructors
 */
export const on = <I, A, EI extends object, EA, Au extends Auth>(
  endpoint: Endpoint<I, A, EI, EA, Au>,
  handler: (request: I) => Effect.Effect<A, Failure<Au>>
): Response => ({
  name: endpoint.name,
  respond: (params) =>
    Schema.decodeUnknownEffect(endpoint.request)(params).pipe(
      Effect.orDie,
      Effect.flatMap(handler),
      Effect.flatMap((value) =>
        Effect.catch(Schema.encodeEffect(endpoint.response)(value), (error) =>
          Effect.die(
            new Error(
              `BitgetMock: the answer for ${endpoint.name} is not a value of its response schema ` +
                `(build class values with their make, e.g. Symbols.SpotSymbol.make): ${error.message}`
            )
          ))
      )
    )
})

/**
 * Answers an endpoint with a fixed value.
 *
 * @since 0.1.0
 * @category constructors
 */
export const succeed = <I, A, EI extends object, EA, Au extends Auth>(
  endpoint: Endpoint<I, A, EI, EA, Au>,
  value: A
): Response => on(endpoint, () => Effect.succeed(value))

/**
 * Answers an endpoint with a failure (see `BitgetError.apiError`).
 *
 * @since 0.1.0
 * @category constructors
 */
export const fail = <I, A, EI extends object, EA, Au extends Auth>(
  endpoint: Endpoint<I, A, EI, EA, Au>,
  error: Failure<Au>
): Response => on(endpoint, () => Effect.fail(error))

/**
 * Typed view of the calls made to one endpoint.
 *
 * @since 0.1.0
 * @category accessors
 */
export const requestsOf = <I, A, EI extends object, EA>(
  endpoint: Endpoint<I, A, EI, EA>
): Effect.Effect<ReadonlyArray<I>, never, BitgetMock> =>
  BitgetMock.pipe(
    Effect.flatMap((mock) => mock.calls),
    Effect.flatMap((calls) =>
      Effect.forEach(
        calls.filter((call) => call.name === endpoint.name),
        (call) => Effect.orDie(Schema.decodeUnknownEffect(endpoint.request)(call.params))
      )
    )
  )

/**
 * A `BitgetClient` answering from canned responses, with its recorder. An
 * endpoint without a response is a defect naming the endpoint.
 *
 * @example
 * ```ts
 * import { BitgetMock, FundNetFlow, Schemas } from "@bitget-effect/core"
 * import { BigDecimal, DateTime, Effect } from "effect"
 *
 * const point = new FundNetFlow.NetFlow({ netFlow: BigDecimal.fromStringUnsafe("-1250.5"), ts: DateTime.makeUnsafe(0) })
 * const mock = BitgetMock.layer(BitgetMock.succeed(FundNetFlow.endpoint, [point]))
 *
 * const program = Effect.gen(function*() {
 *   const [latest] = yield* FundNetFlow.fundNetFlow({ symbol: "BTCUSDT" })
 *   const requests = yield* BitgetMock.requestsOf(FundNetFlow.endpoint)
 *   assert.strictEqual(Schemas.formatDecimal(latest.netFlow), "-1250.5")
 *   assert.deepStrictEqual(requests, [{ symbol: "BTCUSDT" }]) // what was asked, typed
 * })
 *
 * Effect.runSync(Effect.provide(program, mock))
 * ```
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = (
  ...responses: ReadonlyArray<Response>
): Layer.Layer<BitgetClient.BitgetClient | BitgetMock> =>
  Layer.effectContext(Effect.gen(function*() {
    const calls = yield* Ref.make<ReadonlyArray<Call>>([])
    const byName = new Map(responses.map((response) => [response.name, response]))
    /** Answers a call with the response made for its endpoint (`on`), which fails only as the endpoint can. */
    function execute<I, A, EI extends object, EA, Au extends Auth>(
      endpoint: Endpoint<I, A, EI, EA, Au>,
      input: I
    ): Effect.Effect<A, Failure<Au>>
    function execute<I, A, EI extends object, EA>(endpoint: Endpoint<I, A, EI, EA>, input: I) {
      return Effect.gen(function*() {
        // as the client encodes it: the request's own properties, every issue reported
        const params = yield* Effect.mapError(
          Effect.fromResult(encoder(endpoint.request)(input)),
          requestError(endpoint)
        )
        yield* Ref.update(calls, (all) => [...all, { name: endpoint.name, params }])
        const response = byName.get(endpoint.name)
        if (response === undefined) return yield* Effect.die(new Error(`BitgetMock: no response for ${endpoint.name}`))
        const encoded = yield* response.respond(params)
        return yield* Effect.orDie(Schema.decodeUnknownEffect(endpoint.response)(encoded))
      })
    }
    return Context.make(
      BitgetClient.BitgetClient,
      BitgetClient.BitgetClient.of({ execute, clockOffset: Effect.succeed(0), syncClock: Effect.succeed(0) })
    ).pipe(
      Context.add(BitgetMock, BitgetMock.of({ calls: Ref.get(calls) }))
    )
  }))
