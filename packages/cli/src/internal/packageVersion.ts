/**
 * The version `bitget --version` prints: package.json's, read beside the
 * script that runs the command (no copy of it in the code).
 *
 * @since 0.2.0
 */
import * as Predicate from "effect/Predicate"
import { existsSync, readFileSync, realpathSync } from "node:fs"
import { dirname, join } from "node:path"

/**
 * The version of the package holding the script a process runs (`argv[1]`):
 * that of the nearest `package.json` above the script that has one. From the
 * package's `bin/bitget.mjs`, `src/bin/bitget.ts` (the workspace) or
 * `dist/{esm,commonjs}/bin/bitget.js` (whose own `package.json` names only
 * the module format), that is the package's own.
 *
 * @since 0.2.0
 * @category accessors
 */
export const packageVersion = (argv: ReadonlyArray<string>): string => {
  const script = argv[1]
  if (script === undefined) throw new Error("no script to read the package's version beside")
  for (let dir = dirname(realpathSync(script));; dir = dirname(dir)) {
    const path = join(dir, "package.json")
    const manifest: unknown = existsSync(path) ? JSON.parse(readFileSync(path, "utf8")) : undefined
    if (Predicate.hasProperty(manifest, "version") && Predicate.isString(manifest.version)) return manifest.version
    if (dirname(dir) === dir) throw new Error(`no package.json with a version above ${script}`)
  }
}
