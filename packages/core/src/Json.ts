/**
 * Records as plain JSON: every record or result of the operations (a
 * `TaxRecords.SpotTaxRecord`, a `P2pOrders.P2pOrderPage`, an array of
 * `Symbols.SpotSymbol`, …) to JSON a person or another program reads, and
 * back to a value `Equal` to the record.
 *
 * - times: ISO 8601 in UTC with milliseconds (`"2026-01-02T03:04:05.678Z"`);
 * - decimals: strings in fixed point with every digit the record holds,
 *   trailing zeros included (`0.10` held with scale 2 is `"0.10"`; a
 *   negative scale, from an exponent such as `1e3`, is the integer `"1000"`);
 * - `Option.none()`: `null`, and `Some` as its value;
 * - open enums: their text, known or not (`"Buy"`, `"delisted"`);
 * - ids and text: strings; nested records and lists alike.
 *
 * This is Schema's own JSON codec (`Schema.toCodecJson`) of the record's type
 * side (`Schema.toType`, not the exchange's wire format): the schemas of
 * `Schemas` carry the JSON forms of decimals, options and unknown enum values
 * in their `toCodecJson` annotations. Decimals held as a plain
 * `Schema.BigDecimal` (the levels of `RpiOrderBook`) keep Schema's default
 * form: the normalized value (`"0.1"`, `"1e-20"`).
 *
 * @since 0.3.0
 */
import * as Effect from "effect/Effect"
import type * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import { decoder } from "./internal/decoder.js"
import { encoder } from "./internal/encoder.js"

const codecs = new WeakMap<Schema.Top, Schema.Codec<unknown, Schema.Json>>()

/**
 * The codec between a record type and its plain JSON: decoding JSON gives
 * the record, encoding a record gives JSON (see the module's overview for
 * the form). Built once per schema.
 *
 * @example
 * ```ts
 * import { Json, TaxRecords } from "@bitget-effect/core"
 * import { Schema } from "effect"
 *
 * const codec = Json.codec(TaxRecords.SpotTaxRecord)
 * const json = {
 *   id: "1203",
 *   coin: "USDT",
 *   spotTaxType: "Buy",
 *   amount: "-0.20947777",
 *   fee: "0.10",
 *   balance: "25000",
 *   ts: "2026-01-02T03:04:05.678Z",
 *   bizOrderId: null
 * }
 * const record = Schema.decodeSync(codec)(json)
 * assert.strictEqual(record.fee.scale, 2) // "0.10": both digits after the point are kept
 * assert.deepStrictEqual(Schema.encodeSync(codec)(record), json)
 * ```
 *
 * @since 0.3.0
 * @category constructors
 */
export const codec = <A, I>(schema: Schema.Codec<A, I>): Schema.Codec<A, Schema.Json> => {
  const known = codecs.get(schema)
  if (known !== undefined) return known as Schema.Codec<A, Schema.Json>
  const made = Schema.toCodecJson(Schema.toType(schema))
  codecs.set(schema, made as Schema.Codec<unknown, Schema.Json>)
  return made
}

/**
 * A record as plain JSON; it fails only for a decimal whose fixed-point form
 * exceeds 4096 characters (which no decoded record holds). Encodes through
 * the library's compiled fast path, which writes what `codec`'s encoder
 * writes (Schema encodes whatever it gives up on).
 *
 * @example
 * ```ts
 * import { Json, TaxRecords } from "@bitget-effect/core"
 * import { Effect, Equal, Schema } from "effect"
 *
 * // a record as the exchange sends it, decoded
 * const record = Schema.decodeUnknownSync(TaxRecords.SpotTaxRecord)({
 *   id: "1203",
 *   coin: "USDT",
 *   spotTaxType: "Card cashback", // not a documented type: kept as `Unrecognized`
 *   amount: "-0.20947777",
 *   fee: "0.10",
 *   balance: "25000.00000000",
 *   ts: "1767323045678",
 *   bizOrderId: ""
 * })
 *
 * const json = Effect.runSync(Json.encode(TaxRecords.SpotTaxRecord)(record))
 * assert.strictEqual(
 *   JSON.stringify(json),
 *   `{"id":"1203","coin":"USDT","spotTaxType":"Card cashback","amount":"-0.20947777","fee":"0.10",` +
 *     `"balance":"25000.00000000","ts":"2026-01-02T03:04:05.678Z","bizOrderId":null}`
 * )
 *
 * const back = Effect.runSync(Json.decode(TaxRecords.SpotTaxRecord)(JSON.parse(JSON.stringify(json))))
 * assert.ok(Equal.equals(back, record))
 * ```
 *
 * @since 0.3.0
 * @category formatting
 */
export const encode = <A, I>(
  schema: Schema.Codec<A, I>
): (value: A) => Effect.Effect<Schema.Json, Schema.SchemaError> => {
  const parse = encodeResult(schema)
  return (value) => Effect.fromResult(parse(value))
}

/**
 * `encode` without an Effect: the JSON, or the `SchemaError`, as a `Result`
 * (for a loop over many records, such as a file writer).
 *
 * @example
 * ```ts
 * import { Json, TaxRecords } from "@bitget-effect/core"
 * import { Result, Schema } from "effect"
 *
 * const record = Schema.decodeUnknownSync(TaxRecords.SpotTaxRecord)({
 *   id: "1203",
 *   coin: "USDT",
 *   spotTaxType: "Buy",
 *   amount: "-0.20947777",
 *   fee: "0.10",
 *   balance: "25000.00000000",
 *   ts: "1767323045678",
 *   bizOrderId: ""
 * })
 * const line = Result.map(Json.encodeResult(TaxRecords.SpotTaxRecord)(record), (json) => JSON.stringify(json))
 * assert.ok(Result.isSuccess(line))
 * assert.match(line.success, /"balance":"25000.00000000","ts":"2026-01-02T03:04:05.678Z","bizOrderId":null/)
 * ```
 *
 * @since 0.3.0
 * @category formatting
 */
export const encodeResult = <A, I>(
  schema: Schema.Codec<A, I>
): (value: A) => Result.Result<Schema.Json, Schema.SchemaError> => encoder(codec(schema))

/**
 * A record from its plain JSON (as `encode` writes it, or parsed from text),
 * through the library's compiled fast path like `encode`.
 *
 * @example
 * ```ts
 * import { Json, Schemas, TaxRecords } from "@bitget-effect/core"
 * import { Effect, Option } from "effect"
 *
 * const record = Effect.runSync(Json.decode(TaxRecords.SpotTaxRecord)({
 *   id: "1203",
 *   coin: "USDT",
 *   spotTaxType: "Buy",
 *   amount: "-0.20947777",
 *   fee: "0",
 *   balance: "25000",
 *   ts: "2026-01-02T03:04:05.678Z",
 *   bizOrderId: null
 * }))
 * assert.strictEqual(Schemas.enumText(record.spotTaxType), "Buy")
 * assert.ok(Option.isNone(record.bizOrderId))
 * ```
 *
 * @since 0.3.0
 * @category constructors
 */
export const decode = <A, I>(schema: Schema.Codec<A, I>): (json: unknown) => Effect.Effect<A, Schema.SchemaError> => {
  const parse = decodeResult(schema)
  return (json) => Effect.fromResult(parse(json))
}

/**
 * `decode` without an Effect: the record, or the `SchemaError`, as a
 * `Result` (for a loop over many lines, such as an NDJSON reader).
 *
 * @example
 * ```ts
 * import { Json, TaxRecords } from "@bitget-effect/core"
 * import { Result } from "effect"
 *
 * const line = `{"id":"1203","coin":"USDT","spotTaxType":"Buy","amount":"-0.20947777","fee":"0.10",` +
 *   `"balance":"25000","ts":"2026-01-02T03:04:05.678Z","bizOrderId":null}`
 * const record = Json.decodeResult(TaxRecords.SpotTaxRecord)(JSON.parse(line))
 * assert.ok(Result.isSuccess(record))
 * assert.strictEqual(record.success.fee.scale, 2)
 * assert.ok(Result.isFailure(Json.decodeResult(TaxRecords.SpotTaxRecord)({ id: "1203" })))
 * ```
 *
 * @since 0.3.0
 * @category constructors
 */
export const decodeResult = <A, I>(
  schema: Schema.Codec<A, I>
): (json: unknown) => Result.Result<A, Schema.SchemaError> => decoder(codec(schema))
