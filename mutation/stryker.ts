/**
 * StrykerJS's configuration for one module: its files mutated, its listed
 * tests run, else its package's unit tests (`vitest.mutation.config.ts`),
 * incremental (a rerun tests only the mutants whose code or covering tests
 * changed), in a sandbox copy of the root files and that one package.
 */
import { Stryker } from "@stryker-mutator/core"
import { existsSync, mkdirSync, rmSync } from "node:fs"
import { availableParallelism } from "node:os"
import type { Module } from "./modules.js"

type Options = ConstructorParameters<typeof Stryker>[0]

/** Where a module's incremental report is kept (committed: CI's clean clone reuses it). */
export const incrementalFile = (module: Module): string => `mutation/incremental/${module.name}.json`

/**
 * The sandbox holds the root's config files, the mutated package, and the
 * other packages' tsconfig files (which its tsconfig references); their code
 * is reached through the linked node_modules, as it is, never mutated.
 */
const ignorePatterns = (module: Module): Array<string> => [
  "/*",
  "!/package.json",
  "!/tsconfig.base.json",
  "!/vitest.workspace.ts",
  "!/vitest.mutation.config.ts",
  "!/packages",
  "/packages/*/*",
  "!/packages/*/tsconfig*.json",
  `!/packages/${module.package}/*`,
  "node_modules",
  "dist",
  "build",
  "docs",
  "coverage"
]

/** The module's own StrykerJS sandbox folder. */
const tempDir = (module: Module): string => `.stryker-tmp/${module.name}`

export interface RunOptions {
  /** Test every mutant again, whatever the incremental report holds. */
  readonly force: boolean
  /** Print one line per tested mutant (CI's log) instead of a progress bar. */
  readonly appendOnly: boolean
}

const options = (module: Module, run: RunOptions): Options => ({
  plugins: [import.meta.resolve("@stryker-mutator/vitest-runner")],
  testRunner: "vitest",
  vitest: { configFile: "vitest.mutation.config.ts" },
  coverageAnalysis: "perTest",
  mutate: [...module.files],
  // `// @ts-nocheck` only in the mutated package's source: the examples' sources are compared with the READMEs
  disableTypeChecks: `packages/${module.package}/src/**/*.ts`,
  ignorePatterns: ignorePatterns(module),
  incremental: true,
  incrementalFile: incrementalFile(module),
  force: run.force,
  reporters: [run.appendOnly ? "progress-append-only" : "progress", "html"],
  htmlReporter: { fileName: `reports/mutation/${module.name}.html` },
  concurrency: Number(process.env.MUTATION_CONCURRENCY ?? availableParallelism()),
  // one per module, so that runs of different modules can go side by side
  tempDirName: tempDir(module),
  cleanTempDir: true,
  // Stryker's LogLevel enum, whose values are these strings
  logLevel: "warn" as NonNullable<Options["logLevel"]>
})

/** Runs StrykerJS on a module; its report is then in `incrementalFile(module)`. */
export const mutate = async (module: Module, run: RunOptions): Promise<void> => {
  mkdirSync("mutation/incremental", { recursive: true })
  // the vitest config (loaded in Stryker's worker processes, which inherit this environment) picks the tests
  process.env.MUTATION_PACKAGE = module.package
  process.env.MUTATION_TESTS = module.tests?.join(",") ?? ""
  await new Stryker(options(module, run)).runMutationTest()
  if (!existsSync(incrementalFile(module))) throw new Error(`StrykerJS wrote no report for ${module.name}`)
  rmSync(tempDir(module), { recursive: true, force: true })
}
