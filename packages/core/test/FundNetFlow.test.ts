import { assert, describe, it } from "@effect/vitest"
import { BigDecimal, DateTime, Effect } from "effect"
import { TestClock } from "effect/testing"
import { BitgetDecodeError, BitgetRequestError } from "../src/BitgetError.js"
import * as FundNetFlow from "../src/FundNetFlow.js"
import type { Recorded } from "./support.js"
import { exchange, ok } from "./support.js"

const decimal = BigDecimal.fromStringUnsafe

/** The client limits itself to the endpoint's rate under the TestClock: let the window pass between calls. */
const waitOutRateLimit = TestClock.adjust("2 seconds")

const credentialHeaderNames = (request: Recorded) =>
  Object.keys(request.headers).filter((name) => name.toLowerCase().startsWith("access-"))

const rejects = (request: FundNetFlow.FundNetFlowRequest, issue: RegExp) => {
  const { layer, requests } = exchange(() => ok([]))
  return Effect.gen(function*() {
    const error = yield* Effect.flip(FundNetFlow.fundNetFlow(request))
    assert.instanceOf(error, BitgetRequestError)
    assert.match(error.issue, issue)
    assert.strictEqual(requests.length, 0)
  }).pipe(Effect.provide(layer))
}

describe("fundNetFlow", () => {
  it.effect("is described as a public, idempotent GET limited to 1/s per IP", () =>
    Effect.sync(() => {
      const { endpoint } = FundNetFlow
      assert.strictEqual(endpoint.method, "GET")
      assert.strictEqual(endpoint.path, "/api/v2/spot/market/fund-net-flow")
      assert.strictEqual(endpoint.auth, "public")
      assert.strictEqual(endpoint.idempotency, "idempotent")
      assert.deepStrictEqual(endpoint.rateLimit, { limit: 1, window: "1 second", scope: "ip" })
    }))

  it.effect("sends an unsigned GET with the symbol and decodes signed net flows", () => {
    const { layer, requests } = exchange(() =>
      ok([
        { netFlow: "-1234.5678", ts: "1700000000000" },
        { netFlow: "98765.4321000000", ts: "1700000300000", extra: "ignored" }
      ])
    )
    return Effect.gen(function*() {
      const flows = yield* FundNetFlow.fundNetFlow({ symbol: "BTCUSDT" })
      assert.strictEqual(requests.length, 1)
      const request = requests[0]!
      assert.strictEqual(request.method, "GET")
      assert.strictEqual(request.url.origin, "https://api.example.test")
      assert.strictEqual(request.url.pathname, "/api/v2/spot/market/fund-net-flow")
      assert.strictEqual(request.url.search, "?symbol=BTCUSDT")
      assert.deepStrictEqual(credentialHeaderNames(request), [])
      assert.isUndefined(request.headers["content-type"])
      assert.strictEqual(request.headers["locale"], "en-US")
      assert.strictEqual(request.body, "")

      assert.strictEqual(flows.length, 2)
      assert.instanceOf(flows[0], FundNetFlow.NetFlow)
      assert.isTrue(BigDecimal.equals(flows[0]!.netFlow, decimal("-1234.5678")))
      assert.isTrue(BigDecimal.isNegative(flows[0]!.netFlow))
      assert.strictEqual(DateTime.toEpochMillis(flows[0]!.ts), 1_700_000_000_000)
      assert.isTrue(BigDecimal.equals(flows[1]!.netFlow, decimal("98765.4321")))
      assert.strictEqual(DateTime.toEpochMillis(flows[1]!.ts), 1_700_000_300_000)
      assert.notProperty(flows[1], "extra")
    }).pipe(Effect.provide(layer))
  })

  it.effect("percent-encodes a symbol with `$` and CJK characters in the URL", () => {
    const { layer, requests } = exchange(() => ok([]))
    return Effect.gen(function*() {
      yield* FundNetFlow.fundNetFlow({ symbol: "$PEPEUSDT" })
      yield* waitOutRateLimit
      yield* FundNetFlow.fundNetFlow({ symbol: "币安人生USDT" })
      assert.strictEqual(requests[0]!.url.search, "?symbol=%24PEPEUSDT")
      assert.strictEqual(requests[1]!.url.search, "?symbol=%E5%B8%81%E5%AE%89%E4%BA%BA%E7%94%9FUSDT")
      assert.strictEqual(requests[1]!.url.searchParams.get("symbol"), "币安人生USDT")
      assert.deepStrictEqual(credentialHeaderNames(requests[1]!), [])
    }).pipe(Effect.provide(layer))
  })

  it.effect("decodes any number of records, including none", () => {
    const many = Array.from({ length: 300 }, (_, i) => ({
      netFlow: String(i - 150),
      ts: String(1_700_000_000_000 + i)
    }))
    const answers = [ok([]), ok(many)]
    const { layer } = exchange(() => answers.shift()!)
    return Effect.gen(function*() {
      assert.deepStrictEqual(yield* FundNetFlow.fundNetFlow({ symbol: "BTCUSDT" }), [])
      yield* waitOutRateLimit
      const flows = yield* FundNetFlow.fundNetFlow({ symbol: "BTCUSDT" })
      assert.strictEqual(flows.length, 300)
      assert.isTrue(BigDecimal.equals(flows[0]!.netFlow, decimal("-150")))
      assert.strictEqual(DateTime.toEpochMillis(flows[299]!.ts), 1_700_000_000_299)
    }).pipe(Effect.provide(layer))
  })

  it.effect("fails to decode a net flow that is not a number", () => {
    const { layer } = exchange(() => ok([{ netFlow: "n/a", ts: "1700000000000" }]))
    return Effect.gen(function*() {
      const error = yield* Effect.flip(FundNetFlow.fundNetFlow({ symbol: "BTCUSDT" }))
      assert.instanceOf(error, BitgetDecodeError)
      assert.match(error.issue, /decimal/)
    }).pipe(Effect.provide(layer))
  })

  it.effect("rejects an empty symbol before sending", () => rejects({ symbol: "" }, /must not be blank/))

  it.effect("rejects a blank symbol before sending", () => rejects({ symbol: " \t " }, /must not be blank/))

  it.effect("rejects a missing symbol before sending", () =>
    // @ts-expect-error symbol is required
    rejects({}, /symbol/))
})
