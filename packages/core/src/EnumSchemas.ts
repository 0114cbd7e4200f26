/**
 * Enums as the exchange sends them and as requests take them: open enums (the
 * known literals, or `Unrecognized` for a value the library does not know
 * yet) and closed request enums. `Schemas` re-exports each of them under the
 * same name.
 *
 * @since 0.3.0
 */
import * as Schema from "effect/Schema"
import * as SchemaGetter from "effect/SchemaGetter"
import { leaf, refuse, withFastDecode } from "./internal/fastDecode.js"

/**
 * Marks an enum value the library does not know yet (the exchange adds values
 * over time); the raw string is kept in `value`.
 *
 * @since 0.1.0
 * @category schemas
 */
export class Unrecognized extends Schema.TaggedClass<Unrecognized>()("Unrecognized", {
  value: Schema.String
}) {}

/** `Unrecognized` as an open enum's member: as JSON (see `Json`), the raw text. */
const UnrecognizedText = Schema.toType(Unrecognized).annotate({
  toCodecJson: () =>
    Schema.link<Unrecognized>()(Schema.String, {
      decode: SchemaGetter.transform((value: string) => new Unrecognized({ value }, { disableChecks: true })),
      encode: SchemaGetter.transform((value: Unrecognized) => value.value)
    })
})

/**
 * One of the literals of a list, as a union that keeps the name of the type
 * alias it defines (`type Side = EnumSchemas.OneOf<typeof sides>`): declarations
 * and the API reference show that name where the union is used, not every literal.
 *
 * @since 0.2.0
 * @category schemas
 */
export type OneOf<L extends ReadonlyArray<string>> = Extract<L[number], string>

/**
 * The decoded type of an open enum: one of the known literals, or `Unrecognized`.
 *
 * @since 0.1.0
 * @category schemas
 */
export type OpenEnum<L extends string> = L | Unrecognized

/**
 * An open enum: known literals decode as themselves, anything else as
 * `Unrecognized`. With `caseInsensitive`, `"PAID"` decodes as the known `"Paid"`.
 *
 * @since 0.1.0
 * @category schemas
 */
export const OpenEnum = <const L extends ReadonlyArray<string>>(
  literals: L,
  options?: { readonly caseInsensitive?: boolean }
): Schema.Codec<OpenEnum<L[number]>, string> => {
  const caseInsensitive = options?.caseInsensitive === true
  const known = new Map<string, L[number]>(
    literals.map((literal) => [caseInsensitive ? literal.toLowerCase() : literal, literal])
  )
  const decode = (raw: string): OpenEnum<L[number]> =>
    known.get(caseInsensitive ? raw.toLowerCase() : raw) ?? new Unrecognized({ value: raw }, { disableChecks: true })
  return withFastDecode(
    Schema.String.pipe(Schema.decodeTo(Schema.Union([Schema.Literals(literals), UnrecognizedText]), {
      decode: SchemaGetter.transform(decode),
      encode: SchemaGetter.transform((value: OpenEnum<L[number]>) => (typeof value === "string" ? value : value.value))
    })),
    leaf((raw) => (typeof raw === "string" ? decode(raw) : refuse(raw)))
  )
}

/**
 * A closed enum of a request: one of `literals`, anything else refused before
 * sending with a message that names the choices (`expected`, by default the
 * literals) and the value given.
 *
 * @since 0.2.0
 * @category schemas
 */
export const ClosedEnum = <const L extends ReadonlyArray<string>>(
  identifier: string,
  literals: L,
  expected: string = literals.join(", ")
) => {
  const members = new Set<string>(literals)
  const isMember = (value: string): value is L[number] => members.has(value)
  return Schema.String.annotate({ identifier }).check(
    Schema.makeFilter(
      (value) => isMember(value) || `must be one of ${expected}, got ${JSON.stringify(value)}`,
      undefined,
      true
    )
  ).pipe(Schema.refine(isMember))
}

/**
 * `true` when an open enum value is one the library knows.
 *
 * @since 0.1.0
 * @category schemas
 */
export const isKnown = <L extends string>(value: OpenEnum<L>): value is L => typeof value === "string"

/**
 * The text of an open enum value as the exchange sent it (a known literal, or
 * the raw value the library did not recognise).
 *
 * @example
 * ```ts
 * import { EnumSchemas, Symbols } from "@bitget-effect/core"
 * import { Schema } from "effect"
 *
 * const status = Schema.decodeSync(Symbols.SymbolStatus)
 * assert.strictEqual(EnumSchemas.enumText(status("online")), "online")
 * assert.strictEqual(EnumSchemas.enumText(status("delisted")), "delisted") // an `Unrecognized` value, kept
 * ```
 *
 * @since 0.1.0
 * @category schemas
 */
export const enumText = <L extends string>(
  value: OpenEnum<L>
): string => (typeof value === "string" ? value : value.value)
