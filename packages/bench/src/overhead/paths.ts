/**
 * Where the bench is, whether it runs from its sources or from its build
 * (`build/src/overhead`): the repository's root (the first folder above that
 * holds `pnpm-workspace.yaml`) and the bench package within it.
 */
import { existsSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"

/** The first folder above `from` that holds `pnpm-workspace.yaml`. */
const workspaceRoot = (from: string): string => {
  const above = dirname(from)
  if (existsSync(join(from, "pnpm-workspace.yaml"))) return from
  if (above === from) throw new Error("the bench is not inside the bitget-effect workspace")
  return workspaceRoot(above)
}

/** The repository's root. */
export const repositoryRoot: string = workspaceRoot(dirname(fileURLToPath(import.meta.url)))

/** The bench package's directory: specifiers resolve from its node_modules. */
export const benchDir: string = join(repositoryRoot, "packages", "bench")
