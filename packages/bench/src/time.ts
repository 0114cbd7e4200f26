/**
 * Time units the benchmarks count in milliseconds.
 */

/** A day, in milliseconds. */
export const day = 86_400_000
