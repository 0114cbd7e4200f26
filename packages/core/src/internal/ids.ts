/**
 * Numeric ids as text: the one rule for telling them apart by value.
 *
 * @internal
 */

const leadingZeros = /^0+(?=.)/

/** Text without its leading zeros, one character kept (`"007"` → `"7"`, `"000"` → `"0"`). @internal */
export const withoutLeadingZeros = (text: string): string => text.replace(leadingZeros, "")
