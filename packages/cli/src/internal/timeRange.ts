/**
 * The `--from` and `--to` times: a date (`2025-01-01`, a whole UTC day) or a
 * date and time (`2025-01-01T12:30`, `2025-01-01T12:30:00.5Z`,
 * `2025-01-01 12:30:00+02:00`; UTC unless an offset is given). A date means
 * 00:00:00.000Z of that day as `--from` and 23:59:59.999Z as `--to`, so
 * `--from 2025-01-01 --to 2025-12-31` is the whole year; both ends are
 * included.
 *
 * @since 0.1.0
 */
import * as DateTime from "effect/DateTime"
import * as Result from "effect/Result"

/**
 * The milliseconds of a day (the package's one place for them).
 *
 * @since 0.2.0
 * @category constants
 */
export const DAY = 86_400_000

/**
 * Which end of a range a time is: a date as `start` is the first millisecond
 * of the day, as `end` its last.
 *
 * @since 0.1.0
 * @category models
 */
export type End = "start" | "end"

const datePattern = /^(\d{4})-(\d{2})-(\d{2})$/
const dateTimePattern =
  /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3})\d*)?)?(Z|[+-]\d{2}:?\d{2})?$/i

/** Milliseconds of a UTC calendar time, or `undefined` when a part is out of range (`2025-02-30`). */
const utcMillis = (
  year: number,
  month: number,
  day: number,
  hour = 0,
  minute = 0,
  second = 0,
  milli = 0
): number | undefined => {
  const millis = Date.UTC(year, month - 1, day, hour, minute, second, milli)
  const date = new Date(millis)
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day &&
      date.getUTCHours() === hour && date.getUTCMinutes() === minute && date.getUTCSeconds() === second
    ? millis
    : undefined
}

/** The offset from UTC in ms of `Z`, `+02:00` or `-0530`, or `undefined` beyond ±14:00. */
const offsetMillis = (zone: string | undefined): number | undefined => {
  if (zone === undefined || zone.toUpperCase() === "Z") return 0
  const sign = zone.startsWith("-") ? -1 : 1
  const digits = zone.slice(1).replace(":", "")
  const hours = Number(digits.slice(0, 2))
  const minutes = Number(digits.slice(2))
  return hours > 14 || minutes > 59 ? undefined : sign * (hours * 60 + minutes) * 60_000
}

const expected = "a date (2025-01-01) or a date and time (2025-01-01T12:30:00Z, UTC unless an offset is given)"

/**
 * Reads a time given on the command line, or says what is wrong with it.
 *
 * @since 0.1.0
 * @category constructors
 */
export const parse = (text: string, end: End): Result.Result<DateTime.Utc, string> => {
  const input = text.trim()
  const date = datePattern.exec(input)
  if (date !== null) {
    const start = utcMillis(Number(date[1]), Number(date[2]), Number(date[3]))
    return start === undefined
      ? Result.fail(`"${text}" is not a calendar date`)
      : Result.succeed(DateTime.makeUnsafe(end === "start" ? start : start + DAY - 1))
  }
  const dateTime = dateTimePattern.exec(input)
  if (dateTime === null) return Result.fail(`expected ${expected}, got "${text}"`)
  const [, year, month, day, hour, minute, second, fraction, zone] = dateTime
  const local = utcMillis(
    Number(year),
    Number(month),
    Number(day),
    Number(hour),
    Number(minute),
    Number(second ?? 0),
    Number((fraction ?? "0").padEnd(3, "0"))
  )
  const offset = offsetMillis(zone)
  if (local === undefined || offset === undefined) return Result.fail(`"${text}" is not a valid date and time`)
  return Result.succeed(DateTime.makeUnsafe(local - offset))
}
