import { defineConfig } from "vitest/config"
import projects from "./vitest.workspace.js"

export default defineConfig({
  // `@bitget-effect/source` points each workspace package at its `src/*.ts`
  // (the published packages resolve to `dist/`).
  ssr: { resolve: { conditions: ["@bitget-effect/source"] } },
  test: {
    projects,
    // the client's own retry and 429 lines, logged by the calls the tests make fail on purpose, are not test output
    onConsoleLog: (log) => !/\] (INFO|WARN) \(#\d+\): (retry|rate limited): /.test(log)
  }
})
