/**
 * Tables rendered two ways: aligned plain text for the terminal, and
 * Markdown for docs/benchmarks.md.
 */

/** A titled table of text cells; the first column is the row's name. */
export interface Table {
  readonly title: string
  readonly headers: ReadonlyArray<string>
  readonly rows: ReadonlyArray<ReadonlyArray<string>>
}

/** The table as aligned text: the first column left-aligned, the others right-aligned. */
export const toText = (table: Table): string => {
  const all = [table.headers, ...table.rows]
  const widths = table.headers.map((_, column) => Math.max(...all.map((row) => (row[column] ?? "").length)))
  const line = (row: ReadonlyArray<string>) =>
    row.map((cell, column) => column === 0 ? cell.padEnd(widths[0] ?? 0) : cell.padStart(widths[column] ?? 0))
      .join("   ").trimEnd()
  return [table.title, "", line(table.headers), ...table.rows.map(line)].join("\n")
}

/** The table as Markdown, its title in bold above it. */
export const toMarkdown = (table: Table): string => {
  const line = (row: ReadonlyArray<string>) => `| ${row.join(" | ")} |`
  const rule = `|${table.headers.map((_, column) => (column === 0 ? "---" : "---:")).join("|")}|`
  return [`**${table.title}**`, "", line(table.headers), rule, ...table.rows.map(line)].join("\n")
}
