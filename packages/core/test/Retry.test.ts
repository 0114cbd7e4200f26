import { assert, describe, it } from "@effect/vitest"
import { Duration, Effect, Exit, Fiber, Layer, Option, Random, Schedule, Schema } from "effect"
import { HttpClient, HttpClientError } from "effect/http"
import { TestClock } from "effect/testing"
import * as BitgetClient from "../src/BitgetClient.js"
import * as BitgetConfig from "../src/BitgetConfig.js"
import type { BitgetError } from "../src/BitgetError.js"
import {
  BitgetApiError,
  BitgetDecodeError,
  BitgetHttpError,
  BitgetRequestError,
  BitgetSignerError,
  BitgetTransportError,
  RateLimiterStoreError,
  RateLimitWaitExceeded
} from "../src/BitgetError.js"
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

describe("what is retried (isRetryable)", () => {
  const endpoint = "GET /x"
  const http = (status: number) => new BitgetHttpError({ endpoint, status, excerpt: "" })
  const api = (code: string, status: number) =>
    new BitgetApiError({ endpoint, code, msg: "", status, requestTime: Option.none(), retryAfter: Option.none() })
  const transport = (reason: BitgetTransportError["reason"], sent: boolean) =>
    new BitgetTransportError({ endpoint, reason, sent, description: "" })
  const idempotent = Retry.isRetryable("idempotent")
  const unsafe = Retry.isRetryable("unsafe")

  it("an HTTP error without an envelope: from exactly 500 up and 408 on an idempotent call, never a 4xx", () => {
    for (const status of [500, 503, 599, 408]) assert.isTrue(idempotent(http(status)), `${status}`)
    for (const status of [499, 404, 409, 400, 300]) assert.isFalse(idempotent(http(status)), `${status}`)
  })

  it("an HTTP error without an envelope is never retried on an unsafe call, 5xx and 408 included", () => {
    for (const status of [500, 503, 408, 404]) assert.isFalse(unsafe(http(status)), `${status}`)
  })

  it("an error envelope: RateLimited always; Maintenance, or any code under HTTP 500 or more, when idempotent", () => {
    for (const code of ["429", "45129", "25004"]) {
      assert.isTrue(idempotent(api(code, 400)), code)
      assert.isTrue(unsafe(api(code, 400)), code)
    }
    assert.isTrue(idempotent(api("45001", 400)), "Maintenance")
    assert.isFalse(unsafe(api("45001", 400)), "Maintenance, unsafe")
    assert.isTrue(idempotent(api("99999", 500)), "an unknown code with HTTP exactly 500")
    assert.isFalse(unsafe(api("99999", 500)), "an unknown code with HTTP 500, unsafe")
    assert.isFalse(idempotent(api("99999", 499)), "an unknown code with HTTP 499")
    for (const code of ["40009", "40014", "40019", "43001", "45055"]) assert.isFalse(idempotent(api(code, 400)), code)
  })

  it("a failure before or beside the exchange (decode, request, signer, limiter) is never retried", () => {
    const failures: ReadonlyArray<BitgetError> = [
      new BitgetDecodeError({ endpoint, status: 200, issue: "", excerpt: "" }),
      new BitgetRequestError({ endpoint, issue: "" }),
      new BitgetSignerError({ issue: "" }),
      new RateLimitWaitExceeded({ endpoint, key: "uid", maxWait: Duration.seconds(1) }),
      new RateLimiterStoreError({ issue: "" })
    ]
    for (const failure of failures) {
      assert.isFalse(idempotent(failure), failure._tag)
      assert.isFalse(unsafe(failure), failure._tag)
    }
  })

  it("a Timeout on an unsafe call is never retried: the timed-out POST may have reached the exchange", () => {
    assert.isFalse(unsafe(transport("Timeout", true)))
    assert.isFalse(unsafe(transport("Timeout", false)))
    assert.isTrue(idempotent(transport("Timeout", true)))
  })

  it.effect("a timed-out unsafe POST is sent once (a retry would place a second order); a timed-out read is retried", () => {
    const attempts = { count: 0 }
    const hanging = HttpClient.make(() =>
      Effect.suspend(() => {
        attempts.count++
        return Effect.never
      })
    )
    const layer = BitgetClient.layer.pipe(
      Layer.provide(Layer.mergeAll(
        Layer.succeed(HttpClient.HttpClient, hanging),
        syncSigner,
        BitgetConfig.layer({ baseUrl, credentials, timeout: "1 second", retry })
      ))
    )
    return Effect.gen(function*() {
      const error = yield* failureOf(BitgetClient.execute(write, {}))
      assert.isTrue(error._tag === "BitgetTransportError" && error.reason === "Timeout")
      assert.strictEqual(attempts.count, 1)
      yield* failureOf(BitgetClient.execute(read, {}))
      assert.strictEqual(attempts.count, 1 + 4)
    }).pipe(Effect.provide(layer))
  })
})

describe("why a failure was retried (reason)", () => {
  const endpoint = "GET /x"
  const api = (code: string, status: number) =>
    new BitgetApiError({ endpoint, code, msg: "", status, requestTime: Option.none(), retryAfter: Option.none() })

  it("the transport's reason, the HTTP status, the code's family, else the status, else the error's tag", () => {
    for (const reason of ["Timeout", "Connect", "Network"] as const) {
      assert.strictEqual(
        Retry.reason(new BitgetTransportError({ endpoint, reason, sent: true, description: "" })),
        reason
      )
    }
    assert.strictEqual(Retry.reason(new BitgetHttpError({ endpoint, status: 503, excerpt: "" })), "HTTP 503")
    assert.strictEqual(Retry.reason(api("429", 429)), "RateLimited")
    assert.strictEqual(Retry.reason(api("40015", 400)), "Maintenance")
    assert.strictEqual(Retry.reason(api("99999", 502)), "HTTP 502")
    assert.strictEqual(
      Retry.reason(new BitgetDecodeError({ endpoint, status: 200, issue: "", excerpt: "" })),
      "BitgetDecodeError"
    )
  })
})

describe("the schedule", () => {
  const http503 = new BitgetHttpError({ endpoint: "GET /x", status: 503, excerpt: "" })

  /** The delays (ms) a policy gives a run of 503s, a step at a time, until it stops. */
  const delays = (options: Retry.RetryOptions) =>
    Effect.gen(function*() {
      const step = yield* Schedule.toStep(Retry.schedule(read, options))
      const out: Array<number> = []
      for (let now = 0; out.length < 10;) {
        const exit = yield* Effect.exit(step(now, http503))
        if (Exit.isFailure(exit)) break
        const millis = Duration.toMillis(exit.value[1])
        out.push(millis)
        now += millis
      }
      return out
    }).pipe(Random.withSeed("retry"))

  it.effect("without jitter: doubling from the base delay, capped at maxDelay, maxAttempts - 1 retries", () =>
    Effect.gen(function*() {
      assert.deepStrictEqual(yield* delays({ jitter: false }), [200, 400, 800])
      assert.deepStrictEqual(yield* delays({ jitter: false, maxAttempts: 6, maxDelay: "1 second" }), [
        200,
        400,
        800,
        1000,
        1000
      ])
    }))

  it.effect("with jitter (the default): each delay moved by up to 20 %, not all of them the plain backoff", () =>
    Effect.gen(function*() {
      const jittered = yield* delays({ maxAttempts: 6, maxDelay: "1 minute" })
      const plain = [200, 400, 800, 1600, 3200]
      assert.strictEqual(jittered.length, plain.length)
      jittered.forEach((millis, i) => {
        assert.isAtLeast(millis, plain[i]! * 0.8)
        assert.isAtMost(millis, plain[i]! * 1.2)
      })
      assert.notDeepEqual(jittered, plain)
    }))
})
