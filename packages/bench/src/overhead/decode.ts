/**
 * Decoding alone, without the network: `JSON.parse` of a whole answer
 * against `JSON.parse` plus bitget-effect's decoding of its `data` with the
 * endpoint's decoder as the client runs it (`Endpoint.decoder(endpoint)`),
 * in a process of its own. argv: rounds and parses per round. Answers one
 * message: per payload, the per-round microseconds of each.
 */
import * as Endpoint from "@bitget-effect/core/Endpoint"
import * as FuturesHistory from "@bitget-effect/core/FuturesHistory"
import * as Symbols from "@bitget-effect/core/Symbols"
import * as TaxRecords from "@bitget-effect/core/TaxRecords"
import * as Fixtures from "./fixtures.js"

/** One payload's figures: microseconds per parse, and per parse plus decode, one entry per round. */
export interface DecodeFigures {
  readonly label: string
  readonly records: number
  readonly bytes: number
  readonly parse: ReadonlyArray<number>
  readonly decode: ReadonlyArray<number>
}

const texts = Fixtures.payloads()

const cases = [
  {
    label: "tax page, 500 records",
    records: Fixtures.taxPageSize,
    text: texts.tax,
    decode: Endpoint.decoder(TaxRecords.endpoint)
  },
  {
    label: "symbols, 1,000 records",
    records: Fixtures.symbolCount,
    text: texts.symbols,
    decode: Endpoint.decoder(Symbols.endpoint)
  },
  {
    label: "futures page, 100 records",
    records: Fixtures.futuresPageSize,
    text: texts.futures,
    decode: Endpoint.decoder(FuturesHistory.endpoint)
  }
]

const dataOf = (text: string): unknown => (JSON.parse(text) as { readonly data: unknown }).data

/** Microseconds per run of `f`, over `iterations` runs. */
const time = (f: () => unknown, iterations: number): number => {
  let sink: unknown
  const start = performance.now()
  for (let i = 0; i < iterations; i++) sink = f()
  const micros = ((performance.now() - start) * 1000) / iterations
  return sink === undefined ? Number.NaN : micros
}

const [rounds = 10, iterations = 50] = process.argv.slice(2).map(Number)
const figures = cases.map((c) => ({
  label: c.label,
  records: c.records,
  bytes: Buffer.byteLength(c.text),
  parse: [] as Array<number>,
  decode: [] as Array<number>
}))
for (let round = -1; round < rounds; round++) {
  cases.forEach((c, index) => {
    const parse = time(() => JSON.parse(c.text), iterations)
    const decode = time(() => c.decode(dataOf(c.text)), iterations)
    if (round < 0) return
    figures[index]?.parse.push(parse)
    figures[index]?.decode.push(decode)
  })
}
process.send?.(figures satisfies ReadonlyArray<DecodeFigures>)
process.disconnect?.()
