/**
 * The sandbox held to real answers. `fixtures/live/<route>.json` keeps, for
 * each route, the answers the live exchange was seen to give and the ones
 * Bitget documents, each with its source. A route's answers are walked into
 * records (the envelope, `data`, every object inside it, every element of a
 * list, a book level as the record of its positions); the "shape signature"
 * of a set of answers maps each record to its fields and each field to the
 * kinds of value seen. The sandbox's signature must equal the captures':
 * the same fields, and the same kinds per field. A kind the sandbox sends that
 * no capture shows is allowed only where the fixture lists it under
 * `kindsAlsoSent`, with the reason; a doc placeholder (`"xxxxxxxx"`, an id of
 * `"1"`) listed under `placeholders` counts as no evidence of a kind.
 */
import { assert, describe, it, layer } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { readdirSync, readFileSync } from "node:fs"
import type { RouteName } from "../src/Route.js"
import * as Sandbox from "../src/Sandbox.js"
import type { Params, Reply } from "./support.js"
import { DAY, paths, publicGet, signedGet, signedPost } from "./support.js"

// --- kinds of value -------------------------------------------------------

const kinds = [
  "absent",
  "null",
  "empty-string",
  "decimal-string",
  "integer-string",
  "word-string",
  "number",
  "boolean",
  "array",
  "object"
] as const

/** What a field holds, as far as a decoder cares. */
type Kind = (typeof kinds)[number]

/**
 * The kind of a JSON value. A string of 13 to 20 digits is an integer string
 * (a ms timestamp or an id); any other plain number in a string is a decimal
 * string (amounts, rates, precisions, small counts).
 */
const kindOf = (value: unknown): Kind => {
  if (value === null) return "null"
  if (Array.isArray(value)) return "array"
  if (typeof value === "number") return "number"
  if (typeof value === "boolean") return "boolean"
  if (typeof value !== "string") return "object"
  if (value === "") return "empty-string"
  if (/^\d{13,20}$/.test(value)) return "integer-string"
  return /^-?\d+(\.\d+)?$/.test(value) ? "decimal-string" : "word-string"
}

/** Kinds in a stable order, for messages. */
const show = (set: Iterable<Kind>): string =>
  `{${[...set].sort((a, b) => kinds.indexOf(a) - kinds.indexOf(b)).join(", ")}}`

// --- fixtures -------------------------------------------------------------

const Capture = Schema.Struct({
  source: Schema.NonEmptyString,
  kind: Schema.Literals(["live", "doc"]),
  date: Schema.NonEmptyString,
  status: Schema.optionalKey(Schema.Int),
  note: Schema.optionalKey(Schema.String),
  answer: Schema.Unknown
})

/** A captured value that stands for nothing (a doc placeholder). */
const Placeholder = Schema.Struct({
  record: Schema.NonEmptyString,
  field: Schema.NonEmptyString,
  value: Schema.String,
  reason: Schema.NonEmptyString
})

/** Kinds the sandbox sends on a field that no capture shows, and why. */
const Allowance = Schema.Struct({
  record: Schema.NonEmptyString,
  field: Schema.NonEmptyString,
  kinds: Schema.Array(Schema.Literals(kinds)),
  reason: Schema.NonEmptyString
})

const Fixture = Schema.Struct({
  route: Schema.NonEmptyString,
  captures: Schema.Array(Capture),
  placeholders: Schema.optionalKey(Schema.Array(Placeholder)),
  kindsAlsoSent: Schema.optionalKey(Schema.Array(Allowance))
})
type Fixture = typeof Fixture.Type
type Allowance = typeof Allowance.Type

const fixtureDirectory = new URL("./fixtures/live/", import.meta.url)

/** The fixtures by file name. */
const fixtureFiles: ReadonlyMap<string, Fixture> = new Map(
  readdirSync(fixtureDirectory).filter((name) => name.endsWith(".json")).map((name) => [
    name,
    Schema.decodeUnknownSync(Fixture)(JSON.parse(readFileSync(new URL(name, fixtureDirectory), "utf8")))
  ])
)

/** The fixtures by route. */
const fixtures: ReadonlyMap<string, Fixture> = new Map(
  [...fixtureFiles.values()].map((fixture) => [fixture.route, fixture])
)

// --- records and signatures ----------------------------------------------

type Fields = Readonly<Record<string, unknown>>

const isFields = (value: unknown): value is Fields =>
  typeof value === "object" && value !== null && !Array.isArray(value)

/** A list element as a record: itself if an object, its positions if a list, else one field `element`. */
const asRecord = (element: unknown): Fields =>
  Array.isArray(element)
    ? Object.fromEntries(element.map((value: unknown, position) => [String(position), value]))
    : isFields(element)
    ? element
    : { element }

/** The records in a JSON value found at `path`: an object and every object within it, every list element. */
const recordsIn = (value: unknown, path: string): ReadonlyArray<readonly [string, Fields]> => {
  if (Array.isArray(value)) return value.flatMap((element: unknown) => recordsIn(asRecord(element), `${path}[]`))
  if (!isFields(value)) return []
  return [[path, value], ...Object.entries(value).flatMap(([name, inner]) => recordsIn(inner, `${path}.${name}`))]
}

/** Record → field → kinds of value seen. */
type Signature = ReadonlyMap<string, ReadonlyMap<string, ReadonlySet<Kind>>>

/** Whether a value of a record's field stands for nothing. */
type Ignored = (record: string, field: string, value: unknown) => boolean

/** The shape signature of answers; a field missing from some records of its kind is `absent` there. */
const signatureOf = (answers: ReadonlyArray<unknown>, ignored: Ignored = () => false): Signature => {
  const byRecord = new Map<string, Array<Fields>>()
  for (const [record, fields] of answers.flatMap((answer) => recordsIn(answer, "envelope"))) {
    byRecord.set(record, [...(byRecord.get(record) ?? []), fields])
  }
  return new Map(
    [...byRecord].map(([record, all]) => {
      const names = new Set(all.flatMap((fields) => Object.keys(fields)))
      const kindsOf = (name: string) =>
        new Set(
          all.flatMap((fields): ReadonlyArray<Kind> =>
            !Object.hasOwn(fields, name)
              ? ["absent"]
              : ignored(record, name, fields[name])
              ? []
              : [kindOf(fields[name])]
          )
        )
      return [record, new Map([...names].map((name) => [name, kindsOf(name)]))]
    })
  )
}

/** The signature of a fixture's captures, its placeholders left out. */
const capturedSignature = (fixture: Fixture): Signature => {
  const placeholders = fixture.placeholders ?? []
  return signatureOf(
    fixture.captures.map((capture) => capture.answer),
    (record, field, value) => placeholders.some((p) => p.record === record && p.field === field && p.value === value)
  )
}

const union = <A>(
  ...sets: ReadonlyArray<Iterable<A>>
): ReadonlyArray<A> => [...new Set(sets.flatMap((set) => [...set]))]

const sameSet = <A>(a: ReadonlySet<A>, b: ReadonlySet<A>): boolean =>
  a.size === b.size && [...a].every((value) => b.has(value))

/** How the sandbox's signature differs from the captures', one line per record or field, naming both sides. */
const differences = (
  route: string,
  sandbox: Signature,
  captures: Signature,
  alsoSent: ReadonlyArray<Allowance>
): ReadonlyArray<string> => {
  const allowed = (record: string, field: string) =>
    alsoSent.filter((a) => a.record === record && a.field === field).flatMap((a) => a.kinds)
  const fieldLines = (record: string, sent: ReadonlyMap<string, ReadonlySet<Kind>>, captured: typeof sent) =>
    union(sent.keys(), captured.keys()).flatMap((field) => {
      const at = `${route}: ${record} .${field}`
      const ours = sent.get(field)
      const theirs = captured.get(field)
      if (ours === undefined) return [`${at}: captured (kinds ${show(theirs ?? [])}), never sent by the sandbox`]
      if (theirs === undefined) return [`${at}: sent by the sandbox (kinds ${show(ours)}), in no capture`]
      const extra = allowed(record, field)
      return sameSet(ours, new Set([...theirs, ...extra]))
        ? []
        : [
          `${at}: the sandbox sends ${show(ours)}, the captures show ${show(theirs)}` +
          (extra.length === 0 ? "" : ` + kindsAlsoSent ${show(extra)}`)
        ]
    })
  const recordLines = union(sandbox.keys(), captures.keys()).flatMap((record) => {
    const sent = sandbox.get(record)
    const captured = captures.get(record)
    if (sent === undefined) return [`${route}: ${record}: records in the captures, never sent by the sandbox`]
    if (captured === undefined) return [`${route}: ${record}: records sent by the sandbox, in no capture`]
    return fieldLines(record, sent, captured)
  })
  const staleLines = alsoSent.flatMap((a) => {
    const captured = captures.get(a.record)?.get(a.field)
    if (captured === undefined) return [`${route}: kindsAlsoSent names ${a.record} .${a.field}, which no capture has`]
    return a.kinds.filter((kind) => captured.has(kind)).map((kind) =>
      `${route}: kindsAlsoSent lists ${kind} for ${a.record} .${a.field}, which a capture already shows`
    )
  })
  return [...recordLines, ...staleLines]
}

// --- reading answers -------------------------------------------------------

/** The value at a path of keys inside a JSON value, `undefined` where there is none. */
const at = (value: unknown, ...keys: ReadonlyArray<string>): unknown =>
  keys.reduce<unknown>((inner, key) => (isFields(inner) ? inner[key] : undefined), value)

const textAt = (value: unknown, ...keys: ReadonlyArray<string>): string | undefined => {
  const found = at(value, ...keys)
  return typeof found === "string" ? found : undefined
}

const listAt = (value: unknown, ...keys: ReadonlyArray<string>): ReadonlyArray<unknown> => {
  const found = at(value, ...keys)
  return Array.isArray(found) ? found : []
}

/** The parsed body of a reply whose code is one of `codes`; otherwise fails naming the call. */
const answerOf = (call: string, codes: ReadonlyArray<string> = ["00000"]) => (reply: Reply) =>
  reply.json !== undefined && codes.includes(reply.json.code)
    ? Effect.succeed<unknown>(reply.json)
    : Effect.fail(new Error(`${call}: expected code ${codes.join(" or ")}, got HTTP ${reply.status} ${reply.text}`))

/** The `idLessThan` parameter of a cursor, none for the first page. */
const after = (cursor: string | undefined): Params => (cursor === undefined ? [] : [["idLessThan", cursor]])

/** Pages newest first until a page says there is no next one (at most `max` pages). */
const walk = (
  page: (cursor: string | undefined) => Effect.Effect<unknown, unknown>,
  next: (answer: unknown) => string | undefined,
  max = 20
): Effect.Effect<ReadonlyArray<unknown>, unknown> =>
  Effect.gen(function*() {
    const answers: Array<unknown> = []
    let cursor: string | undefined
    do {
      const answer = yield* page(cursor)
      answers.push(answer)
      cursor = next(answer)
    } while (cursor !== undefined && answers.length < max)
    return answers
  })

/** The cursor of a page: `cursor(answer)` when the list at `listPath` is full, none after a short page. */
const whenFull =
  (limit: number, listPath: ReadonlyArray<string>, cursor: (answer: unknown) => string | undefined) =>
  (answer: unknown): string | undefined => listAt(answer, ...listPath).length === limit ? cursor(answer) : undefined

// --- the answers of each route --------------------------------------------

type Service = Sandbox.Sandbox.Service

/** Fetches answers of a route, enough to meet every shape the sandbox sends. */
type Collect = (sandbox: Service) => Effect.Effect<ReadonlyArray<unknown>, unknown>

const symbolPricePath = "/api/v2/mix/market/symbol-price"

/**
 * A price to put triggers around: the contract's mark price, or (on a sandbox
 * without the symbol-price route) the price of its newest futures order.
 */
const referencePrice = (sandbox: Service, symbol: string): Effect.Effect<number, unknown> =>
  Effect.gen(function*() {
    const marked = yield* publicGet(sandbox, symbolPricePath, [["productType", "usdt-futures"], ["symbol", symbol]])
    const mark = Number(textAt(listAt(marked.json, "data")[0], "markPrice"))
    if (marked.json?.code === "00000" && mark > 0) return mark
    const history = yield* signedGet(sandbox, sandbox.credentials.hmac, paths.futures, [
      ["productType", "USDT-FUTURES"],
      ["symbol", symbol],
      ["limit", "1"]
    ]).pipe(Effect.flatMap(answerOf(`the newest ${symbol} futures order`)))
    const order = listAt(history, "data", "entrustedList")[0]
    return Number(textAt(order, "priceAvg") || textAt(order, "price"))
  })

/** The books the RPI answers are drawn from. */
const books = [["SPOT", "BTCUSDT"], ["SPOT", "ETHUSDT"], ["USDT-FUTURES", "BTCUSDT"]] as const

/** A trigger price `factor` times a price, whole. */
const trigger = (price: number, factor: number): string => String(Math.round(price * factor))

const collectors = {
  "time": (sandbox) =>
    Effect.forEach([1, 2, 3], () => publicGet(sandbox, paths.time).pipe(Effect.flatMap(answerOf("server time")))),

  "batch-cancel": (sandbox) =>
    Effect.gen(function*() {
      const key = sandbox.credentials.hmac
      yield* sandbox.reset
      const open = (yield* sandbox.openOrders(key.apiKey)).filter((order) => order.symbol === "BTCUSDT")
      const id = (k: number) => open[k]?.orderId ?? ""
      const cancel = (label: string, orderList: ReadonlyArray<Fields>, codes?: ReadonlyArray<string>) =>
        signedPost(sandbox, key, paths.batchCancel, { symbol: "BTCUSDT", orderList }).pipe(
          Effect.flatMap(answerOf(`batch cancel: ${label}`, codes))
        )
      const cancelled = [
        cancel("two orders and an unknown id", [{ orderId: id(0) }, { orderId: id(1) }, {
          orderId: "1234567890123456789"
        }]),
        cancel("an order id and a client id", [{ orderId: id(2) }, { clientOid: open[3]?.clientOid ?? "" }]),
        ...[4, 5, 6, 7].map((k) => cancel(`order ${k}`, [{ orderId: id(k) }]))
      ]
      const allFailing = Array.from(
        { length: 10 },
        (_, k) =>
          cancel(
            "every item failing",
            [k % 2 === 0 ? { orderId: id(0) } : { clientOid: "no-such-order" }],
            ["00000", "43001"]
          )
      )
      return yield* Effect.all([...cancelled, ...allFailing])
    }),

  "symbols": (sandbox) =>
    Effect.all([
      publicGet(sandbox, paths.symbols).pipe(Effect.flatMap(answerOf("every symbol"))),
      publicGet(sandbox, paths.symbols, [["symbol", "BTCUSDT"]]).pipe(Effect.flatMap(answerOf("one symbol"))),
      publicGet(sandbox, paths.symbols, [["symbol", "NOTACOINUSDT"]]).pipe(
        Effect.flatMap(answerOf("an unknown symbol", ["40034"]))
      )
    ]),

  "p2p-orders": (sandbox) =>
    Effect.gen(function*() {
      const end = yield* sandbox.serverTime
      const window: Params = [["startTime", String(end - 89 * DAY)], ["endTime", String(end)], ["limit", "100"]]
      return yield* walk(
        (cursor) =>
          signedGet(sandbox, sandbox.credentials.hmac, paths.p2p, [...window, ...after(cursor)]).pipe(
            Effect.flatMap(answerOf("P2P orders"))
          ),
        whenFull(100, ["data", "orderList"], (answer) => textAt(answer, "data", "minOrderId"))
      )
    }),

  "place-pos-tpsl": (sandbox) =>
    Effect.gen(function*() {
      const btc = yield* referencePrice(sandbox, "BTCUSDT")
      const eth = yield* referencePrice(sandbox, "ETHUSDT")
      const place = (label: string, body: Fields) =>
        signedPost(sandbox, sandbox.credentials.hmac, paths.tpsl, {
          marginCoin: "USDT",
          productType: "usdt-futures",
          ...body
        }).pipe(Effect.flatMap(answerOf(`TP/SL: ${label}`)))
      return yield* Effect.all([
        place("both legs with client ids on a long", {
          symbol: "BTCUSDT",
          holdSide: "long",
          stopSurplusTriggerPrice: trigger(btc, 1.5),
          stopSurplusClientOid: "captures-tp-1",
          stopLossTriggerPrice: trigger(btc, 0.5),
          stopLossClientOid: "captures-sl-1"
        }),
        place("a take profit without client id on a short", {
          symbol: "BTCUSDT",
          holdSide: "short",
          stopSurplusTriggerPrice: trigger(btc, 0.5)
        }),
        place("a stop loss with a client id on a long", {
          symbol: "ETHUSDT",
          holdSide: "long",
          stopLossTriggerPrice: trigger(eth, 0.5),
          stopLossClientOid: "captures-sl-2"
        })
      ])
    }),

  "trade-rate": (sandbox) =>
    Effect.forEach(
      [
        [sandbox.credentials.hmac, "spot"],
        [sandbox.credentials.hmac, "mix"],
        [sandbox.credentials.hmac, "margin"],
        [sandbox.credentials.marketMaker, "mix"]
      ] as const,
      ([key, businessType]) =>
        signedGet(sandbox, key, paths.tradeRate, [["businessType", businessType]]).pipe(
          Effect.flatMap(answerOf(`trade rates of ${businessType}`))
        )
    ),

  "fund-net-flow": (sandbox) =>
    Effect.forEach(
      ["BTCUSDT", "ETHUSDT", "SOLUSDT"],
      (symbol) =>
        publicGet(sandbox, paths.netFlow, [["symbol", symbol]]).pipe(
          Effect.flatMap(answerOf(`net flow of ${symbol}`))
        )
    ),

  "tax-records": (sandbox) =>
    Effect.gen(function*() {
      const end = yield* sandbox.serverTime
      const window: Params = [["startTime", String(end - 29 * DAY)], ["endTime", String(end)], ["limit", "500"]]
      return yield* walk(
        (cursor) =>
          signedGet(sandbox, sandbox.credentials.hmac, paths.tax, [...window, ...after(cursor)]).pipe(
            Effect.flatMap(answerOf("tax records"))
          ),
        whenFull(500, ["data"], (answer) => textAt(listAt(answer, "data").at(-1), "id"))
      )
    }),

  "open-interest-limit": (sandbox) =>
    Effect.forEach(
      [["USDT-FUTURES", "BTCUSDT"], ["USDT-FUTURES", "ETHUSDT"], ["COIN-FUTURES", "BTCUSD"], [
        "USDC-FUTURES",
        "ETHPERP"
      ]] as const,
      ([category, symbol]) =>
        signedGet(sandbox, sandbox.credentials.hmac, paths.openInterest, [["category", category], [
          "symbol",
          symbol
        ]]).pipe(Effect.flatMap(answerOf(`open interest limit of ${symbol}`)))
    ),

  "rpi-orderbook": (sandbox) =>
    Effect.forEach(
      Array.from({ length: 8 }).flatMap(() => books),
      ([category, symbol]) =>
        signedGet(sandbox, sandbox.credentials.marketMaker, paths.rpi, [
          ["category", category],
          ["symbol", symbol],
          ["limit", "5"]
        ]).pipe(Effect.flatMap(answerOf(`RPI order book of ${symbol}`)))
    ),

  "futures-history": (sandbox) =>
    Effect.forEach(["USDT-FUTURES", "COIN-FUTURES", "USDC-FUTURES"], (productType) =>
      walk(
        (cursor) =>
          signedGet(sandbox, sandbox.credentials.hmac, paths.futures, [
            ["productType", productType],
            ["limit", "100"],
            ...after(cursor)
          ]).pipe(Effect.flatMap(answerOf(`futures history of ${productType}`))),
        whenFull(100, ["data", "entrustedList"], (answer) => textAt(answer, "data", "endId"))
      )).pipe(Effect.map((pages) => pages.flat()))
} satisfies Partial<Record<RouteName, Collect>>

const routes = Object.keys(collectors) as ReadonlyArray<keyof typeof collectors>

/**
 * Sizes that keep the walks short; each futures history set (1250, 250, 125
 * orders) ends on a short page, so no walk reaches an empty one.
 */
const sizes = { symbols: 120, p2pOrders: 2_000, taxRecords: 4_000, futuresOrders: 1_250 }

const TIMEOUT = 60_000

// --- tests ----------------------------------------------------------------

describe("the captured answers", () => {
  it("are one fixture per route, named after it, each capture with its source", () => {
    assert.deepStrictEqual([...fixtureFiles.keys()].sort(), routes.map((route) => `${route}.json`).sort())
    for (const [name, fixture] of fixtureFiles) {
      assert.strictEqual(name, `${fixture.route}.json`)
      assert.isAbove(fixture.captures.length, 0, `${name} has no capture`)
    }
  })

  it("name only placeholders that are in a capture", () => {
    for (const fixture of fixtures.values()) {
      const records = fixture.captures.flatMap((capture) => recordsIn(capture.answer, "envelope"))
      for (const placeholder of fixture.placeholders ?? []) {
        assert.isTrue(
          records.some(([record, fields]) =>
            record === placeholder.record && fields[placeholder.field] === placeholder.value
          ),
          `${fixture.route}: no capture has ${placeholder.record} .${placeholder.field} = "${placeholder.value}"`
        )
      }
    }
  })

  it("give each record kind one signature: fields, and the kinds of value of each field", () => {
    const signature = signatureOf([
      { code: "00000", requestTime: "1700000000000", data: { list: [{ a: "1.5", b: "" }, { a: "7" }], ts: 1 } },
      { code: "40034", requestTime: 1700000000000, data: null }
    ])
    const plain = (record: string) =>
      Object.fromEntries([...signature.get(record) ?? []].map(([field, set]) => [field, show(set)]))
    assert.deepStrictEqual(plain("envelope"), {
      code: "{decimal-string}",
      requestTime: "{integer-string, number}",
      data: "{null, object}"
    })
    assert.deepStrictEqual(plain("envelope.data"), { list: "{array}", ts: "{number}" })
    assert.deepStrictEqual(plain("envelope.data.list[]"), { a: "{decimal-string}", b: "{absent, empty-string}" })
    assert.deepStrictEqual(differences("r", signature, signature, []), [])
  })
})

layer(Sandbox.layer({ limits: false, sizes }), { excludeTestServices: true })(
  "the sandbox's answers (varied shapes) against the captures",
  (it) => {
    for (const route of routes) {
      it.effect(route, () =>
        Effect.gen(function*() {
          const fixture = fixtures.get(route)
          assert.isDefined(fixture, `no fixture for ${route}`)
          const sandbox = yield* Sandbox.Sandbox
          const answers = yield* collectors[route](sandbox)
          const found = differences(
            route,
            signatureOf(answers),
            capturedSignature(fixture),
            fixture.kindsAlsoSent ?? []
          )
          assert.deepStrictEqual(found, [], `the shapes of ${route} differ:\n${found.join("\n")}`)
        }), TIMEOUT)
    }
  }
)

layer(Sandbox.layer({ limits: false, sizes, shapes: "canonical" }), { excludeTestServices: true })(
  "the sandbox's answers under canonical shapes",
  (it) => {
    for (const route of routes) {
      it.effect(`${route}: every record of a kind has the same fields`, () =>
        Effect.gen(function*() {
          const sandbox = yield* Sandbox.Sandbox
          const signature = signatureOf(yield* collectors[route](sandbox))
          const uneven = [...signature].flatMap(([record, fields]) =>
            [...fields].filter(([, set]) => set.has("absent")).map(([field, set]) =>
              `${route}: ${record} .${field} is left out of some records (${show(set)})`
            )
          )
          assert.deepStrictEqual(uneven, [], `records of ${route} differ in fields:\n${uneven.join("\n")}`)
        }), TIMEOUT)
    }
  }
)
