/**
 * The test projects, one per package with tests. `vitest.config.ts` runs them
 * as `test.projects`; each inherits its settings (workspace packages resolved
 * to their TypeScript source, so tests need no build).
 */
export default ["core", "platform-node", "sandbox", "cli", "sql", "e2e", "examples", "bench"].map((name) => ({
  extends: true as const,
  root: `packages/${name}`,
  test: { name, include: ["test/**/*.test.ts"] }
}))
