/**
 * Plain-text tables for the terminal.
 */

/** Terminal columns a text takes: East Asian wide characters take two. */
const width = (text: string): number => {
  let columns = 0
  for (const char of text) {
    columns +=
      /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/.test(char) ? 2 : 1
  }
  return columns
}

const padEnd = (text: string, columns: number): string => text + " ".repeat(Math.max(0, columns - width(text)))
const padStart = (text: string, columns: number): string => " ".repeat(Math.max(0, columns - width(text))) + text

/** Renders rows under a header, each column as wide as its widest cell; numbers-looking cells right-aligned. */
export const table = (header: ReadonlyArray<string>, rows: ReadonlyArray<ReadonlyArray<string>>): string => {
  const widths = header.map((title, i) => Math.max(width(title), ...rows.map((row) => width(row[i] ?? ""))))
  const numeric = header.map((_, i) => rows.length > 0 && rows.every((row) => /^-?[\d.,]+%?$/.test(row[i] ?? "")))
  const line = (cells: ReadonlyArray<string>) =>
    cells.map((cell, i) => (numeric[i] ? padStart(cell, widths[i] ?? 0) : padEnd(cell, widths[i] ?? 0))).join("  ")
      .trimEnd()
  return [line(header), widths.map((w) => "─".repeat(w)).join("  "), ...rows.map(line)].map((l) => `  ${l}`).join("\n")
}

/** A section title. */
export const heading = (title: string): string => `\n${title}\n${"═".repeat(title.length)}`
