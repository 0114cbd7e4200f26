/**
 * What keeps secrets out of a tracer's hands (issue 30, point 6), on an
 * injected HTTP layer: the scrubber an attempt carries writes out as
 * `<redacted>` however it is written out, and the call's and each attempt's
 * span end without their value (the answer, the scrubber, the caller's
 * records) on success, and with the typed failure alone on failure. The
 * end-to-end search over every operation is `e2e/test/telemetry-secrets.test.ts`.
 */
import { assert, describe, it } from "@effect/vitest"
import { DateTime, Effect, Exit, Stream, Tracer } from "effect"
import { inspect } from "node:util"
import * as Redact from "../src/internal/redact.js"
import * as Symbols from "../src/Symbols.js"
import * as TaxRecords from "../src/TaxRecords.js"
import * as Telemetry from "../src/Telemetry.js"
import { exchange, fail, hmacSecret, ok, spotPair as pair } from "./support.js"

/** Every way a tracer or a logger may write a value out. */
const writtenOut = (value: unknown): ReadonlyArray<string> => [
  String(value),
  JSON.stringify(value),
  JSON.stringify({ nested: [value] }),
  inspect(value, { depth: Infinity, showHidden: true }),
  inspect({ nested: [value] }, { depth: Infinity, showHidden: true, customInspect: false })
]

describe("the scrubber", () => {
  it("writes out as <redacted>, its secrets out of reach", () => {
    const scrubber = Redact.scrubber(["key-1", "phrase-1", hmacSecret]).including(["U2lnbmF0dXJlT2ZUaGVSZXF1ZXN0IQ=="])
    for (const text of writtenOut(scrubber)) {
      for (const secret of ["key-1", "phrase-1", hmacSecret, "U2lnbmF0dXJlT2ZUaGVSZXF1ZXN0IQ"]) {
        assert.notInclude(text, secret)
      }
    }
    assert.strictEqual(String(scrubber), "<redacted>")
    assert.strictEqual(JSON.stringify(scrubber), "\"<redacted>\"")
    assert.deepStrictEqual(Object.keys(scrubber), [])
    // and it still scrubs, a signature whose padding is spelled in a way it does not know included
    assert.strictEqual(scrubber.scrub("key-1 U2lnbmF0dXJlT2ZUaGVSZXF1ZXN0IQ%3D%3D"), "<redacted> <redacted>")
    assert.strictEqual(
      scrubber.scrub("U2lnbmF0dXJlT2ZUaGVSZXF1ZXN0IQ\\\\u003d\\\\u003d"),
      "<redacted>\\\\u003d\\\\u003d"
    )
  })
})

describe("spans end without their value", () => {
  /** Runs an effect under a tracer that keeps every span, with each exit it was ended with. */
  const traced = <A, E, R>(effect: Effect.Effect<A, E, R>) => {
    const ended: Array<readonly [string, Exit.Exit<unknown, unknown>]> = []
    const tracer = Tracer.make({
      span: (options) => {
        const span = new Tracer.NativeSpan(options)
        const end = span.end.bind(span)
        span.end = (time, exit) => {
          ended.push([options.name, exit])
          end(time, exit)
        }
        return span
      }
    })
    return Effect.map(Effect.exit(Effect.withTracer(effect, tracer)), (exit) => ({ exit, ended }))
  }

  it.effect("a success: the call's and the attempt's spans end with no value", () => {
    // a pair whose names echo the key and the passphrase: the caller gets them, the spans must not
    const { layer } = exchange(() => ok([{ ...pair, symbol: "key-1", baseCoin: "phrase-1" }]))
    return Effect.gen(function*() {
      const { ended, exit } = yield* traced(Symbols.symbols())
      assert.isTrue(Exit.isSuccess(exit) && exit.value[0]?.symbol === "key-1")
      assert.deepStrictEqual(ended.map(([name]) => name), ["GET /api/v2/spot/public/symbols", "bitget spot.symbols"])
      for (const [, exit] of ended) assert.deepStrictEqual(exit, Exit.void)
    }).pipe(Effect.provide(layer))
  })

  it.effect("a stream: each page's span ends with no value, not the page's records", () => {
    const { layer } = exchange(() => ok([]))
    return Effect.gen(function*() {
      // under the TestClock the exchange's clock is a minute past the epoch
      const stream = TaxRecords.stream({ startTime: DateTime.makeUnsafe(0), endTime: DateTime.makeUnsafe(50_000) })
      const { ended, exit } = yield* traced(Stream.runDrain(stream))
      assert.isTrue(Exit.isSuccess(exit), String(exit))
      const pages = ended.filter(([name]) => name === Telemetry.pageSpan)
      assert.strictEqual(pages.length, 1)
      for (const [, pageExit] of pages) assert.deepStrictEqual(pageExit, Exit.void)
    }).pipe(Effect.provide(layer))
  })

  it.effect("a failure: they end with the typed failure, which quotes no secret", () => {
    const { layer } = exchange(() => fail(400, "key-1", "bad phrase-1"))
    return Effect.gen(function*() {
      const { ended, exit } = yield* traced(Symbols.symbols())
      assert.isTrue(Exit.isFailure(exit))
      for (const [, spanExit] of ended) {
        assert.isTrue(Exit.isFailure(spanExit))
        for (const text of writtenOut(spanExit)) {
          assert.notInclude(text, "key-1")
          assert.notInclude(text, "phrase-1")
        }
      }
    }).pipe(Effect.provide(layer))
  })
})
