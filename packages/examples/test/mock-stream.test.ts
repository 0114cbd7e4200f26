import { BitgetMock, Schemas, TaxRecords } from "@bitget-effect/core"
import { assert, it } from "@effect/vitest"
import { BigDecimal, DateTime, Effect, Option, Stream } from "effect"
import { TestClock } from "effect/testing"

// the code under test: the USDT fees of the last 60 days
const feesOfLast60Days = Effect.gen(function*() {
  const end = yield* DateTime.now
  return yield* TaxRecords.stream({ coin: "USDT", startTime: DateTime.subtract(end, { days: 60 }), endTime: end }).pipe(
    Stream.runFold(() => BigDecimal.fromBigInt(0n), (total, record) => BigDecimal.sum(total, record.fee))
  )
})

const now = DateTime.makeUnsafe("2026-01-01T00:00:00Z")
const record = (id: number, daysAgo: number, fee: string) =>
  TaxRecords.SpotTaxRecord.make({
    id: String(id),
    coin: "USDT",
    spotTaxType: "Buy",
    amount: BigDecimal.fromStringUnsafe("100"),
    fee: BigDecimal.fromStringUnsafe(fee),
    balance: BigDecimal.fromStringUnsafe("1000"),
    ts: DateTime.subtract(now, { days: daysAgo }),
    bizOrderId: Option.none()
  })
const ledger = [
  record(5, 1, "0.1"),
  record(4, 2, "0.2"),
  record(3, 40, "0.3"),
  record(2, 50, "0.4"),
  record(1, 90, "9")
]

// a fake exchange: the records of the asked window, newest first, one page of `limit` below `idLessThan`
const exchange = BitgetMock.layer(BitgetMock.on(TaxRecords.endpoint, (request) =>
  Effect.succeed(
    ledger.filter((r) =>
      DateTime.between(r.ts, { minimum: request.startTime, maximum: request.endTime }) &&
      (request.idLessThan === undefined || Number(r.id) < Number(request.idLessThan))
    ).slice(0, Number(request.limit ?? 500))
  )))

it.effect("sums the fees of every window of the last 60 days", () =>
  Effect.gen(function*() {
    yield* TestClock.setTime(DateTime.toEpochMillis(now)) // TestClock starts at 1970: set it first
    const total = yield* feesOfLast60Days
    assert.strictEqual(Schemas.formatDecimal(total), "1") // 0.1 + 0.2 + 0.3 + 0.4; the 90-day-old record is out
    const windows = (yield* BitgetMock.requestsOf(TaxRecords.endpoint)).map((r) => DateTime.formatIso(r.startTime))
    assert.deepStrictEqual(windows, ["2025-12-02T00:00:00.000Z", "2025-11-02T00:00:00.000Z"]) // two 30-day windows
  }).pipe(Effect.provide(exchange)))

it.effect("fails, sending nothing, when the clock was left at 1970", () =>
  Effect.gen(function*() {
    const error = yield* Effect.flip(feesOfLast60Days)
    assert.strictEqual(error._tag, "BitgetRequestError") // the range starts before 1970: a clock nobody set
    assert.deepStrictEqual(yield* BitgetMock.requestsOf(TaxRecords.endpoint), [])
  }).pipe(Effect.provide(exchange)))
