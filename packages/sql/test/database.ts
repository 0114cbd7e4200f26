/**
 * What the tests share: the server as a layer (one per test file), a fresh
 * database per test, and records of each kind.
 */
import { FuturesHistory, P2pOrders, TaxRecords } from "@bitget-effect/core"
import * as postgres from "@bitget-effect/postgres-server"
import * as PgClient from "@effect/sql-pg/PgClient"
import { BigDecimal, Context, DateTime, Effect, Layer, Option, Redacted, Schema } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import * as BitgetSql from "../src/BitgetSql.js"

/** The server of the test file. */
export class Postgres extends Context.Service<Postgres, postgres.Server>()("test/Postgres") {}

/** Starts the server for the tests of a file (`layer(Postgres.layer)` of `@effect/vitest`). */
export const layer = Layer.effect(Postgres, postgres.server)

/** Options for `database` on the server, as the test role. */
export const options = (server: postgres.Server, database: string): BitgetSql.Options => ({
  host: server.host,
  port: server.port,
  username: server.username,
  password: Redacted.make(server.password),
  database
})

let databases = 0

/** A new, empty database on the server; its options. */
export const freshDatabase = Effect.gen(function*() {
  const server = yield* Postgres
  const name = `test_${process.pid}_${databases++}`
  yield* Effect.scoped(
    Effect.gen(function*() {
      const sql = yield* SqlClient
      yield* sql.unsafe(`CREATE DATABASE ${name}`)
    }).pipe(Effect.provide(PgClient.layer(options(server, "postgres"))))
  )
  return options(server, name)
})

/** `SqlClient` on a fresh database, migrated. */
export const migrated = Layer.unwrap(Effect.map(freshDatabase, BitgetSql.layer))

/** A spot tax record; `fee` and `bizOrderId` as given. */
export const taxRecord = (id: string, fee = "-0.00000001", bizOrderId: Option.Option<string> = Option.none()) =>
  TaxRecords.SpotTaxRecord.make({
    id,
    coin: "USDT",
    spotTaxType: "Buy",
    amount: BigDecimal.fromStringUnsafe("123456789012345678.901234567891"),
    fee: BigDecimal.fromStringUnsafe(fee),
    balance: BigDecimal.fromStringUnsafe("1000"),
    ts: DateTime.makeUnsafe(1_767_225_600_123 + Number(id)),
    bizOrderId
  })

/** A futures order as the exchange sends one (a market order: no price). */
export const futuresOrder = (orderId: string) =>
  Schema.decodeUnknownSync(FuturesHistory.FuturesOrder)({
    symbol: "BTCUSDT",
    size: "0.001",
    orderId,
    clientOid: "",
    baseVolume: "0.001",
    fee: "-0.0000434",
    price: "",
    priceAvg: "86804.1",
    status: "filled",
    side: "buy",
    force: "gtc",
    totalProfits: "0",
    posSide: "net",
    marginCoin: "USDT",
    quoteVolume: "86.8041",
    leverage: "10",
    marginMode: "crossed",
    reduceOnly: "NO",
    enterPointSource: "API",
    tradeSide: "buy_single",
    posMode: "one_way_mode",
    orderType: "market",
    orderSource: "market",
    liqPrice: null,
    cTime: "1767225600001",
    uTime: "1767225600999",
    presetStopSurplusPrice: "",
    presetStopLossPrice: "",
    posAvg: "86804.1"
  })

/** A P2P order as the exchange sends one, with its payment information. */
export const p2pOrder = (orderId: string) =>
  Schema.decodeUnknownSync(P2pOrders.P2pOrderFromWire)({
    orderId,
    orderNo: `no-${orderId}`,
    advNo: "adv-1",
    side: "sell",
    count: "12.5",
    coin: "USDT",
    price: "7.12",
    fiat: "CNY",
    withdrawTime: "",
    representTime: "",
    releaseTime: "1767225600500",
    paymentTime: "1767225600400",
    amount: "89",
    status: "completed",
    buyerRealName: "",
    sellerRealName: "",
    ctime: "1767225600000",
    utime: "1767225600600",
    paymentInfo: {
      paymethodName: "Bank",
      paymethodId: "7",
      paymethodInfo: [{ name: "Account", required: "yes", type: "number", value: "****1234" }]
    }
  })
