/**
 * The tour: the real client over HTTP through every operation, printed as
 * tables. Against the bundled sandbox exchange by default (started here, on
 * loopback); against the real exchange when BITGET_API_KEY and BITGET_BASE_URL
 * are set, where writes are skipped and so is anything the key may not do.
 */
import {
  BatchCancel,
  Credentials,
  FundNetFlow,
  FuturesHistory,
  OpenInterestLimit,
  P2pOrders,
  PositionTpsl,
  RpiOrderBook,
  Schemas,
  Symbols,
  TaxRecords,
  TradeRates
} from "@bitget-effect/core"
import type { BitgetError } from "@bitget-effect/core/BitgetError"
import { BitgetNode } from "@bitget-effect/platform-node"
import { Sandbox } from "@bitget-effect/sandbox"
import { BigDecimal, Console, DateTime, Effect, Option, Stream } from "effect"
import { heading, table } from "./table.js"

const dec = (value: BigDecimal.BigDecimal): string => Schemas.formatDecimal(value)
const opt = <A>(value: Option.Option<A>, show: (a: A) => string): string =>
  Option.match(value, { onNone: () => "–", onSome: show })
const day = (time: DateTime.Utc): string => DateTime.formatIso(time).slice(0, 19).replace("T", " ")
const known = <L extends string>(
  value: Schemas.OpenEnum<L>
): string => (Schemas.isKnown(value) ? value : `${value.value} (new)`)

const symbols = Effect.gen(function*() {
  const all = yield* Symbols.symbols()
  const byStatus = new Map<string, number>()
  for (const s of all) byStatus.set(known(s.status), (byStatus.get(known(s.status)) ?? 0) + 1)
  yield* Console.log(heading(`Spot symbols: ${all.length}`))
  yield* Console.log(`  by status: ${[...byStatus].map(([status, n]) => `${status} ${n}`).join(", ")}\n`)
  const shown = [...all.filter((s) => /[^A-Z0-9]/.test(s.baseCoin)), ...all].slice(0, 8)
  yield* Console.log(table(
    ["symbol", "base", "status", "price dp", "qty dp", "taker", "maker", "min USDT"],
    shown.map((s) => [
      s.symbol,
      s.baseCoin,
      known(s.status),
      String(s.pricePrecision),
      String(s.quantityPrecision),
      dec(s.takerFeeRate),
      dec(s.makerFeeRate),
      opt(s.minTradeUSDT, dec)
    ])
  ))
})

const fees = Effect.gen(function*() {
  const rates = yield* TradeRates.tradeRates({ businessType: "spot" })
  yield* Console.log(heading(`Your spot fee rates: ${rates.length} symbols`))
  yield* Console.log(
    table(
      ["symbol", "maker", "taker"],
      rates.slice(0, 5).map((r) => [r.symbol, dec(r.makerFeeRate), dec(r.takerFeeRate)])
    )
  )
})

const netFlow = Effect.gen(function*() {
  const flow = yield* FundNetFlow.fundNetFlow({ symbol: "BTCUSDT" })
  const total = flow.reduce((sum, f) => BigDecimal.sum(sum, f.netFlow), BigDecimal.fromBigInt(0n))
  yield* Console.log(heading(`BTCUSDT whale net flow, 24 h: ${flow.length} points, total ${dec(total)}`))
  yield* Console.log(table(["time (UTC)", "net flow"], flow.slice(0, 6).map((f) => [day(f.ts), dec(f.netFlow)])))
})

const openInterest = Effect.gen(function*() {
  const limit = yield* OpenInterestLimit.openInterestLimit({ symbol: "BTCUSDT", category: "USDT-FUTURES" })
  yield* Console.log(heading("Open interest limits, BTCUSDT (USDT-FUTURES)"))
  yield* Console.log(table(["single user", "main + subs", "market makers"], [[
    dec(limit.singleUserLimit),
    dec(limit.masterSubLimit),
    dec(limit.marketMakerLimit)
  ]]))
})

const cancelBatch = (sandbox: Sandbox.Sandbox.Service, apiKey: string) =>
  Effect.gen(function*() {
    const open = yield* sandbox.openOrders(apiKey)
    const symbol = open[0]?.symbol ?? "BTCUSDT"
    const mine = open.filter((o) => o.symbol === symbol).slice(0, 3)
    const orderList = [...mine.map((o) => ({ orderId: o.orderId })), { orderId: "1000000000000000001" }]
    const result = yield* BatchCancel.batchCancelOrders({ symbol, orderList })
    yield* Console.log(
      heading(`Batch cancel on ${symbol}: ${result.succeeded.length} cancelled, ${result.failed.length} failed`)
    )
    yield* Console.log(table(["orderId", "outcome"], [
      ...result.succeeded.map((o) => [o.orderId, "cancelled"]),
      ...result.failed.map((f) => [
        opt(f.orderId, (id) => id),
        `failed: ${opt(f.errorCode, (c) => c)} ${opt(f.errorMsg, (m) => m)}`
      ]),
      ...result.unconfirmed.map((o) => [opt(Option.orElse(o.orderId, () => o.clientOid), (id) => id), "unconfirmed"])
    ]))
  })

const takeProfitStopLoss = (sandbox: Sandbox.Sandbox.Service, apiKey: string) =>
  Effect.gen(function*() {
    const [position] = yield* sandbox.positions(apiKey)
    if (position === undefined) return yield* Console.log("\n(no open position to protect)")
    const request: PositionTpsl.PositionTpslRequest = {
      marginCoin: position.marginCoin,
      productType: position.productType,
      symbol: position.symbol,
      holdSide: position.holdSide,
      stopSurplusTriggerPrice: BigDecimal.fromStringUnsafe("120000"),
      stopSurplusTriggerType: "mark_price",
      stopLossTriggerPrice: BigDecimal.fromStringUnsafe("52000.5"),
      stopLossSize: BigDecimal.fromStringUnsafe("0.1"),
      stopLossClientOid: "demo-sl-1"
    }
    const placed = yield* PositionTpsl.placePositionTpsl(request)
    yield* Console.log(heading(`TP/SL on the ${position.holdSide} ${position.symbol} position: ${placed.length} plans`))
    const kinds = PositionTpsl.planKinds(request)
    yield* Console.log(table(
      ["plan", "orderId", "client oid"],
      placed.map((p, i) => [
        kinds[i] ?? "?",
        p.orderId,
        opt(Option.orElse(p.stopLossClientOid, () => p.stopSurplusClientOid), (c) => c)
      ])
    ))
  })

const taxWalk = Effect.gen(function*() {
  const end = yield* DateTime.now
  const start = DateTime.subtract(end, { days: 45 })
  const pages = yield* TaxRecords.stream({ startTime: start, endTime: end }).pipe(
    Stream.chunks,
    Stream.runCollect
  )
  const records = pages.flat()
  const byType = new Map<string, number>()
  for (const r of records) byType.set(known(r.spotTaxType), (byType.get(known(r.spotTaxType)) ?? 0) + 1)
  yield* Console.log(
    heading(
      `Spot tax records, last 45 days: ${records.length} records in ${pages.length} pages (2 windows of ≤ 30 days, 1 page/s)`
    )
  )
  yield* Console.log(table(
    ["type", "records"],
    [...byType].sort((a, b) => b[1] - a[1]).slice(0, 6).map(([type, n]) => [type, String(n)])
  ))
})

const p2p = Effect.gen(function*() {
  const end = yield* DateTime.now
  const orders = yield* P2pOrders.stream({ startTime: DateTime.subtract(end, { days: 30 }) }).pipe(Stream.runCollect)
  const byStatus = new Map<string, number>()
  for (const o of orders) byStatus.set(known(o.status), (byStatus.get(known(o.status)) ?? 0) + 1)
  yield* Console.log(heading(`P2P merchant orders, last 30 days: ${orders.length}`))
  yield* Console.log(table(["status", "orders"], [...byStatus].map(([status, n]) => [status, String(n)])))
})

const futures = Effect.gen(function*() {
  const page = yield* FuturesHistory.ordersHistory({ productType: "USDT-FUTURES", limit: 5 })
  yield* Console.log(heading("Latest futures orders (USDT-FUTURES)"))
  yield* Console.log(table(
    ["time (UTC)", "symbol", "side", "type", "size", "avg price", "status", "source"],
    page.entrustedList.map((o) => [
      day(o.cTime),
      o.symbol,
      known(o.side),
      known(o.orderType),
      dec(o.size),
      opt(o.priceAvg, dec),
      known(o.status),
      known(o.enterPointSource)
    ])
  ))
})

const rpiBook = Effect.gen(function*() {
  const book = yield* RpiOrderBook.rpiOrderBook({ category: "SPOT", symbol: "BTCUSDT", limit: 5 })
  yield* Console.log(heading(`RPI order book, BTCUSDT (${day(book.ts)})`))
  yield* Console.log(table(
    ["bid qty", "bid RPI", "bid", "ask", "ask RPI", "ask qty"],
    Array.from({ length: Math.max(book.a.length, book.b.length) }, (_, i) => {
      const bid = book.b[i]
      const ask = book.a[i]
      return [
        bid ? dec(bid.nonRpiQuantity) : "",
        bid ? dec(bid.rpiQuantity) : "",
        bid ? dec(bid.price) : "",
        ask ? dec(ask.price) : "",
        ask ? dec(ask.rpiQuantity) : "",
        ask ? dec(ask.nonRpiQuantity) : ""
      ]
    })
  ))
})

const badSignature = (baseUrl: string, apiKey: string, passphrase: string) =>
  Effect.gen(function*() {
    const error = yield* Effect.flip(TradeRates.tradeRates({ businessType: "spot" })).pipe(
      Effect.provide(BitgetNode.layer({
        baseUrl,
        credentials: Credentials.hmac({ apiKey, passphrase, secret: "not-the-secret" }),
        retry: { maxAttempts: 1 }
      }))
    )
    yield* Console.log(heading("A typed error: a request signed with the wrong secret"))
    yield* Console.log(`  ${error._tag}: ${error.message}`)
    if (error._tag === "BitgetApiError") {
      yield* Console.log(`  code=${error.code} kind=${error.kind} status=${error.status}`)
    }
  })

/** Runs a section; against the real exchange, a permission the key lacks skips it instead of ending the tour. */
const section = (live: boolean) => <R>(name: string, effect: Effect.Effect<void, BitgetError, R>) =>
  live
    ? Effect.catch(effect, (error) => Console.log(`\n${name}: skipped (${error.message})`))
    : effect

/** What the tour is and where its code is, printed under its first line. */
const intro = [
  "  Every operation of @bitget-effect/core through the real client, printed as tables.",
  "  Its code: packages/demo/src/main.ts (the calls), packages/sandbox (the local exchange)."
]

/** Why the sandbox's first symbols look odd, printed on the sandbox only. */
const oddSymbols =
  "  BTC$USDT and 币安人生USDT are there on purpose: percent-encoding changes them, and the exchange checks the\n" +
  "  signature of the query unencoded (BTC$USDT, not BTC%24USDT), which clients get wrong; see docs/sandbox.md."

const sandboxTour = Effect.scoped(Effect.gen(function*() {
  const sandbox = yield* Sandbox.make({ port: 0 })
  const key = sandbox.credentials.marketMaker
  yield* Console.log(
    [
      `bitget-effect tour against the sandbox exchange at ${sandbox.url} (real HTTP, real signatures, real limits)`,
      ...intro,
      oddSymbols
    ].join("\n")
  )
  const run = section(false)
  yield* Effect.all([
    run("symbols", symbols),
    run("fees", fees),
    run("net flow", netFlow),
    run("open interest", openInterest),
    run("batch cancel", cancelBatch(sandbox, key.apiKey)),
    run("TP/SL", takeProfitStopLoss(sandbox, key.apiKey)),
    run("tax records", taxWalk),
    run("P2P", p2p),
    run("futures history", futures),
    run("RPI book", rpiBook)
  ], { discard: true }).pipe(
    Effect.provide(BitgetNode.layer({
      baseUrl: sandbox.url,
      credentials: Credentials.hmac({ apiKey: key.apiKey, secret: key.secret, passphrase: key.passphrase })
    }))
  )
  yield* badSignature(sandbox.url, key.apiKey, key.passphrase)
  const stats = yield* sandbox.stats
  yield* Console.log(`\n${stats.requests} requests, ${stats.limitViolations} over a rate limit.`)
}))

const exchangeTour = Effect.gen(function*() {
  yield* Console.log(
    [
      `bitget-effect tour against ${process.env.BITGET_BASE_URL} (read-only: writes are demoed on the sandbox only)`,
      ...intro
    ].join("\n")
  )
  const run = section(true)
  yield* Effect.all([
    run("symbols", symbols),
    run("fees", fees),
    run("net flow", netFlow),
    run("open interest", openInterest),
    run("tax records", taxWalk),
    run("P2P", p2p),
    run("futures history", futures),
    run("RPI book", rpiBook)
  ], { discard: true }).pipe(Effect.provide(BitgetNode.layerConfig()))
})

const live = process.env.BITGET_API_KEY !== undefined && process.env.BITGET_BASE_URL !== undefined
const program: Effect.Effect<void, unknown> = live ? exchangeTour : sandboxTour

BitgetNode.runMain(program)
