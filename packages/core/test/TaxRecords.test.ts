import { assert, describe, it } from "@effect/vitest"
import { BigDecimal, DateTime, Effect, Option } from "effect"
import { TestClock } from "effect/testing"
import { BitgetRequestError } from "../src/BitgetError.js"
import { Unrecognized } from "../src/Schemas.js"
import * as TaxRecords from "../src/TaxRecords.js"
import { assertSigned, day, exchange, ok } from "./support.js"

const decimal = BigDecimal.fromStringUnsafe

/** The client limits itself to the endpoint's rate under the TestClock: let the window pass between calls. */
const waitOutRateLimit = TestClock.adjust("2 seconds")
const start = 1_700_000_000_000
const startTime = DateTime.makeUnsafe(start)
const endTime = DateTime.makeUnsafe(start + 7 * day)

const record = {
  id: "1180046434431418368",
  coin: "USDT",
  spotTaxType: "Deposit",
  amount: "100.0000000000000000",
  fee: "0",
  balance: "1100.5",
  ts: "1700000000123"
}

const rejects = (request: TaxRecords.TaxRecordsRequest, issue: RegExp) => {
  const { layer, requests } = exchange(() => ok([record]))
  return Effect.gen(function*() {
    const error = yield* Effect.flip(TaxRecords.spotRecords(request))
    assert.instanceOf(error, BitgetRequestError)
    assert.match(error.issue, issue)
    assert.strictEqual(requests.length, 0)
  }).pipe(Effect.provide(layer))
}

describe("spotRecords", () => {
  it.effect("is described as a signed, idempotent GET limited to 1/s per user", () =>
    Effect.sync(() => {
      const { endpoint } = TaxRecords
      assert.strictEqual(endpoint.method, "GET")
      assert.strictEqual(endpoint.path, "/api/v2/tax/spot-record")
      assert.strictEqual(endpoint.auth, "signed")
      assert.strictEqual(endpoint.idempotency, "idempotent")
      assert.deepStrictEqual(endpoint.rateLimit, { limit: 1, window: "1 second", scope: "uid" })
    }))

  it.effect("sends a signed GET with every parameter, keys sorted", () => {
    const { layer, requests } = exchange(() => ok([]))
    return Effect.gen(function*() {
      const records = yield* TaxRecords.spotRecords({
        startTime,
        endTime,
        coin: "BTC",
        limit: 500,
        idLessThan: "1180046434431418368"
      })
      assert.deepStrictEqual(records, [])
      assert.strictEqual(requests.length, 1)
      const request = requests[0]!
      assert.strictEqual(request.method, "GET")
      assert.strictEqual(request.url.pathname, "/api/v2/tax/spot-record")
      const query = "coin=BTC&endTime=1700604800000&idLessThan=1180046434431418368&limit=500&startTime=1700000000000"
      assert.strictEqual(request.url.search, `?${query}`)
      assert.strictEqual(request.headers["locale"], "en-US")
      assert.strictEqual(request.body, "")
      assertSigned(request, query)
    }).pipe(Effect.provide(layer))
  })

  it.effect("leaves out the optional parameters that are absent", () => {
    const { layer, requests } = exchange(() => ok([]))
    return Effect.gen(function*() {
      yield* TaxRecords.spotRecords({ startTime, endTime })
      const query = "endTime=1700604800000&startTime=1700000000000"
      assert.strictEqual(requests[0]!.url.search, `?${query}`)
      assertSigned(requests[0]!, query)
    }).pipe(Effect.provide(layer))
  })

  it.effect("signs a CJK and `$` coin raw while the URL carries it percent-encoded", () => {
    const { layer, requests } = exchange(() => ok([]))
    return Effect.gen(function*() {
      yield* TaxRecords.spotRecords({ startTime, endTime, coin: "币安$" })
      const request = requests[0]!
      assert.strictEqual(
        request.url.search,
        "?coin=%E5%B8%81%E5%AE%89%24&endTime=1700604800000&startTime=1700000000000"
      )
      assertSigned(request, "coin=币安$&endTime=1700604800000&startTime=1700000000000")
    }).pipe(Effect.provide(layer))
  })

  it.effect("decodes records, with bizOrderId absent, empty, null or present", () => {
    const { layer } = exchange(() =>
      ok([
        { ...record, surprise: { nested: true } },
        { ...record, id: "2", spotTaxType: "Activity fund(USDT-Ⓜ)", amount: "-3.25", fee: "-0.001", bizOrderId: "" },
        { ...record, id: "3", spotTaxType: "Strategic Income-Traders' accounts", bizOrderId: null },
        { ...record, id: "4", spotTaxType: "Fiat withdrawal success - Deduct", bizOrderId: "1180046434431418999" }
      ])
    )
    return Effect.gen(function*() {
      const [first, second, third, fourth] = yield* TaxRecords.spotRecords({ startTime, endTime })
      assert.instanceOf(first, TaxRecords.SpotTaxRecord)
      assert.strictEqual(first!.id, "1180046434431418368")
      assert.strictEqual(first!.coin, "USDT")
      assert.strictEqual(first!.spotTaxType, "Deposit")
      assert.isTrue(BigDecimal.equals(first!.amount, decimal("100")))
      assert.isTrue(BigDecimal.equals(first!.fee, decimal("0")))
      assert.isTrue(BigDecimal.equals(first!.balance, decimal("1100.5")))
      assert.strictEqual(DateTime.toEpochMillis(first!.ts), 1_700_000_000_123)
      assert.deepStrictEqual(first!.bizOrderId, Option.none())
      assert.notProperty(first, "surprise")

      assert.strictEqual(second!.spotTaxType, "Activity fund(USDT-Ⓜ)")
      assert.isTrue(BigDecimal.equals(second!.amount, decimal("-3.25")))
      assert.isTrue(BigDecimal.equals(second!.fee, decimal("-0.001")))
      assert.deepStrictEqual(second!.bizOrderId, Option.none())

      assert.strictEqual(third!.spotTaxType, "Strategic Income-Traders' accounts")
      assert.deepStrictEqual(third!.bizOrderId, Option.none())

      assert.strictEqual(fourth!.spotTaxType, "Fiat withdrawal success - Deduct")
      assert.deepStrictEqual(fourth!.bizOrderId, Option.some("1180046434431418999"))
    }).pipe(Effect.provide(layer))
  })

  it.effect("decodes every documented record type as itself and keeps unknown ones", () => {
    const types = [...TaxRecords.spotTaxTypes, "Staking reward", "deposit"]
    const { layer } = exchange(() => ok(types.map((spotTaxType, i) => ({ ...record, id: String(i), spotTaxType }))))
    return Effect.gen(function*() {
      assert.strictEqual(TaxRecords.spotTaxTypes.length, 80)
      assert.strictEqual(new Set(TaxRecords.spotTaxTypes).size, 80)
      const records = yield* TaxRecords.spotRecords({ startTime, endTime })
      assert.deepStrictEqual(
        records.slice(0, 80).map((r) => r.spotTaxType),
        [...TaxRecords.spotTaxTypes]
      )
      assert.deepStrictEqual(records[80]!.spotTaxType, new Unrecognized({ value: "Staking reward" }))
      // values are matched exactly as written, so a different casing is not the known one
      assert.deepStrictEqual(records[81]!.spotTaxType, new Unrecognized({ value: "deposit" }))
    }).pipe(Effect.provide(layer))
  })

  it.effect("accepts a window of exactly 30 days", () => {
    const { layer, requests } = exchange(() => ok([]))
    return Effect.gen(function*() {
      yield* TaxRecords.spotRecords({ startTime, endTime: DateTime.makeUnsafe(start + 30 * day) })
      assert.strictEqual(requests.length, 1)
      assert.strictEqual(requests[0]!.url.searchParams.get("endTime"), String(start + 30 * day))
    }).pipe(Effect.provide(layer))
  })

  it.effect("accepts limits 1 and 500", () => {
    const { layer, requests } = exchange(() => ok([]))
    return Effect.gen(function*() {
      yield* TaxRecords.spotRecords({ startTime, endTime, limit: 1 })
      yield* waitOutRateLimit
      yield* TaxRecords.spotRecords({ startTime, endTime, limit: 500 })
      assert.deepStrictEqual(requests.map((r) => r.url.searchParams.get("limit")), ["1", "500"])
    }).pipe(Effect.provide(layer))
  })

  it.effect("rejects a window longer than 30 days before sending", () =>
    rejects({ startTime, endTime: DateTime.makeUnsafe(start + 30 * day + 1) }, /at most 30 days/))

  it.effect("rejects a start after the end before sending", () =>
    rejects({ startTime: endTime, endTime: startTime }, /startTime must not be after endTime/))

  it.effect("rejects a missing startTime before sending", () =>
    // @ts-expect-error startTime is required
    rejects({ endTime }, /startTime/))

  it.effect("rejects a missing endTime before sending", () =>
    // @ts-expect-error endTime is required
    rejects({ startTime }, /endTime/))

  it.effect("rejects a limit of 0 before sending", () =>
    rejects({ startTime, endTime, limit: 0 }, /integer from 1 to 500/))

  it.effect("rejects a limit above 500 before sending", () =>
    rejects({ startTime, endTime, limit: 501 }, /integer from 1 to 500/))

  it.effect("rejects a fractional limit before sending", () => rejects({ startTime, endTime, limit: 2.5 }, /integer/))

  it.effect("rejects a non-numeric idLessThan before sending", () =>
    rejects({ startTime, endTime, idLessThan: "abc" }, /numeric id/))

  it.effect("rejects a blank coin before sending", () =>
    rejects({ startTime, endTime, coin: " " }, /coin: [\s\S]*must not be blank/))

  it.effect("refuses to run without credentials, sending nothing", () => {
    const { layer, requests } = exchange(() => ok([]), {})
    return Effect.gen(function*() {
      const error = yield* Effect.flip(TaxRecords.spotRecords({ startTime, endTime }))
      assert.instanceOf(error, BitgetRequestError)
      assert.match(error.issue, /credentials/)
      assert.strictEqual(requests.length, 0)
    }).pipe(Effect.provide(layer))
  })
})
