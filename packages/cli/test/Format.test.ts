/**
 * The line writers: CSV quoting per RFC 4180, NDJSON through core's `Json`,
 * absent values and lists.
 */
import * as Json from "@bitget-effect/core/Json"
import * as P2pOrders from "@bitget-effect/core/P2pOrders"
import * as Schemas from "@bitget-effect/core/Schemas"
import { assert, describe, it } from "@effect/vitest"
import { BigDecimal, Equal, Option, Result, Schema } from "effect"
import * as Columns from "../src/internal/columns.js"
import * as Format from "../src/internal/format.js"

interface Row {
  readonly id: string
  readonly note: string
  readonly memo: Option.Option<string>
  readonly items: ReadonlyArray<{ readonly name: string }>
}

const table = Columns.table<Row>({
  id: Columns.text,
  note: Columns.text,
  memo: Columns.optional(Columns.text),
  items: Columns.list<{ readonly name: string }>({ name: Columns.text })
})

const schema = Schema.Struct({
  id: Schema.String,
  note: Schema.String,
  memo: Schemas.Maybe(Schema.String),
  items: Schema.Array(Schema.Struct({ name: Schema.String }))
})

/** The text of lines written, which never fail here. */
const written = (lines: Result.Result<string, Schema.SchemaError>): string => Result.getOrThrow(lines)

const rows: ReadonlyArray<Row> = [
  { id: "1", note: "plain", memo: Option.some("x"), items: [] },
  { id: "2", note: "a, \"quoted\"\r\nline", memo: Option.none(), items: [{ name: "IBAN" }, { name: "a,b" }] }
]

describe("Format", () => {
  it("writes CSV with a header, quoting fields with a comma, a quote, CR or LF (quotes doubled)", () => {
    const csv = Format.make("csv", { table, schema })
    assert.strictEqual(csv.header, "id,note,memo,items\n")
    assert.strictEqual(
      written(csv.lines(rows)),
      "1,plain,x,[]\n" +
        "2,\"a, \"\"quoted\"\"\r\nline\",,\"[{\"\"name\"\":\"\"IBAN\"\"},{\"\"name\"\":\"\"a,b\"\"}]\"\n"
    )
  })

  it("writes NDJSON: one object a line, absent values as null, lists as JSON", () => {
    const ndjson = Format.make("ndjson", { table, schema })
    assert.strictEqual(ndjson.header, "")
    const lines = written(ndjson.lines(rows)).split("\n")
    assert.strictEqual(lines.pop(), "")
    assert.deepStrictEqual(lines.map((line) => JSON.parse(line)), [
      { id: "1", note: "plain", memo: "x", items: [] },
      { id: "2", note: "a, \"quoted\"\r\nline", memo: null, items: [{ name: "IBAN" }, { name: "a,b" }] }
    ])
  })

  it("flattens an optional object into dotted columns", () => {
    interface Outer {
      readonly id: string
      readonly info: Option.Option<{ readonly name: string; readonly code: Option.Option<string> }>
    }
    const nested = Columns.table<Outer>({
      id: Columns.text,
      info: Columns.nested({ name: Columns.text, code: Columns.optional(Columns.text) })
    })
    assert.deepStrictEqual(Columns.names(nested), ["id", "info.name", "info.code"])
    const outer = Schema.Struct({
      id: Schema.String,
      info: Schemas.Maybe(Schema.Struct({ name: Schema.String, code: Schemas.Maybe(Schema.String) }))
    })
    const csv = Format.make("csv", { table: nested, schema: outer })
    assert.strictEqual(
      written(
        csv.lines([{ id: "1", info: Option.some({ name: "n", code: Option.none() }) }, {
          id: "2",
          info: Option.none()
        }])
      ),
      "1,n,\n2,,\n"
    )
  })

  it("writes a record's NDJSON as core's Json does, which reads back as the record; CSV with the same decimals", () => {
    const order = Schema.decodeUnknownSync(P2pOrders.P2pOrder)({
      orderId: "1099987345012408321",
      orderNo: "1099987345012408320",
      advNo: "1099987345012408111",
      side: "sell",
      count: "10.50000000",
      coin: "USDT",
      price: "7.20",
      fiat: "CNY",
      withdrawTime: "",
      representTime: "",
      releaseTime: "1700000300000",
      paymentTime: "1700000200000",
      amount: "75.6",
      status: "appealing",
      buyerRealName: "Zhang San",
      sellerRealName: "",
      ctime: "1700000000000",
      utime: "1700000300000",
      paymentInfo: {
        paymethodName: "Bank transfer",
        paymethodId: "12",
        paymethodInfo: [{ name: "Account", required: "yes", type: "number", value: "****1234" }]
      }
    })
    const source = { table: Columns.p2pOrders, schema: P2pOrders.P2pOrder }
    const line = written(Format.make("ndjson", source).lines([order]))
    assert.isTrue(line.endsWith("}\n") && line.indexOf("\n") === line.length - 1, "one line")
    const json = JSON.parse(line)
    assert.deepStrictEqual(json, Result.getOrThrow(Json.encodeResult(P2pOrders.P2pOrder)(order)))
    assert.strictEqual(json.count, "10.50000000", "the digits as sent")
    assert.strictEqual(json.price, "7.20")
    assert.strictEqual(json.status, "appealing", "an unknown status as its text")
    assert.strictEqual(json.withdrawTime, null)
    assert.strictEqual(json.releaseTime, "2023-11-14T22:18:20.000Z")
    assert.deepStrictEqual(json.paymentInfo, {
      paymethodName: "Bank transfer",
      paymethodId: "12",
      paymethodInfo: [{ name: "Account", required: "yes", type: "number", value: "****1234" }]
    })
    assert.isTrue(Equal.equals(Result.getOrThrow(Json.decodeResult(P2pOrders.P2pOrder)(json)), order))
    const csv = written(Format.make("csv", source).lines([order])).split(",")
    assert.include(csv, "10.50000000")
    assert.include(csv, "7.20")
  })

  it("fails with a SchemaError, not a defect, on a record Json cannot write", () => {
    const decimal = Schema.Struct({ amount: Schemas.Decimal })
    const huge = { amount: BigDecimal.make(1n, 5000) }
    const lines = Format.make("ndjson", {
      table: Columns.table<typeof huge>({ amount: Columns.decimal }),
      schema: decimal
    })
      .lines([huge])
    assert.isTrue(Result.isFailure(lines))
    assert.include(Result.isFailure(lines) ? lines.failure.message : "", "4096 characters")
  })

  it("takes the format from the file name: csv for .csv, ndjson otherwise", () => {
    assert.strictEqual(Format.fromFileName("tax-2025.CSV"), "csv")
    assert.strictEqual(Format.fromFileName("tax.ndjson"), "ndjson")
    assert.strictEqual(Format.fromFileName(undefined), "ndjson")
  })

  it("documents the columns of every export", () => {
    assert.deepStrictEqual(Columns.names(Columns.taxRecords), [
      "id",
      "coin",
      "spotTaxType",
      "amount",
      "fee",
      "balance",
      "ts",
      "bizOrderId"
    ])
    assert.strictEqual(Columns.names(Columns.futuresOrders).length, 29)
    assert.include(Columns.names(Columns.p2pOrders), "paymentInfo.paymethodInfo")
  })
})
