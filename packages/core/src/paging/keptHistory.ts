/**
 * Listings of a history the exchange keeps for a number of days (futures
 * orders: 90): one page, checked against it before sending, and the walk of
 * `stream` and `pages`, which by default asks for the exchange's own days
 * without sending a time ("open"), so a skewed local clock cannot ask for
 * data that no longer exists.
 */
import * as DateTime from "effect/DateTime"
import * as Effect from "effect/Effect"
import type * as Option from "effect/Option"
import type { BitgetClient } from "../BitgetClient.js"
import { execute } from "../BitgetClient.js"
import type { BitgetError } from "../BitgetError.js"
import { BitgetRequestError } from "../BitgetError.js"
import type { Auth, Endpoint, Failure } from "../Endpoint.js"
import { label } from "../Endpoint.js"
import { completeRange } from "../Schemas.js"
import type { Page, Window } from "./paginate.js"
import type { Listing, RangeRequest, WalkOf, WindowedOptions } from "./windowed.js"
import { endsBefore, exchangeNow, grace, paged, streamName } from "./windowed.js"

/** The times a page is asked for: none (the exchange's own days), an end, or a window. @internal */
export interface Times {
  readonly startTime?: DateTime.Utc
  readonly endTime?: DateTime.Utc
}

/** The oldest time the exchange keeps history for, at `now`. */
const horizon = (now: DateTime.Utc, days: number): DateTime.Utc => DateTime.subtract(now, { days })

/**
 * One page of a kept history, at the exchange's clock: refused before
 * sending when its first time (`startTime`, else `endTime`) is older than the
 * `days` kept, else sent with its range completed (`completeRange`: a missing
 * start no older than those days, plus a minute of grace).
 *
 * @internal
 */
export const keptPage = <
  I extends { readonly startTime?: DateTime.Utc | undefined; readonly endTime?: DateTime.Utc | undefined },
  A,
  EI extends object,
  EA,
  Au extends Auth
>(
  endpoint: Endpoint<I, A, EI, EA, Au>,
  request: I,
  kept: { readonly days: number; readonly windowDays: number }
): Effect.Effect<A, Failure<Au> | BitgetRequestError, BitgetClient> =>
  Effect.flatMap(exchangeNow, (now) => {
    const earliest = horizon(now, kept.days)
    const first = request.startTime ?? request.endTime
    return first !== undefined && DateTime.isLessThan(first, earliest)
      ? Effect.fail(
        new BitgetRequestError({
          endpoint: label(endpoint),
          issue: `${request.startTime === undefined ? "endTime" : "startTime"}: the exchange keeps ${kept.days} ` +
            `days of history, so it must not be before ${DateTime.formatIso(earliest)}`
        })
      )
      : execute(endpoint, completeRange(request, now, kept.windowDays, DateTime.add(earliest, grace)))
  })

/**
 * What a stream over a kept history takes: a range with an optional start
 * (none: the exchange's own days), the page size, the order of the windows
 * and the checkpoint to go on from.
 *
 * @internal
 */
export interface OpenRangeRequest extends Omit<RangeRequest, "startTime"> {
  readonly startTime?: DateTime.Utc | undefined
}

/**
 * A listing of a kept history: a `Listing` whose pages take the times to
 * send (`Times`), with the days the exchange keeps and what it keeps
 * ("futures history"), as refusals name it.
 *
 * @internal
 */
export interface KeptListing<Q, A, F extends { readonly [key: string]: string | undefined }>
  extends Omit<Listing<Q, A, F>, "page">
{
  readonly kept: { readonly days: number; readonly what: string }
  readonly page: (
    filters: F,
    times: Times,
    limit: number,
    cursor: Option.Option<string>
  ) => Effect.Effect<Page<A>, BitgetError, BitgetClient>
}

/**
 * The `stream` and `pages` of a kept listing: without `startTime`, the
 * exchange's own days as one window, no time sent but an end the caller set
 * or a stalled cursor narrowed; with it, the range in windows of the
 * descriptor's longest. An end older than the history kept is refused (as
 * `windowed` refuses such a range).
 *
 * @internal
 */
export const keptListed = <Q extends OpenRangeRequest, A, F extends { readonly [key: string]: string | undefined }>(
  listing: KeptListing<Q, A, F>
) => paged(listing.endpoint, keptWalk(listing))

/** The walk of a kept listing (see `keptListed`). */
const keptWalk = <Q extends OpenRangeRequest, A, F extends { readonly [key: string]: string | undefined }>(
  listing: KeptListing<Q, A, F>
): WalkOf<Q, A> =>
(request, now) => {
  const { endTime, resume, startTime } = request
  const pageSize = request.pageSize ?? listing.bounds.pageSize
  const filters = listing.filters(request)
  const start = horizon(now, listing.kept.days)
  const oldest = {
    time: DateTime.add(start, grace),
    reason: `the exchange keeps ${listing.kept.days} days of ${listing.kept.what}`
  }
  const page = (times: Times, cursor: Option.Option<string>) => listing.page(filters, times, pageSize, cursor)
  const common = {
    endpoint: listing.endpoint,
    stream: streamName(listing.endpoint, filters),
    resume,
    until: DateTime.add(now, grace),
    order: request.order,
    pageSize,
    id: listing.id,
    time: listing.time
  }
  if (startTime !== undefined) {
    return {
      ...common,
      range: { start: startTime, end: endTime ?? now },
      horizon: oldest,
      maxSpanDays: listing.bounds.windowDays,
      fetch: (window: Window, cursor: Option.Option<string>) =>
        page({ startTime: window.start, endTime: window.end }, cursor)
    }
  }
  if (resume === undefined && endTime !== undefined && DateTime.isLessThan(endTime, oldest.time)) {
    return endsBefore(`up to ${DateTime.formatIso(endTime)}`, oldest)
  }
  return { ...common, ...openWindow(start, now, request, page) }
}

/**
 * The one window of an open walk: from the horizon to the end the caller set
 * (else now), or, resumed, to now (the checkpoint's range wins). Its end is
 * sent only when the caller set it, a stalled cursor narrowed it, or the walk
 * is resumed.
 */
const openWindow = <A>(
  start: DateTime.Utc,
  now: DateTime.Utc,
  { endTime, resume }: OpenRangeRequest,
  page: (times: Times, cursor: Option.Option<string>) => Effect.Effect<Page<A>, BitgetError, BitgetClient>
): Pick<WindowedOptions<A, BitgetError, BitgetClient>, "range" | "maxSpanDays" | "fetch"> => {
  const open = resume === undefined ? { start, end: endTime ?? now } : undefined
  return {
    range: open ?? { start, end: now },
    maxSpanDays: "whole",
    fetch: (window, cursor) =>
      page(
        endTime === undefined && open !== undefined && DateTime.Equivalence(window.end, open.end)
          ? {}
          : { endTime: window.end },
        cursor
      )
  }
}
