import { assert, describe, it } from "@effect/vitest"
import { Cause, Config, ConfigProvider, DateTime, Duration, Option, Schema, SchemaAST, SchemaIssue } from "effect"
import { BatchCancelPartialFailure } from "../src/BatchCancel.js"
import * as BitgetError from "../src/BitgetError.js"
import * as FailureText from "../src/FailureText.js"

const endpoint = "GET /api/v2/tax/spot-record"

describe("FailureText.describe", () => {
  it("an exchange error: its message, then what to do for its kind", () => {
    const error = BitgetError.apiError({ endpoint, code: "40009", msg: "sign signature error" })
    assert.deepStrictEqual(FailureText.describe(Cause.fail(error)), [
      "error: GET /api/v2/tax/spot-record failed with code 40009 (Auth, HTTP 400): sign signature error",
      "hint: check the API key, its secret (or RSA key) and passphrase: BITGET_API_KEY, BITGET_API_PASSPHRASE and BITGET_API_SECRET (or BITGET_RSA_PRIVATE_KEY)"
    ])
  })

  it("an unknown code: the message alone, the code kept verbatim", () => {
    const error = BitgetError.apiError({ endpoint, code: "99999", msg: "new" })
    assert.deepStrictEqual(FailureText.describe(Cause.fail(error)), [
      "error: GET /api/v2/tax/spot-record failed with code 99999 (Unknown, HTTP 400): new"
    ])
  })

  it("a signed call without credentials says which variables to set", () => {
    const error = new BitgetError.BitgetRequestError({ endpoint, reason: "NoCredentials", issue: "needs credentials" })
    assert.match(
      FailureText.describe(Cause.fail(error))[1]!,
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
    assert.deepStrictEqual(FailureText.describe(Cause.fail(error)), [
      "error: bad configuration: BITGET_TIMEOUT: Expected a duration but received \"soon\"; BITGET_API_PASSPHRASE: incomplete credentials"
    ])
  })

  it("an interruption says nothing; a defect keeps its trace", () => {
    assert.deepStrictEqual(FailureText.describe(Cause.interrupt()), [])
    const [line] = FailureText.describe(Cause.die(new TypeError("a bug")))
    assert.include(line, "TypeError: a bug")
  })

  it("a transport failure: what failed, then what to do for its reason; Unexpected says it is no network failure", () => {
    const failure = (reason: BitgetError.BitgetTransportError["reason"], description: string) =>
      new BitgetError.BitgetTransportError({ endpoint, reason, sent: true, description })
    assert.deepStrictEqual(
      FailureText.describe(Cause.fail(failure("Network", "request transport failure (ECONNRESET)"))),
      [
        "error: GET /api/v2/tax/spot-record transport failure (Network): request transport failure (ECONNRESET)",
        "hint: check that the base URL is right and reachable (BITGET_BASE_URL)"
      ]
    )
    const unexpected = failure("Unexpected", "request transport failure: TypeError: agent.request is not a function")
    assert.deepStrictEqual(FailureText.describe(Cause.fail(unexpected)), [
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
      FailureText.describe(Cause.die(error)),
      FailureText.describe(Cause.fail(error))
    )
    assert.strictEqual(FailureText.describe(Cause.die(error)).length, 2)
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

describe("BitgetError.classify: every code the exchange notes list, in its family", () => {
  const families: ReadonlyArray<readonly [BitgetError.ErrorKind, ReadonlyArray<string>]> = [
    ["ClockSkew", ["40008"]],
    ["Auth", ["40001", "40002", "40005", "40006", "40009", "40011", "40012", "40036", "40037"]],
    ["Permission", ["40014", "40018", "40038", "25620", "60049"]],
    ["Environment", ["40099"]],
    [
      "Parameter",
      [
        "40007",
        "40017",
        "40019",
        "40020",
        "40034",
        "40053",
        "00001",
        "70008",
        "40705",
        "40704",
        "40912",
        "40924",
        "60001"
      ]
    ],
    ["NotFound", ["43001", "43004", "45057", "40404"]],
    ["Order", ["45055", "40837", "43023", "45068", "40890", "43030", "43031", "40915", "40917", "45061", "45122"]],
    ["RateLimited", ["429", "45129", "25004"]],
    ["Maintenance", ["40015", "40200", "45001", "40725", "25000", "25001", "25003"]]
  ]

  it("each code in its own family; codes are matched whole", () => {
    for (const [kind, codes] of families) {
      for (const code of codes) assert.strictEqual(BitgetError.classify(code), kind, code)
    }
    for (const code of ["", "0", "00000", "4000", "400080", " 40008", "Auth"]) {
      assert.strictEqual(BitgetError.classify(code), "Unknown", JSON.stringify(code))
    }
  })
})

describe("FailureText.hint: each family its own advice", () => {
  const hintOf = (code: string) => FailureText.hint(BitgetError.apiError({ endpoint, code, msg: "m" }))

  it("an exchange error's hint follows its kind; none where the message says it all", () => {
    const phrases: ReadonlyArray<readonly [string, string]> = [
      ["40009", "check the API key, its secret (or RSA key) and passphrase: BITGET_API_KEY"],
      ["40008", "local clock"],
      ["40014", "lacks a permission"],
      ["40099", "demoTrading"],
      ["40017", "refused a parameter"],
      ["429", "too many calls"],
      ["40200", "busy or in maintenance"]
    ]
    for (const [code, phrase] of phrases) assert.include(hintOf(code), phrase, code)
    assert.strictEqual(new Set(phrases.map(([code]) => hintOf(code))).size, phrases.length)
    for (const code of ["43001", "45055", "99999"]) assert.isUndefined(hintOf(code), code)
  })

  it("every other failure's hint names what to do about it, and no two alike", () => {
    const maxWait = Duration.seconds(5)
    const transport = (reason: BitgetError.BitgetTransportError["reason"]) =>
      new BitgetError.BitgetTransportError({ endpoint, reason, sent: false, description: "d" })
    const phrases: ReadonlyArray<readonly [BitgetError.BitgetError, string]> = [
      [new BitgetError.BitgetHttpError({ endpoint, status: 502, excerpt: "" }), "a gateway answered"],
      [transport("Timeout"), "BITGET_TIMEOUT"],
      [transport("Connect"), "BITGET_BASE_URL"],
      [transport("Unexpected"), "not a network failure"],
      [new BitgetError.BitgetDecodeError({ endpoint, status: 200, issue: "i", excerpt: "" }), "documented shape"],
      [new BitgetError.BitgetRequestError({ endpoint, issue: "i" }), "nothing was sent"],
      [new BitgetError.BitgetSignerError({ issue: "i" }), "signing key"],
      [new BitgetError.RateLimitWaitExceeded({ endpoint, key: "k", maxWait }), "rateLimit.maxWait"],
      [new BitgetError.RateLimiterStoreError({ issue: "i" }), "Redis"]
    ]
    for (const [error, phrase] of phrases) assert.include(FailureText.hint(error), phrase, error._tag)
    assert.strictEqual(new Set(phrases.map(([error]) => FailureText.hint(error))).size, phrases.length)
    assert.strictEqual(FailureText.hint(transport("Network")), FailureText.hint(transport("Connect")))
  })
})

describe("BitgetError messages", () => {
  it("each failure says where and what, from its own fields", () => {
    const messages: ReadonlyArray<readonly [BitgetError.BitgetError, string]> = [
      [
        BitgetError.apiError({ endpoint, code: "40008", msg: "Request timestamp expired", status: 400 }),
        `${endpoint} failed with code 40008 (ClockSkew, HTTP 400): Request timestamp expired`
      ],
      [
        new BitgetError.BitgetHttpError({ endpoint, status: 502, excerpt: "<html>" }),
        `${endpoint} answered HTTP 502 without an API envelope: <html>`
      ],
      [
        new BitgetError.BitgetDecodeError({ endpoint, status: 200, issue: "a: Expected string", excerpt: "{}" }),
        `${endpoint} returned an unexpected response (HTTP 200): a: Expected string; body: {}`
      ],
      [
        new BitgetError.BitgetRequestError({ endpoint, issue: "symbol: must not be blank" }),
        `${endpoint} request rejected before sending: symbol: must not be blank`
      ],
      [new BitgetError.BitgetSignerError({ issue: "bad PEM" }), "could not sign the request: bad PEM"],
      [new BitgetError.RateLimiterStoreError({ issue: "ECONNREFUSED" }), "rate limiter store failed: ECONNREFUSED"],
      [
        new BitgetError.RateLimitWaitExceeded({ endpoint, key: "ip:spot.symbols", maxWait: Duration.seconds(5) }),
        `${endpoint} would wait longer than 5s for its rate limit (ip:spot.symbols)`
      ]
    ]
    for (const [error, message] of messages) assert.strictEqual(error.message, message)
  })

  it("a request error is Invalid unless said otherwise", () => {
    assert.strictEqual(new BitgetError.BitgetRequestError({ endpoint, issue: "i" }).reason, "Invalid")
  })

  it("apiError: HTTP 400 and no times unless given", () => {
    const plain = BitgetError.apiError({ endpoint, code: "40009", msg: "m" })
    assert.strictEqual(plain.status, 400)
    assert.deepStrictEqual(plain.requestTime, Option.none())
    assert.deepStrictEqual(plain.retryAfter, Option.none())
    const requestTime = DateTime.makeUnsafe(1_700_000_000_000)
    const full = BitgetError.apiError({
      endpoint,
      code: "429",
      msg: "m",
      status: 429,
      requestTime,
      retryAfter: Duration.seconds(1)
    })
    assert.strictEqual(full.status, 429)
    assert.deepStrictEqual(full.requestTime, Option.some(requestTime))
    assert.deepStrictEqual(full.retryAfter, Option.some(Duration.seconds(1)))
  })
})

describe("BitgetError predicates", () => {
  it("isApiErrorOfKind: an exchange error of that kind only", () => {
    const isRateLimited = BitgetError.isApiErrorOfKind("RateLimited")
    assert.isTrue(isRateLimited(BitgetError.apiError({ endpoint, code: "429", msg: "" })))
    assert.isFalse(isRateLimited(BitgetError.apiError({ endpoint, code: "40009", msg: "" })))
    assert.isFalse(isRateLimited({ _tag: "BitgetHttpError", kind: "RateLimited" }))
    assert.isFalse(isRateLimited(undefined))
  })

  it("isBitgetError: every tag of the family, nothing else", () => {
    const tags = [
      "BitgetApiError",
      "BitgetHttpError",
      "BitgetTransportError",
      "BitgetDecodeError",
      "BitgetRequestError",
      "BitgetSignerError",
      "RateLimitWaitExceeded",
      "RateLimiterStoreError"
    ]
    for (const _tag of tags) assert.isTrue(BitgetError.isBitgetError({ _tag }), _tag)
    // a tag that only reads as one when made a string is no tag
    const lookalike = { _tag: { toString: () => "BitgetApiError" } }
    for (const u of [null, "BitgetApiError", lookalike, { _tag: "toString" }, { tag: "BitgetApiError" }]) {
      assert.isFalse(BitgetError.isBitgetError(u), JSON.stringify(u))
    }
  })
})

describe("FailureText.describe: anything else", () => {
  it("a failure outside the family: its message, or its text", () => {
    assert.deepStrictEqual(FailureText.describe(Cause.fail(new Error("boom"))), ["error: boom"])
    assert.deepStrictEqual(FailureText.describe(Cause.fail("plain")), ["error: plain"])
    assert.deepStrictEqual(FailureText.describe(Cause.fail({ message: 42 })), ["error: 42"])
  })

  it("a failure alongside an interruption is still described", () => {
    const error = BitgetError.apiError({ endpoint, code: "99999", msg: "new" })
    assert.deepStrictEqual(
      FailureText.describe(Cause.combine(Cause.interrupt(), Cause.fail(error))),
      [`error: ${error.message}`]
    )
  })

  it("bad configuration that is not a schema problem: its message; a problem at no path: alone", () => {
    const missing = new Config.ConfigError(
      new Schema.SchemaError(new SchemaIssue.InvalidValue({ message: "no value" }))
    )
    assert.deepStrictEqual(FailureText.describe(Cause.fail(missing)), ["error: bad configuration: no value"])
    const nested = new Config.ConfigError(
      new Schema.SchemaError(
        new SchemaIssue.Pointer(["rateLimit", "maxWait"], new SchemaIssue.InvalidValue({ message: "too long" }))
      )
    )
    assert.deepStrictEqual(FailureText.describe(Cause.fail(nested)), [
      "error: bad configuration: rateLimit.maxWait: too long"
    ])
    const unreadable = new Config.ConfigError(new ConfigProvider.SourceError({ message: "cannot read .env" }))
    assert.deepStrictEqual(FailureText.describe(Cause.fail(unreadable)), [
      "error: bad configuration: cannot read .env"
    ])
  })
})
