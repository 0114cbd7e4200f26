import { BitgetNode } from "@bitget-effect/platform-node"
import { BitgetSql, Pipelines } from "@bitget-effect/sql"
import { Config, Effect } from "effect"

// Each account's configuration under its own prefix: BITGET_API_KEY, BITGET_BASE_URL, ... for "main",
// DESK2_API_KEY, DESK2_BASE_URL, ... for "desk-2".
const accounts = [{ account: "main", prefix: "BITGET" }, { account: "desk-2", prefix: "DESK2" }]

const logged = (run: Pipelines.Summary) =>
  Effect.log(
    `${run.account} ${run.stream}: ${run.added} added, ${run.updated} updated, ${run.unchanged} unchanged (${run.mode})`
  )

// One account's tax records and P2P orders, on its own client: its calls go under its own rate limits.
const syncAccount = ({ account, prefix }: { readonly account: string; readonly prefix: string }) =>
  Effect.gen(function*() {
    yield* Effect.flatMap(Pipelines.taxRecords({ account }), logged)
    yield* Effect.flatMap(Pipelines.p2pOrders({ account }), logged)
  }).pipe(Effect.provide(BitgetNode.layerConfig(prefix)))

// The two accounts at once, into one database. Each run fetches only what is new (a first run: the last year),
// and a run stopped anywhere goes on where it stopped the next time.
const program = Effect.all(accounts.map(syncAccount), { concurrency: 2 })

program.pipe(
  Effect.provide(BitgetSql.layerConfig({ url: Config.Redacted("DATABASE_URL") })),
  BitgetNode.runMain
)
