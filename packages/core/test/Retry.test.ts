import { assert, describe, it } from "@effect/vitest"
import { Duration, Effect, Fiber, Layer, Option, Schema } from "effect"
import { HttpClient, HttpClientError } from "effect/http"
import { TestClock } from "effect/testing"
import * as BitgetClient from "../src/BitgetClient.js"
import * as BitgetConfig from "../src/BitgetConfig.js"
import { BitgetTransportError } from "../src/BitgetError.js"
import * as Endpoint from "../src/Endpoint.js"
import * as Retry from "../src/Retry.js"
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

/** What Node's fetch throws for a broken exchange: a `TypeError` with the system error under it. */
const fetchFailed = (code: string) =>
  new TypeError("fetch failed", { cause: Object.assign(new Error(`read ${code}`), { code }) })
const refused = fetchFailed("ECONNREFUSED")
const reset = fetchFailed("ECONNRESET")

/**
 * A client (retries on) whose every request fails in transport with what
 * `thrown` gives for its attempt (from 1), as an `HttpClient` reports what
 * fetch threw; `attempts.count` counts the requests.
 */
const failing = (thrown: (attempt: number) => unknown) => {
  const attempts = { count: 0 }
  const http = HttpClient.make((request) =>
    Effect.fail(
      new HttpClientError.HttpClientError({
        reason: new HttpClientError.TransportError({ request, cause: thrown(++attempts.count) })
      })
    )
  )
  const layer = BitgetClient.layer.pipe(
    Layer.provide(Layer.mergeAll(
      Layer.succeed(HttpClient.HttpClient, http),
      syncSigner,
      BitgetConfig.layer({ baseUrl, credentials, retry })
    ))
  )
  return { attempts, layer }
}

/** The failure of a call, after letting every retry it would make run out. */
const failureOf = <A, E>(call: Effect.Effect<A, E, BitgetClient.BitgetClient>) =>
  Effect.gen(function*() {
    const fiber = yield* Effect.forkChild(Effect.flip(call))
    yield* TestClock.adjust("1 minute")
    return yield* Fiber.join(fiber)
  })

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

  it.effect("retries an unsafe POST after a refused connection (not sent), not after a reset one (maybe sent)", () => {
    const { attempts, layer } = failing((attempt) => attempt === 1 ? refused : reset)
    return Effect.gen(function*() {
      const fiber = yield* Effect.forkChild(Effect.flip(BitgetClient.execute(write, {})))
      yield* TestClock.adjust("10 seconds")
      const error = yield* Fiber.join(fiber)
      assert.strictEqual(attempts.count, 2)
      assert.isTrue(error._tag === "BitgetTransportError" && error.reason === "Network" && error.sent)
    }).pipe(Effect.provide(layer))
  })
})

describe("transport failures", () => {
  it.effect("a reset connection is Network and maybe sent: retried on an idempotent call, never on an unsafe one", () => {
    const { attempts, layer } = failing(() => reset)
    return Effect.gen(function*() {
      const error = yield* failureOf(BitgetClient.execute(read, {}))
      assert.strictEqual(attempts.count, 4)
      assert.isTrue(error._tag === "BitgetTransportError" && error.reason === "Network" && error.sent)
      assert.strictEqual(
        error.message,
        "GET /api/v2/test/read transport failure (Network): request transport failure (ECONNRESET)"
      )
      yield* failureOf(BitgetClient.execute(write, {}))
      assert.strictEqual(attempts.count, 5)
    }).pipe(Effect.provide(layer))
  })

  it.effect("a refused connection is Connect and not sent: retried even on an unsafe call", () => {
    const { attempts, layer } = failing(() => refused)
    return Effect.gen(function*() {
      const error = yield* failureOf(BitgetClient.execute(write, {}))
      assert.strictEqual(attempts.count, 4)
      assert.isTrue(error._tag === "BitgetTransportError" && error.reason === "Connect" && !error.sent)
    }).pipe(Effect.provide(layer))
  })

  it.effect("a TypeError thrown inside the transport is Unexpected: never retried, its name and message kept", () => {
    const { attempts, layer } = failing(() => new TypeError("agent.request is not a function"))
    return Effect.gen(function*() {
      const error = yield* failureOf(BitgetClient.execute(read, {}))
      assert.strictEqual(attempts.count, 1, "an idempotent call is not retried either")
      assert.isTrue(error._tag === "BitgetTransportError" && error.reason === "Unexpected")
      // how far the exchange got is not known: it counts as sent, so that nobody repeats an order on a guess
      assert.isTrue(error._tag === "BitgetTransportError" && error.sent)
      assert.strictEqual(
        error.message,
        "GET /api/v2/test/read transport failure (Unexpected): request transport failure: " +
          "TypeError: agent.request is not a function"
      )
    }).pipe(Effect.provide(layer))
  })

  it.effect("fetch failing for what is not the network (no network code under it) is Unexpected, not retried", () => {
    const { attempts, layer } = failing(() =>
      new TypeError("fetch failed", { cause: new RangeError("unknown scheme") })
    )
    return Effect.gen(function*() {
      const error = yield* failureOf(BitgetClient.execute(read, {}))
      assert.strictEqual(attempts.count, 1)
      assert.include(
        error.message,
        "(Unexpected): request transport failure: TypeError: fetch failed; cause: RangeError: unknown scheme"
      )
    }).pipe(Effect.provide(layer))
  })

  it("isRetryable: an Unexpected failure is never retried, sent or not; a network one as its idempotency allows", () => {
    const failure = (reason: BitgetTransportError["reason"], sent: boolean) =>
      new BitgetTransportError({ endpoint: "GET /x", reason, sent, description: "" })
    for (const idempotency of ["idempotent", "unsafe"] as const) {
      const retryable = Retry.isRetryable(idempotency)
      assert.isFalse(retryable(failure("Unexpected", false)), idempotency)
      assert.isFalse(retryable(failure("Unexpected", true)), idempotency)
      assert.isTrue(retryable(failure("Connect", false)), idempotency)
      assert.strictEqual(retryable(failure("Network", true)), idempotency === "idempotent")
    }
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
