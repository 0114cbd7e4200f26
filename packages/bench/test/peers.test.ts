/**
 * The clients people use today against the sandbox: ccxt and bitget-api each
 * call the ten operations through their own methods (bitget-api's named
 * methods, ccxt's implicit ones and, where it has none, its generic
 * `request`) against a sandbox started in-process, and each call must return
 * the sandbox's data: the same records a plain signed request reads, or the
 * account change the sandbox recorded. The RPI book is read unsigned, as both
 * clients call it (the doc lists it as public), so the sandbox serves it to
 * everyone (`rpiOpen`).
 */
import { Sandbox } from "@bitget-effect/sandbox"
import { assert, layer } from "@effect/vitest"
import { RestClientV2, RestClientV3 } from "bitget-api"
import ccxt from "ccxt"
import { Effect } from "effect"
import { createHmac } from "node:crypto"
import { dataOf } from "../src/overhead/clients/answers.js"

type Service = Sandbox.Sandbox.Service
type Params = ReadonlyArray<readonly [string, string]>

const DAY = 86_400_000

// --- reading answers -------------------------------------------------------

const isFields = (value: unknown): value is Readonly<Record<string, unknown>> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

/** The value at a path of keys inside a JSON value, `undefined` where there is none. */
const at = (value: unknown, ...keys: ReadonlyArray<string>): unknown =>
  keys.reduce<unknown>((inner, key) => (isFields(inner) ? inner[key] : undefined), value)

const listAt = (value: unknown, ...keys: ReadonlyArray<string>): ReadonlyArray<unknown> => {
  const found = at(value, ...keys)
  return Array.isArray(found) ? found : []
}

/** The `field` of each record of a list. */
const column = (list: ReadonlyArray<unknown>, field: string): ReadonlyArray<unknown> =>
  list.map((record) => at(record, field))

// --- the sandbox's own answers ---------------------------------------------

const paths = {
  symbols: "/api/v2/spot/public/symbols",
  p2p: "/api/v2/p2p/orderList",
  tradeRate: "/api/v2/common/all-trade-rate",
  netFlow: "/api/v2/spot/market/fund-net-flow",
  tax: "/api/v2/tax/spot-record",
  openInterest: "/api/v3/account/open-interest-limit",
  futures: "/api/v2/mix/order/orders-history",
  symbolPrice: "/api/v2/mix/market/symbol-price"
} as const

/**
 * The `data` the sandbox gives a plain signed GET (sorted keys, raw values
 * signed, percent-encoded values sent): what each client must return.
 */
const reference = (sandbox: Service, path: string, params: Params = []): Effect.Effect<unknown, unknown> =>
  Effect.tryPromise(async () => {
    const key = sandbox.credentials.hmac
    const raw = params.map(([k, v]) => `${k}=${v}`).join("&")
    const sent = params.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join("&")
    const timestamp = String(Date.now())
    const prehash = `${timestamp}GET${path}${raw === "" ? "" : `?${raw}`}`
    const response = await fetch(`${sandbox.url}${path}${sent === "" ? "" : `?${sent}`}`, {
      headers: {
        "ACCESS-KEY": key.apiKey,
        "ACCESS-SIGN": createHmac("sha256", key.secret).update(prehash).digest("base64"),
        "ACCESS-PASSPHRASE": key.passphrase,
        "ACCESS-TIMESTAMP": timestamp,
        "Content-Type": "application/json"
      }
    })
    return dataOf(await response.json())
  })

/**
 * A price to put a long's triggers around: the mark price, or (on a sandbox
 * without the symbol-price route) the price of the newest futures order.
 */
const referencePrice = (sandbox: Service, symbol: string): Effect.Effect<number, unknown> =>
  reference(sandbox, paths.symbolPrice, [["productType", "usdt-futures"], ["symbol", symbol]]).pipe(
    Effect.map((data) => Number(at(listAt(data)[0], "markPrice"))),
    Effect.orElseSucceed(() => Number.NaN),
    Effect.flatMap((mark) =>
      mark > 0
        ? Effect.succeed(mark)
        : reference(sandbox, paths.futures, [["productType", "USDT-FUTURES"], ["symbol", symbol], ["limit", "1"]]).pipe(
          Effect.map((data) => {
            const order = listAt(data, "entrustedList")[0]
            return Number(at(order, "priceAvg") || at(order, "price"))
          })
        )
    )
  )

/** A time window, as both clients and the reference send it. */
interface Window {
  readonly startTime: string
  readonly endTime: string
}

/** The 30 days up to the sandbox's now. */
const lastThirtyDays = (sandbox: Service): Effect.Effect<Window> =>
  Effect.map(sandbox.serverTime, (end) => ({ startTime: String(end - 30 * DAY), endTime: String(end) }))

/** A window's query parameters, keys sorted. */
const windowParams = (window: Window): Params => [["endTime", window.endTime], ["startTime", window.startTime]]

// --- the clients -----------------------------------------------------------

/** A position TP/SL request as both clients send it. */
interface PositionTpsl {
  readonly symbol: string
  readonly holdSide: "long"
  readonly stopSurplusTriggerPrice: string
  readonly stopLossTriggerPrice: string
}

/** The ten operations as one client calls them; each resolves to the parsed envelope. */
interface Peer {
  readonly batchCancel: (symbol: string, orderIds: ReadonlyArray<string>) => Promise<unknown>
  readonly symbols: () => Promise<unknown>
  readonly p2pOrders: (request: Window & { readonly advNo: string }) => Promise<unknown>
  readonly placePosTpsl: (request: PositionTpsl) => Promise<unknown>
  readonly tradeRates: (businessType: string) => Promise<unknown>
  readonly netFlow: (symbol: string) => Promise<unknown>
  readonly taxRecords: (window: Window) => Promise<unknown>
  readonly openInterestLimit: (symbol: string) => Promise<unknown>
  readonly rpiBook: (symbol: string, limit: string) => Promise<unknown>
  readonly futuresHistory: () => Promise<unknown>
}

/** Sections of ccxt's bitget class, all pointed at the sandbox. */
const sections = ["spot", "mix", "user", "p2p", "broker", "margin", "common", "tax", "convert", "copy", "earn", "uta"]

/** ccxt: implicit methods for each path, `request` for the two it has no method for. */
const viaCcxt = (sandbox: Service): Peer => {
  const key = sandbox.credentials.hmac
  const exchange = new ccxt.bitget({
    apiKey: key.apiKey,
    secret: key.secret,
    password: key.passphrase,
    enableRateLimit: false,
    urls: { api: Object.fromEntries(sections.map((section) => [section, sandbox.url])) },
    options: { uta: false }
  })
  return {
    batchCancel: (symbol, orderIds) =>
      exchange.privateSpotPostV2SpotTradeBatchCancelOrder({
        symbol,
        orderList: orderIds.map((orderId) => ({ orderId }))
      }),
    symbols: () => exchange.publicSpotGetV2SpotPublicSymbols(),
    p2pOrders: (request) => exchange.privateP2pGetV2P2pOrderList({ ...request, language: "en-US" }),
    placePosTpsl: (request) =>
      exchange.privateMixPostV2MixOrderPlacePosTpsl({ ...request, marginCoin: "USDT", productType: "USDT-FUTURES" }),
    tradeRates: (businessType) =>
      exchange.request("v2/common/all-trade-rate", ["private", "common"], "GET", { businessType }),
    netFlow: (symbol) => exchange.request("v2/spot/market/fund-net-flow", ["public", "spot"], "GET", { symbol }),
    taxRecords: (window) => exchange.privateTaxGetV2TaxSpotRecord({ ...window }),
    openInterestLimit: (symbol) =>
      exchange.privateUtaGetV3AccountOpenInterestLimit({ category: "USDT-FUTURES", symbol }),
    rpiBook: (symbol, limit) => exchange.publicUtaGetV3MarketRpiOrderbook({ category: "SPOT", symbol, limit }),
    futuresHistory: () => exchange.privateMixGetV2MixOrderOrdersHistory({ productType: "USDT-FUTURES" })
  }
}

/** bitget-api: `RestClientV2`'s and (open interest limit, RPI book) `RestClientV3`'s named methods. */
const viaBitgetApi = (sandbox: Service): Peer => {
  const key = sandbox.credentials.hmac
  const options = { apiKey: key.apiKey, apiSecret: key.secret, apiPass: key.passphrase, baseUrl: sandbox.url }
  const v2 = new RestClientV2(options)
  const v3 = new RestClientV3(options)
  return {
    batchCancel: (symbol, orderIds) =>
      v2.spotBatchCancelOrders({ symbol, orderList: orderIds.map((orderId) => ({ orderId })) }),
    symbols: () => v2.getSpotSymbolInfo(),
    p2pOrders: (request) => v2.getP2PMerchantOrders({ ...request, language: "en-US" }),
    placePosTpsl: (request) =>
      v2.futuresSubmitPositionTPSL({ ...request, marginCoin: "USDT", productType: "USDT-FUTURES" }),
    tradeRates: (businessType) => v2.getAllTradeRates({ businessType }),
    netFlow: (symbol) => v2.getSpotFundNetFlowData({ symbol }),
    taxRecords: (window) => v2.getSpotTransactionRecords(window),
    openInterestLimit: (symbol) => v3.getOpenInterestLimit({ category: "USDT-FUTURES", symbol }),
    rpiBook: (symbol, limit) => v3.getRpiOrderBook({ category: "SPOT", symbol, limit }),
    futuresHistory: () => v2.getFuturesHistoricOrders({ productType: "USDT-FUTURES" })
  }
}

/** What a client threw, readable: bitget-api throws `{ code, message, body }`, ccxt an `Error`. */
const describeFailure = (error: unknown): string =>
  error instanceof Error
    ? error.message
    : isFields(error)
    ? JSON.stringify({ code: error.code, message: error.message, body: error.body })
    : String(error)

/** A client's call as an Effect: the `data` of its envelope, or a failure naming the call and the client's error. */
const call = (label: string, promise: () => Promise<unknown>): Effect.Effect<unknown, Error> =>
  Effect.tryPromise({
    try: async () => dataOf(await promise()),
    catch: (error) => new Error(`${label}: ${describeFailure(error)}`)
  })

// --- the ten operations ----------------------------------------------------

const peers = [["ccxt", viaCcxt], ["bitget-api", viaBitgetApi]] as const

for (const [name, make] of peers) {
  layer(Sandbox.layer({ limits: false, rpiOpen: true }), { excludeTestServices: true })(
    `${name} against the sandbox`,
    (it) => {
      /** A test of one operation: the client on the layer's sandbox. */
      const operation = (title: string, body: (client: Peer, sandbox: Service) => Effect.Effect<void, unknown>) =>
        it.effect(title, () =>
          Effect.gen(function*() {
            const sandbox = yield* Sandbox.Sandbox
            yield* body(make(sandbox), sandbox)
          }), 30_000)

      operation("batch cancel cancels the two open orders it names", (client, sandbox) =>
        Effect.gen(function*() {
          const apiKey = sandbox.credentials.hmac.apiKey
          const orderIds = (yield* sandbox.openOrders(apiKey)).filter((order) => order.symbol === "BTCUSDT").slice(0, 2)
            .map((order) => order.orderId)
          assert.strictEqual(orderIds.length, 2)
          const data = yield* call("batch cancel", () => client.batchCancel("BTCUSDT", orderIds))
          assert.deepStrictEqual(column(listAt(data, "successList"), "orderId"), orderIds)
          assert.deepStrictEqual(listAt(data, "failureList"), [])
          const left = (yield* sandbox.openOrders(apiKey)).map((order) => order.orderId)
          assert.isFalse(orderIds.some((id) => left.includes(id)))
        }))

      operation("symbols lists every pair of the sandbox", (client, sandbox) =>
        Effect.gen(function*() {
          const data = yield* call("symbols", () => client.symbols())
          assert.strictEqual(listAt(data).length, sandbox.sizes.symbols)
          assert.deepStrictEqual(
            column(listAt(data), "symbol"),
            column(listAt(yield* reference(sandbox, paths.symbols)), "symbol")
          )
        }))

      operation(
        "P2P orders of a window and an advertisement are the sandbox's",
        (client, sandbox) =>
          Effect.gen(function*() {
            const window = yield* lastThirtyDays(sandbox)
            const all = yield* reference(sandbox, paths.p2p, windowParams(window))
            const advNo = String(at(listAt(all, "orderList")[0], "advNo"))
            const request = { ...window, advNo }
            const data = yield* call("P2P orders", () => client.p2pOrders(request))
            const expected = yield* reference(sandbox, paths.p2p, [
              ["advNo", advNo],
              ...windowParams(window),
              ["language", "en-US"]
            ])
            assert.isAbove(listAt(data, "orderList").length, 0)
            assert.deepStrictEqual(
              column(listAt(data, "orderList"), "orderId"),
              column(listAt(expected, "orderList"), "orderId")
            )
            assert.deepStrictEqual(at(data, "minOrderId"), at(expected, "minOrderId"))
          })
      )

      operation("position TP/SL places both plans on the long", (client, sandbox) =>
        Effect.gen(function*() {
          const apiKey = sandbox.credentials.hmac.apiKey
          const long = (yield* sandbox.positions(apiKey)).find((p) => p.symbol === "BTCUSDT" && p.holdSide === "long")
          assert.isDefined(long)
          const price = yield* referencePrice(sandbox, "BTCUSDT")
          const before = (yield* sandbox.plans(apiKey)).length
          const data = yield* call("position TP/SL", () =>
            client.placePosTpsl({
              symbol: "BTCUSDT",
              holdSide: "long",
              stopSurplusTriggerPrice: String(Math.round(price * 1.5)),
              stopLossTriggerPrice: String(Math.round(price * 0.5))
            }))
          const placed = (yield* sandbox.plans(apiKey)).slice(before)
          assert.deepStrictEqual(column(listAt(data), "orderId"), placed.map((plan) => plan.orderId))
          assert.deepStrictEqual(placed.map((plan) => [plan.symbol, plan.holdSide, plan.planType]), [
            ["BTCUSDT", "long", "pos_profit"],
            ["BTCUSDT", "long", "pos_loss"]
          ])
        }))

      operation("all trade rates of a business are the sandbox's", (client, sandbox) =>
        Effect.gen(function*() {
          const data = yield* call("all trade rates", () => client.tradeRates("mix"))
          const expected = yield* reference(sandbox, paths.tradeRate, [["businessType", "mix"]])
          assert.isAbove(listAt(data).length, 0)
          assert.deepStrictEqual(data, expected)
        }))

      operation("fund net flow of a symbol is the sandbox's", (client, sandbox) =>
        Effect.gen(function*() {
          const data = yield* call("fund net flow", () => client.netFlow("BTCUSDT"))
          assert.isAbove(listAt(data).length, 0)
          assert.deepStrictEqual(data, yield* reference(sandbox, paths.netFlow, [["symbol", "BTCUSDT"]]))
        }))

      operation("tax records of a 30-day window are the sandbox's", (client, sandbox) =>
        Effect.gen(function*() {
          const window = yield* lastThirtyDays(sandbox)
          const data = yield* call("tax records", () => client.taxRecords(window))
          const expected = yield* reference(sandbox, paths.tax, windowParams(window))
          assert.isAbove(listAt(data).length, 0)
          assert.deepStrictEqual(column(listAt(data), "id"), column(listAt(expected), "id"))
        }))

      operation("open interest limit (v3, signed) is the sandbox's", (client, sandbox) =>
        Effect.gen(function*() {
          const data = yield* call("open interest limit", () => client.openInterestLimit("BTCUSDT"))
          const expected = yield* reference(sandbox, paths.openInterest, [
            ["category", "USDT-FUTURES"],
            ["symbol", "BTCUSDT"]
          ])
          assert.strictEqual(at(data, "symbol"), "BTCUSDT")
          assert.deepStrictEqual(data, expected)
        }))

      operation("the RPI book has the levels asked for, stamped now", (client, sandbox) =>
        Effect.gen(function*() {
          const data = yield* call("RPI book", () => client.rpiBook("BTCUSDT", "5"))
          const now = yield* sandbox.serverTime
          for (const side of ["a", "b"]) {
            const levels = listAt(data, side)
            assert.strictEqual(levels.length, 5, `${side} levels`)
            for (const level of levels) assert.isTrue(Array.isArray(level) && level.length === 3, `${side} level`)
          }
          assert.isBelow(Math.abs(now - Number(at(data, "ts"))), 10_000)
        }))

      operation(
        "futures order history of USDT-FUTURES is the sandbox's first page",
        (client, sandbox) =>
          Effect.gen(function*() {
            const data = yield* call("futures order history", () => client.futuresHistory())
            const expected = yield* reference(sandbox, paths.futures, [["productType", "USDT-FUTURES"]])
            assert.strictEqual(listAt(data, "entrustedList").length, 100)
            assert.deepStrictEqual(
              column(listAt(data, "entrustedList"), "orderId"),
              column(listAt(expected, "entrustedList"), "orderId")
            )
            assert.strictEqual(at(data, "endId"), at(expected, "endId"))
          })
      )
    }
  )
}
