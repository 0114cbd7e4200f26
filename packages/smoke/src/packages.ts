/**
 * The public packages of the workspace and how they are packed, shared by
 * `tarballs.ts` and the smoke test.
 */
import { execFileSync } from "node:child_process"
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"

/** The repository's root. */
export const root = fileURLToPath(new URL("../../..", import.meta.url))

/** What the scripts read of a package's manifest. */
export interface Manifest {
  readonly name: string
  readonly private?: boolean
  readonly dependencies?: Readonly<Record<string, string>>
  readonly peerDependencies?: Readonly<Record<string, string>>
}

/** A package's manifest. */
export const manifest = (dir: string): Manifest =>
  JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as Manifest

/** The folders of the packages users install: every workspace package that is not private. */
export const published: ReadonlyArray<string> = readdirSync(join(root, "packages"))
  .map((name) => join(root, "packages", name))
  .filter((dir) => existsSync(join(dir, "package.json")) && manifest(dir).private !== true)

/**
 * Packs every public package (already built) into `destination`, emptied
 * first, so that it holds one tarball per package; returns their paths.
 * `pnpm pack` turns the `workspace:` ranges into the versions being packed.
 */
export const pack = (destination: string): ReadonlyArray<string> => {
  const pnpm = process.env.npm_execpath
  if (pnpm === undefined) throw new Error("run it through pnpm: npx -y pnpm@10 tarballs")
  rmSync(destination, { recursive: true, force: true })
  mkdirSync(destination, { recursive: true })
  for (const dir of published) {
    execFileSync(process.execPath, [pnpm, "pack", "--pack-destination", destination], { cwd: dir, stdio: "ignore" })
  }
  return readdirSync(destination).map((file) => join(destination, file))
}
