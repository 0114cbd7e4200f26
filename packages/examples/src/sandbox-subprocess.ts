import { spawn } from "node:child_process"
import { createInterface } from "node:readline"

// The sandbox as a separate process, for any language or tool: `--json` prints one line to read.
const sandbox = spawn("./node_modules/.bin/bitget-sandbox", ["--port", "0", "--json", "--no-limits"], {
  stdio: ["ignore", "pipe", "inherit"]
})
const first = await new Promise<string>((resolve) => createInterface({ input: sandbox.stdout }).once("line", resolve))
const { credentials, url } = JSON.parse(first) as { url: string; credentials: { hmac: { apiKey: string } } }

// … run your tests against `url` with credentials.hmac, credentials.rsa or credentials.marketMaker …
const answer = await fetch(`${url}/api/v2/spot/public/symbols?symbol=BTCUSDT`)
console.log(`${url} answered ${answer.status}; demo key ${credentials.hmac.apiKey}`)

sandbox.kill("SIGTERM")
