/**
 * The benchmark's tables: ratios to the floor first, then the absolute
 * figures, for the per-call rows, decoding alone, the tax-record walk (and,
 * beside it, the same walk synced into Postgres) and cold imports.
 */
import type { ImportCase, ImportRun } from "./coldImport.js"
import { kilobytes, megabytes, micros, perSecond, ratio, spread } from "./format.js"
import type { Machine } from "./machine.js"
import type { CallFigures, DecodeSummary, SyncFigures, WalkFigures } from "./measure.js"
import type { Size } from "./plan.js"
import { clients } from "./plan.js"
import type { Availability } from "./runtimes.js"
import { summarize } from "./stats.js"
import type { Table } from "./table.js"

/** Everything a run measured. */
export interface Results {
  readonly size: Size
  readonly machine: Machine
  /** Node, Bun and Deno: each one's version, or why it was missing. */
  readonly runtimes: ReadonlyArray<Availability>
  readonly calls: ReadonlyArray<CallFigures>
  readonly decode: ReadonlyArray<DecodeSummary>
  readonly walks: ReadonlyArray<WalkFigures>
  readonly sync: SyncFigures
  readonly imports: ReadonlyArray<{ readonly importCase: ImportCase; readonly runs: ReadonlyArray<ImportRun> }>
}

const names = clients.map((client) => client.name)

const peers = names.filter((name) => name !== "floor")

const records = (size: Size) => size.streamRecords.toLocaleString("en-US")

const callRatios = (r: Results): Table => ({
  title: `Per call: time as a multiple of the floor (raw undici + JSON.parse), median of ${r.size.rounds} rounds`,
  headers: ["row", ...peers],
  rows: r.calls.map(({ byClient, row }) => [
    row.label,
    ...peers.map((peer) => ratio(byClient.get(peer)?.median, byClient.get("floor")?.median))
  ])
})

const callAbsolute = (r: Results): Table => ({
  title: `Per call: wall time per call, median (min–max) of ${r.size.rounds} rounds`,
  headers: ["row", ...names],
  rows: r.calls.map(({ byClient, row }) => [row.label, ...names.map((client) => spread(byClient.get(client)))])
})

const decodeRatios = (r: Results): Table => ({
  title: "Decoding alone (no network): JSON.parse + bitget-effect's schema as a multiple of JSON.parse",
  headers: ["answer", "bitget-effect decode"],
  rows: r.decode.map((d) => [d.label, ratio(d.decode.median, d.parse.median)])
})

const decodeAbsolute = (r: Results): Table => ({
  title: `Decoding alone: time per answer, median (min–max) of ${r.size.decodeRounds} rounds`,
  headers: ["answer", "size", "JSON.parse", "JSON.parse + decode", "decode per record"],
  rows: r.decode.map((d) => [
    d.label,
    kilobytes(d.bytes),
    spread(d.parse),
    spread(d.decode),
    micros((d.decode.median - d.parse.median) / d.records)
  ])
})

const walkOf = (r: Results, client: string) => r.walks.find((w) => w.client === client)?.walk

const walkRatios = (r: Results): Table => ({
  title: `Walking ${records(r.size)} tax records (500 a page): time and peak RSS as a multiple of the floor`,
  headers: ["client", "time", "peak RSS"],
  rows: peers.map((peer) => [
    peer,
    ratio(walkOf(r, peer)?.seconds, walkOf(r, "floor")?.seconds),
    ratio(walkOf(r, peer)?.peakRss, walkOf(r, "floor")?.peakRss)
  ])
})

const walkAbsolute = (r: Results): Table => ({
  title: `Walking ${records(r.size)} tax records: one walk per client, each in a fresh process`,
  headers: ["client", "records/s", "wall time", "RSS before the walk", "peak RSS"],
  rows: names.map((client) => {
    const walk = walkOf(r, client)
    return walk === undefined
      ? [client, "—", "—", "—", "—"]
      : [
        client,
        perSecond(walk.records / walk.seconds),
        micros(walk.seconds * 1e6),
        megabytes(walk.rssBefore),
        megabytes(walk.peakRss)
      ]
  })
})

/** The client the sync runs on, whose walk it is compared with. */
const syncClient = "BitgetNode"

const syncAbsolute = (r: Results): Table => {
  const walk = walkOf(r, syncClient)
  const none = ["—", "—", "—", "—", "—", "—"]
  const figures = (rate: number, seconds: number, rssBefore: number, peakRss: number) => [
    perSecond(rate),
    micros(seconds * 1e6),
    megabytes(rssBefore),
    megabytes(peakRss),
    ratio(seconds, walk?.seconds),
    ratio(peakRss, walk?.peakRss)
  ]
  const { sync } = r
  return {
    title: `Walking ${records(r.size)} tax records into ${sync._tag === "Synced" ? sync.server : "Postgres"}: ` +
      `@bitget-effect/sql's \`Pipelines.taxRecords\` on ${syncClient} against the same walk without a database, ` +
      "each in a fresh process",
    headers: ["run", "records/s", "wall time", "RSS before", "peak RSS", "time vs. walk", "peak RSS vs. walk"],
    rows: [
      [
        "walk, no database",
        ...(walk === undefined
          ? none
          : figures(walk.records / walk.seconds, walk.seconds, walk.rssBefore, walk.peakRss))
      ],
      sync._tag === "Skipped"
        ? [`into Postgres: skipped, ${sync.reason}`, ...none]
        : [
          "into Postgres",
          ...figures(sync.sync.rows / sync.sync.seconds, sync.sync.seconds, sync.sync.rssBefore, sync.sync.peakRss)
        ]
    ]
  }
}

const importSummaries = (r: Results) =>
  r.imports.map(({ importCase, runs }) => ({
    label: importCase.label,
    wall: summarize(runs.map((run) => run.wallMs * 1000)),
    importOnly: summarize(runs.map((run) => run.importMs * 1000)),
    rss: summarize(runs.map((run) => run.peakRss))
  }))

const importRatios = (r: Results): Table => {
  const [floor, ...imports] = importSummaries(r)
  return {
    title: "Cold import in a fresh node process: a multiple of a process that imports nothing, median of " +
      `${r.size.importRuns} runs`,
    headers: ["import", "process wall time", "peak RSS"],
    rows: imports.map(({ label, rss, wall }) => [
      label,
      ratio(wall.median, floor?.wall.median),
      ratio(rss.median, floor?.rss.median)
    ])
  }
}

const importAbsolute = (r: Results): Table => ({
  title: `Cold import: median (min–max) of ${r.size.importRuns} fresh processes`,
  headers: ["import", "process wall time", "import alone", "peak RSS"],
  rows: importSummaries(r).map((s) => [s.label, spread(s.wall), spread(s.importOnly), megabytes(s.rss.median)])
})

/** The ratio tables, in print order. */
export const ratioTables = (r: Results): ReadonlyArray<Table> => [
  callRatios(r),
  decodeRatios(r),
  walkRatios(r),
  importRatios(r)
]

/** The absolute tables, in print order. */
export const absoluteTables = (r: Results): ReadonlyArray<Table> => [
  callAbsolute(r),
  decodeAbsolute(r),
  walkAbsolute(r),
  syncAbsolute(r),
  importAbsolute(r)
]

const runtimeNames: Readonly<Record<Availability["runtime"], string>> = { node: "Node", bun: "Bun", deno: "Deno" }

/** The runtimes in one line: `Node 26.10.0, Bun 1.3.0, Deno missing (why)`. */
export const describeRuntimes = (available: ReadonlyArray<Availability>): string =>
  available.map((a) =>
    a._tag === "Found" ? `${runtimeNames[a.runtime]} ${a.version}` : `${runtimeNames[a.runtime]} missing (${a.reason})`
  ).join(", ")
