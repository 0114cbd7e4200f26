/**
 * Summaries of repeated measurements: the median and the range.
 */

/** A median with the lowest and highest value seen. */
export interface Summary {
  readonly median: number
  readonly min: number
  readonly max: number
  readonly count: number
}

/** The median and range of `values` (`NaN`s when there are none). */
export const summarize = (values: ReadonlyArray<number>): Summary => {
  const sorted = [...values].sort((a, b) => a - b)
  const count = sorted.length
  if (count === 0) return { median: Number.NaN, min: Number.NaN, max: Number.NaN, count }
  const middle = Math.floor(count / 2)
  const median = count % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2
  return { median, min: sorted[0] as number, max: sorted[count - 1] as number, count }
}
