import { assert, describe, it } from "@effect/vitest"
import { execFile } from "node:child_process"
import { fileURLToPath } from "node:url"

const packageDir = fileURLToPath(new URL("../..", import.meta.url))

/** Runs the README's quickstart with these variables; yields its exit code and what it printed on stderr. */
const quickstart = (env: Record<string, string>) =>
  new Promise<{ readonly code: number | null; readonly stderr: string }>((resolve) => {
    execFile(
      process.execPath,
      ["--conditions=@bitget-effect/source", "--import", "tsx", "src/quickstart.ts"],
      { cwd: packageDir, env: { PATH: process.env.PATH, ...env }, timeout: 60_000 },
      (error, _stdout, stderr) => resolve({ code: error === null ? 0 : error.code as number | null, stderr })
    )
  })

describe("messages for people", () => {
  it("a failed call ends in two readable lines: what failed, with its cause, and what to do", async () => {
    const { code, stderr } = await quickstart({ BITGET_BASE_URL: "http://127.0.0.1:9", BITGET_MAX_ATTEMPTS: "1" })
    assert.strictEqual(code, 1)
    assert.deepStrictEqual(stderr.trimEnd().split("\n"), [
      "error: GET /api/v2/spot/public/symbols transport failure (Connect): request transport failure (ECONNREFUSED)",
      "hint: check that the base URL is right and reachable (BITGET_BASE_URL)"
    ])
  }, 60_000)

  it("bad configuration names the variable to set", async () => {
    const { code, stderr } = await quickstart({ BITGET_BASE_URL: "http://127.0.0.1:9", BITGET_TIMEOUT: "soon" })
    assert.strictEqual(code, 1)
    assert.deepStrictEqual(stderr.trimEnd().split("\n"), [
      "error: bad configuration: BITGET_TIMEOUT: Expected a duration such as \"10 seconds\", \"5000 millis\" or \"1.5 minutes\""
    ])
  }, 60_000)

  it("incomplete credentials say which variables belong together", async () => {
    const { code, stderr } = await quickstart({ BITGET_API_KEY: "k" })
    assert.strictEqual(code, 1)
    assert.include(stderr, "BITGET_API_PASSPHRASE")
    assert.include(
      stderr,
      "set BITGET_API_KEY, BITGET_API_PASSPHRASE and BITGET_API_SECRET (or BITGET_RSA_PRIVATE_KEY)"
    )
    assert.notInclude(stderr, "FiberFailure")
    assert.isAtMost(stderr.trimEnd().split("\n").length, 2)
  }, 60_000)
})
