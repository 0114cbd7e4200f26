/**
 * The output formats: CSV (a header line, then one line per record, quoted
 * per RFC 4180) and NDJSON (one JSON object per line), both written from a
 * column table (`Columns`), one string per batch of records.
 *
 * @since 0.1.0
 */
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
  /** The lines of a batch of records, each ending in `\n`. */
  readonly lines: (records: Iterable<A>) => string
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
      return out
    }
  }
}

const ndjson = <A>(table: Columns.Table<A>): LineWriter<A> => {
  // `{"name":` and `,"name":`, computed once
  const keys = table.map((column, i) => `${i === 0 ? "{" : ","}${JSON.stringify(column.name)}:`)
  const cells = table.map((column) => column.cell)
  return {
    header: "",
    lines: (records) => {
      let out = ""
      for (const record of records) {
        let line = ""
        for (let i = 0; i < cells.length; i++) {
          line += keys[i] + JSON.stringify((cells[i] as Columns.Column<A>["cell"])(record))
        }
        out += (cells.length === 0 ? "{" : line) + "}\n"
      }
      return out
    }
  }
}

/**
 * The line writer of a table in a format.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = <A>(format: Format, table: Columns.Table<A>): LineWriter<A> =>
  format === "csv" ? csv(table) : ndjson(table)
