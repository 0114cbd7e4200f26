/**
 * How the property tests show and compare values: a short printout, and the
 * first place two values list their keys in a different order.
 */
import { BigDecimal, DateTime, Option } from "effect"

/** A value as at most `limit` characters of JSON (bigints as `123n`). */
export const brief = (value: unknown, limit = 300): string => {
  let text: string
  try {
    text = JSON.stringify(value, (_, inner) => typeof inner === "bigint" ? `${inner}n` : inner) ?? String(value)
  } catch (error) {
    text = `<unprintable: ${error instanceof Error ? error.message : String(error)}>`
  }
  return text.length > limit ? `${text.slice(0, limit)}… (${text.length} chars)` : text
}

/** Where two values list their keys in a different order (`undefined` when none does). */
export const keyOrder = (a: unknown, b: unknown, path = "$"): string | undefined => {
  if (Option.isOption(a) && Option.isOption(b)) {
    return Option.isSome(a) && Option.isSome(b) ? keyOrder(a.value, b.value, `${path}.value`) : undefined
  }
  if (typeof a !== "object" || a === null || typeof b !== "object" || b === null) return undefined
  if (BigDecimal.isBigDecimal(a) || DateTime.isDateTime(a)) return undefined
  const keys = Object.keys(a)
  if (keys.join("\u0000") !== Object.keys(b).join("\u0000")) {
    return `${path}: ${brief(keys)} vs ${brief(Object.keys(b))}`
  }
  for (const key of keys) {
    const found = keyOrder(Reflect.get(a, key), Reflect.get(b, key), `${path}.${key}`)
    if (found !== undefined) return found
  }
  return undefined
}
