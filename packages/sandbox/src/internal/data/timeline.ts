/**
 * The index arithmetic behind every historical data set. Record `0` is the
 * newest; time never increases and ids strictly decrease with the index, so
 * window bounds and `idLessThan` cursors are found by binary search over the
 * index, and no record is ever stored.
 *
 * @internal
 */
import { hash } from "./hash.js"

/** Distance between the ids of neighbouring records; the low bits are jitter. */
const ID_STRIDE = 4096n

/** A data set of `size` records spread over `span` ms before `newest`. */
export interface Timeline {
  readonly seed: number
  readonly size: number
  /** Time of record 0, ms. */
  readonly newest: number
  /** Time between record 0 and the last record, ms. */
  readonly span: number
  /** Records `[start, start + length)` share one timestamp (a burst). */
  readonly run: { readonly start: number; readonly length: number } | undefined
  /** Id of the oldest record, before jitter. */
  readonly idBase: bigint
  readonly waves: number
}

/** Builds a timeline; `waves` and the id base follow from the seed. */
export const make = (options: {
  readonly seed: number
  readonly size: number
  readonly newest: number
  readonly span: number
  readonly idBase: bigint
  readonly run?: { readonly start: number; readonly length: number } | undefined
}): Timeline => {
  const run = options.run !== undefined && options.run.length > 1 && options.run.start >= 0 &&
      options.run.start + options.run.length <= options.size
    ? options.run
    : undefined
  return {
    seed: options.seed,
    size: Math.max(0, Math.floor(options.size)),
    newest: options.newest,
    span: Math.max(0, options.span),
    run,
    idBase: options.idBase,
    waves: 5 + (hash(options.seed, 77) % 9)
  }
}

const AMPLITUDE = 0.6

/** A monotone warp of [0, 1] onto itself: records bunch up and thin out in waves. */
const warp = (x: number, waves: number): number =>
  x + (AMPLITUDE * Math.sin(2 * Math.PI * waves * x)) / (2 * Math.PI * waves)

/** Time of record `i`, ms (non-increasing in `i`). */
export const timeAt = (self: Timeline, i: number): number => {
  const run = self.run
  let u = i
  let count = self.size
  if (run !== undefined) {
    count = self.size - run.length + 1
    if (i >= run.start) u = i < run.start + run.length ? run.start : i - run.length + 1
  }
  const x = count <= 1 ? 0 : u / (count - 1)
  return self.newest - Math.round(self.span * warp(x, self.waves))
}

/** Id of record `i` (strictly decreasing in `i`). */
export const idAt = (self: Timeline, i: number): bigint =>
  self.idBase + BigInt(self.size - 1 - i) * ID_STRIDE + BigInt(hash(self.seed, 91, i) % 4096)

/** The smallest index in `[0, size]` for which the monotone `predicate` holds (`size` when none). */
export const search = (size: number, predicate: (i: number) => boolean): number => {
  let lo = 0
  let hi = size
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2)
    if (predicate(mid)) hi = mid
    else lo = mid + 1
  }
  return lo
}

/** The first record at or before `t`. */
export const firstAtOrBefore = (self: Timeline, t: number): number => search(self.size, (i) => timeAt(self, i) <= t)

/** The first record strictly before `t`. */
export const firstBefore = (self: Timeline, t: number): number => search(self.size, (i) => timeAt(self, i) < t)

/** The first record whose id is below `id`. */
export const firstIdBelow = (self: Timeline, id: bigint): number => search(self.size, (i) => idAt(self, i) < id)

/** The index of the record with exactly this id, if any. */
export const indexOfId = (self: Timeline, id: bigint): number | undefined => {
  const offset = id - self.idBase
  if (offset < 0n) return undefined
  const i = self.size - 1 - Number(offset / ID_STRIDE)
  return i >= 0 && i < self.size && idAt(self, i) === id ? i : undefined
}

/** Parses a numeric id; `undefined` for anything else. */
export const parseId = (text: string): bigint | undefined => (/^\d{1,30}$/.test(text) ? BigInt(text) : undefined)

/** Which records a filter keeps. */
export type Matcher =
  | { readonly _tag: "All" }
  | { readonly _tag: "None" }
  | { readonly _tag: "Some"; readonly test: (i: number) => boolean }

/** Keeps every record. */
export const all: Matcher = { _tag: "All" }

/**
 * Walks records `[from, to)` in order and keeps the indices that match, up to
 * `limit` of them.
 */
export const collect = (from: number, to: number, limit: number, matcher: Matcher): ReadonlyArray<number> => {
  const out: Array<number> = []
  if (matcher._tag === "None") return out
  if (matcher._tag === "All") {
    for (let i = from; i < to && out.length < limit; i++) out.push(i)
    return out
  }
  for (let i = from; i < to && out.length < limit; i++) {
    if (matcher.test(i)) out.push(i)
  }
  return out
}

/**
 * One page of a list, newest first: the matching records from `end` back to
 * `start` (both included) whose ids are below `idLessThan`, up to `limit`; or,
 * for a lookup by id (`only`), just that record if it lies there and matches.
 */
export const page = (self: Timeline, options: {
  readonly start: number
  readonly end: number
  readonly idLessThan: bigint | undefined
  readonly limit: number
  readonly matcher: Matcher
  /** A lookup by id: the index found (`undefined` when no record has that id); `undefined` for a list. */
  readonly only: { readonly index: number | undefined } | undefined
}): ReadonlyArray<number> => {
  const below = options.idLessThan === undefined ? 0 : firstIdBelow(self, options.idLessThan)
  const from = Math.max(firstAtOrBefore(self, options.end), below)
  const to = firstBefore(self, options.start)
  if (options.only === undefined) return collect(from, to, options.limit, options.matcher)
  const index = options.only.index
  return index === undefined || index < from || index >= to ? [] : collect(index, index + 1, 1, options.matcher)
}
