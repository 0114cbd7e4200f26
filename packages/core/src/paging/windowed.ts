/**
 * Windowed streams: a range of any length checked against what can hold
 * records, cut into the windows the exchange takes and walked page by page
 * (`paginate`'s walk), or walked on from a checkpoint; and `paged`, which
 * builds an operation's `stream` and `pages` from its walk.
 */
import * as Clock from "effect/Clock"
import * as DateTime from "effect/DateTime"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"
import { BitgetClient } from "../BitgetClient.js"
import { BitgetRequestError } from "../BitgetError.js"
import type { BitgetError } from "../BitgetError.js"
import type * as Resumable from "../Resumable.js"
import type { Page, State, Walked, WalkOptions, Window, WindowOrder } from "./paginate.js"
import { checkpointOf, resumeFrom, walk, walkPages, windowsOf } from "./paginate.js"

/**
 * The name of a stream in its checkpoints: the endpoint and the filters set
 * (sorted), e.g. `GET /api/v2/tax/spot-record coin=BTC`.
 *
 * @internal
 */
export const streamName = (endpoint: string, filters: { readonly [key: string]: string | undefined }): string =>
  [
    endpoint,
    ...Object.keys(filters).sort().flatMap((key) => filters[key] === undefined ? [] : [`${key}=${filters[key]}`])
  ].join(" ")

/** 1970-01-01: the earliest time a request may state. */
const epoch = DateTime.makeUnsafe(0)

/** The `idLessThan` parameter of a cursor, absent on the first page. @internal */
export const cursorParam = (cursor: Option.Option<string>): { readonly idLessThan?: string } =>
  Option.match(cursor, { onNone: () => ({}), onSome: (idLessThan) => ({ idLessThan }) })

/**
 * The exchange's time as the client knows it: the local clock plus the offset
 * read by `syncClock`.
 *
 * @internal
 */
export const exchangeNow: Effect.Effect<DateTime.Utc, never, BitgetClient> = Effect.gen(function*() {
  const offset = yield* Effect.flatMap(BitgetClient, (client) => client.clockOffset)
  return DateTime.makeUnsafe((yield* Clock.currentTimeMillis) + offset)
})

/** How far past the exchange's time a stream still asks (clocks drift between syncs). @internal */
export const grace = { minutes: 1 } as const

/** A range as the request errors name it. */
const formatRange = (range: Window): string => `[${DateTime.formatIso(range.start)}, ${DateTime.formatIso(range.end)}]`

/**
 * The oldest time a stream can hold records from, and why: 1970 for every
 * stream, later where the exchange keeps a limited history.
 *
 * @internal
 */
export interface Horizon {
  readonly time: DateTime.Utc
  /** Why nothing older exists, completing "…, so …" (e.g. "the exchange keeps 90 days of futures history"). */
  readonly reason: string
}

/**
 * The refusal of a range that ends before the horizon, named as `asked`.
 *
 * @internal
 */
export const endsBefore = (asked: string, horizon: Horizon): string =>
  `the range ${asked} ends before ${DateTime.formatIso(horizon.time)}, and ${horizon.reason}, so it can hold no record`

/**
 * Why a stream's range cannot hold a record, or `undefined` when it can. A
 * range that starts before 1970 is refused outright (the exchange takes no
 * such time, and a range computed from a clock at 0, as `TestClock` starts,
 * looks like this); one that ends before the horizon or starts after the
 * exchange's clock is refused as a whole. A range only partly outside is cut
 * by the caller, not refused.
 */
const outside = (range: Window, until: DateTime.Utc, horizon: Horizon | undefined): string | undefined => {
  const asked = formatRange(range)
  if (DateTime.isGreaterThan(range.start, range.end)) return "startTime must not be after endTime"
  if (DateTime.isLessThan(range.start, epoch)) {
    return `the range ${asked} starts before 1970-01-01T00:00:00.000Z, which the exchange cannot take ` +
      "(a clock at 1970, such as TestClock before it is set, gives such ranges)"
  }
  if (horizon !== undefined && DateTime.isLessThan(range.end, horizon.time)) return endsBefore(asked, horizon)
  if (DateTime.isGreaterThan(range.start, until)) {
    return `the range ${asked} starts after the exchange's clock (${DateTime.formatIso(until)}), ` +
      "so it can hold no record yet"
  }
  return undefined
}

/**
 * What a windowed stream is given: its range, the exchange's clock and the
 * oldest time it keeps, the span of a window (in days), and the walk's options; its
 * name in checkpoints, and the checkpoint to go on from, if any.
 *
 * @internal
 */
export interface WindowedOptions<A, E, R> extends Omit<WalkOptions<A, E, R>, "windows"> {
  readonly range: Window
  readonly until: DateTime.Utc
  readonly horizon?: Horizon | undefined
  /** The longest window the exchange takes; `"whole"` walks the range as one window. */
  readonly maxSpanDays: number | "whole"
  readonly order: WindowOrder | undefined
  /** The stream's name in its checkpoints (`streamName`; the endpoint's label when not given). */
  readonly stream?: string | undefined
  readonly resume?: Resumable.Checkpoint | undefined
}

/**
 * The walk a windowed stream makes, and where it starts: from the request's
 * range (checked, and cut to what can hold records: from the horizon, if
 * any, to `until`, the exchange's clock), or from the checkpoint (whose range
 * wins); or why it cannot be made.
 */
const planned = <A, E, R>(
  options: WindowedOptions<A, E, R>
): { readonly walked: Walked; readonly from: State | "done" | undefined } | string => {
  const stream = options.stream ?? options.endpoint
  if (options.resume !== undefined) return resumeFrom(stream, options.resume)
  const { horizon, range, until } = options
  const issue = outside(range, until, horizon)
  if (issue !== undefined) return issue
  const start = horizon === undefined ? range.start : DateTime.max(range.start, horizon.time)
  const end = DateTime.min(range.end, until)
  return {
    walked: {
      stream,
      range: { start, end },
      spanMillis: options.maxSpanDays === "whole"
        ? Math.max(0, DateTime.toEpochMillis(end) - DateTime.toEpochMillis(start))
        : Duration.toMillis(Duration.days(options.maxSpanDays)),
      order: options.order ?? "newestFirst"
    },
    from: undefined
  }
}

/** The walk's own options, from a windowed stream's. */
const walkOptions = <A, E, R>(options: WindowedOptions<A, E, R>): Omit<WalkOptions<A, E, R>, "windows"> => ({
  endpoint: options.endpoint,
  pageSize: options.pageSize,
  id: options.id,
  time: options.time,
  fetch: options.fetch
})

/**
 * A stream over a time range longer than the server accepts: the range is
 * checked, cut to what can hold records (from the horizon, if any, to
 * `until`, the exchange's clock, so no window outside is asked for), split
 * into windows of `maxSpanDays`, and walked page by page; or, given a
 * checkpoint, walked on from it. A range that cannot hold a single record (it
 * starts before 1970, ends before the horizon or starts after `until`), or a
 * checkpoint of another stream, fails with a `BitgetRequestError` naming the
 * range or the checkpoint and the reason, before anything is sent: a stream
 * that quietly returned nothing would hide a wrong clock or a wrong range.
 *
 * @internal
 */
export const windowed = <A, E, R>(options: WindowedOptions<A, E, R>): Stream.Stream<A, E | BitgetRequestError, R> => {
  const plan = planned(options)
  if (typeof plan === "string") return Stream.fail(new BitgetRequestError({ endpoint: options.endpoint, issue: plan }))
  if (plan.from === "done") return Stream.empty
  return walk({ ...walkOptions(options), windows: windowsOf(plan.walked), from: plan.from })
}

/**
 * `windowed` as pages, each with the checkpoint after it (`walkPages`).
 *
 * @internal
 */
export const windowedPages = <A, E, R>(
  options: WindowedOptions<A, E, R>
): Stream.Stream<Resumable.Page<A>, E | BitgetRequestError, R> => {
  const plan = planned(options)
  if (typeof plan === "string") return Stream.fail(new BitgetRequestError({ endpoint: options.endpoint, issue: plan }))
  return plan.from === "done"
    ? Stream.make({ records: [], checkpoint: checkpointOf(plan.walked, Option.none()) })
    : walkPages(plan.walked, { ...walkOptions(options), from: plan.from })
}

/**
 * An operation's walk given the exchange's clock: the windowed stream's
 * options, or why the request can hold no record.
 *
 * @internal
 */
export type WalkOf<Q, A> = (
  request: Q,
  now: DateTime.Utc
) => WindowedOptions<A, BitgetError, BitgetClient> | string

/**
 * A paged operation's `stream` and `pages` from its walk: the exchange's
 * clock read when the stream starts, a refusal as a `BitgetRequestError`
 * naming the endpoint, before anything is sent.
 *
 * @internal
 */
export const paged = <Q, A>(endpoint: string, walkOf: WalkOf<Q, A>) => {
  const walked = <B>(
    request: Q,
    run: (options: WindowedOptions<A, BitgetError, BitgetClient>) => Stream.Stream<B, BitgetError, BitgetClient>
  ): Stream.Stream<B, BitgetError, BitgetClient> =>
    Stream.unwrap(Effect.map(exchangeNow, (now) => {
      const walk = walkOf(request, now)
      return typeof walk === "string" ? Stream.fail(new BitgetRequestError({ endpoint, issue: walk })) : run(walk)
    }))
  return {
    stream: (request: Q): Stream.Stream<A, BitgetError, BitgetClient> => walked(request, windowed),
    pages: (request: Q): Stream.Stream<Resumable.Page<A>, BitgetError, BitgetClient> => walked(request, windowedPages)
  }
}

/**
 * What a stream over a time range takes: the range (no end: the exchange's
 * now), the page size, the order of the windows and the checkpoint to go on
 * from.
 *
 * @internal
 */
export interface RangeRequest extends Resumable.ResumeOptions {
  readonly startTime: DateTime.Utc
  readonly endTime?: DateTime.Utc | undefined
  readonly pageSize?: number | undefined
  readonly order?: WindowOrder | undefined
}

/**
 * A stream request's filters: all but its range, page size, order and
 * checkpoint. They name the stream, and go with every page.
 */
export const rangeFilters = <
  Q extends Omit<RangeRequest, "startTime"> & { readonly startTime?: DateTime.Utc | undefined }
>(
  { endTime: _end, order: _order, pageSize: _size, resume: _resume, startTime: _start, ...filters }: Q
) => filters

/**
 * A listing over time windows, as its descriptor bounds it: the longest
 * window and the largest page, the filters that name the stream, each
 * record's id and time, and one page of a window from the cursor.
 *
 * @internal
 */
export interface Listing<Q, A, F extends { readonly [key: string]: string | undefined }> {
  readonly endpoint: string
  readonly bounds: { readonly windowDays: number; readonly pageSize: number }
  /** The request's filters: they name the stream, and go with every page. */
  readonly filters: (request: Q) => F
  readonly id: (record: A) => string
  readonly time: (record: A) => DateTime.Utc
  readonly page: (
    filters: F,
    window: Window,
    limit: number,
    cursor: Option.Option<string>
  ) => Effect.Effect<Page<A>, BitgetError, BitgetClient>
}

/**
 * The `stream` and `pages` of a listing (see `paged`).
 *
 * @internal
 */
export const listed = <Q extends RangeRequest, A, F extends { readonly [key: string]: string | undefined }>(
  listing: Listing<Q, A, F>
) => paged(listing.endpoint, listingWalk(listing))

/**
 * The walk of a listing: the request's range (to the exchange's now when it
 * has no end) in windows of the descriptor's longest, pages of the request's
 * size or the descriptor's largest.
 */
const listingWalk = <Q extends RangeRequest, A, F extends { readonly [key: string]: string | undefined }>(
  listing: Listing<Q, A, F>
): WalkOf<Q, A> =>
(request, now) => {
  const pageSize = request.pageSize ?? listing.bounds.pageSize
  const filters = listing.filters(request)
  return {
    endpoint: listing.endpoint,
    stream: streamName(listing.endpoint, filters),
    resume: request.resume,
    range: { start: request.startTime, end: request.endTime ?? now },
    until: DateTime.add(now, grace),
    maxSpanDays: listing.bounds.windowDays,
    order: request.order,
    pageSize,
    id: listing.id,
    time: listing.time,
    fetch: (window, cursor) => listing.page(filters, window, pageSize, cursor)
  }
}
