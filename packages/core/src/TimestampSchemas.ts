/**
 * Timestamps: Unix milliseconds as the exchange sends them, decoded as
 * `DateTime.Utc`, and as a request's query parameters. `Schemas` re-exports
 * each of them under the same name.
 *
 * @since 0.3.0
 */
import * as DateTime from "effect/DateTime"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import * as SchemaGetter from "effect/SchemaGetter"
import * as SchemaIssue from "effect/SchemaIssue"
import { bail, leaf, refuse, withFastDecode } from "./internal/fastDecode.js"
import { timestampOf } from "./internal/timestampText.js"

/**
 * A Unix-millisecond timestamp carried as a string (a JSON integer is accepted
 * when decoding), as a `DateTime.Utc`.
 *
 * @since 0.1.0
 * @category schemas
 */
export const Timestamp: Schema.Codec<DateTime.Utc, string | number> = withFastDecode(
  Schema.Union([Schema.String, Schema.Number]).pipe(Schema.decodeTo(Schema.DateTimeUtc, {
    decode: SchemaGetter.transformEffect((input: string | number) => {
      const time = timestampOf(input)
      return time === undefined
        ? Effect.fail(
          new SchemaIssue.InvalidValue(
            { message: `Expected a millisecond timestamp, got ${JSON.stringify(input)}` },
            Option.some(input)
          )
        )
        : Effect.succeed(time)
    }),
    encode: SchemaGetter.transform((value: DateTime.Utc) => String(DateTime.toEpochMillis(value)))
  })),
  leaf((input) => typeof input === "string" || typeof input === "number" ? timestampOf(input) ?? bail : refuse(input))
).annotate({ identifier: "Timestamp" })

/**
 * A millisecond timestamp as a query parameter (always a string on the wire),
 * not before 1970.
 *
 * @since 0.1.0
 * @category schemas
 */
export const QueryTimestamp = Schema.String.pipe(Schema.decodeTo(Timestamp)).check(
  Schema.makeFilter((time) => DateTime.toEpochMillis(time) >= 0 || "must not be before 1970")
)
