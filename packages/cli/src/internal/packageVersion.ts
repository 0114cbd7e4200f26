/**
 * The version `bitget --version` prints: package.json's, read beside the
 * script that runs the command (no copy of it in the code).
 *
 * @since 0.2.0
 */
import * as Predicate from "effect/Predicate"
import { existsSync, readFileSync, realpathSync } from "node:fs"
import { dirname, join } from "node:path"

/** What `bitget --version` prints when no version is found. */
const unknown = "unknown"

/** The `version` of a `package.json`; `undefined` when the file is missing, unreadable or has none. */
const versionIn = (path: string): string | undefined => {
  if (!existsSync(path)) return undefined
  try {
    const manifest: unknown = JSON.parse(readFileSync(path, "utf8"))
    return Predicate.hasProperty(manifest, "version") && Predicate.isString(manifest.version)
      ? manifest.version
      : undefined
  } catch {
    return undefined
  }
}

/**
 * The version of the package holding the script a process runs (`argv[1]`):
 * that of the nearest `package.json` above the script that has one. From the
 * package's `bin/bitget.mjs`, `src/bin/bitget.ts` (the workspace) or
 * `dist/{esm,commonjs}/bin/bitget.js` (whose own `package.json` names only
 * the module format), that is the package's own. Never fails: `"unknown"`
 * when there is no script file or no `package.json` with a version above it
 * (a bundle, say), so that `bitget` still runs.
 *
 * @since 0.2.0
 * @category accessors
 */
export const packageVersion = (argv: ReadonlyArray<string>): string => {
  const script = argv[1]
  if (script === undefined || !existsSync(script)) return unknown
  for (let dir = dirname(realpathSync(script));; dir = dirname(dir)) {
    const version = versionIn(join(dir, "package.json"))
    if (version !== undefined) return version
    if (dirname(dir) === dir) return unknown
  }
}
