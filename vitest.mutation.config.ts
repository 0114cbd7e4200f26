/**
 * The tests StrykerJS runs (`mutation/run.ts`): the unit tests of the one
 * package named by MUTATION_PACKAGE (core or cli), never e2e, or only the
 * files listed in MUTATION_TESTS (comma-separated, from the repository root).
 * Stryker's vitest runner does not narrow a `test.projects` workspace by
 * `dir`, so this config holds that package's project alone; and its own
 * `testFiles` option would run a mutant made at import time only after the
 * import (never active), so the tests are chosen here instead.
 */
import { defineConfig } from "vitest/config"
import projects from "./vitest.workspace.js"

const name = process.env.MUTATION_PACKAGE
const project = projects.find((p) => p.test.name === name && (name === "core" || name === "cli"))
if (project === undefined) throw new Error(`MUTATION_PACKAGE must be core or cli, not ${name}`)

const tests = (process.env.MUTATION_TESTS ?? "").split(",").filter((file) => file !== "")
const include = tests.length > 0 ? tests.map((file) => file.replace(`${project.root}/`, "")) : project.test.include

export default defineConfig({
  ssr: { resolve: { conditions: ["@bitget-effect/source"] } },
  test: { projects: [{ ...project, test: { ...project.test, include } }] }
})
