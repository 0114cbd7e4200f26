/**
 * Decimal strings as the exchange writes them: fixed point, never exponents.
 *
 * @internal
 */

/** `value` with exactly `decimals` decimals (`-0` written as `0`). */
export const fixed = (value: number, decimals: number): string => {
  const text = value.toFixed(Math.max(0, Math.min(20, decimals)))
  return /^-0(\.0*)?$/.test(text) ? text.slice(1) : text
}

/** `value` with `decimals` decimals and trailing zeros removed (`"0.5"`, `"12"`). */
export const trimmed = (value: number, decimals: number): string => {
  const text = fixed(value, decimals)
  return text.includes(".") ? text.replace(/\.?0+$/, "") : text
}

/** A value rounded to `decimals`, then zero-padded to 16 decimals, as spot answers often are. */
export const padded = (value: number, decimals: number): string => {
  const text = fixed(value, decimals)
  const [whole, fraction = ""] = text.split(".")
  return `${whole}.${fraction.padEnd(16, "0")}`
}

/** Rounds to `decimals` decimals. */
export const round = (value: number, decimals: number): number => {
  const factor = 10 ** decimals
  return Math.round(value * factor) / factor
}
