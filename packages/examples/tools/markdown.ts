/**
 * The code blocks of the project's markdown: every TypeScript block shows a
 * real file of this package, named by the comment above it
 * (`<!-- example: packages/examples/src/quickstart.ts -->`), so the file is
 * what CI type-checks and runs, and the block is kept equal to it.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs"
import { join, relative } from "node:path"
import { fileURLToPath } from "node:url"

/** The repository root. */
export const root = fileURLToPath(new URL("../../..", import.meta.url))

/** A fenced block: its language, its code, where the code starts and ends, and the example file it shows. */
export interface Block {
  readonly lang: string
  readonly code: string
  readonly start: number
  readonly end: number
  readonly file: string | undefined
}

const fence = /(?:<!-- example: (\S+) -->\n)?```([\w-]*)\n([\s\S]*?)^```$/gm

/** Every fenced block of a markdown text. */
export const blocks = (markdown: string): ReadonlyArray<Block> =>
  [...markdown.matchAll(fence)].map((match) => {
    const code = match[3] ?? ""
    const start = (match.index ?? 0) + match[0].length - 3 - code.length
    return { lang: match[2] ?? "", code, start, end: start + code.length, file: match[1] }
  })

/** `true` for a TypeScript block. */
export const isTypeScript = (block: Block): boolean => block.lang === "ts" || block.lang === "typescript"

/** The markdown with each example block's code replaced by its file. */
export const embed = (markdown: string, read: (file: string) => string): string => {
  let out = ""
  let at = 0
  for (const block of blocks(markdown)) {
    if (block.file === undefined) continue
    out += markdown.slice(at, block.start) + read(block.file)
    at = block.end
  }
  return out + markdown.slice(at)
}

/** The guides: README.md and docs/*.md (the generated API reference under docs/api checks its own examples). */
export const guides = (): ReadonlyArray<string> => [
  "README.md",
  ...readdirSync(join(root, "docs")).filter((name) => name.endsWith(".md")).map((name) => `docs/${name}`),
  ...readdirSync(join(root, "packages"))
    .map((name) => `packages/${name}/README.md`)
    .filter((file) => existsSync(join(root, file)))
]

/** A file of the repository as text. */
export const read = (file: string): string => readFileSync(join(root, file), "utf8")

/** The example files of this package, relative to the repository root. */
export const exampleFiles = (): ReadonlyArray<string> => {
  const dir = fileURLToPath(new URL("..", import.meta.url))
  return ["src", "test"].flatMap((sub) =>
    readdirSync(join(dir, sub))
      .filter((name) => name.endsWith(".ts"))
      .map((name) => relative(root, join(dir, sub, name)))
  )
}
