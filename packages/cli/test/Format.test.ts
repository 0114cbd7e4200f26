/**
 * The line writers: CSV quoting per RFC 4180, NDJSON, absent values and lists.
 */
import { assert, describe, it } from "@effect/vitest"
import { Option } from "effect"
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

const rows: ReadonlyArray<Row> = [
  { id: "1", note: "plain", memo: Option.some("x"), items: [] },
  { id: "2", note: "a, \"quoted\"\r\nline", memo: Option.none(), items: [{ name: "IBAN" }, { name: "a,b" }] }
]

describe("Format", () => {
  it("writes CSV with a header, quoting fields with a comma, a quote, CR or LF (quotes doubled)", () => {
    const csv = Format.make("csv", table)
    assert.strictEqual(csv.header, "id,note,memo,items\n")
    assert.strictEqual(
      csv.lines(rows),
      "1,plain,x,[]\n" +
        "2,\"a, \"\"quoted\"\"\r\nline\",,\"[{\"\"name\"\":\"\"IBAN\"\"},{\"\"name\"\":\"\"a,b\"\"}]\"\n"
    )
  })

  it("writes NDJSON: one object a line, absent values as null, lists as JSON", () => {
    const ndjson = Format.make("ndjson", table)
    assert.strictEqual(ndjson.header, "")
    const lines = ndjson.lines(rows).split("\n")
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
    const csv = Format.make("csv", nested)
    assert.strictEqual(
      csv.lines([{ id: "1", info: Option.some({ name: "n", code: Option.none() }) }, { id: "2", info: Option.none() }]),
      "1,n,\n2,,\n"
    )
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
