import { assert, describe, it } from "@effect/vitest"
import { Duration, Effect, Fiber, Layer, Option, Schema } from "effect"
import { HttpClient, HttpClientError } from "effect/http"
import { TestClock } from "effect/testing"
import * as BitgetClient from "../src/BitgetClient.js"
import * as BitgetConfig from "../src/BitgetConfig.js"
import * as Endpoint from "../src/Endpoint.js"
import type { Reply } from "./support.js"
import { baseUrl, credentials, exchange, fail, ok, syncSigner } from "./support.js"

const read = Endpoint.get({
  name: "test.read",
  path: "/api/v2/test/read",
  auth: "signed",
  rateLimit: { limit: 10, window: "1 second", scope: "uid" },
  idempotency: "idempotent",
  request: Schema.Struct({}),
  response: Schema.Struct({ value: Schema.String })
})

const write = Endpoint.post({ ...read, name: "test.write", path: "/api/v2/test/write", idempotency: "unsafe" })

const retry = { maxAttempts: 4, jitter: false }
const html503: Reply = { status: 503, body: "<html>Service Unavailable</html>" }

/** Answers the replies in order, the last one forever. */
const sequence = (...replies: ReadonlyArray<Reply>) => {
  let i = 0
  return () => replies[Math.min(i++, replies.length - 1)]!
}

describe("retry", () => {
  it.effect("retries a 5xx on an idempotent endpoint with exponential backoff, re-signing each attempt", () => {
    const { layer, requests } = exchange(sequence(html503, html503, ok({ value: "ok" })), { credentials, retry })
    return Effect.gen(function*() {
      const fiber = yield* Effect.forkChild(BitgetClient.execute(read, {}))
      yield* TestClock.adjust("199 millis")
      assert.strictEqual(requests.length, 1)
      yield* TestClock.adjust("1 millis")
      assert.strictEqual(requests.length, 2)
      yield* TestClock.adjust("399 millis")
      assert.strictEqual(requests.length, 2)
      yield* TestClock.adjust("1 millis")
      assert.deepStrictEqual(yield* Fiber.join(fiber), { value: "ok" })
      const stamps = requests.map((r) => Number(r.headers["access-timestamp"]))
      assert.deepStrictEqual(stamps, [0, 200, 600])
      assert.strictEqual(new Set(requests.map((r) => r.headers["access-sign"])).size, 3)
    }).pipe(Effect.provide(layer))
  })

  it.effect("gives up after maxAttempts with the last failure", () => {
    const { layer, requests } = exchange(() => html503, { credentials, retry: { ...retry, maxAttempts: 3 } })
    return Effect.gen(function*() {
      const fiber = yield* Effect.forkChild(Effect.flip(BitgetClient.execute(read, {})))
      yield* TestClock.adjust("10 seconds")
      const error = yield* Fiber.join(fiber)
      assert.strictEqual(error._tag, "BitgetHttpError")
      assert.strictEqual(requests.length, 3)
    }).pipe(Effect.provide(layer))
  })

  it.effect("waits a whole limit window after a 429 without Retry-After", () => {
    const { layer, requests } = exchange(sequence(fail(429, "429", "Too Many Requests"), ok({ value: "ok" })), {
      credentials,
      retry
    })
    return Effect.gen(function*() {
      const fiber = yield* Effect.forkChild(BitgetClient.execute(read, {}))
      yield* TestClock.adjust("999 millis")
      assert.strictEqual(requests.length, 1)
      yield* TestClock.adjust("1 millis")
      yield* Fiber.join(fiber)
      assert.strictEqual(requests.length, 2)
    }).pipe(Effect.provide(layer))
  })

  it.effect("honours Retry-After on a 429", () => {
    const { layer, requests } = exchange(
      sequence({ status: 429, body: "", headers: { "retry-after": "3" } }, ok({ value: "ok" })),
      { credentials, retry }
    )
    return Effect.gen(function*() {
      const fiber = yield* Effect.forkChild(BitgetClient.execute(read, {}))
      yield* TestClock.adjust("2999 millis")
      assert.strictEqual(requests.length, 1)
      yield* TestClock.adjust("1 millis")
      yield* Fiber.join(fiber)
      assert.strictEqual(requests.length, 2)
    }).pipe(Effect.provide(layer))
  })

  it.effect("does not wait out a Retry-After beyond the retry budget: the 429 goes to the caller at once", () => {
    const { layer, requests } = exchange(
      sequence({ status: 429, body: "", headers: { "retry-after": "99999999" } }, ok({ value: "ok" })),
      { credentials, retry }
    )
    return Effect.gen(function*() {
      const error = yield* Effect.flip(BitgetClient.execute(read, {}))
      assert.strictEqual(error._tag === "BitgetApiError" && error.code, "429")
      assert.strictEqual(
        error._tag === "BitgetApiError" && Option.map(error.retryAfter, Duration.toSeconds).pipe(Option.getOrNull),
        99999999
      )
      assert.strictEqual(requests.length, 1)
    }).pipe(Effect.provide(layer))
  })

  it.effect("retries the exchange's try-again-later codes but never auth or parameter errors", () => {
    const { layer, requests } = exchange(
      sequence(
        fail(400, "40015", "System is abnormal"),
        ok({ value: "ok" }),
        fail(400, "40009", "sign signature error")
      ),
      { credentials, retry }
    )
    return Effect.gen(function*() {
      const fiber = yield* Effect.forkChild(BitgetClient.execute(read, {}))
      yield* TestClock.adjust("200 millis")
      yield* Fiber.join(fiber)
      const auth = yield* Effect.forkChild(Effect.flip(BitgetClient.execute(read, {})))
      yield* TestClock.adjust("10 seconds")
      assert.strictEqual((yield* Fiber.join(auth))._tag, "BitgetApiError")
      assert.strictEqual(requests.length, 3)
    }).pipe(Effect.provide(layer))
  })

  it.effect("never repeats an unsafe POST after a failure that may have reached the exchange", () => {
    const { layer, requests } = exchange(sequence(html503, fail(400, "45001", "Unknown error")), { credentials, retry })
    return Effect.gen(function*() {
      const first = yield* Effect.forkChild(Effect.flip(BitgetClient.execute(write, {})))
      yield* TestClock.adjust("10 seconds")
      assert.strictEqual((yield* Fiber.join(first))._tag, "BitgetHttpError")
      const second = yield* Effect.forkChild(Effect.flip(BitgetClient.execute(write, {})))
      yield* TestClock.adjust("10 seconds")
      assert.strictEqual((yield* Fiber.join(second))._tag, "BitgetApiError")
      assert.strictEqual(requests.length, 2)
    }).pipe(Effect.provide(layer))
  })

  it.effect("retries an unsafe POST after a 429 or a refused connection", () => {
    let calls = 0
    const http = HttpClient.make((request) => {
      calls++
      return calls === 1
        ? Effect.fail(
          new HttpClientError.HttpClientError({
            reason: new HttpClientError.TransportError({
              request,
              cause: Object.assign(new Error("refused"), { code: "ECONNREFUSED" })
            })
          })
        )
        : Effect.fail(
          new HttpClientError.HttpClientError({
            reason: new HttpClientError.TransportError({ request, cause: new Error("reset") })
          })
        )
    })
    const layer = BitgetClient.layer.pipe(
      Layer.provide(Layer.mergeAll(
        Layer.succeed(HttpClient.HttpClient, http),
        syncSigner,
        BitgetConfig.layer({ baseUrl, credentials, retry })
      ))
    )
    return Effect.gen(function*() {
      const fiber = yield* Effect.forkChild(Effect.flip(BitgetClient.execute(write, {})))
      yield* TestClock.adjust("10 seconds")
      const error = yield* Fiber.join(fiber)
      // refused (not sent) → retried; reset (may have been sent) → not retried
      assert.strictEqual(calls, 2)
      assert.isTrue(error._tag === "BitgetTransportError" && error.sent)
    }).pipe(Effect.provide(layer))
  })
})

describe("clock", () => {
  it.effect("after a 40008 reads the server time, keeps the offset, re-signs and succeeds", () => {
    const skew = 45_000
    let now = 0
    const { layer, requests } = exchange((request) => {
      if (request.url.pathname === "/api/v2/public/time") return ok({ serverTime: String(now + skew) })
      const stamp = Number(request.headers["access-timestamp"])
      return Math.abs(stamp - (now + skew)) > 30_000
        ? fail(400, "40008", "Request timestamp expired")
        : ok({ value: "ok" })
    }, { credentials, retry: { maxAttempts: 1 } })
    return Effect.gen(function*() {
      yield* TestClock.setTime(1_700_000_000_000)
      now = 1_700_000_000_000
      assert.deepStrictEqual(yield* BitgetClient.execute(read, {}), { value: "ok" })
      assert.deepStrictEqual(requests.map((r) => r.url.pathname), [
        "/api/v2/test/read",
        "/api/v2/public/time",
        "/api/v2/test/read"
      ])
      assert.strictEqual(Number(requests[2]!.headers["access-timestamp"]), now + skew)
      assert.strictEqual(yield* Effect.flatMap(BitgetClient.BitgetClient, (c) => c.clockOffset), skew)
      yield* BitgetClient.execute(read, {})
      assert.strictEqual(requests.length, 4)
    }).pipe(Effect.provide(layer))
  })
})
