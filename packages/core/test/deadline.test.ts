/**
 * The transport deadline on Effect's clock: `HttpTransport.withDeadline`
 * and the fetch transport over a fetch that never answers, driven by
 * `TestClock` (no real time passes), and an answer in time is left alone.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Exit, Fiber } from "effect"
import { FetchHttpClient } from "effect/http"
import { TestClock } from "effect/testing"
import { BitgetTransportError } from "../src/BitgetError.js"
import * as HttpTransport from "../src/HttpTransport.js"

const request: HttpTransport.HttpTransport.Request = {
  endpoint: "GET /api/v2/test",
  method: "GET",
  url: "https://api.bitget.test/api/v2/test?a=1",
  headers: {},
  timeoutMillis: 5_000,
  maxBytes: 1_024
}

const answer: HttpTransport.HttpTransport.Response = { status: 200, headers: {}, body: "{}" }

/** An exchange that answers only when `answered` is called, and records when it is aborted. */
const pending = () => {
  const state = { aborted: false, timedOutAtAbort: undefined as boolean | undefined, answer: (): void => {} }
  const exchange = (controller: AbortController, timedOut: () => boolean) =>
    new Promise<Effect.Effect<HttpTransport.HttpTransport.Response>>((resolve) => {
      state.answer = () => resolve(Effect.succeed(answer))
      controller.signal.addEventListener("abort", () => {
        state.aborted = true
        state.timedOutAtAbort = timedOut()
      })
    })
  return { state, exchange }
}

/** Lets the exchange's promise callbacks run. */
const settle = Effect.promise(() => new Promise<void>((resolve) => setImmediate(resolve)))

describe("HttpTransport.withDeadline", () => {
  it.effect("fails with a Timeout exactly at the deadline on the TestClock, aborting the exchange", () =>
    Effect.gen(function*() {
      const { exchange, state } = pending()
      const fiber = yield* Effect.forkChild(HttpTransport.withDeadline(request, exchange))
      yield* TestClock.adjust("4999 millis")
      yield* settle
      assert.isUndefined(fiber.pollUnsafe(), "still waiting 1 ms before the deadline")
      assert.isFalse(state.aborted)
      yield* TestClock.adjust("1 millis")
      const exit = yield* Fiber.await(fiber)
      assert.isTrue(Exit.isFailure(exit))
      const error = Exit.isFailure(exit) ? exit.cause.reasons[0] : undefined
      assert.strictEqual(error?._tag, "Fail")
      const failure = error?._tag === "Fail" ? error.error : undefined
      assert.instanceOf(failure, BitgetTransportError)
      assert.strictEqual((failure as BitgetTransportError).reason, "Timeout")
      assert.strictEqual((failure as BitgetTransportError).description, "no complete answer within 5s")
      assert.isTrue(state.aborted, "the exchange is aborted")
    }))

  it.effect("an answer before the deadline is the result, and nothing is aborted later", () =>
    Effect.gen(function*() {
      const { exchange, state } = pending()
      const fiber = yield* Effect.forkChild(HttpTransport.withDeadline(request, exchange))
      yield* TestClock.adjust("4 seconds")
      state.answer()
      assert.deepStrictEqual(yield* Fiber.join(fiber), answer)
      yield* TestClock.adjust("10 seconds")
      assert.isFalse(state.aborted)
    }))

  it.effect("an interruption aborts the exchange, and is not a timeout", () =>
    Effect.gen(function*() {
      const { exchange, state } = pending()
      const fiber = yield* Effect.forkChild(HttpTransport.withDeadline(request, exchange))
      yield* TestClock.adjust("1 second")
      yield* Fiber.interrupt(fiber)
      assert.isTrue(state.aborted)
      assert.isFalse(state.timedOutAtAbort)
    }))

  it.effect("the fetch transport keeps the same deadline: a fetch that never answers ends in a Timeout", () =>
    Effect.gen(function*() {
      let signal: AbortSignal | undefined
      const silent = ((_url: string, init: RequestInit) => {
        signal = init.signal ?? undefined
        return new Promise<Response>(() => {})
      }) as typeof globalThis.fetch
      const transport = yield* Effect.provideService(HttpTransport.fromFetch, FetchHttpClient.Fetch, silent)
      const fiber = yield* Effect.forkChild(transport.send({ ...request, timeoutMillis: 200 }))
      yield* TestClock.adjust("200 millis")
      const error = yield* Effect.flip(Fiber.join(fiber))
      assert.instanceOf(error, BitgetTransportError)
      assert.strictEqual((error as BitgetTransportError).reason, "Timeout")
      assert.isTrue(signal?.aborted, "fetch's signal is aborted")
    }))
})
