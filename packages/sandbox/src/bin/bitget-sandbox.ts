#!/usr/bin/env node
/**
 * The `bitget-sandbox` command: `bitget-sandbox --port 8080 [--seed N]
 * [--no-limits] [--fault route=kind ...]`. Prints the URL and the demo
 * credentials in a few lines (or, with `--json`, one JSON line for a parent
 * process to read) and serves until stopped with Ctrl+C or SIGTERM. The RSA
 * private key is printed or written only on request.
 */
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Result from "effect/Result"
import * as Runtime from "effect/Runtime"
import { readFileSync, writeFileSync } from "node:fs"
import { parseArgs } from "node:util"
import * as DemoKey from "../DemoKey.js"
import * as Fault from "../Fault.js"
import * as Route from "../Route.js"
import * as Sandbox from "../Sandbox.js"
import * as Shapes from "../Shapes.js"
import type * as Sizes from "../Sizes.js"

const usage = `Usage: bitget-sandbox [options]

A local Bitget exchange on a real HTTP server, for tests and demos.

  --port N                 TCP port (default 0: a free one)
  --host ADDRESS           address to bind (default 127.0.0.1)
  --seed N                 seed of the generated data (default 1)
  --anchor MS              time the data is generated back from (default: now, floored to the minute)
  --no-limits              switch the frequency limits off
  --limit-scale X          multiply every frequency limit by X (default 1)
  --fault ROUTE=KIND[@N]   inject a fault (repeatable); KIND is 500, 502, 503, 429, delay:MS, reset,
                           truncated, invalid-json or code:CODE[:MSG]; @N for the next N requests,
                           @forever for all; ROUTE is a route name, a path, or * (all)
  --clock-offset MS        offset of server time from the wall clock (may be negative)
  --symbols N  --open-orders N  --p2p-orders N  --p2p-days N
  --tax-records N  --tax-days N  --tax-burst N  --futures-orders N
                           data sizes (records per API key)
  --tax-timestamp-paging   reproduce the reported tax paging defect (pages by timestamp)
  --rpi-open               serve the RPI order book to every caller, not only RPI market makers
  --ip-ceiling N           overall calls per minute per address across routes (default 6000)
  --ip-lockout MS          how long an address over the ceiling is locked out (default 300000, 5 minutes)
  --shapes MODE            varied (default): where live answers vary in shape, send every shape, seeded;
                           canonical: one fixed shape, for tests that snapshot answers
  --rsa-key FILE           PEM private key for the RSA demo key (default: generated)
  --print-rsa-key          also print the RSA demo key's private key (PEM); with --json, include it
  --rsa-key-out FILE       write the RSA demo key's private key (PEM) to FILE, readable by you only
  --json                   print one JSON line {url, port, seed, anchor, credentials} instead of text
  --help                   show this help

Routes: ${Route.routes.map((route) => route.name).join(", ")}`

const fail = (message: string): never => {
  console.error(`${message}\n\n${usage}`)
  process.exit(2)
}

const number = (name: string, text: string | undefined): number | undefined => {
  if (text === undefined) return undefined
  const value = Number(text)
  return Number.isFinite(value) ? value : fail(`--${name} expects a number, got "${text}"`)
}

const parsed = (() => {
  try {
    return parseArgs({
      options: {
        "port": { type: "string" },
        "host": { type: "string" },
        "seed": { type: "string" },
        "anchor": { type: "string" },
        "no-limits": { type: "boolean" },
        "limit-scale": { type: "string" },
        "fault": { type: "string", multiple: true },
        "clock-offset": { type: "string" },
        "symbols": { type: "string" },
        "open-orders": { type: "string" },
        "p2p-orders": { type: "string" },
        "p2p-days": { type: "string" },
        "tax-records": { type: "string" },
        "tax-days": { type: "string" },
        "tax-burst": { type: "string" },
        "futures-orders": { type: "string" },
        "tax-timestamp-paging": { type: "boolean" },
        "rpi-open": { type: "boolean" },
        "ip-ceiling": { type: "string" },
        "ip-lockout": { type: "string" },
        "shapes": { type: "string" },
        "rsa-key": { type: "string" },
        "print-rsa-key": { type: "boolean" },
        "rsa-key-out": { type: "string" },
        "json": { type: "boolean" },
        "help": { type: "boolean" }
      },
      strict: true,
      allowPositionals: false
    }).values
  } catch (error) {
    return fail(error instanceof Error ? error.message : String(error))
  }
})()

if (parsed.help === true) {
  console.log(usage)
  process.exit(0)
}

const faults = (parsed.fault ?? []).map((spec) =>
  Result.getOrElse(Fault.parse(spec), (problem) => fail(`--fault ${spec}: ${problem}`))
)

const sizeFlags = {
  symbols: "symbols",
  openOrders: "open-orders",
  p2pOrders: "p2p-orders",
  p2pDays: "p2p-days",
  taxRecords: "tax-records",
  taxDays: "tax-days",
  taxBurst: "tax-burst",
  futuresOrders: "futures-orders"
} as const

const sizes: { -readonly [K in keyof Sizes.Sizes]?: number } = {}
for (const [field, flag] of Object.entries(sizeFlags) as ReadonlyArray<[keyof Sizes.Sizes, keyof typeof parsed]>) {
  const value = parsed[flag]
  const size = number(flag, typeof value === "string" ? value : undefined)
  if (size !== undefined) sizes[field] = size
}

const shapesMode = (text: string): Shapes.Shapes =>
  Shapes.modes.find((mode) => mode === text) ?? fail(`--shapes expects ${Shapes.modes.join(" or ")}, got "${text}"`)

/** Runs a file operation, turning its failure into a usage message. */
const file = <A>(what: string, path: string, run: () => A): A => {
  try {
    return run()
  } catch (error) {
    return fail(`${what} ${path}: ${error instanceof Error && "code" in error ? String(error.code) : "failed"}`)
  }
}

const rsaKeyFile = parsed["rsa-key"]
const options: Sandbox.Options = {
  port: number("port", parsed.port) ?? 0,
  host: parsed.host ?? "127.0.0.1",
  seed: number("seed", parsed.seed) ?? 1,
  ...(parsed.anchor === undefined ? {} : { anchor: number("anchor", parsed.anchor) ?? 0 }),
  limits: parsed["no-limits"] !== true,
  limitScale: number("limit-scale", parsed["limit-scale"]) ?? 1,
  faults,
  clockOffset: number("clock-offset", parsed["clock-offset"]) ?? 0,
  sizes,
  taxTimestampPaging: parsed["tax-timestamp-paging"] === true,
  rpiOpen: parsed["rpi-open"] === true,
  ...(parsed["ip-ceiling"] === undefined
    ? {}
    : { ipCeilingPerMinute: number("ip-ceiling", parsed["ip-ceiling"]) ?? 6000 }),
  ...(parsed["ip-lockout"] === undefined
    ? {}
    : { ipLockoutMillis: number("ip-lockout", parsed["ip-lockout"]) ?? 0 }),
  ...(parsed.shapes === undefined ? {} : { shapes: shapesMode(parsed.shapes) }),
  ...(rsaKeyFile === undefined
    ? {}
    : { rsaPrivateKeyPem: file("--rsa-key: cannot read", rsaKeyFile, () => readFileSync(rsaKeyFile, "utf8")) })
}

const printRsaKey = parsed["print-rsa-key"] === true

const describe = (sandbox: Sandbox.Sandbox.Service): string => {
  const { demo, hmac, marketMaker, rsa } = sandbox.credentials
  const limits = options.limits === false ? "off" : options.limitScale === 1 ? "on" : `on (x${options.limitScale})`
  return [
    `Bitget sandbox on ${sandbox.url} (seed ${sandbox.seed}, limits ${limits}${
      faults.length === 0
        ? ""
        : `, faults ${faults.map((f) => `${f.target}=${Fault.describe(f.fault)}@${f.times}`).join(" ")}`
    })`,
    `  BITGET_BASE_URL=${sandbox.url} BITGET_API_KEY=${hmac.apiKey} BITGET_API_SECRET=${hmac.secret} BITGET_API_PASSPHRASE=${DemoKey.passphrase}`,
    `  RPI market maker: apiKey ${marketMaker.apiKey} secret ${marketMaker.secret}; RSA key: apiKey ${rsa.apiKey} (${
      printRsaKey ? "private key below" : "private key: --print-rsa-key or --rsa-key-out FILE"
    })`,
    `  Demo trading (send paptrading: 1): apiKey ${demo.apiKey} secret ${demo.secret}`,
    ...(printRsaKey ? [rsa.privateKeyPem.trimEnd()] : []),
    "Ctrl+C to stop."
  ].join("\n")
}

const publicCredentials = (credentials: Sandbox.Sandbox.Service["credentials"]) =>
  printRsaKey ? credentials : { ...credentials, rsa: { ...credentials.rsa, privateKeyPem: undefined } }

const program = Effect.gen(function*() {
  const sandbox = yield* Sandbox.make(options)
  const keyFile = parsed["rsa-key-out"]
  if (keyFile !== undefined) {
    file(
      "--rsa-key-out: cannot write",
      keyFile,
      () => writeFileSync(keyFile, sandbox.credentials.rsa.privateKeyPem, { mode: 0o600 })
    )
  }
  if (parsed.json === true) {
    console.log(JSON.stringify({
      url: sandbox.url,
      port: sandbox.port,
      seed: sandbox.seed,
      anchor: sandbox.anchor,
      credentials: publicCredentials(sandbox.credentials)
    }))
  } else {
    console.log(describe(sandbox))
  }
  return yield* Effect.never
}).pipe(
  Effect.scoped,
  Effect.catchTag("SandboxError", (error) =>
    Effect.sync(() => {
      console.error(error.message)
      process.exitCode = 1
    }))
)

/** Stopping with Ctrl+C or SIGTERM is how the server ends: exit code 0 (Effect's default is 130). */
const teardown: Runtime.Teardown = (exit, onExit) =>
  Exit.isFailure(exit) && Cause.hasInterruptsOnly(exit.cause) ? onExit(0) : Runtime.defaultTeardown(exit, onExit)

NodeRuntime.runMain(program, { disableErrorReporting: true, teardown })
