import { assert, describe, it } from "@effect/vitest"
import { BigDecimal, DateTime, Effect, Option } from "effect"
import { TestClock } from "effect/testing"
import type { BitgetRequestError } from "../src/BitgetError.js"
import * as P2pOrders from "../src/P2pOrders.js"
import { Unrecognized } from "../src/Schemas.js"
import { assertSigned, day, exchange, fail, ok } from "./support.js"

const path = "/api/v2/p2p/orderList"
const at = (millis: number) => DateTime.makeUnsafe(millis)
const millis = (value: Option.Option<DateTime.Utc>) => Option.map(value, DateTime.toEpochMillis)

/** A record shaped as the documented example, plus a field the spec does not list. */
const record = {
  orderId: "1099987345012408321",
  orderNo: "1099987345012408320",
  advNo: "1099987345012408111",
  side: "sell",
  count: "10.50000000",
  coin: "USDT",
  price: "7.2",
  fiat: "CNY",
  withdrawTime: "",
  representTime: "",
  releaseTime: "1700000300000",
  paymentTime: "1700000200000",
  amount: "75.6",
  status: "cancelled",
  buyerRealName: "Zhang San",
  sellerRealName: "",
  ctime: "1700000000000",
  utime: "1700000300000",
  paymentInfo: {
    paymethodName: "Bank transfer",
    paymethodId: "12",
    paymethodInfo: [
      { name: "Account", required: "yes", type: "number", value: "****1234" },
      { name: "Receipt", required: "no", type: "file", value: "https://example.test/r.png" }
    ]
  },
  appealReason: "not documented"
}

/** Runs a request that must be refused before sending. */
const rejected = (request: P2pOrders.P2pOrdersRequest) => {
  const { layer, requests } = exchange(() => ok({ orderList: [], minOrderId: "" }))
  return Effect.gen(function*() {
    const error = yield* Effect.flip(P2pOrders.p2pOrders(request))
    assert.strictEqual(requests.length, 0)
    if (error._tag !== "BitgetRequestError") return assert.fail(`expected BitgetRequestError, got ${error._tag}`)
    assert.strictEqual(error.endpoint, `GET ${path}`)
    return error satisfies BitgetRequestError
  }).pipe(Effect.provide(layer))
}

/** A request as an untyped (JavaScript) caller could build it. */
const untyped = (value: Record<string, unknown>): P2pOrders.P2pOrdersRequest => value as P2pOrders.P2pOrdersRequest

describe("p2pOrders: the request", () => {
  it.effect("sends a signed GET with every parameter, keys sorted, raw values signed and encoded values sent", () => {
    const { layer, requests } = exchange(() => ok({ orderList: [], minOrderId: "" }))
    return Effect.gen(function*() {
      yield* P2pOrders.p2pOrders({
        status: "Paid",
        startTime: at(1_700_000_000_000),
        endTime: at(1_700_000_000_000 + 90 * day),
        limit: 50,
        side: "buy",
        coin: "USDT",
        fiat: "人民币 CNY",
        language: "en-US",
        idLessThan: "1099987345012408321",
        advNo: "A+1",
        orderNo: "1099987345012408320"
      })
      assert.strictEqual(requests.length, 1)
      const request = requests[0]!
      assert.strictEqual(request.method, "GET")
      assert.strictEqual(request.url.pathname, path)
      assert.strictEqual(request.body, "")
      const raw = "advNo=A+1&coin=USDT&endTime=1707776000000&fiat=人民币 CNY&idLessThan=1099987345012408321" +
        "&language=en-US&limit=50&orderNo=1099987345012408320&side=buy&startTime=1700000000000&status=Paid"
      assert.strictEqual(
        request.url.search,
        "?advNo=A%2B1&coin=USDT&endTime=1707776000000&fiat=%E4%BA%BA%E6%B0%91%E5%B8%81%20CNY" +
          "&idLessThan=1099987345012408321&language=en-US&limit=50&orderNo=1099987345012408320&side=buy" +
          "&startTime=1700000000000&status=Paid"
      )
      assert.strictEqual(request.headers["locale"], "en-US")
      assertSigned(request, raw)
    }).pipe(Effect.provide(layer))
  })

  it.effect("sends only the default 90-day range when nothing is given, and each status filter as written", () => {
    const { layer, requests } = exchange(() => ok({ orderList: [], minOrderId: "" }))
    return Effect.gen(function*() {
      yield* TestClock.setTime(100 * day)
      yield* P2pOrders.p2pOrders()
      const [end, start] = [`endTime=${100 * day}`, `startTime=${10 * day}`]
      assert.strictEqual(requests[0]!.url.search, `?${end}&${start}`)
      assertSigned(requests[0]!, `${end}&${start}`)
      for (const status of ["pending_pay", "Paid", "Appeal", "Completed", "cancelled"] as const) {
        yield* P2pOrders.p2pOrders({ status, limit: 100 })
      }
      assert.deepStrictEqual(requests.slice(1).map((r) => r.url.search), [
        `?${end}&limit=100&${start}&status=pending_pay`,
        `?${end}&limit=100&${start}&status=Paid`,
        `?${end}&limit=100&${start}&status=Appeal`,
        `?${end}&limit=100&${start}&status=Completed`,
        `?${end}&limit=100&${start}&status=cancelled`
      ])
      assertSigned(requests[2]!, `${end}&limit=100&${start}&status=Paid`)
    }).pipe(Effect.provide(layer))
  })

  it.effect("never sends a request without startTime: 90 days before endTime, or before now", () => {
    const { layer, requests } = exchange(() => ok({ orderList: [], minOrderId: "" }))
    return Effect.gen(function*() {
      const now = 1_700_000_000_000
      yield* TestClock.setTime(now)
      yield* P2pOrders.p2pOrders()
      yield* P2pOrders.p2pOrders({ coin: "USDT", limit: 10 })
      yield* P2pOrders.p2pOrders({ endTime: at(now - 10 * day) })
      yield* P2pOrders.p2pOrders({ startTime: at(now - 10 * day) })
      yield* P2pOrders.p2pOrders({ startTime: at(now - 20 * day), endTime: at(now - 10 * day) })
      const ranges = requests.map((r) => [r.url.searchParams.get("startTime"), r.url.searchParams.get("endTime")])
      assert.deepStrictEqual(ranges, [
        [String(now - 90 * day), String(now)],
        [String(now - 90 * day), String(now)],
        [String(now - 100 * day), String(now - 10 * day)],
        [String(now - 10 * day), String(now)],
        [String(now - 20 * day), String(now - 10 * day)]
      ])
    }).pipe(Effect.provide(layer))
  })
})

describe("p2pOrders: decoding", () => {
  it.effect("decodes the documented record shape, ignoring unknown fields", () => {
    const { layer } = exchange(() => ok({ orderList: [record], minOrderId: "1099987345012408321" }))
    return Effect.gen(function*() {
      const page = yield* P2pOrders.p2pOrders()
      assert.deepStrictEqual(page.minOrderId, Option.some("1099987345012408321"))
      const order = page.orderList[0]!
      assert.instanceOf(order, P2pOrders.P2pOrder)
      assert.strictEqual(order.orderId, "1099987345012408321")
      assert.strictEqual(order.side, "sell")
      assert.isTrue(BigDecimal.equals(order.count, BigDecimal.fromStringUnsafe("10.5")))
      assert.isTrue(BigDecimal.equals(order.price, BigDecimal.fromStringUnsafe("7.2")))
      assert.isTrue(BigDecimal.equals(order.amount, BigDecimal.fromStringUnsafe("75.6")))
      assert.strictEqual(order.coin, "USDT")
      assert.strictEqual(order.fiat, "CNY")
      assert.isTrue(Option.isNone(order.withdrawTime))
      assert.isTrue(Option.isNone(order.representTime))
      assert.deepStrictEqual(millis(order.releaseTime), Option.some(1_700_000_300_000))
      assert.deepStrictEqual(millis(order.paymentTime), Option.some(1_700_000_200_000))
      assert.strictEqual(order.status, "cancelled")
      assert.deepStrictEqual(order.buyerRealName, Option.some("Zhang San"))
      assert.isTrue(Option.isNone(order.sellerRealName))
      assert.strictEqual(DateTime.toEpochMillis(order.ctime), 1_700_000_000_000)
      assert.strictEqual(DateTime.toEpochMillis(order.utime), 1_700_000_300_000)
      assert.isFalse("appealReason" in order)
      const info = Option.getOrThrow(order.paymentInfo)
      assert.deepStrictEqual(info.paymethodName, Option.some("Bank transfer"))
      assert.deepStrictEqual(info.paymethodId, Option.some("12"))
      assert.deepStrictEqual(
        info.paymethodInfo.map((item) => [item.name, item.required, item.type, item.value]),
        [
          ["Account", "yes", Option.some("number"), Option.some("****1234")],
          ["Receipt", "no", Option.some("file"), Option.some("https://example.test/r.png")]
        ]
      )
    }).pipe(Effect.provide(layer))
  })

  it.effect("decodes statuses case-insensitively and keeps unknown ones", () => {
    const statuses = [
      "cancelled",
      "PAID",
      "paid",
      "Completed",
      "completed",
      "APPEAL",
      "pending_pay",
      "Pending_Pay",
      "refunding"
    ]
    const { layer } = exchange(() =>
      ok({ orderList: statuses.map((status) => ({ ...record, status })), minOrderId: "1" })
    )
    return Effect.gen(function*() {
      const page = yield* P2pOrders.p2pOrders()
      assert.deepStrictEqual(page.orderList.map((order) => order.status), [
        "cancelled",
        "Paid",
        "Paid",
        "Completed",
        "Completed",
        "Appeal",
        "pending_pay",
        "pending_pay",
        new Unrecognized({ value: "refunding" })
      ])
    }).pipe(Effect.provide(layer))
  })

  it.effect("reads null and empty values as none and unknown enum values as Unrecognized", () => {
    const { layer } = exchange(() =>
      ok({
        orderList: [
          {
            ...record,
            side: "swap",
            withdrawTime: null,
            releaseTime: "",
            buyerRealName: null,
            sellerRealName: "",
            paymentInfo: {
              paymethodName: "",
              paymethodId: null,
              paymethodInfo: [{ name: "QR", required: "sometimes", type: "image", value: "" }, {
                name: "Id",
                required: "no"
              }]
            }
          },
          { ...record, paymentInfo: null },
          { ...record, paymentInfo: { paymethodName: "Cash", paymethodId: "3", paymethodInfo: null } }
        ],
        minOrderId: null
      })
    )
    return Effect.gen(function*() {
      const page = yield* P2pOrders.p2pOrders()
      assert.isTrue(Option.isNone(page.minOrderId))
      const [first, second, third] = page.orderList
      assert.deepStrictEqual(first!.side, new Unrecognized({ value: "swap" }))
      assert.isTrue(Option.isNone(first!.withdrawTime))
      assert.isTrue(Option.isNone(first!.releaseTime))
      assert.isTrue(Option.isNone(first!.buyerRealName))
      assert.isTrue(Option.isNone(first!.sellerRealName))
      const info = Option.getOrThrow(first!.paymentInfo)
      assert.isTrue(Option.isNone(info.paymethodName))
      assert.isTrue(Option.isNone(info.paymethodId))
      const [qr, id] = info.paymethodInfo
      assert.deepStrictEqual(qr!.required, new Unrecognized({ value: "sometimes" }))
      assert.deepStrictEqual(qr!.type, Option.some(new Unrecognized({ value: "image" })))
      assert.isTrue(Option.isNone(qr!.value))
      assert.isTrue(Option.isNone(id!.type))
      assert.isTrue(Option.isNone(id!.value))
      assert.isTrue(Option.isNone(second!.paymentInfo))
      assert.deepStrictEqual(Option.getOrThrow(third!.paymentInfo).paymethodInfo, [])
    }).pipe(Effect.provide(layer))
  })

  it.effect("reads a null or missing order list as empty", () => {
    const { layer } = exchange(() => ok({ orderList: null, minOrderId: "" }))
    return Effect.gen(function*() {
      const page = yield* P2pOrders.p2pOrders()
      assert.deepStrictEqual(page.orderList, [])
      assert.isTrue(Option.isNone(page.minOrderId))
      const bare = yield* P2pOrders.p2pOrders().pipe(Effect.provide(exchange(() => ok({})).layer))
      assert.deepStrictEqual(bare.orderList, [])
      assert.isTrue(Option.isNone(bare.minOrderId))
    }).pipe(Effect.provide(layer))
  })

  it.effect("prefers lower-case ctime/utime and falls back to cTime/uTime", () => {
    const { ctime: _c, utime: _u, ...withoutTimes } = record
    const { layer } = exchange(() =>
      ok({
        orderList: [
          { ...record, cTime: "1", uTime: "2" },
          { ...withoutTimes, cTime: "1600000000000", uTime: "1600000000001" },
          { ...record, ctime: "", cTime: "1600000000002" }
        ],
        minOrderId: "5"
      })
    )
    return Effect.gen(function*() {
      const page = yield* P2pOrders.p2pOrders()
      assert.deepStrictEqual(
        page.orderList.map((order) => [DateTime.toEpochMillis(order.ctime), DateTime.toEpochMillis(order.utime)]),
        [[1_700_000_000_000, 1_700_000_300_000], [1_600_000_000_000, 1_600_000_000_001], [
          1_600_000_000_002,
          1_700_000_300_000
        ]]
      )
    }).pipe(Effect.provide(layer))
  })

  it.effect("fails to decode a record with no creation time in either spelling", () => {
    const { ctime: _c, ...withoutCtime } = record
    const { layer } = exchange(() => ok({ orderList: [withoutCtime], minOrderId: "5" }))
    return Effect.gen(function*() {
      const error = yield* Effect.flip(P2pOrders.p2pOrders())
      if (error._tag !== "BitgetDecodeError") return assert.fail(`expected BitgetDecodeError, got ${error._tag}`)
      assert.strictEqual(error.issue, "orderList.0.ctime: Missing key")
      // personal and payment data stay out of the error
      for (const text of [error.issue, error.excerpt, error.message]) {
        assert.notInclude(text, "Zhang San")
        assert.notInclude(text, "****1234")
      }
    }).pipe(Effect.provide(layer))
  })
})

describe("p2pOrders: errors", () => {
  it.effect("maps the exchange's P2P error codes", () => {
    const { layer } = exchange(() => fail(400, "60049", "You are not currently a merchant"))
    return Effect.gen(function*() {
      const error = yield* Effect.flip(P2pOrders.p2pOrders())
      if (error._tag !== "BitgetApiError") return assert.fail(`expected BitgetApiError, got ${error._tag}`)
      assert.strictEqual(error.code, "60049")
      assert.strictEqual(error.kind, "Permission")
      const missingStart = yield* Effect.flip(P2pOrders.p2pOrders()).pipe(
        Effect.provide(exchange(() => fail(400, "60001", "StartTime not empty")).layer)
      )
      if (missingStart._tag !== "BitgetApiError") {
        return assert.fail(`expected BitgetApiError, got ${missingStart._tag}`)
      }
      assert.strictEqual(missingStart.kind, "Parameter")
      assert.strictEqual(missingStart.msg, "StartTime not empty")
    }).pipe(Effect.provide(layer))
  })
})

describe("p2pOrders: validation (nothing is sent)", () => {
  it.effect("rejects a window longer than 90 days", () =>
    Effect.gen(function*() {
      const error = yield* rejected({ startTime: at(0), endTime: at(90 * day + 1) })
      assert.include(error.issue, "at most 90 days")
    }))

  it.effect("rejects a start after the end", () =>
    Effect.gen(function*() {
      const error = yield* rejected({ startTime: at(2 * day), endTime: at(day) })
      assert.include(error.issue, "startTime must not be after endTime")
    }))

  it.effect("rejects a limit outside 1..100 or not an integer", () =>
    Effect.gen(function*() {
      for (const limit of [0, 101]) {
        const error = yield* rejected({ limit })
        assert.include(error.issue, "must be an integer from 1 to 100")
      }
      const fraction = yield* rejected({ limit: 2.5 })
      assert.strictEqual(fraction.issue, "limit: must be an integer from 1 to 100")
    }))

  it.effect("rejects a non-numeric idLessThan and blank text filters", () =>
    Effect.gen(function*() {
      const id = yield* rejected({ idLessThan: "abc" })
      assert.include(id.issue, "numeric id")
      for (const request of [{ coin: " " }, { fiat: "" }, { advNo: "  " }, { orderNo: "" }]) {
        const error = yield* rejected(request)
        assert.include(error.issue, "must not be blank")
      }
    }))

  it.effect("rejects values outside the closed request enums", () =>
    Effect.gen(function*() {
      const status = yield* rejected(untyped({ status: "paid" }))
      assert.include(status.issue, "status")
      const side = yield* rejected(untyped({ side: "BUY" }))
      assert.include(side.issue, "side")
      const language = yield* rejected(untyped({ language: "fr-FR" }))
      assert.include(language.issue, "language")
    }))
})
