/**
 * How figures are written: ratios as `5.6×`, times in µs, ms or s, sizes in
 * MB or kB, rates per second.
 */
import type { Summary } from "./stats.js"

/** `value / floor` as `5.6×` (whole numbers from 10×); `—` when either is missing. */
export const ratio = (value: number | undefined, floor: number | undefined): string => {
  if (value === undefined || floor === undefined || !Number.isFinite(value / floor)) return "—"
  const r = value / floor
  return `${r >= 10 ? r.toFixed(0) : r.toFixed(1)}×`
}

interface Unit {
  readonly name: string
  readonly scale: number
}

const units: ReadonlyArray<Unit> = [{ name: "µs", scale: 1 }, { name: "ms", scale: 1000 }, { name: "s", scale: 1e6 }]

/** The unit a value in microseconds reads best in. */
const unitOf = (us: number): Unit => units.filter((unit) => us >= unit.scale).at(-1) ?? (units[0] as Unit)

/** A value in a unit with three significant digits or so: `3.45`, `34.5`, `345`. */
const inUnit = (us: number, unit: Unit): string => {
  const value = us / unit.scale
  return value.toFixed(value < 10 ? 2 : value < 100 ? 1 : 0)
}

/** Microseconds in the unit that reads best. */
export const micros = (us: number): string => {
  if (!Number.isFinite(us)) return "—"
  const unit = unitOf(us)
  return `${inUnit(us, unit)} ${unit.name}`
}

/** A median with its range over rounds, in the median's unit: `412 µs (398–450)`. */
export const spread = (summary: Summary | undefined): string => {
  if (summary === undefined || !Number.isFinite(summary.median)) return "—"
  const unit = unitOf(summary.median)
  const median = `${inUnit(summary.median, unit)} ${unit.name}`
  return summary.count < 2 ? median : `${median} (${inUnit(summary.min, unit)}–${inUnit(summary.max, unit)})`
}

/** Bytes as MB (10^6). */
export const megabytes = (bytes: number): string => `${(bytes / 1_000_000).toFixed(0)} MB`

/** Bytes as kB (10^3). */
export const kilobytes = (bytes: number): string => `${(bytes / 1000).toFixed(0)} kB`

/** A rate with thousands separators: `123,456/s`. */
export const perSecond = (rate: number): string => `${Math.round(rate).toLocaleString("en-US")}/s`
