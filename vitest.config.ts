import { defineConfig } from "vitest/config"
import projects from "./vitest.workspace.js"

export default defineConfig({
  // `@bitget-effect/source` points each workspace package at its `src/*.ts`
  // (the published packages resolve to `dist/`).
  ssr: { resolve: { conditions: ["@bitget-effect/source"] } },
  test: { projects }
})
