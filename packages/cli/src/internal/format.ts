/**
 * The output formats: CSV (a header line, then one line per record, quoted
 * per RFC 4180, from a column table, `Columns`) and NDJSON (one JSON object
 * per line: each record as core's `Json` writes it, which `Json.decode` reads
 * back), one string per batch of records.
 *
 * @since 0.1.0
 */
import * as Json from "@bitget-effect/core/Json"
import * as Result from "effect/Result"
import type * as Schema from "effect/Schema"
import type * as Columns from "./columns.js"

/**
 * The formats, as `--format` takes them.
 *
 * @since 0.1.0
 * @category constants
 */
export const formats = ["csv", "ndjson"] as const

/**
 * An output format.
 *
 * @since 0.1.0
 * @category models
 */
export type Format = typeof formats[number]

/**
 * The format a file name implies: `csv` for a name ending in `.csv` (any
 * case), `ndjson` otherwise (and for standard output).
 *
 * @since 0.1.0
 * @category constructors
 */
export const fromFileName = (path: string | undefined): Format =>
  path !== undefined && /\.csv$/i.test(path) ? "csv" : "ndjson"

/**
 * Writes records of one type in one format.
 *
 * @since 0.1.0
 * @category models
 */
export interface LineWriter<A> {
  /** What the output starts with: the CSV header line, or nothing for NDJSON. */
  readonly header: string
  /**
   * The lines of a batch of records, each ending in `\n`; a failure only for
   * a record `Json` cannot write (a decimal of more than 4096 characters,
   * which no decoded record holds).
   */
  readonly lines: (records: Iterable<A>) => Result.Result<string, Schema.SchemaError>
}

/**
 * What a record type is written from: its columns (CSV) and its schema
 * (NDJSON).
 *
 * @since 0.3.0
 * @category models
 */
export interface Source<A, I> {
  readonly table: Columns.Table<A>
  readonly schema: Schema.Codec<A, I>
}

/** Characters that make a CSV field need quotes. */
const needsQuotes = /[",\r\n]/

/**
 * A CSV field per RFC 4180: quoted (with inner quotes doubled) when it holds
 * a comma, a quote, a CR or a LF; as it is otherwise.
 *
 * @since 0.1.0
 * @category formatting
 */
export const csvField = (text: string): string => needsQuotes.test(text) ? `"${text.replaceAll("\"", "\"\"")}"` : text

/** A cell as CSV: absent as an empty field, a list as its JSON. */
const csvCell = (cell: Columns.Cell): string =>
  cell === null ? "" : typeof cell === "string" ? csvField(cell) : csvField(JSON.stringify(cell))

const csv = <A>(table: Columns.Table<A>): LineWriter<A> => {
  const cells = table.map((column) => column.cell)
  return {
    header: table.map((column) => csvField(column.name)).join(",") + "\n",
    lines: (records) => {
      let out = ""
      for (const record of records) {
        let line = ""
        for (let i = 0; i < cells.length; i++) {
          if (i > 0) line += ","
          line += csvCell((cells[i] as Columns.Column<A>["cell"])(record))
        }
        out += line + "\n"
      }
      return Result.succeed(out)
    }
  }
}

const ndjson = <A, I>(schema: Schema.Codec<A, I>): LineWriter<A> => {
  const encode = Json.encodeResult(schema)
  return {
    header: "",
    lines: (records) => {
      let out = ""
      for (const record of records) {
        const json = encode(record)
        if (Result.isFailure(json)) return Result.fail(json.failure)
        out += JSON.stringify(json.success) + "\n"
      }
      return Result.succeed(out)
    }
  }
}

/**
 * The line writer of a record type in a format.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = <A, I>(format: Format, source: Source<A, I>): LineWriter<A> =>
  format === "csv" ? csv(source.table) : ndjson(source.schema)
