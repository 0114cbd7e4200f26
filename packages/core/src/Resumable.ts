/**
 * Resumable streams. The paged streams (`TaxRecords`, `FuturesHistory`,
 * `P2pOrders`) can give their records a page at a time, each page with a
 * `Checkpoint`: a small value, encodable to JSON, after which a stream started
 * with `resume: checkpoint` goes on neither repeating nor skipping a record,
 * whatever windows and cursors were walked. Store the checkpoint with the
 * page's records in one step (a file rename, a database transaction) and the
 * output holds every record exactly once, however often the run stops.
 *
 * @since 0.3.0
 */
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"

const NonNegativeInt = Schema.Int.check(Schema.isGreaterThanOrEqualTo(0))

/**
 * Where the walk goes on: the window (by index, with its end, narrowed when a
 * cursor stalled), the cursor within it, and the ids of the last page (a
 * record among them on the next page is not emitted again).
 *
 * @since 0.3.0
 * @category models
 */
export class Position extends Schema.Class<Position>("@bitget-effect/core/Resumable/Position")({
  window: NonNegativeInt,
  windowEnd: Schema.DateTimeUtcFromString,
  cursor: Schema.NullOr(Schema.String),
  seen: Schema.Array(Schema.String)
}) {}

/**
 * The state of a paged stream after a page. `stream` names what is walked
 * (the endpoint and its filters); `start`, `end`, `spanMillis` and `order` the
 * windows (the range as it was cut when the stream began, so a resume walks
 * the same windows); `next` where the walk goes on, `null` once it is done.
 *
 * @example
 * ```ts
 * import { Resumable } from "@bitget-effect/core"
 * import { DateTime, Schema } from "effect"
 *
 * const checkpoint = new Resumable.Checkpoint({
 *   version: 1,
 *   stream: "GET /api/v2/tax/spot-record",
 *   start: DateTime.makeUnsafe("2026-01-01T00:00:00Z"),
 *   end: DateTime.makeUnsafe("2026-03-01T00:00:00Z"),
 *   spanMillis: 30 * 86_400_000,
 *   order: "oldestFirst",
 *   next: null
 * })
 * const text = Resumable.encodeJson(checkpoint)
 * assert.strictEqual(Resumable.isDone(Resumable.decodeJson(text)), true)
 * ```
 *
 * @since 0.3.0
 * @category models
 */
export class Checkpoint extends Schema.Class<Checkpoint>("@bitget-effect/core/Resumable/Checkpoint")({
  version: Schema.Literal(1),
  stream: Schema.String,
  start: Schema.DateTimeUtcFromString,
  end: Schema.DateTimeUtcFromString,
  spanMillis: NonNegativeInt,
  order: Schema.Literals(["newestFirst", "oldestFirst"]),
  next: Schema.NullOr(Position)
}) {}

/**
 * `true` when the stream the checkpoint belongs to has ended: resuming from
 * it emits nothing.
 *
 * @since 0.3.0
 * @category predicates
 */
export const isDone = (checkpoint: Checkpoint): boolean => checkpoint.next === null

/**
 * A checkpoint as one line of JSON text (`decodeJson` reads it back; for an
 * Effect, use `Schema.fromJsonString(Checkpoint)`).
 *
 * @since 0.3.0
 * @category formatting
 */
export const encodeJson: (checkpoint: Checkpoint) => string = Schema.encodeSync(Schema.fromJsonString(Checkpoint))

/**
 * A checkpoint from its JSON text (`encodeJson`'s); throws a `SchemaError`
 * on text that is not one.
 *
 * @since 0.3.0
 * @category constructors
 */
export const decodeJson: (text: string) => Checkpoint = Schema.decodeUnknownSync(Schema.fromJsonString(Checkpoint))

/**
 * A page of a resumable stream: its records (none already emitted) and the
 * checkpoint after them.
 *
 * @since 0.3.0
 * @category models
 */
export interface Page<A> {
  readonly records: ReadonlyArray<A>
  readonly checkpoint: Checkpoint
}

/**
 * What a resumable stream takes besides its request: the checkpoint to go on
 * from.
 *
 * @since 0.3.0
 * @category models
 */
export interface ResumeOptions {
  /**
   * Goes on after this checkpoint (from a page of the same stream) instead of
   * from the request's start. The range it holds wins over the request's; its
   * filters must be the request's.
   */
  readonly resume?: Checkpoint | undefined
}

/**
 * The records of a stream of pages, in order.
 *
 * @since 0.3.0
 * @category combinators
 */
export const records = <A, E, R>(pages: Stream.Stream<Page<A>, E, R>): Stream.Stream<A, E, R> =>
  Stream.flatMap(pages, (page) => Stream.fromIterable(page.records))
