import * as Context from "effect/Context"
import * as DateTime from "effect/DateTime"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import * as Internal from "../internal/telemetry.js"
import * as Resumable from "../Resumable.js"
import { IdOrder, NumericId } from "../Schemas.js"
import * as StreamProgress from "../StreamProgress.js"
import * as Telemetry from "../Telemetry.js"
import { ProgressTracker } from "./progressTracker.js"

/** A closed time window, both ends inclusive. @internal */
export interface Window {
  readonly start: DateTime.Utc
  readonly end: DateTime.Utc
}

/** Which window comes first: the newest (the exchange's own order) or the oldest. @internal */
export type WindowOrder = "newestFirst" | "oldestFirst"

/**
 * Windows computed one at a time: `length` of them, `at(i)` the `i`-th for
 * `0 <= i < length` (`undefined` otherwise). A `ReadonlyArray<Window>` is one.
 *
 * @internal
 */
export interface Windows {
  readonly length: number
  readonly at: (index: number) => Window | undefined
}

/**
 * Splits `[start, end]` into disjoint windows of at most `maxSpanMillis`
 * (a whole number), adjacent windows one millisecond apart, lazily: nothing
 * is built up front, window `i` is derived from the range when asked for, in
 * constant time and memory whatever the range. Newest first, window `i` ends
 * at `end - i * (maxSpanMillis + 1)`; oldest first lists the same windows in
 * reverse (so only the oldest may be shorter than the span). The arithmetic is
 * exact (`bigint`): a range across all of `DateTime` spans more milliseconds
 * than a `number` holds exactly.
 *
 * @internal
 */
export const windows = (range: Window, maxSpanMillis: number, order: WindowOrder): Windows => {
  const start = BigInt(DateTime.toEpochMillis(range.start))
  const end = BigInt(DateTime.toEpochMillis(range.end))
  const span = BigInt(Math.max(0, Math.floor(maxSpanMillis)))
  const step = span + 1n
  const length = end < start ? 0 : Number((end - start) / step) + 1
  return {
    length,
    at: (index) => {
      if (!Number.isInteger(index) || index < 0 || index >= length) return undefined
      const last = end - BigInt(order === "newestFirst" ? index : length - 1 - index) * step
      const first = last - span
      return {
        start: DateTime.makeUnsafe(Number(first < start ? start : first)),
        end: DateTime.makeUnsafe(Number(last))
      }
    }
  }
}

/** One page as a stream needs it: the records and the cursor for the next. @internal */
export interface Page<A> {
  readonly items: ReadonlyArray<A>
  readonly next: Option.Option<string>
}

/** Where a walk stands: the window (by index), the cursor within it and the ids of the last page. @internal */
export interface State {
  readonly index: number
  /** The window being walked; narrowed when the cursor stalls. */
  readonly window: Window
  readonly cursor: Option.Option<string>
  readonly seen: ReadonlySet<string>
}

/** A cursor the exchange can be sent back: a numeric id. */
const isNumericId = Schema.is(NumericId)

/** `true` when a page's cursor is a numeric id below the previous one (a cursor that is not is treated as stalled). */
const movesDown = (cursor: Option.Option<string>, next: string): boolean =>
  isNumericId(next) &&
  Option.match(cursor, { onNone: () => true, onSome: (previous) => IdOrder(next, previous) < 0 })

/**
 * What a walk is given: the endpoint (for spans, metrics and progress), its
 * windows, the page size, how to read a record's id and time, and how to
 * fetch one page of a window.
 *
 * @internal
 */
export interface WalkOptions<A, E, R> {
  readonly endpoint: string
  readonly windows: Windows
  readonly pageSize: number
  readonly id: (item: A) => string
  readonly time: (item: A) => DateTime.Utc
  readonly fetch: (window: Window, cursor: Option.Option<string>) => Effect.Effect<Page<A>, E, R>
}

/** Where a walk starts: its first window, or where a checkpoint left it. */
interface StartOptions {
  readonly from?: State | undefined
}

/** What a walk emits after a page: its records (not emitted before) and where the walk goes on (none at its end). */
type Emit<A, B> = (records: ReadonlyArray<A>, next: Option.Option<State>) => ReadonlyArray<B>

/** One run of a walk: its options, and what it needs and counts as it goes. */
interface Run<A, E, R, B> extends WalkOptions<A, E, R> {
  readonly emit: Emit<A, B>
  readonly context: Context.Context<never>
  readonly metrics: Internal.EndpointMetrics
  /** The progress of an observed stream; none when nobody observes it. */
  readonly tracker: ProgressTracker | undefined
  /** Pages asked for so far, for the spans. */
  pages: number
}

/** The attributes of a page's span. */
const pageAttributes = <A, E, R, B>(run: Run<A, E, R, B>, state: State) => ({
  [Telemetry.attributes.endpoint]: run.endpoint,
  [Telemetry.attributes.window]: state.index,
  [Telemetry.attributes.windows]: run.windows.length,
  [Telemetry.attributes.windowStart]: DateTime.formatIso(state.window.start),
  [Telemetry.attributes.windowEnd]: DateTime.formatIso(state.window.end),
  [Telemetry.attributes.page]: run.pages
})

/** Reads one page in its span; an observed stream also hears the limiter's waits. */
const read = <A, E, R, B>(run: Run<A, E, R, B>, state: State): Effect.Effect<Page<A>, E, R> => {
  run.pages += 1
  const request = run.tracker === undefined
    ? run.fetch(state.window, state.cursor)
    : Effect.provideService(run.fetch(state.window, state.cursor), Internal.LimiterWaits, run.tracker.waited)
  // the page's span ends without the page: its records may quote what a hostile server echoed
  return Internal.useSpan(Telemetry.pageSpan, { attributes: pageAttributes(run, state) }, (span) =>
    request.pipe(
      Effect.map((page) => {
        span.attribute(Telemetry.attributes.records, page.items.length)
        return page
      }),
      Effect.withParentSpan(span, { captureStackTrace: false })
    ))
}

/** The first page of the next window, if any, once a window is finished (counted in the metrics). */
const nextWindow = <A, E, R, B>(
  run: Run<A, E, R, B>,
  state: State,
  seen: ReadonlySet<string>
): Option.Option<State> => {
  run.metrics.streamWindows.updateUnsafe(1, run.context)
  const window = run.windows.at(state.index + 1)
  return window === undefined
    ? Option.none()
    : Option.some({ index: state.index + 1, window, cursor: Option.none(), seen })
}

/** The records of a page not on the previous one. */
const unseen = <A>(seen: ReadonlySet<string>, items: ReadonlyArray<A>, id: (item: A) => string): ReadonlyArray<A> =>
  items.filter((item) => !seen.has(id(item)))

/** The time of a page's oldest record (the page is not empty). */
const oldest = <A>(items: ReadonlyArray<A>, time: (item: A) => DateTime.Utc): DateTime.Utc =>
  items.reduce((min, item) => DateTime.min(min, time(item)), time(items[0] as A))

/** Warns that a window goes on before `oldest` because its cursor did not move. */
const stalledCursor = (oldest: DateTime.Utc): Effect.Effect<void> =>
  Effect.logWarning(
    `pagination: the cursor did not move; continuing before ${DateTime.formatIso(oldest)} ` +
      "(records sharing that millisecond beyond one page may be missing)"
  )

/** What a page gives the stream, after its report to an observed stream: what it emits, and where to go on. */
const emitted = <A, E, R, B>(
  run: Run<A, E, R, B>,
  fresh: ReadonlyArray<A>,
  next: Option.Option<State>
): Effect.Effect<readonly [ReadonlyArray<B>, Option.Option<State>]> => {
  const out = [run.emit(fresh, next), next] as const
  return run.tracker === undefined ? Effect.succeed(out) : Effect.as(run.tracker.paged(fresh.length), out)
}

/**
 * A page read: its records not emitted already, then the next window after
 * a short page, the next cursor when it moves down, or else the window
 * narrowed to end just before the page's oldest record (the next window when
 * that leaves nothing of it).
 */
const step = <A, E, R, B>(
  run: Run<A, E, R, B>,
  state: State,
  page: Page<A>
): Effect.Effect<readonly [ReadonlyArray<B>, Option.Option<State>]> => {
  const { id } = run
  const { items } = page
  const seen = new Set(items.map(id))
  const fresh = unseen(state.seen, items, id)
  run.metrics.streamPages.updateUnsafe(1, run.context)
  run.metrics.streamRecords.updateUnsafe(fresh.length, run.context)
  if (items.length < run.pageSize) return emitted(run, fresh, nextWindow(run, state, seen))
  if (Option.exists(page.next, (next) => movesDown(state.cursor, next))) {
    return emitted(run, fresh, Option.some({ ...state, cursor: page.next, seen }))
  }
  const before = oldest(items, run.time)
  const end = DateTime.subtract(before, { milliseconds: 1 })
  if (DateTime.isLessThan(end, state.window.start) || !DateTime.isLessThan(end, state.window.end)) {
    return emitted(run, fresh, nextWindow(run, state, seen))
  }
  const narrowed = { ...state, window: { ...state.window, end }, cursor: Option.none(), seen }
  return Effect.andThen(stalledCursor(before), emitted(run, fresh, Option.some(narrowed)))
}

/** Walks, emitting what `emit` makes of each page (see `walk`). */
const walkWith = <A, E, R, B>(
  options: WalkOptions<A, E, R> & StartOptions,
  emit: Emit<A, B>
): Stream.Stream<B, E, R> =>
  Stream.unwrap(Effect.map(Effect.context<never>(), (context) => {
    const observer = Context.get(context, StreamProgress.Observer)
    const tracker = observer === undefined
      ? undefined
      : new ProgressTracker(observer, options.endpoint, options.windows.length)
    const ended = tracker === undefined ? Stream.empty : Stream.fromEffectDrain(Effect.suspend(() => tracker.ended()))
    const first = options.windows.at(0)
    const from = options.from ?? (first === undefined ? undefined : firstState(first))
    if (from === undefined) return ended
    const run: Run<A, E, R, B> = {
      ...options,
      emit,
      context,
      metrics: Internal.forEndpoint(options.endpoint),
      tracker,
      pages: 0
    }
    const readAndStep = (state: State) => Effect.flatMap(read(run, state), (page) => step(run, state, page))
    const walked = Stream.paginate<State, B, E, R>(
      from,
      (state) =>
        tracker === undefined
          ? readAndStep(state)
          : Effect.andThen(tracker.starting(state.index, state.window), readAndStep(state))
    )
    return Stream.concat(walked, ended)
  }))

/** The state of a walk at the start of its first window. */
const firstState = (window: Window): State => ({ index: 0, window, cursor: Option.none(), seen: new Set() })

/**
 * Walks windows page by page, lazily (a page is fetched only when the stream
 * is pulled past the previous one). A window ends on an empty page, a short
 * page or no cursor. A full page whose cursor does not move down (the server
 * ignored it, e.g. when more records than a page share one timestamp) does
 * not end the window silently: the window is narrowed to end just before the
 * page's oldest record and walked on, with a warning, since records sharing
 * that millisecond beyond the page may be missing. A record whose id was on
 * the previous page is not emitted again (duplicates at page and window edges).
 * Windows are asked for one at a time, by index, and only the current one is
 * held, so a walk over any number of windows runs in constant memory.
 *
 * Each page is read in a span (`Telemetry.pageSpan`) and counted in the
 * stream metrics; progress is reported to the `StreamProgress.Observer` when
 * there is one (and not worked out at all when there is none).
 *
 * @internal
 */
export const walk = <A, E, R>(options: WalkOptions<A, E, R> & StartOptions): Stream.Stream<A, E, R> =>
  walkWith(options, (records) => records)

/**
 * What a walk's checkpoints name: the stream (endpoint and filters) and the
 * range, span and order its windows were cut from.
 *
 * @internal
 */
export interface Walked {
  readonly stream: string
  readonly range: Window
  readonly spanMillis: number
  readonly order: WindowOrder
}

/** The windows a walk was cut into. @internal */
export const windowsOf = (walked: Walked): Windows => windows(walked.range, walked.spanMillis, walked.order)

/** The checkpoint after a page: where the walk goes on, or none when it is done. @internal */
export const checkpointOf = (walked: Walked, next: Option.Option<State>): Resumable.Checkpoint =>
  new Resumable.Checkpoint({
    version: 1,
    stream: walked.stream,
    start: walked.range.start,
    end: walked.range.end,
    spanMillis: walked.spanMillis,
    order: walked.order,
    next: Option.match(next, {
      onNone: () => null,
      onSome: (state) =>
        new Resumable.Position({
          window: state.index,
          windowEnd: state.window.end,
          cursor: Option.getOrNull(state.cursor),
          seen: Array.from(state.seen)
        })
    })
  })

/** The state a position of a checkpoint stands for, or `undefined` when its window is not one of the walk's. */
const stateOf = (walked: Walked, position: Resumable.Position): State | undefined => {
  const window = windowsOf(walked).at(position.window)
  return window === undefined || DateTime.isLessThan(position.windowEnd, window.start)
    ? undefined
    : {
      index: position.window,
      window: { start: window.start, end: DateTime.min(position.windowEnd, window.end) },
      cursor: Option.fromNullOr(position.cursor),
      seen: new Set(position.seen)
    }
}

/**
 * A walk as pages, each with the checkpoint after it (`Resumable.Page`); a
 * walk over no window, or resumed from a checkpoint of a finished one, gives
 * one empty page with the final checkpoint.
 *
 * @internal
 */
export const walkPages = <A, E, R>(
  walked: Walked,
  options: Omit<WalkOptions<A, E, R>, "windows"> & StartOptions
): Stream.Stream<Resumable.Page<A>, E, R> => {
  const windows = windowsOf(walked)
  if (options.from === undefined && windows.length === 0) {
    return Stream.make({ records: [], checkpoint: checkpointOf(walked, Option.none()) })
  }
  return walkWith({ ...options, windows }, (records, next) => [{ records, checkpoint: checkpointOf(walked, next) }])
}

/**
 * Where a resumed walk starts: `walked` and the state the checkpoint holds,
 * `"done"` for a checkpoint of a finished walk, or why the checkpoint cannot
 * be resumed here (it names another stream, or a window the walk does not
 * have).
 *
 * @internal
 */
export const resumeFrom = (
  stream: string,
  checkpoint: Resumable.Checkpoint
): { readonly walked: Walked; readonly from: State | "done" } | string => {
  if (checkpoint.stream !== stream) {
    return `the checkpoint is of another stream (${checkpoint.stream}), not of ${stream}`
  }
  const walked = {
    stream,
    range: { start: checkpoint.start, end: checkpoint.end },
    spanMillis: checkpoint.spanMillis,
    order: checkpoint.order
  }
  if (checkpoint.next === null) return { walked, from: "done" }
  const from = stateOf(walked, checkpoint.next)
  return from === undefined
    ? `the checkpoint's position (window ${checkpoint.next.window}) is not one of its range's windows`
    : { walked, from }
}
