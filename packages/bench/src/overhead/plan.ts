/**
 * What the overhead benchmark runs: the rows, the clients, and how much of
 * each at the full and the tiny (`BENCH_SIZE=tiny`, CI smoke) size.
 */

/** One request every client can make; each resolves to the number of records in the answer. */
export type Operation = "symbolsOne" | "symbolsAll" | "taxPage" | "futuresPage" | "batchCancel"

/** The records each operation's answer holds (checked on warm-up, so a client that reads nothing fails loudly). */
export const expectedRecords: Readonly<Record<Operation, number>> = {
  symbolsOne: 1,
  symbolsAll: 1000,
  taxPage: 500,
  futuresPage: 100,
  batchCancel: 50
}

/** A row of the per-call table. */
export interface Row {
  readonly label: string
  readonly operation: Operation
  /** Calls in flight at once: 1 (sequential) or 16. */
  readonly concurrency: number
  /** Calls per round at full size (a multiple of `concurrency`). */
  readonly calls: number
  /** What the row measures, for the docs. */
  readonly about: string
}

/** The per-call rows, in table order. */
export const rows: ReadonlyArray<Row> = [
  {
    label: "symbols, 1 record",
    operation: "symbolsOne",
    concurrency: 1,
    calls: 300,
    about: "public GET, one pair: the fixed cost of a call (build, send, receive, parse, decode)"
  },
  {
    label: "symbols, 1,000 records",
    operation: "symbolsAll",
    concurrency: 1,
    calls: 20,
    about: "public GET, 1,000 pairs (about 410 kB): the cost per record dominates"
  },
  {
    label: "tax page, 500 records (signed)",
    operation: "taxPage",
    concurrency: 1,
    calls: 40,
    about: "signed GET, 500 ledger records (about 80 kB)"
  },
  {
    label: "futures page, 100 records (signed)",
    operation: "futuresPage",
    concurrency: 1,
    calls: 60,
    about: "signed GET, 100 orders of 30 fields each (about 60 kB)"
  },
  {
    label: "batch cancel, 50 orders (signed)",
    operation: "batchCancel",
    concurrency: 1,
    calls: 200,
    about: "signed POST with a 50-order JSON body; the answer lists 50 cancelled orders"
  },
  {
    label: "16 in flight: symbols, 1 record",
    operation: "symbolsOne",
    concurrency: 16,
    calls: 640,
    about: "16 calls at once, repeated; wall time divided by the calls (the loop's throughput)"
  },
  {
    label: "16 in flight: tax page, 500 records",
    operation: "taxPage",
    concurrency: 16,
    calls: 64,
    about: "16 signed 500-record pages at once, repeated; wall time divided by the calls"
  }
]

/** Where a client's worker runs: the workspace's Node, or Bun or Deno from the npm registry (`runtimes.ts`). */
export type Runtime = "node" | "bun" | "deno"

/** The client modules a worker can load (`clients/<name>.ts`). */
export type Implementation = "floor" | "bitgetNode" | "bitgetFetch" | "ccxt" | "ccxtUnified" | "bitgetApi"

/** A compared client: its column, the module its worker loads, and the runtime the worker runs on. */
export interface ClientPlan {
  readonly name: string
  readonly implementation: Implementation
  readonly runtime: Runtime
}

/** The clients compared, in the order each round runs them; the first is the floor. */
export const clients = [
  { name: "floor", implementation: "floor", runtime: "node" },
  { name: "BitgetNode", implementation: "bitgetNode", runtime: "node" },
  { name: "BitgetFetch", implementation: "bitgetFetch", runtime: "node" },
  { name: "ccxt raw", implementation: "ccxt", runtime: "node" },
  { name: "ccxt unified", implementation: "ccxtUnified", runtime: "node" },
  { name: "bitget-api", implementation: "bitgetApi", runtime: "node" },
  { name: "BitgetFetch on Bun", implementation: "bitgetFetch", runtime: "bun" },
  { name: "BitgetFetch on Deno", implementation: "bitgetFetch", runtime: "deno" }
] as const satisfies ReadonlyArray<ClientPlan>

/** One of the compared clients. */
export type PlannedClient = (typeof clients)[number]

/** A client's name. */
export type ClientName = PlannedClient["name"]

/** How much to run. */
export interface Size {
  readonly name: "full" | "tiny"
  /** Measured rounds; each runs every row on every client, one client after the other. */
  readonly rounds: number
  /** Calls per row are `row.calls * callScale` (at least `row.concurrency`). */
  readonly callScale: number
  /** Records of the tax ledger that the stream rows walk. */
  readonly streamRecords: number
  /** Rounds and parses per round of the decode rows. */
  readonly decodeRounds: number
  readonly decodeIterations: number
  /** Fresh processes per package for the cold-import rows. */
  readonly importRuns: number
}

/** The size named by `BENCH_SIZE` (`tiny` or the default `full`). */
export const size = (name: string | undefined = process.env.BENCH_SIZE): Size =>
  name === "tiny"
    ? {
      name: "tiny",
      rounds: 2,
      callScale: 0.05,
      streamRecords: 10_000,
      decodeRounds: 2,
      decodeIterations: 5,
      importRuns: 1
    }
    : {
      name: "full",
      rounds: 10,
      callScale: 1,
      streamRecords: 1_000_000,
      decodeRounds: 10,
      decodeIterations: 50,
      importRuns: 7
    }

/** The calls of a row per round at a size: a whole number of waves of `concurrency`. */
export const callsOf = (row: Row, at: Size): number =>
  Math.max(1, Math.round((row.calls * at.callScale) / row.concurrency)) * row.concurrency
