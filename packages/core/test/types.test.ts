/**
 * The public types, checked by the compiler (`tsc -b` type-checks the tests;
 * `expectTypeOf` does nothing at run time): error channels name only the
 * errors an operation can raise, optional ids are `Option`s, and fields
 * reference the named literal unions.
 */
import { describe, it } from "@effect/vitest"
import type { Effect, Option } from "effect"
import { expectTypeOf } from "vitest"
import * as BatchCancel from "../src/BatchCancel.js"
import * as BitgetClient from "../src/BitgetClient.js"
import type { BitgetError, BitgetPublicError } from "../src/BitgetError.js"
import { BitgetSignerError } from "../src/BitgetError.js"
import * as BitgetMock from "../src/BitgetMock.js"
import type * as Endpoint from "../src/Endpoint.js"
import * as FundNetFlow from "../src/FundNetFlow.js"
import * as FuturesHistory from "../src/FuturesHistory.js"
import * as OpenInterestLimit from "../src/OpenInterestLimit.js"
import * as P2pOrders from "../src/P2pOrders.js"
import * as PositionTpsl from "../src/PositionTpsl.js"
import * as RpiOrderBook from "../src/RpiOrderBook.js"
import * as ServerTime from "../src/ServerTime.js"
import * as Symbols from "../src/Symbols.js"
import * as TaxRecords from "../src/TaxRecords.js"
import * as TradeRates from "../src/TradeRates.js"

/** The error channel of an operation. */
type ErrorOf<F extends (...args: never) => Effect.Effect<unknown, unknown, unknown>> = Effect.Error<ReturnType<F>>

describe("error channels", () => {
  it("a public operation cannot fail with BitgetSignerError", () => {
    expectTypeOf<ErrorOf<typeof Symbols.symbols>>().toEqualTypeOf<BitgetPublicError>()
    expectTypeOf<ErrorOf<typeof FundNetFlow.fundNetFlow>>().toEqualTypeOf<BitgetPublicError>()
    expectTypeOf<Effect.Error<typeof ServerTime.serverTime>>().toEqualTypeOf<BitgetPublicError>()
    expectTypeOf<BitgetSignerError>().not.toExtend<BitgetPublicError>()
    expectTypeOf<Effect.Error<BitgetClient.BitgetClient["Service"]["syncClock"]>>().toEqualTypeOf<BitgetPublicError>()
  })

  it("a signed operation, or one signed when credentials are configured, can", () => {
    expectTypeOf<ErrorOf<typeof TaxRecords.spotRecords>>().toEqualTypeOf<BitgetError>()
    expectTypeOf<ErrorOf<typeof TradeRates.tradeRates>>().toEqualTypeOf<BitgetError>()
    expectTypeOf<ErrorOf<typeof OpenInterestLimit.openInterestLimit>>().toEqualTypeOf<BitgetError>()
    expectTypeOf<ErrorOf<typeof PositionTpsl.placePositionTpsl>>().toEqualTypeOf<BitgetError>()
    expectTypeOf<ErrorOf<typeof FuturesHistory.ordersHistory>>().toEqualTypeOf<BitgetError>()
    expectTypeOf<ErrorOf<typeof P2pOrders.p2pOrders>>().toEqualTypeOf<BitgetError>()
    expectTypeOf<ErrorOf<typeof BatchCancel.batchCancelOrders>>().toEqualTypeOf<BitgetError>()
    expectTypeOf<ErrorOf<typeof RpiOrderBook.rpiOrderBook>>().toEqualTypeOf<BitgetError>()
    expectTypeOf<BitgetSignerError>().toExtend<BitgetError>()
  })

  it("execute derives the error channel from the endpoint's auth", () => {
    expectTypeOf(BitgetClient.execute(Symbols.endpoint, {})).toEqualTypeOf<
      Effect.Effect<ReadonlyArray<Symbols.SpotSymbol>, BitgetPublicError, BitgetClient.BitgetClient>
    >()
    expectTypeOf<Endpoint.Failure<typeof TradeRates.endpoint.auth>>().toEqualTypeOf<BitgetError>()
    expectTypeOf<Endpoint.Failure<typeof RpiOrderBook.endpoint.auth>>().toEqualTypeOf<BitgetError>()
    expectTypeOf<Endpoint.Failure<Endpoint.Auth>>().toEqualTypeOf<BitgetError>()
  })

  it("a mock of a public endpoint cannot fail with BitgetSignerError", () => {
    const signer = new BitgetSignerError({ issue: "no key" })
    // @ts-expect-error a public endpoint is never signed
    BitgetMock.fail(Symbols.endpoint, signer)
    expectTypeOf(BitgetMock.fail(TaxRecords.endpoint, signer)).toEqualTypeOf<BitgetMock.Response>()
  })
})

describe("BatchCancelResult", () => {
  it("has Option ids in every list", () => {
    type Result = BatchCancel.BatchCancelResult
    expectTypeOf<Result["failed"][number]["orderId"]>().toEqualTypeOf<Option.Option<string>>()
    expectTypeOf<Result["unconfirmed"][number]["orderId"]>().toEqualTypeOf<Option.Option<string>>()
    expectTypeOf<Result["unconfirmed"][number]["clientOid"]>().toEqualTypeOf<Option.Option<string>>()
    expectTypeOf<Result["failed"][number]["clientOid"]>().toEqualTypeOf<Option.Option<string>>()
    expectTypeOf<BatchCancel.BatchCancelPartialFailure["unconfirmed"]>().toEqualTypeOf<Result["unconfirmed"]>()
  })
})

describe("named literal unions", () => {
  it("are the types of the fields and of their schemas", () => {
    expectTypeOf<TaxRecords.SpotTaxRecord["spotTaxType"]>().toEqualTypeOf<TaxRecords.SpotTaxType>()
    expectTypeOf<typeof TaxRecords.SpotTaxType.Type>().toEqualTypeOf<TaxRecords.SpotTaxType>()
    expectTypeOf<FuturesHistory.FuturesOrder["orderSource"]>().toEqualTypeOf<FuturesHistory.OrderSource>()
    expectTypeOf<FuturesHistory.FuturesOrder["tradeSide"]>().toEqualTypeOf<FuturesHistory.TradeSide>()
    expectTypeOf<FuturesHistory.FuturesOrder["enterPointSource"]>().toEqualTypeOf<FuturesHistory.EnterPointSource>()
    expectTypeOf<FuturesHistory.FuturesOrder["status"]>().toEqualTypeOf<FuturesHistory.OrderStatus>()
    expectTypeOf<FuturesHistory.FuturesHistoryRequest["productType"]>().toEqualTypeOf<FuturesHistory.ProductType>()
    expectTypeOf<FuturesHistory.FuturesHistoryRequest["orderSource"]>().toEqualTypeOf<
      FuturesHistory.OrderSourceFilter | undefined
    >()
    expectTypeOf<P2pOrders.P2pOrder["status"]>().toEqualTypeOf<P2pOrders.P2pOrderStatus>()
    expectTypeOf<P2pOrders.P2pOrdersRequest["status"]>().toEqualTypeOf<P2pOrders.P2pStatusFilter | undefined>()
    expectTypeOf<PositionTpsl.PositionTpslRequest["productType"]>().toEqualTypeOf<PositionTpsl.ProductType>()
    expectTypeOf<RpiOrderBook.RpiOrderBookRequest["category"]>().toEqualTypeOf<RpiOrderBook.RpiCategory>()
    expectTypeOf<OpenInterestLimit.OpenInterestLimitRequest["category"]>().toEqualTypeOf<
      OpenInterestLimit.FuturesCategory
    >()
  })

  it("hold every documented value, and nothing else", () => {
    expectTypeOf<"Deposit">().toExtend<TaxRecords.SpotTaxType>()
    expectTypeOf<"Deposited">().not.toExtend<TaxRecords.SpotTaxType>()
    expectTypeOf<"USDT-FUTURES" | "susdc-futures">().toExtend<PositionTpsl.ProductType>()
    expectTypeOf<"pending_pay">().toExtend<P2pOrders.P2pOrderStatus>()
  })
})
