/**
 * The user-facing command blocks of the README and guides, as the smoke test
 * runs them: each block marked `<!-- commands: consumer -->` in the README
 * (install, Quickstart, export), or `<!-- commands: testing -->` in
 * docs/testing.md, line by line, as written.
 */

/** One line of a command block. */
export type Line =
  /** A command run to its end; it must exit with 0. */
  | { readonly _tag: "Run"; readonly command: string }
  /** A command the README starts "in a second terminal": it runs beside the next lines until the block ends. */
  | { readonly _tag: "Background"; readonly command: string; readonly port: number }
  /** A `# …` line after a command: what it prints, numbers and times aside. */
  | { readonly _tag: "Expect"; readonly text: string; readonly pattern: RegExp }
  /** A command the smoke test cannot run as written here, and why. */
  | { readonly _tag: "Skip"; readonly command: string; readonly why: string }

/** Commands the smoke test stands in for: cloning (CI has no GitHub; the repository itself is the clone). */
const standIns: ReadonlyArray<readonly [RegExp, string]> = [
  [/^git clone /, "the repository under test stands in for the clone (linked as bitget-effect)"]
]

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")

/** A pattern for a printed line: the text as written, with every run of digits (and `,.:` between them) free. */
const printed = (text: string): RegExp => new RegExp(escape(text).replace(/\d(?:[\d,:]|\\\.)*/g, "[\\d,.:]+"))

const line = (text: string): Line => {
  if (text.startsWith("# ")) return { _tag: "Expect", text: text.slice(2), pattern: printed(text.slice(2)) }
  const command = text.replace(/ +#.*$/, "")
  const standIn = standIns.find(([pattern]) => pattern.test(command))
  if (standIn !== undefined) return { _tag: "Skip", command, why: standIn[1] }
  if (text.includes("# in a second terminal")) {
    const port = Number(/--port (\d+)/.exec(command)?.[1])
    if (!Number.isInteger(port)) throw new Error(`a background command without --port: ${command}`)
    return { _tag: "Background", command, port }
  }
  return { _tag: "Run", command }
}

/** The lines of every `<!-- commands: <name> -->` block of a markdown text (`consumer` in the README), block by block. */
export const commandBlocks = (markdown: string, name: string): ReadonlyArray<ReadonlyArray<Line>> =>
  Array.from(
    markdown.matchAll(new RegExp(`<!-- commands: ${name} -->\\n\`\`\`sh\\n([\\s\\S]*?)\\n\`\`\``, "g")),
    ([, body]) => body!.split("\n").filter((text) => text.trim() !== "").map(line)
  )

/** The TypeScript block the README introduces with `<!-- example: <path> -->` (the Quickstart's program). */
export const example = (readme: string, path: string): string => {
  const found = new RegExp(`<!-- example: ${escape(path)} -->\\n\`\`\`ts\\n([\\s\\S]*?)\`\`\``).exec(readme)
  if (found === null) throw new Error(`README.md has no example ${path}`)
  return found[1]!
}
