/**
 * Lengths of time in milliseconds, written once for the whole sandbox.
 *
 * @internal
 */

/** Milliseconds in a minute. */
export const MINUTE = 60_000

/** Milliseconds in an hour. */
export const HOUR = 60 * MINUTE

/** Milliseconds in a day. */
export const DAY = 24 * HOUR
