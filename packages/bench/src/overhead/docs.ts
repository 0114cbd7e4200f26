/**
 * The overhead section of docs/benchmarks.md, generated from a full-size run:
 * the ratio tables, the absolute figures and the machine, what each row
 * measures, and how to reproduce the run. The rest of the file is kept.
 */
import { describeMachine } from "./machine.js"
import { rows } from "./plan.js"
import type { Results } from "./report.js"
import { absoluteTables, describeRuntimes, ratioTables } from "./report.js"
import { toMarkdown } from "./table.js"

/** Wraps a paragraph (or a `- ` bullet, continued with two spaces) at 116 characters, as the other guides are. */
const wrap = (text: string): string => {
  const indent = text.startsWith("- ") ? "  " : ""
  const lines: Array<string> = []
  let line = ""
  for (const word of text.split(" ")) {
    if (line !== "" && line.length + 1 + word.length > 116) {
      lines.push(line)
      line = indent + word
    } else {
      line = line === "" ? word : `${line} ${word}`
    }
  }
  return [...lines, line].join("\n")
}

const count = (r: Results) => r.size.streamRecords.toLocaleString("en-US")

const about = (r: Results): ReadonlyArray<string> => [
  ...rows.map((row) => `- **${row.label}**: ${row.about}.`),
  "- **Decoding alone**: no network; the same answer text is parsed with `JSON.parse`, and parsed then decoded " +
  "on its `data` by the endpoint's decoder as the client runs it (`Endpoint.decoder(<module>.endpoint)`), in a " +
  "process of its own. The difference is what bitget-effect's typed values (decimals as `BigDecimal`, times as `DateTime`, open " +
  "enums, `Option` for unset fields) cost over plain objects of strings.",
  `- **Walking ${count(r)} tax records**: bitget-effect's \`TaxRecords.stream\` over one day ` +
  "(one window) consumed with `Stream.runCount`, on each of its columns; the floor, ccxt raw and bitget-api loop " +
  "over pages with `idLessThan` set to the last id until a short page, as a user of a client without a stream " +
  "would. One walk per client, each in a fresh process; peak RSS is `process.resourceUsage().maxRSS`, so it " +
  "includes the runtime and the modules the client loads, and nothing else: the workers are the bench's " +
  "compiled JavaScript (`tsc -b` into `build/`), run on every runtime with no TypeScript loader.",
  `- **Walking ${count(r)} tax records into Postgres**: the same walk written into a real PostgreSQL by ` +
  "`@bitget-effect/sql`, as a user runs a sync: `Pipelines.taxRecords({ account, startTime, endTime })` over " +
  "`BitgetNode.layer(...)` (the options above) and `BitgetSql.layer(...)`, each page's 500 rows upserted with the " +
  "stream's checkpoint in one transaction. The bench starts a server of its own for the run (`initdb` into a " +
  "temporary directory, on 127.0.0.1, `fsync` off, as `@bitget-effect/sql`'s tests start it; it shares the " +
  "machine's CPUs with the walk) and an empty database on it; the client, the pool and the migration are built " +
  "before the clock starts. Records/s counts the rows `count(*)` finds in the table afterwards, which must equal " +
  "the records walked; peak RSS is the Node process's, not the server's. The walk without a database is " +
  "`BitgetNode`'s walk above. Without PostgreSQL installed (`/usr/lib/postgresql/*/bin`) the row reads skipped and " +
  "the run goes on.",
  "- **Cold import**: a fresh `node --input-type=module -e` process per run importing the packages as a " +
  "user would, resolved to their built `dist/esm`: for `BitgetNode`, `@bitget-effect/core` and " +
  "`@bitget-effect/platform-node`; for `BitgetFetch`, `@bitget-effect/core` alone. Process wall time is spawn " +
  "to exit, import alone is measured inside the process."
]

const setup = [
  "All clients talk HTTP/1.1 with keep-alive to a static responder on 127.0.0.1 in a process of its own: " +
  "canned, pre-serialised answers in the exchange's envelope, no signature checks. Each client runs in its own " +
  "child process (so JIT and GC do not interfere); round by round, each row runs on every column in turn, " +
  "after a warm-up round. Every timed batch starts with one untimed call (or wave of 16) whose answer is " +
  "checked for the expected number of records.",
  "",
  "- **floor**: `undici.request()` on a pooled keep-alive `Agent` and `JSON.parse` of the body, on Node. It does " +
  "not sign, so the signed rows' ratios include signing.",
  "- **BitgetNode**: bitget-effect's public API through `BitgetNode.layer({ baseUrl, credentials: " +
  "Credentials.hmac(...), rateLimit: { enabled: false }, retry: { maxAttempts: 1 }, syncClockOnStart: false })` " +
  "(undici and `node:crypto`), built once into a `ManagedRuntime`; each call is `runtime.runPromise(...)`. The " +
  "built `dist` runs, as published.",
  "- **BitgetFetch**: the same calls and options through `BitgetFetch.layer(...)` from `@bitget-effect/core` " +
  "(the runtime's `fetch` and WebCrypto), on Node.",
  "- **BitgetFetch on Bun, BitgetFetch on Deno**: the same worker, unchanged, run by Bun and by Deno from the " +
  "npm registry (`npx -y bun@1`, `npx -y deno@2 run --allow-all`). Their ratios are to the " +
  "floor on Node: what the same program costs when it moves to that runtime. A runtime that cannot be fetched " +
  "(no network, say) is left out (its columns read —) and the run names the reason; it never fails the run.",
  "- **ccxt raw**: `new ccxt.bitget({ ..., enableRateLimit: false, urls: { api: <all twelve sections> }, " +
  "options: { uta: false } })`, called through its implicit methods (e.g. `privateTaxGetV2TaxSpotRecord`), " +
  "which sign and `JSON.parse` but leave the exchange's JSON as it came (every price, size and time a string): " +
  "less work than bitget-effect's decoding.",
  "- **ccxt unified**: the same class through the unified methods that build ccxt's structures, the work that " +
  "compares with bitget-effect's decoding. Symbols: `fetchMarkets()` with `options.fetchMarkets.types = " +
  "['spot']`, which reads `/api/v2/spot/public/symbols` and, at the same time, `/api/v2/margin/currencies` (the " +
  "responder answers it with an empty list); the 1-record row passes `{ symbol: 'BTCUSDT' }` through. Futures: " +
  "`fetchCanceledAndClosedOrders(undefined, undefined, 100, { type: 'swap', productType: 'USDT-FUTURES' })`, the " +
  "same `/api/v2/mix/order/orders-history` request as the other columns (`fetchClosedOrders` drops the cancelled " +
  "orders; a symbol would drop the page's other symbol). Batch cancel: `cancelOrders(ids, 'BTC/USDT')` on " +
  "`/api/v2/spot/trade/batch-cancel-order` (it parses the `successList` only). Its spot and swap markets are " +
  "loaded once before anything is timed, as a user does; a timed call sends only its own requests (the bench's " +
  "tests check which). ccxt's structures hold prices, amounts, fees and rates as JavaScript numbers (binary " +
  "floating point), times as integer milliseconds plus an ISO-8601 string, ids and enums as strings and absent " +
  "values as `undefined`, the raw record kept in `info`; bitget-effect's hold exact `BigDecimal`s, `DateTime.Utc`, " +
  "open enums and `Option`. The tax rows have no unified cell: ccxt's `fetchLedger` reads another endpoint " +
  "(`/api/v2/spot/account/bills`, spot bills, not the tax records), so its figure would not be the row's work.",
  "- **bitget-api**: `new RestClientV2({ apiKey, apiSecret, apiPass, baseUrl }, { httpAgent: <keep-alive " +
  "http.Agent> })` (axios). Its `getSpotSymbolInfo` signs even though the endpoint is public.",
  "",
  "Figures are printed, never asserted. A ratio is a client's median over the floor's median; `—` means the " +
  "client has no method for the row (ccxt unified: no unified method on that endpoint, and no walk)."
]

/** The first line of the generated section of docs/benchmarks.md. */
export const sectionStart =
  "<!-- overhead: generated by `npx -y pnpm@10 bench` (full size) down to the end mark; do not edit by hand -->"

/** The last line of the generated section. */
export const sectionEnd = "<!-- overhead: end -->"

/** The generated section of docs/benchmarks.md for a full-size run, between its marks. */
export const overheadSection = (r: Results, elapsedSeconds: number): string =>
  [
    sectionStart,
    "",
    "## Per-call overhead (`npx -y pnpm@10 bench`)",
    "",
    wrap(
      "What bitget-effect costs per call over the raw minimum, on both its layers (`BitgetNode`: undici and " +
        "`node:crypto`; `BitgetFetch`: `fetch` and WebCrypto, also on Bun and Deno), next to the two clients " +
        "people use today, [ccxt](https://github.com/ccxt/ccxt) (raw, and unified: parsing into its structures, " +
        "the same work as bitget-effect's decoding) and [bitget-api](https://github.com/tiagosiebler/bitget-api). " +
        "The floor is raw undici plus `JSON.parse` on " +
        "Node: no client on Node goes below it against the same server. Beside the tax-record walk, the same walk " +
        "synced into Postgres by `@bitget-effect/sql`: what a database adds to it."
    ),
    "",
    `Run on ${r.machine.date}, against core and platform-node at ${r.machine.commit}.`,
    "",
    "### Ratios to the floor",
    "",
    ...ratioTables(r).flatMap((table) => [toMarkdown(table), ""]),
    "### Absolute figures",
    "",
    ...absoluteTables(r).flatMap((table) => [toMarkdown(table), ""]),
    wrap(
      `Machine: ${describeMachine(r.machine)}. Runtimes: ${describeRuntimes(r.runtimes)}. The whole run took ` +
        `${Math.round(elapsedSeconds)} s.`
    ),
    "",
    "### What each row measures",
    "",
    ...setup.map(wrap),
    "",
    ...about(r).map(wrap),
    "",
    "### How to reproduce",
    "",
    "```sh",
    "npx -y pnpm@10 install",
    "npx -y pnpm@10 bench                    # builds the packages, then 2 to 4 minutes; rewrites this section",
    "BENCH_SIZE=tiny npx -y pnpm@10 bench    # a smoke run of under a minute (CI runs it); prints, writes nothing",
    "```",
    "",
    wrap(
      "The benchmark lives in `packages/bench/src/overhead/` (`main.ts` drives it). Both sizes run the Bun and " +
        "Deno columns when `npx -y bun@1` and `npx -y deno@2` can fetch them (the first run downloads them), and " +
        "the Postgres row when PostgreSQL is installed (`apt-get install -y postgresql`; the bench starts and stops " +
        "its own server). Quiet the machine first: the figures are wall times."
    ),
    "",
    sectionEnd
  ].join("\n")

/**
 * `document` with its generated section replaced by `section`; a document
 * without one gets it before its first `## ` heading (or at its end).
 */
export const spliceSection = (document: string, section: string): string => {
  const start = document.indexOf(sectionStart)
  const end = document.indexOf(sectionEnd)
  if (start !== -1 && end > start) {
    return document.slice(0, start) + section + document.slice(end + sectionEnd.length)
  }
  const heading = document.search(/^## /m)
  return heading === -1
    ? `${document.trimEnd()}\n\n${section}\n`
    : `${document.slice(0, heading)}${section}\n\n${document.slice(heading)}`
}
