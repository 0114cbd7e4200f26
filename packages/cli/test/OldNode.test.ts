/**
 * On a Node.js older than undici runs on (22.19), as the machines' own
 * `node` (Node 20) is: building `BitgetNode.layer` ends the program at once
 * with one line (the version, the supported range and `BitgetFetch.layer`),
 * not undici's `TypeError` at import, and `bitget export` exits 2 with that
 * line. Both run from source through tsx, on that Node.js.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { execFileSync } from "node:child_process"
import { existsSync } from "node:fs"
import { delimiter, join, sep } from "node:path"
import { fileURLToPath } from "node:url"
import { envWithoutBitget, type Ran, start, startScript } from "./support.js"

/** `node --version` of a binary, without its `v`; `undefined` when it does not run. */
const versionOf = (node: string): string | undefined => {
  try {
    return execFileSync(node, ["--version"], { encoding: "utf8", timeout: 20_000 }).trim().replace(/^v/, "")
  } catch {
    return undefined
  }
}

/** Whether a Node.js version is older than 22.19. */
const isOld = (version: string): boolean => {
  const [major = 0, minor = 0] = version.split(".").map(Number)
  return major < 22 || (major === 22 && minor < 19)
}

/** Node 20 from the npm registry (the `node` package), its binary's path. */
const fromRegistry = (): string | undefined => {
  try {
    return execFileSync("npx", ["-y", "-p", "node@20", "node", "-p", "process.execPath"], {
      encoding: "utf8",
      timeout: 300_000
    }).trim()
  } catch {
    return undefined
  }
}

/**
 * A Node.js older than 22.19: the first `node` on PATH outside a
 * `node_modules` (the workspace's is Node 26) that is, else Node 20 from the
 * registry. Throws when there is none, so that the test fails rather than
 * passing without running.
 */
const findOldNode = (): { readonly node: string; readonly version: string } => {
  const candidates: ReadonlyArray<() => string | undefined> = [
    ...(process.env.PATH ?? "").split(delimiter)
      .filter((dir) => dir !== "" && !dir.split(sep).includes("node_modules"))
      .map((dir) => () => join(dir, "node")),
    fromRegistry
  ]
  for (const candidate of candidates) {
    const node = candidate()
    const version = node !== undefined && existsSync(node) ? versionOf(node) : undefined
    if (node !== undefined && version !== undefined && isOld(version)) return { node, version }
  }
  throw new Error("no Node.js older than 22.19 found: neither a node on PATH nor `npx -y -p node@20 node`")
}

const fixture = fileURLToPath(new URL("fixtures/bitgetNode.ts", import.meta.url))

/** Asserts that a run printed exactly one line on stderr, naming the range, `version` and BitgetFetch, no trace. */
const assertOneLine = (ran: Ran, version: string) => {
  const lines = ran.stderr.split("\n")
  assert.strictEqual(lines.pop(), "", `stderr ends with a line break: ${ran.stderr}`)
  assert.strictEqual(lines.length, 1, ran.stderr)
  const [line = ""] = lines
  assert.match(line, /^error: /)
  assert.include(line, ">=22.19")
  assert.include(line, `Node.js ${version} `)
  assert.include(line, "BitgetFetch.layer")
  assert.notMatch(ran.stderr, /^\s*at /m, "no stack trace")
}

describe("on a Node.js older than 22.19", () => {
  const old = Effect.sync(findOldNode).pipe(Effect.cached, Effect.runSync)

  for (const layer of ["layer", "layerConfig"] as const) {
    it.effect(
      `building BitgetNode.${layer}() ends the program with one line, exit 1; the program never runs`,
      () =>
        Effect.gen(function*() {
          const { node, version } = yield* old
          const ran = yield* Effect.scoped(
            Effect.flatMap(startScript(fixture, [layer], envWithoutBitget(), node), (started) => started.ended)
          )
          assert.strictEqual(ran.code, 1, ran.stderr)
          assert.strictEqual(ran.stdout, "")
          assertOneLine(ran, version)
        }),
      360_000
    )
  }

  it.effect("bitget export exits 2 with that line", () =>
    Effect.gen(function*() {
      const { node, version } = yield* old
      const args = [
        "export",
        "tax-records",
        "--from",
        "2025-01-01",
        "--to",
        "2025-01-02",
        "--base-url",
        "http://127.0.0.1:9"
      ]
      const ran = yield* Effect.scoped(
        Effect.flatMap(start(args, envWithoutBitget(), node), (started) => started.ended)
      )
      assert.strictEqual(ran.code, 2, ran.stderr)
      assert.strictEqual(ran.stdout, "")
      assertOneLine(ran, version)
    }), 360_000)
})
