/**
 * Rewrites every example block of the guides from the file it shows:
 * `npx -y pnpm@10 run docs` runs it; `test/docs.test.ts` fails when a block and its
 * file differ.
 */
import { writeFileSync } from "node:fs"
import { join } from "node:path"
import { embed, guides, read, root } from "./markdown.js"

for (const file of guides()) {
  const before = read(file)
  const after = embed(before, read)
  if (after !== before) {
    writeFileSync(join(root, file), after)
    console.log(`updated ${file}`)
  }
}
