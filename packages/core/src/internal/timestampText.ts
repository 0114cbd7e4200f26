/**
 * Millisecond timestamps as the exchange writes them (`"1767323045678"`, or a
 * JSON integer), read into a `DateTime.Utc` built as `DateTime.makeUnsafe`
 * builds one, without the round trip through a `Date`. `Schemas.Timestamp`
 * is built on it.
 */
import * as DateTime from "effect/DateTime"
import type * as Types from "effect/Types"
import { exactDigits, minus, nine, zero } from "./decimalText.js"

const millisPattern = /^-?\d+$/

/** The largest distance from 1970 a `Date` (and so a `DateTime`) can hold, in milliseconds. */
const maxDateMillis = 8.64e15

/** An instant as `DateTime.makeUnsafe` builds it, the template of `utc`. */
const epoch = DateTime.makeUnsafe(0)

/** The prototype of every `DateTime.Utc`. */
const utcPrototype: object = Object.getPrototypeOf(epoch)

/** The own properties of the template after its time (`partsUtc`, a cache `DateTime` fills in). */
const utcTail = Reflect.ownKeys(epoch).slice(1).flatMap((key) => {
  const descriptor = Reflect.getOwnPropertyDescriptor(epoch, key)
  return descriptor === undefined ? [] : [[key, descriptor] as const]
})

/**
 * Builds a `DateTime.Utc` of a valid millisecond count (a safe integer
 * within `maxDateMillis` of 1970) exactly as `DateTime.makeUnsafe` does:
 * the same prototype and own properties, with their attributes, in the same
 * order, but without the round trip through a `Date` and its checks. Falls
 * back to `DateTime.makeUnsafe` should its template not be the shape this
 * expects (the time first, as a plain property).
 */
const utc: (millis: number) => DateTime.Utc = Reflect.ownKeys(epoch)[0] === "epochMilliseconds" &&
    Reflect.getOwnPropertyDescriptor(epoch, "epochMilliseconds")?.enumerable === true
  ? (millis) => {
    const time: Types.Mutable<DateTime.Utc> = Object.create(utcPrototype)
    time.epochMilliseconds = millis === 0 ? 0 : millis // -0 is 1970, as a `Date` reads it
    for (const [key, descriptor] of utcTail) Object.defineProperty(time, key, descriptor)
    return time
  }
  : DateTime.makeUnsafe

/**
 * The millisecond count of plain timestamp text (`-?digits`, up to 15
 * digits, always a valid time), read as the digits are scanned; `NaN` for
 * any other text.
 */
const plainMillis = (text: string): number => {
  const length = text.length
  const start = text.charCodeAt(0) === minus ? 1 : 0
  if (length === start || length - start > exactDigits) return Number.NaN
  let millis = 0
  for (let i = start; i < length; i++) {
    const code = text.charCodeAt(i)
    if (code < zero || code > nine) return Number.NaN
    millis = millis * 10 + code - zero
  }
  return start === 1 ? -millis : millis
}

/** A time from its millisecond text or JSON integer, or `undefined`. */
export const timestampOf = (input: string | number): DateTime.Utc | undefined => {
  let millis = typeof input === "number" ? input : plainMillis(input)
  if (Number.isNaN(millis) && typeof input === "string") {
    const text = input.trim()
    millis = millisPattern.test(text) ? Number(text) : Number.NaN
  }
  return Number.isSafeInteger(millis) && Math.abs(millis) <= maxDateMillis ? utc(millis) : undefined
}
