/**
 * Builds the API reference into docs/api: `@effect/docgen` runs in each public
 * package (checking that every export has a description and `@since`, and
 * type-checking and running every `@example`), then its pages are gathered
 * under docs/api/<package>/ with an index. `npx -y pnpm@10 run docs` runs it.
 */
import { execFileSync } from "node:child_process"
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { root } from "./markdown.js"

interface Manifest {
  readonly name: string
  readonly private?: boolean
  readonly description: string
}

const out = join(root, "docs/api")
const packages = readdirSync(join(root, "packages"))
  .map((dir) => ({
    dir,
    manifest: JSON.parse(readFileSync(join(root, "packages", dir, "package.json"), "utf8")) as Manifest
  }))
  .filter(({ manifest }) => manifest.private !== true)

/** A docgen page with its Jekyll front matter replaced by a heading. */
const page = (
  pkg: string,
  text: string
): { readonly title: string; readonly overview: string; readonly body: string } => {
  const title = /^title: (.+)\.ts$/m.exec(text)?.[1] ?? "index"
  const body = text.slice(text.indexOf("\n---\n") + 5).trimStart()
  const paragraph = (/^## .+ overview\n\n([\s\S]+?)\n\n/m.exec(body)?.[1] ?? "").replace(/\s+/g, " ")
  const overview = /^.+?\.(?= |$)/.exec(paragraph)?.[0] ?? paragraph
  return { title, overview, body: `# ${pkg}/${title}\n\n${body}` }
}

rmSync(out, { recursive: true, force: true })
const index: Array<string> = [
  "# API reference",
  "",
  "Generated from the code's documentation by `npx -y pnpm@10 run docs` (`@effect/docgen`; every example in it is",
  "type-checked and run). Each module is also an entry point of its package, e.g. `@bitget-effect/core/Symbols`.",
  ""
]
for (const { dir, manifest } of packages) {
  const cwd = join(root, "packages", dir)
  execFileSync(join(root, "node_modules/.bin/docgen"), [], {
    cwd,
    stdio: ["ignore", "ignore", "inherit"],
    env: { ...process.env, NODE_OPTIONS: "--conditions=@bitget-effect/source" }
  })
  mkdirSync(join(out, dir), { recursive: true })
  index.push(`## ${manifest.name}`, "", manifest.description, "", "| module | |", "|---|---|")
  const modules = join(cwd, "docs/modules")
  for (const file of readdirSync(modules).filter((name) => name.endsWith(".ts.md")).sort()) {
    const { body, overview, title } = page(manifest.name, readFileSync(join(modules, file), "utf8"))
    writeFileSync(join(out, dir, `${title}.md`), body)
    index.push(`| [${title}](${dir}/${title}.md) | ${overview} |`)
  }
  index.push("")
  rmSync(join(cwd, "docs"), { recursive: true, force: true })
}
writeFileSync(join(out, "README.md"), index.join("\n"))
console.log(`API reference of ${packages.length} packages in docs/api`)
