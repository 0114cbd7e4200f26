/**
 * How an answer is read (`interpret`): the envelope whatever the HTTP status,
 * else a typed failure by status; and what a failure quotes of a body
 * (`excerpt`) or of a schema problem (`describeParseError`).
 */
import { assert, describe, it } from "@effect/vitest"
import { DateTime, Duration, Option, Result, Schema } from "effect"
import type { BitgetApiError, BitgetDecodeError, BitgetHttpError } from "../src/BitgetError.js"
import { describeParseError, excerpt, interpret, requestError } from "../src/client/envelope.js"
import * as Redact from "../src/internal/redact.js"

const endpoint = "GET /api/v2/test"

/** The answer read as the client reads it. */
const read = (body: string, status = 200, headers: Record<string, string> = {}, secrets = Redact.none) =>
  interpret({ endpoint, status, headers, body, secrets })

/** The failure an answer must end in, of the given tag. */
const failure = <Tag extends "BitgetApiError" | "BitgetHttpError" | "BitgetDecodeError">(
  tag: Tag,
  result: Result.Result<unknown, BitgetApiError | BitgetHttpError | BitgetDecodeError>
): Extract<BitgetApiError | BitgetHttpError | BitgetDecodeError, { readonly _tag: Tag }> => {
  if (Result.isSuccess(result)) return assert.fail(`expected ${tag}, got a success`)
  assert.strictEqual(result.failure._tag, tag)
  return result.failure as Extract<BitgetApiError | BitgetHttpError | BitgetDecodeError, { readonly _tag: Tag }>
}

const envelope = (fields: Record<string, unknown>) => JSON.stringify(fields)

describe("interpret: the envelope", () => {
  it("a 00000 envelope below HTTP 400 gives its data, whatever it is", () => {
    assert.deepStrictEqual(read(envelope({ code: "00000", msg: "success", data: { a: 1 } })), Result.succeed({ a: 1 }))
    assert.deepStrictEqual(read(envelope({ code: "00000", msg: null }), 399), Result.succeed(undefined))
  })

  it("a 00000 envelope with HTTP 400 or more is a failure, code kept", () => {
    const error = failure("BitgetApiError", read(envelope({ code: "00000", msg: "success", data: null }), 400))
    assert.strictEqual(error.code, "00000")
    assert.strictEqual(error.status, 400)
  })

  it("an error code on HTTP 200 is a failure; a numeric code reads as its digits", () => {
    const error = failure("BitgetApiError", read(envelope({ code: 40009, msg: "sign signature error" })))
    assert.strictEqual(error.code, "40009")
    assert.strictEqual(error.kind, "Auth")
    assert.strictEqual(error.msg, "sign signature error")
    assert.strictEqual(error.status, 200)
    assert.strictEqual(error.endpoint, endpoint)
    const zero = failure("BitgetApiError", read(envelope({ code: 0, msg: "odd" })))
    assert.strictEqual(zero.code, "0")
  })

  it("a missing or null msg reads as empty", () => {
    assert.strictEqual(failure("BitgetApiError", read(envelope({ code: "43001" }), 400)).msg, "")
    assert.strictEqual(failure("BitgetApiError", read(envelope({ code: "43001", msg: null }), 400)).msg, "")
  })

  it("requestTime as a number or a string of milliseconds; anything else is none", () => {
    const at = (requestTime: unknown) =>
      failure("BitgetApiError", read(envelope({ code: "40009", msg: "x", requestTime }), 400)).requestTime
    const expected = Option.some(DateTime.makeUnsafe(1755453539736))
    assert.deepStrictEqual(at(1755453539736), expected)
    assert.deepStrictEqual(at("1755453539736"), expected)
    assert.deepStrictEqual(at(null), Option.none())
    assert.deepStrictEqual(at(undefined), Option.none())
    assert.deepStrictEqual(at("yesterday"), Option.none())
  })

  it("Retry-After in seconds or as an HTTP date, none when absent or unreadable", () => {
    const after = (headers: Record<string, string>) =>
      failure("BitgetApiError", read(envelope({ code: "429", msg: "Too Many Requests" }), 429, headers)).retryAfter
    assert.deepStrictEqual(after({}), Option.none())
    assert.deepStrictEqual(after({ "retry-after": "2" }), Option.some(Duration.seconds(2)))
    assert.deepStrictEqual(after({ "retry-after": "0" }), Option.some(Duration.seconds(0)))
    assert.deepStrictEqual(after({ "retry-after": "0.0" }), Option.some(Duration.seconds(0)))
    assert.deepStrictEqual(after({ "retry-after": "soon" }), Option.none())
    assert.deepStrictEqual(after({ "retry-after": "Infinity" }), Option.none())
    // a date in the past, or what reads as one ("-1" is the year 2001): no wait
    assert.deepStrictEqual(after({ "retry-after": "Wed, 21 Oct 2015 07:28:00 GMT" }), Option.some(Duration.millis(0)))
    assert.deepStrictEqual(after({ "retry-after": "-1" }), Option.some(Duration.millis(0)))
    // a date an hour ahead: about an hour
    const ahead = Option.getOrThrow(after({ "retry-after": new Date(Date.now() + 3_600_000).toUTCString() }))
    assert.isAbove(Duration.toMillis(ahead), 3_500_000)
    assert.isAtMost(Duration.toMillis(ahead), 3_600_000)
  })

  it("a code or msg echoing a secret is scrubbed, and each is capped", () => {
    const secrets = Redact.scrubber(["s3cr3t-value"])
    const error = failure(
      "BitgetApiError",
      read(envelope({ code: "s3cr3t-value", msg: `bad s3cr3t-value ${"m".repeat(600)}` }), 400, {}, secrets)
    )
    assert.strictEqual(error.code, "<redacted>")
    // the first 512 characters, then scrubbed
    assert.strictEqual(error.msg, `bad <redacted> ${"m".repeat(495)}…`)
    const long = failure("BitgetApiError", read(envelope({ code: "9".repeat(100), msg: "x" }), 400))
    assert.strictEqual(long.code, `${"9".repeat(64)}…`)
  })
})

describe("interpret: answers without an envelope", () => {
  it("a 429 without an envelope is the exchange's rate limit, with its Retry-After", () => {
    const error = failure("BitgetApiError", read("<html>slow down</html>", 429, { "retry-after": "3" }))
    assert.strictEqual(error.code, "429")
    assert.strictEqual(error.msg, "Too Many Requests")
    assert.strictEqual(error.kind, "RateLimited")
    assert.strictEqual(error.status, 429)
    assert.deepStrictEqual(error.requestTime, Option.none())
    assert.deepStrictEqual(error.retryAfter, Option.some(Duration.seconds(3)))
  })

  it("HTTP 300 and above without an envelope is an HTTP error with an excerpt", () => {
    for (const status of [300, 502]) {
      const error = failure("BitgetHttpError", read("<html>\n  Bad   gateway\n</html>", status))
      assert.strictEqual(error.status, status)
      assert.strictEqual(error.endpoint, endpoint)
      assert.strictEqual(error.excerpt, "<html> Bad gateway </html>")
    }
  })

  it("below HTTP 300: not JSON, or JSON that is no envelope, is a decode error", () => {
    const notJson = failure("BitgetDecodeError", read("<html>ok</html>", 299))
    assert.strictEqual(notJson.issue, "the body is not valid JSON")
    assert.strictEqual(notJson.excerpt, "<html>ok</html>")
    assert.strictEqual(notJson.status, 299)
    const notEnvelope = failure("BitgetDecodeError", read("{\"result\":[1]}"))
    assert.strictEqual(notEnvelope.issue, "the body is not an API envelope {code, msg, data}")
    assert.strictEqual(notEnvelope.excerpt, "{\"result\":[1]}")
    // a code that is neither text nor an integer
    assert.strictEqual(failure("BitgetDecodeError", read(envelope({ code: 1.5 }))).issue, notEnvelope.issue)
  })
})

describe("excerpt", () => {
  it("folds whitespace, trims, and caps the length at 240 characters", () => {
    assert.strictEqual(excerpt("  a\n\t b  "), "a b")
    assert.strictEqual(excerpt("x".repeat(240)), "x".repeat(240))
    assert.strictEqual(excerpt("x".repeat(241)), `${"x".repeat(240)}…`)
  })

  it("removes the secrets it is given", () => {
    assert.strictEqual(excerpt("echo s3cr3t-value", Redact.scrubber(["s3cr3t-value"])), "echo <redacted>")
  })

  it("masks the value of each personal or secret-looking key, whatever the case", () => {
    const body = JSON.stringify({
      realName: "Jane Doe",
      SecretKey: "abc",
      passphrase: "p",
      sign: "y",
      apiKey: "k",
      payMethodInfo: [{ name: "bank", value: "123" }],
      note: "sign",
      kept: 7
    })
    assert.strictEqual(
      excerpt(body),
      "{\"realName\":\"<redacted>\",\"SecretKey\":\"<redacted>\",\"passphrase\":\"<redacted>\",\"sign\":\"<redacted>\"," +
        "\"apiKey\":\"<redacted>\",\"payMethodInfo\":\"<redacted>\",\"note\":\"sign\",\"kept\":7}"
    )
  })

  it("masks whole values: escaped quotes, nested values, scalars, spaced colons", () => {
    assert.strictEqual(excerpt("{\"sign\":\"a\\\"b,c\",\"n\":1}"), "{\"sign\":\"<redacted>\",\"n\":1}")
    assert.strictEqual(
      excerpt("{\"secret\":{\"a\":[1,{\"b\":\"}]\"}],\"c\":2},\"n\":1}"),
      "{\"secret\":\"<redacted>\",\"n\":1}"
    )
    assert.strictEqual(excerpt("{\"sign\":12345,\"n\":1}"), "{\"sign\":\"<redacted>\",\"n\":1}")
    assert.strictEqual(excerpt("{\"sign\":true}"), "{\"sign\":\"<redacted>\"}")
    assert.strictEqual(excerpt("[{\"sign\":1},{\"sign\":2}]"), "[{\"sign\":\"<redacted>\"},{\"sign\":\"<redacted>\"}]")
    assert.strictEqual(excerpt("{\"sign\" :\n \"v\", \"n\":1}"), "{\"sign\" : \"<redacted>\", \"n\":1}")
    assert.strictEqual(excerpt("{\"sign\"\t:\r\"v\"}"), "{\"sign\" : \"<redacted>\"}")
    assert.strictEqual(excerpt("{\"sign\"\r:\t\"v\"}"), "{\"sign\" : \"<redacted>\"}")
    // a string value ends at its closing quote, what follows it is kept
    assert.strictEqual(excerpt("{\"sign\":\"v\" ,\"n\":1}"), "{\"sign\":\"<redacted>\" ,\"n\":1}")
    // a body that starts with its key
    assert.strictEqual(excerpt("\"sign\":\"v\""), "\"sign\":\"<redacted>\"")
    // a key with an escaped quote is read to its real end
    assert.strictEqual(excerpt("{\"a\\\"sign\":\"v\"}"), "{\"a\\\"sign\":\"<redacted>\"}")
  })

  it("masks to the end a value the body cuts off", () => {
    assert.strictEqual(excerpt("{\"sign\":\"abc"), "{\"sign\":\"<redacted>\"")
    assert.strictEqual(excerpt("{\"sign\":{\"a\":[1,2"), "{\"sign\":\"<redacted>\"")
    assert.strictEqual(excerpt("{\"sign\":\"a\\"), "{\"sign\":\"<redacted>\"")
    assert.strictEqual(excerpt("{\"a\":1,\"sign"), "{\"a\":1,\"sign")
  })

  it("leaves text that only looks like a key alone", () => {
    assert.strictEqual(excerpt("\"sign\" is not a key, \"secret\" x"), "\"sign\" is not a key, \"secret\" x")
  })
})

describe("describeParseError", () => {
  const problems = (schema: Schema.Top, input: unknown, secrets = Redact.none) => {
    const result = Schema.decodeUnknownExit(schema as Schema.Codec<unknown>)(input, { errors: "all" })
    if (result._tag === "Success") return assert.fail("expected a schema failure")
    const error = result.cause.reasons[0]
    if (error?._tag !== "Fail" || !Schema.isSchemaError(error.error)) return assert.fail("expected a SchemaError")
    return describeParseError(error.error, secrets)
  }

  it("each problem at its path, joined with dots; (root) for the value itself", () => {
    assert.strictEqual(problems(Schema.String, 1), "(root): Expected string")
    assert.strictEqual(
      problems(Schema.Struct({ a: Schema.Array(Schema.Struct({ b: Schema.String })) }), { a: [{ b: 1 }] }),
      "a.0.b: Expected string"
    )
  })

  it("at most five problems, then how many more", () => {
    const schema = Schema.Array(Schema.String)
    assert.strictEqual(
      problems(schema, [1, 2, 3, 4, 5]).split("; ").length,
      5
    )
    const many = problems(schema, [1, 2, 3, 4, 5, 6, 7])
    assert.isTrue(many.startsWith("0: Expected string; 1: "))
    assert.isTrue(many.endsWith("; 4: Expected string; and 2 more"))
  })

  it("requestError: refused before sending, at the endpoint, with the problems", () => {
    const result = Schema.decodeUnknownExit(Schema.Struct({ symbol: Schema.String }))({})
    if (result._tag === "Success") return assert.fail("expected a schema failure")
    const reason = result.cause.reasons[0]
    if (reason?._tag !== "Fail" || !Schema.isSchemaError(reason.error)) return assert.fail("expected a SchemaError")
    const error = requestError({ method: "POST", path: "/api/v2/x" })(reason.error)
    assert.strictEqual(error._tag, "BitgetRequestError")
    assert.strictEqual(error.endpoint, "POST /api/v2/x")
    assert.strictEqual(error.reason, "Invalid")
    assert.strictEqual(error.issue, "symbol: Missing key")
  })

  it("paths and problems capped, secrets removed", () => {
    const key = "k".repeat(100)
    const path = problems(Schema.Struct({ [key]: Schema.String }), { [key]: 1 })
    assert.strictEqual(path, `${"k".repeat(80)}…: Expected string`)
    const secret = problems(Schema.Struct({ "s3cr3t-value": Schema.String }), {}, Redact.scrubber(["s3cr3t-value"]))
    assert.strictEqual(secret, "<redacted>: Missing key")
  })
})
