import { assert, describe, it } from "@effect/vitest"
import { Cause, Config, Schema, SchemaAST, SchemaIssue } from "effect"
import { BatchCancelPartialFailure } from "../src/BatchCancel.js"
import * as BitgetError from "../src/BitgetError.js"

const endpoint = "GET /api/v2/tax/spot-record"

describe("BitgetError.describeFailure", () => {
  it("an exchange error: its message, then what to do for its kind", () => {
    const error = BitgetError.apiError({ endpoint, code: "40009", msg: "sign signature error" })
    assert.deepStrictEqual(BitgetError.describeFailure(Cause.fail(error)), [
      "error: GET /api/v2/tax/spot-record failed with code 40009 (Auth, HTTP 400): sign signature error",
      "hint: check the API key, its secret (or RSA key) and passphrase: BITGET_API_KEY, BITGET_API_PASSPHRASE and BITGET_API_SECRET (or BITGET_RSA_PRIVATE_KEY)"
    ])
  })

  it("an unknown code: the message alone, the code kept verbatim", () => {
    const error = BitgetError.apiError({ endpoint, code: "99999", msg: "new" })
    assert.deepStrictEqual(BitgetError.describeFailure(Cause.fail(error)), [
      "error: GET /api/v2/tax/spot-record failed with code 99999 (Unknown, HTTP 400): new"
    ])
  })

  it("a signed call without credentials says which variables to set", () => {
    const error = new BitgetError.BitgetRequestError({ endpoint, reason: "NoCredentials", issue: "needs credentials" })
    assert.match(
      BitgetError.describeFailure(Cause.fail(error))[1]!,
      /^hint: signed operations need credentials: set BITGET_API_KEY/
    )
  })

  it("bad configuration: each problem where the user sets it", () => {
    const error = new Config.ConfigError(
      new Schema.SchemaError(
        new SchemaIssue.Composite(Schema.Struct({}).ast, [
          new SchemaIssue.Pointer(
            ["BITGET_TIMEOUT"],
            new SchemaIssue.InvalidValue({ message: "Expected a duration but received \"soon\"" })
          ),
          new SchemaIssue.Pointer(
            ["BITGET_API_PASSPHRASE"],
            new SchemaIssue.MissingKey({ messageMissingKey: "incomplete credentials" })
          )
        ])
      )
    )
    assert.deepStrictEqual(BitgetError.describeFailure(Cause.fail(error)), [
      "error: bad configuration: BITGET_TIMEOUT: Expected a duration but received \"soon\"; BITGET_API_PASSPHRASE: incomplete credentials"
    ])
  })

  it("an interruption says nothing; a defect keeps its trace", () => {
    assert.deepStrictEqual(BitgetError.describeFailure(Cause.interrupt()), [])
    const [line] = BitgetError.describeFailure(Cause.die(new TypeError("a bug")))
    assert.include(line, "TypeError: a bug")
  })

  it("a transport failure: what failed, then what to do for its reason; Unexpected says it is no network failure", () => {
    const failure = (reason: BitgetError.BitgetTransportError["reason"], description: string) =>
      new BitgetError.BitgetTransportError({ endpoint, reason, sent: true, description })
    assert.deepStrictEqual(
      BitgetError.describeFailure(Cause.fail(failure("Network", "request transport failure (ECONNRESET)"))),
      [
        "error: GET /api/v2/tax/spot-record transport failure (Network): request transport failure (ECONNRESET)",
        "hint: check that the base URL is right and reachable (BITGET_BASE_URL)"
      ]
    )
    const unexpected = failure("Unexpected", "request transport failure: TypeError: agent.request is not a function")
    assert.deepStrictEqual(BitgetError.describeFailure(Cause.fail(unexpected)), [
      "error: GET /api/v2/tax/spot-record transport failure (Unexpected): request transport failure: TypeError: agent.request is not a function",
      "hint: not a network failure, so not retried: a bug, or a runtime this transport does not support; the message names the cause"
    ])
  })

  it("a Bitget error raised as a defect (a transport that cannot run here) reads as its failure would, without a trace", () => {
    const error = new BitgetError.BitgetTransportError({
      endpoint: "undici",
      reason: "Unexpected",
      sent: false,
      description: "cannot send here"
    })
    assert.deepStrictEqual(
      BitgetError.describeFailure(Cause.die(error)),
      BitgetError.describeFailure(Cause.fail(error))
    )
    assert.strictEqual(BitgetError.describeFailure(Cause.die(error)).length, 2)
  })

  it("isBitgetError tells the family from anything else", () => {
    assert.isTrue(BitgetError.isBitgetError(BitgetError.apiError({ endpoint, code: "1", msg: "" })))
    assert.isFalse(BitgetError.isBitgetError(new Error("x")))
    assert.isFalse(BitgetError.isBitgetError({ _tag: "SomethingElse" }))
  })
})

describe("BitgetError identifiers", () => {
  it("every error schema is named under the package, as its service tags are", () => {
    const schemas = [
      BitgetError.BitgetApiError,
      BitgetError.BitgetHttpError,
      BitgetError.BitgetTransportError,
      BitgetError.BitgetDecodeError,
      BitgetError.BitgetRequestError,
      BitgetError.BitgetSignerError,
      BitgetError.RateLimiterStoreError,
      BitgetError.RateLimitWaitExceeded,
      BatchCancelPartialFailure
    ]
    for (const schema of schemas) {
      assert.strictEqual(SchemaAST.resolveIdentifier(schema.ast), `@bitget-effect/core/${schema.name}`)
    }
  })
})

describe("BitgetError.classify", () => {
  it("the TP/SL refusals against the mark price are order errors, as the sandbox and the live exchange answer them", () => {
    for (const code of ["40915", "40917", "45061", "45122", "40837", "43023", "43030", "43031", "40890"]) {
      assert.strictEqual(BitgetError.classify(code), "Order", code)
    }
    assert.strictEqual(BitgetError.classify("60001"), "Parameter")
    assert.strictEqual(BitgetError.classify("40099"), "Environment")
    assert.strictEqual(BitgetError.classify("99999"), "Unknown")
  })
})
