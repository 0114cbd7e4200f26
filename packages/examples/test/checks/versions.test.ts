/**
 * One version everywhere: the published packages, the README's upgrade
 * section, the API reference's `@since` and what `changeset version` will
 * make of the pending changesets.
 */
import { assert, describe, it } from "@effect/vitest"
import { execFileSync } from "node:child_process"
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { read, root } from "../../tools/markdown.js"

const published = ["core", "platform-node", "sandbox", "cli", "sql"]

const versionOf = (dir: string): string =>
  (JSON.parse(read(`packages/${dir}/package.json`)) as { version: string }).version

/** `[major, minor, patch]` of a version. */
const parts = (version: string): ReadonlyArray<number> => version.split(".").map(Number)

/** Whether version `a` comes after `b`. */
const after = (a: string, b: string): boolean => {
  const [x, y] = [parts(a), parts(b)]
  const at = x.findIndex((n, i) => n !== y[i])
  return at !== -1 && x[at]! > y[at]!
}

/** Every `.ts` file below a folder. */
const sources = (dir: string): ReadonlyArray<string> =>
  readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sources(`${dir}/${entry.name}`)
      : entry.name.endsWith(".ts")
      ? [`${dir}/${entry.name}`]
      : []
  )

interface Release {
  readonly name: string
  readonly type: "none" | "patch" | "minor" | "major"
  readonly newVersion: string
}

/** The changesets not yet applied by `changeset version`. */
const pending = (): ReadonlyArray<string> =>
  readdirSync(join(root, ".changeset")).filter((name) => name.endsWith(".md") && name !== "README.md")

/** The release plan of the pending changesets, as `changeset status` computes it (none without any). */
const releasePlan = (): ReadonlyArray<Release> => {
  if (pending().length === 0) return []
  const dir = mkdtempSync(join(tmpdir(), "changeset-plan-"))
  try {
    execFileSync(join(root, "node_modules/.bin/changeset"), ["status", "--output", join(dir, "plan.json")], {
      cwd: root,
      stdio: "ignore"
    })
    return (JSON.parse(readFileSync(join(dir, "plan.json"), "utf8")) as { releases: ReadonlyArray<Release> }).releases
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

describe("one version", () => {
  const version = versionOf("core")
  const [major, minor] = parts(version)

  it("the published packages, the README's upgrade section and every @since agree with it", () => {
    for (const dir of published) assert.strictEqual(versionOf(dir), version, `packages/${dir}: version`)
    const readme = read("README.md")
    assert.include(readme, `\n${major}.${minor} runs on Effect 4`, "README.md: the upgrade section names another line")
    for (const dir of published) {
      for (const file of sources(`packages/${dir}/src`)) {
        for (const [, since] of read(file).matchAll(/@since (\d+\.\d+\.\d+)/g)) {
          assert.isFalse(after(since!, version), `${file}: @since ${since} is after the packages' ${version}`)
        }
      }
    }
  })

  it("changeset version takes every published package to one next version, a minor or patch while 0.x", () => {
    const releases = releasePlan().filter((release) => release.type !== "none")
    const next = new Set(releases.map((release) => release.newVersion))
    if (releases.length === 0) return
    assert.sameMembers(releases.map((release) => release.name), published.map((dir) => `@bitget-effect/${dir}`))
    assert.strictEqual(next.size, 1, `one next version for all: ${[...next].join(", ")}`)
    for (const release of releases) {
      assert.notStrictEqual(release.type, major === 0 ? "major" : "none", `${release.name}: a ${release.type} bump`)
    }
  })
})
