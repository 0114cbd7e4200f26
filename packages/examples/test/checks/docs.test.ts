import * as Core from "@bitget-effect/core"
import { Route } from "@bitget-effect/sandbox"
import { assert, describe, it } from "@effect/vitest"
import { existsSync, readdirSync } from "node:fs"
import { join, normalize } from "node:path"
import { categories } from "../../tools/categories.js"
import { blocks, exampleFiles, guides, isTypeScript, read, root } from "../../tools/markdown.js"

interface Manifest {
  readonly private?: boolean
  readonly peerDependencies?: Readonly<Record<string, string>>
}

/** The platform's peer ranges the published packages declare, as `name@range`. */
const peerRanges = new Set(
  ["core", "platform-node", "sandbox", "sql"]
    .flatMap((dir) =>
      Object.entries((JSON.parse(read(`packages/${dir}/package.json`)) as Manifest).peerDependencies ?? {})
    )
    .filter(([name]) => !name.startsWith("@bitget-effect/"))
    .map(([name, range]) => `${name}@${range}`)
)

/** The bins of the packages the README's Install section installs into a project: `npx` runs them without asking. */
const installedBins = ["bitget-sandbox", "bitget", "tsx"]

const rootScripts = Object.keys((JSON.parse(read("package.json")) as { scripts: Record<string, string> }).scripts)
const sandboxUsage = read("packages/sandbox/src/bin/bitget-sandbox.ts")

describe("the guides", () => {
  const files = guides()

  it("show every TypeScript example as a real file, block and file equal", () => {
    const shown = new Set<string>()
    for (const file of files) {
      for (const block of blocks(read(file)).filter(isTypeScript)) {
        assert.isDefined(block.file, `${file}: a TypeScript block without <!-- example: … --> above it`)
        assert.match(block.file!, /^packages\/examples\/(src|test)\/[\w-]+\.(test\.)?ts$/, `${file}: ${block.file}`)
        assert.strictEqual(
          block.code,
          read(block.file!),
          `${file}: the block differs from ${block.file} (run npx -y pnpm@10 run docs)`
        )
        shown.add(block.file!)
      }
    }
    assert.deepStrictEqual([...exampleFiles()].filter((f) => !shown.has(f)), [], "example files no guide shows")
  })

  it("link only to files inside the repository", () => {
    for (const file of files) {
      const text = read(file)
      assert.notMatch(
        text,
        /shared\/(spec|DESIGN)|\.\.\/shared/,
        `${file} points at design files outside the repository`
      )
      for (const [, target] of text.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)) {
        if (/^[a-z]+:/.test(target!)) continue
        const resolved = normalize(join(root, file, "..", target!))
        assert.isTrue(resolved.startsWith(root), `${file}: ${target} leads outside the repository`)
        assert.isTrue(existsSync(resolved), `${file}: ${target} does not exist`)
      }
    }
  })

  it("give commands that run as pasted: npx -y, real scripts, real sandbox flags", () => {
    for (const file of files) {
      for (const line of read(file).split("\n")) {
        // anywhere, inline code included
        for (const [, command] of line.matchAll(/npx (?!-y )([\w@.-]+)/g)) {
          assert.include(
            installedBins,
            command,
            `${file}: "${line}" needs npx -y (no terminal answers npx's prompt in CI), or a bin the Install section installs`
          )
        }
      }
      for (const block of blocks(read(file)).filter((b) => b.lang === "sh")) {
        for (const line of block.code.split("\n")) {
          for (const [, script] of line.matchAll(/npx -y pnpm@10 (?:--silent )?(?:run )?([\w:-]+)/g)) {
            if (script === "install" || script === "--filter") continue
            assert.include(rootScripts, script, `${file}: "${line}" runs a script the root package.json does not have`)
          }
          if (/npm install (@bitget-effect\/core|\S*bitget-effect-core-)/.test(line)) {
            const named = new Set(line.split(/\s+/).filter((word) => /^(effect|@effect\/[\w-]+)@/.test(word)))
            assert.deepStrictEqual(
              named,
              peerRanges,
              `${file}: the install line must name the peer ranges the packages declare`
            )
          }
          const sandboxArgs = /(?:bitget-sandbox|pnpm@10 sandbox)(.*)$/.exec(line)?.[1] ?? ""
          for (const [name] of sandboxArgs.matchAll(/--[\w-]+/g)) {
            assert.include(sandboxUsage, `"${name.slice(2)}"`, `${file}: bitget-sandbox has no ${name}`)
          }
        }
      }
    }
  })
})

describe("the demo", () => {
  it("introduces itself: where its code is, and why its odd symbols are there, in files that exist", () => {
    const demo = read("packages/demo/src/main.ts")
    const named = [...demo.matchAll(/\b((?:packages|docs)\/[\w/.-]*\w)/g)].map(([, path]) => path!)
    assert.includeMembers(named, ["packages/demo/src/main.ts", "packages/sandbox", "docs/sandbox.md"])
    for (const path of named) assert.isTrue(existsSync(join(root, path)), `the demo names ${path}, which is not there`)
    assert.include(
      read("docs/sandbox.md"),
      "BTC$USDT",
      "docs/sandbox.md, where the demo sends readers, explains BTC$USDT"
    )
  })
})

/** Effect 3 APIs that Effect 4 removed or renamed, each with what replaced it. */
const effect3: ReadonlyArray<readonly [RegExp, string]> = [
  [
    /@effect\/platform(?!-)|@effect\/schema|@effect\/cli|effect@\^3/,
    "effect 4's own modules (effect/http, effect/cli)"
  ],
  [/\bEither\b|Effect\.either\b/, "Result, Effect.result"],
  [/Effect\.(catchAll|catchAllCause|catchSome|forkDaemon|zipRight|zipLeft|async|tapErrorCause)\b/, "Effect 4's names"],
  [/Context\.(Tag|GenericTag)\b|\bFiberRef\b|\bParseResult\b|Metric\.tagged\b/, "Context.Service, Context.Reference"],
  [/\.unsafe(Make|FromString|Get)\b|Schema\.(optionalWith|transformOrFail|typeSchema)\b/, "makeUnsafe, Schema 4"],
  [/\bit\.(scoped|scopedLive)\b/, "it.effect, it.live"]
]

describe("the docs are on Effect 4", () => {
  it("no example, code block or install line uses an Effect 3 API", () => {
    const sources = [
      ...guides().flatMap((file) =>
        blocks(read(file))
          .filter((block) => isTypeScript(block) || block.lang === "sh")
          .map((block) => [file, block.code] as const)
      ),
      ...[...exampleFiles()].map((file) => [file, read(file)] as const)
    ]
    assert.isAtLeast(sources.length, 20)
    for (const [file, code] of sources) {
      for (const [pattern, instead] of effect3) {
        const found = pattern.exec(code)
        assert.isNull(found, `${file}: ${found?.[0]} is Effect 3 (use ${instead})`)
      }
    }
  })
})

/** The modules of core that describe an endpoint, with it. */
const operationModules = Object.entries(Core).flatMap(([name, module]) =>
  "endpoint" in module ? [{ name, endpoint: module.endpoint as Core.Endpoint.Endpoint<unknown, unknown> }] : []
)

describe("the lists of operations", () => {
  it("the README's table has a row for every module of an endpoint, naming the endpoint", () => {
    const readme = read("README.md")
    assert.isAtLeast(operationModules.length, 11)
    for (const { endpoint, name } of operationModules) {
      const row = readme.split("\n").find((line) => line.startsWith(`| \`${name}\` |`))
      assert.isDefined(row, `README.md: "The operations" has no row for ${name}`)
      assert.include(row, Core.Endpoint.label(endpoint), `README.md: the row of ${name} names another endpoint`)
    }
  })

  it("the README names every BITGET_* variable the configuration reads", () => {
    const readme = read("README.md")
    const variables = new Set(read("packages/core/src/BitgetConfig.ts").match(/\bBITGET_[A-Z_]+\b/g))
    assert.isAtLeast(variables.size, 13)
    for (const name of variables) assert.include(readme, `\`${name}\``, `README.md does not name ${name}`)
  })

  it("the architecture names every module of an endpoint", () => {
    const architecture = read("docs/architecture.md")
    for (const { name } of operationModules) {
      assert.include(architecture, `\`${name}\``, `docs/architecture.md does not list ${name}`)
    }
  })

  it("the sandbox guide names every route", () => {
    const sandbox = read("docs/sandbox.md")
    for (const route of Route.routes) {
      assert.include(sandbox, `\`${route.name}\``, `docs/sandbox.md does not name the route ${route.name}`)
    }
  })
})

describe("the sandbox's fidelity table", () => {
  const header = "| behaviour | the sandbox | the live exchange | evidence | status |"
  const guide = read("docs/sandbox.md")
  const fidelity = guide.slice(guide.indexOf("\n## Fidelity") + 1)
  /** The rows of every table under "Fidelity", as cells. */
  const rows = fidelity.split("\n## ")[0]!.split("\n")
    .filter((line) => line.startsWith("| ") && line !== header && !line.startsWith("|---"))
    .map((line) => line.slice(2, -2).split(" | "))
  /** A source a reader can follow: a link, or an issue, pull request or file of a public repository. */
  const source = /\]\([^)]+\)|\b[\w.-]+\/[\w.-]+#\d+|\b[\w.-]+\/[\w.-]+ `[^`]+`/

  it("has rows of five cells: behaviour, sandbox, live, evidence and a status of verified, inferred or unknown", () => {
    assert.isAbove(rows.length, 30, "docs/sandbox.md: no fidelity table under ## Fidelity")
    for (const cells of rows) {
      assert.strictEqual(cells.length, 5, `docs/sandbox.md: a fidelity row without five cells: ${cells.join(" | ")}`)
      const [behaviour, sandbox, live, evidence, status] = cells as [string, string, string, string, string]
      assert.oneOf(status, ["verified", "inferred", "unknown"], `docs/sandbox.md: ${behaviour}: status`)
      for (const cell of [sandbox, live, evidence]) assert.isAbove(cell.trim().length, 0, `${behaviour}: empty cell`)
      if (status !== "unknown") {
        assert.match(evidence, source, `docs/sandbox.md: ${behaviour} is ${status} without a source to follow`)
      }
    }
  })

  it("names every route, and cites every captured answer kept as a fixture", () => {
    const table = rows.map((cells) => cells.join(" | ")).join("\n")
    for (const route of Route.routes) {
      assert.include(table, `\`${route.name}\``, `docs/sandbox.md: no fidelity row names the route ${route.name}`)
    }
    for (const fixture of readdirSync(join(root, "packages/sandbox/test/fixtures/live"))) {
      assert.include(table, `(../packages/sandbox/test/fixtures/live/${fixture})`, `no fidelity row cites ${fixture}`)
    }
  })
})

describe("the supported platform", () => {
  it("the workspace's own Node is one version, named alike in package.json and pnpm-workspace.yaml", () => {
    const manifest = JSON.parse(read("package.json")) as {
      readonly engines: { readonly node: string }
      readonly devDependencies: Readonly<Record<string, string>>
    }
    const pinned = manifest.devDependencies.node
    assert.match(pinned ?? "", /^\d+\.\d+\.\d+$/, "package.json: the node devDependency is an exact version")
    assert.include(read("pnpm-workspace.yaml"), `nodeVersion: ${pinned}`, "pnpm-workspace.yaml: nodeVersion differs")
    assert.strictEqual(process.versions.node, pinned, "the tests run on the workspace's own Node")
    const oldest = manifest.engines.node.replace(/^>=/, "")
    for (const dir of ["core", "platform-node", "sandbox", "cli", "sql"]) {
      const engines = (JSON.parse(read(`packages/${dir}/package.json`)) as { engines?: { node?: string } }).engines
      assert.strictEqual(engines?.node, `>=${oldest}`, `packages/${dir}: engines.node differs from the root's`)
    }
    assert.include(read("README.md"), `Node ${oldest} or later`, "README.md does not name the oldest Node supported")
    assert.include(
      read("packages/platform-node/src/UndiciTransport.ts"),
      `range: "${manifest.engines.node}"`,
      "UndiciTransport's check of the running Node differs from engines.node"
    )
  })
})

describe("the published packages' public modules", () => {
  /** The public modules of every published package: its `src/*.ts`, where docgen reads. */
  const modules = readdirSync(join(root, "packages")).flatMap((dir) => {
    const manifest = JSON.parse(read(`packages/${dir}/package.json`)) as Manifest
    if (manifest.private === true) return []
    return readdirSync(join(root, "packages", dir, "src"))
      .filter((file) => file.endsWith(".ts"))
      .map((file) => `packages/${dir}/src/${file}`)
  })

  it("are all in each package's index: every public module is exported from `src/index.ts`", () => {
    const missing = modules
      .filter((file) => !file.endsWith("/index.ts"))
      .filter((file) => {
        const index = read(file.replace(/[^/]+$/, "index.ts"))
        return !index.includes(`from "./${file.replace(/^.*\//, "").replace(/\.ts$/, ".js")}"`)
      })
    assert.deepStrictEqual(missing, [], "public modules missing from their package's index")
  })

  it("take their categories from one small list (tools/categories.ts)", () => {
    const known = new Set(Object.keys(categories))
    const stray = modules.flatMap((file) =>
      [...read(file).matchAll(/@category (.+)$/gm)]
        .map((match) => match[1]!.trim())
        .filter((category) => !known.has(category))
        .map((category) => `${file}: @category ${category}`)
    )
    assert.isAbove(modules.length, 20, "the published packages' public modules were found")
    assert.deepStrictEqual(stray, [], "categories outside tools/categories.ts")
  })
})
