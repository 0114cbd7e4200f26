/**
 * Records as plain JSON (`Json`): the exact form of a known record, decimals
 * with every digit of their scale, and, for the result of every operation, a
 * round trip through JSON text back to an `Equal` value, the compiled fast
 * path writing what Schema's encoder of `Json.codec` writes.
 */
import { assert, describe, it } from "@effect/vitest"
import { Arbitrary, BigDecimal, Effect, Equal, Option, Schema } from "effect"
import * as BatchCancel from "../src/BatchCancel.js"
import * as Json from "../src/Json.js"
import * as P2pOrders from "../src/P2pOrders.js"
import * as RpiOrderBook from "../src/RpiOrderBook.js"
import * as Schemas from "../src/Schemas.js"
import * as TaxRecords from "../src/TaxRecords.js"
import { integer } from "./arbitraries.js"
import { covered } from "./descriptors.js"

const seed = Number(process.env.PROPERTY_SEED ?? 20_260_102)

/** The options of one property: a fixed seed and a modest run count. */
const params = { timeout: 60_000, arbitrary: { seed, runs: 60, maxShrinks: 100 } }

/** A value through JSON text, as another program would read it. */
const text = (value: unknown): unknown => JSON.parse(JSON.stringify(value))

const taxRecord = Schema.decodeUnknownSync(TaxRecords.SpotTaxRecord)({
  id: "1203456789012345678",
  coin: "USDT",
  spotTaxType: "Card cashback",
  amount: "-0.20947777",
  fee: "0.10",
  balance: "25000.00000000",
  ts: "1767323045678",
  bizOrderId: ""
})

describe("Json", () => {
  it.effect("writes a record as plain JSON: ISO times, decimals as strings, null, enum text", () =>
    Effect.gen(function*() {
      const json = yield* Json.encode(TaxRecords.SpotTaxRecord)(taxRecord)
      assert.strictEqual(
        JSON.stringify(json),
        "{\"id\":\"1203456789012345678\",\"coin\":\"USDT\",\"spotTaxType\":\"Card cashback\",\"amount\":\"-0.20947777\"," +
          "\"fee\":\"0.10\",\"balance\":\"25000.00000000\",\"ts\":\"2026-01-02T03:04:05.678Z\",\"bizOrderId\":null}"
      )
      const back = yield* Json.decode(TaxRecords.SpotTaxRecord)(text(json))
      assert.isTrue(Equal.equals(back, taxRecord))
      assert.instanceOf(back.spotTaxType, Schemas.Unrecognized)
    }))

  it.effect("writes Some as its value, and a nested record and list as JSON", () =>
    Effect.gen(function*() {
      const page = Schema.decodeUnknownSync(P2pOrders.P2pOrderPage)({
        orderList: [{
          orderId: "1",
          orderNo: "2",
          advNo: "3",
          side: "buy",
          count: "1.5",
          coin: "USDT",
          price: "7.20",
          fiat: "CNY",
          withdrawTime: "",
          representTime: null,
          releaseTime: "1767323045678",
          paymentTime: "1767323045000",
          amount: "10.80",
          status: "completed",
          buyerRealName: "",
          sellerRealName: "",
          ctime: "1767323040000",
          utime: "1767323045678",
          paymentInfo: {
            paymethodName: "Bank",
            paymethodId: "",
            paymethodInfo: [{ name: "IBAN", required: "yes", type: "number", value: "DE89****" }]
          }
        }],
        minOrderId: "1"
      })
      const json = yield* Json.encode(P2pOrders.P2pOrderPage)(page)
      assert.deepStrictEqual(json, {
        orderList: [{
          orderId: "1",
          orderNo: "2",
          advNo: "3",
          side: "buy",
          count: "1.5",
          coin: "USDT",
          price: "7.20",
          fiat: "CNY",
          withdrawTime: null,
          representTime: null,
          releaseTime: "2026-01-02T03:04:05.678Z",
          paymentTime: "2026-01-02T03:04:05.000Z",
          amount: "10.80",
          status: "Completed", // a case-insensitive enum: the known value as the library spells it
          buyerRealName: null,
          sellerRealName: null,
          ctime: "2026-01-02T03:04:00.000Z",
          utime: "2026-01-02T03:04:05.678Z",
          paymentInfo: {
            paymethodName: "Bank",
            paymethodId: null,
            paymethodInfo: [{ name: "IBAN", required: "yes", type: "number", value: "DE89****" }]
          }
        }],
        minOrderId: "1"
      })
      assert.isTrue(Equal.equals(yield* Json.decode(P2pOrders.P2pOrderPage)(text(json)), page))
    }))

  it.effect("keeps every digit of a decimal, beyond the 17 a JS number holds, with its scale", () =>
    Effect.gen(function*() {
      const digits = "-123456789012345678901234.567890123456789000"
      const decimal = Schema.decodeUnknownSync(Schemas.Decimal)(digits)
      const json = yield* Json.encode(Schemas.Decimal)(decimal)
      assert.strictEqual(json, digits)
      const back = yield* Json.decode(Schemas.Decimal)(json)
      assert.strictEqual(back.value, decimal.value)
      assert.strictEqual(back.scale, 18)
      // an exponent's negative scale is written as the integer
      assert.strictEqual(yield* Json.encode(Schemas.Decimal)(BigDecimal.fromStringUnsafe("12e3")), "12000")
    }))

  it.effect("refuses JSON that is not of the record", () =>
    Effect.gen(function*() {
      const json = yield* Json.encode(TaxRecords.SpotTaxRecord)(taxRecord)
      const decode = Json.decode(TaxRecords.SpotTaxRecord)
      for (const broken of [{ ...Object(json), fee: "1e" }, { ...Object(json), ts: "yesterday" }, null]) {
        const result = yield* Effect.result(decode(broken))
        assert.strictEqual(result._tag, "Failure")
      }
    }))

  it.effect("levels of the RPI book keep their digits as the wire wrote them", () =>
    Effect.gen(function*() {
      const book = Schema.decodeUnknownSync(RpiOrderBook.RpiOrderBook)({
        a: [["0.10", "1", "0"]],
        b: [],
        ts: "1767323045678"
      })
      const json = yield* Json.encode(RpiOrderBook.RpiOrderBook)(book)
      assert.deepStrictEqual(json, {
        a: [{ price: "0.10", nonRpiQuantity: "1", rpiQuantity: "0" }],
        b: [],
        ts: "2026-01-02T03:04:05.678Z"
      })
      assert.isTrue(Equal.equals(yield* Json.decode(RpiOrderBook.RpiOrderBook)(json), book))
    }))

  it.prop(
    "a decimal of any scale reads back with the same digits and scale",
    [Arbitrary.schema(Schema.BigInt), integer(-40, 60)],
    ([unscaled, scale]) => {
      const decimal = BigDecimal.make(unscaled, scale)
      const json = Effect.runSync(Json.encode(Schemas.Decimal)(decimal))
      const back = Effect.runSync(Json.decode(Schemas.Decimal)(text(json)))
      assert.isTrue(Equal.equals(back, decimal))
      if (scale >= 0) assert.deepStrictEqual([back.value, back.scale], [unscaled, scale])
    },
    params
  )

  /** The results of each operation besides its endpoint's response. */
  const results: { readonly [name: string]: ReadonlyArray<readonly [string, Schema.Codec<unknown, unknown>]> } = {
    "tax.spotRecords": [],
    "mix.ordersHistory": [],
    "p2p.orderList": [],
    "spot.symbols": [],
    "common.allTradeRate": [],
    "spot.fundNetFlow": [],
    "account.openInterestLimit": [],
    "market.rpiOrderBook": [],
    "mix.placePositionTpsl": [],
    "public.time": [],
    "spot.batchCancelOrders": [["BatchCancelResult", BatchCancel.BatchCancelResult]]
  }

  for (const [endpoint, extra] of covered(results)) {
    for (const [name, schema] of [[endpoint.name, endpoint.response] as const, ...extra]) {
      // records as the client gives them: generated, then read from their wire form
      const records = Arbitrary.map(
        Arbitrary.schema(schema),
        (value) => Schema.decodeUnknownSync(schema)(text(Schema.encodeSync(schema)(value)))
      )
      const encode = Json.encode(schema)
      const decode = Json.decode(schema)
      const slow = Schema.encodeSync(Json.codec(schema))

      it.prop(`${name}: a record reads back Equal from its JSON text`, [records], ([record]) => {
        const json = Effect.runSync(encode(record))
        assert.deepStrictEqual(json, slow(record), "the fast path writes what Schema writes")
        const back = Effect.runSync(decode(text(json)))
        assert.isTrue(Equal.equals(back, record), `differs after ${JSON.stringify(json)}`)
        assert.deepStrictEqual(Effect.runSync(encode(back)), json, "re-encoded JSON differs")
      }, params)
    }
  }

  it("is cached per schema", () => {
    assert.strictEqual(Json.codec(TaxRecords.SpotTaxRecord), Json.codec(TaxRecords.SpotTaxRecord))
    assert.isTrue(Option.isNone(taxRecord.bizOrderId))
  })
})
