/**
 * Every spelling a server may echo a value in, written from the encodings
 * themselves (the tests' own list, never the library's): raw; JSON-escaped,
 * also with `\/`; `\uXXXX` in lower and upper case; URL-encoded with upper-
 * and lower-case hex; with `+` for a space; form-encoded (`URLSearchParams`:
 * `!'()~` escaped too, `+` for a space) with either case of hex. Core's
 * hostile tests and the e2e hostile server, fuzz run and telemetry search
 * all spell secrets with it.
 */

/** Percent-escapes with lower-case hex digits (`%2f`), as some servers write them. */
const lowerHex = (text: string): string => text.replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase())

/** `\uXXXX` for every UTF-16 unit but an ASCII letter or digit, as HTML-safe JSON encoders write it. */
const unicodeEscaped = (value: string, upper: boolean): string => {
  let out = ""
  for (let i = 0; i < value.length; i++) {
    const unit = value.charCodeAt(i)
    const alphanumeric = (unit >= 48 && unit <= 57) || (unit >= 65 && unit <= 90) || (unit >= 97 && unit <= 122)
    const hex = unit.toString(16).padStart(4, "0")
    out += alphanumeric ? value[i] : `\\u${upper ? hex.toUpperCase() : hex}`
  }
  return out
}

/** The spellings of a value, by name. */
export const spellings = (value: string): ReadonlyArray<readonly [name: string, spelled: string]> => {
  const json = JSON.stringify(value).slice(1, -1)
  const url = encodeURIComponent(value)
  const plus = url.replaceAll("%20", "+")
  const form = new URLSearchParams([["v", value]]).toString().slice("v=".length)
  return [
    ["raw", value],
    ["json", json],
    ["json-slash", json.replaceAll("/", "\\/")],
    ["u-lower", unicodeEscaped(value, false)],
    ["u-upper", unicodeEscaped(value, true)],
    ["url", url],
    ["url-lower", lowerHex(url)],
    ["plus", plus],
    ["plus-lower", lowerHex(plus)],
    ["form", form],
    ["form-lower", lowerHex(form)]
  ]
}

/** Base64 with its padding (a signature). */
const paddedBase64 = /^[A-Za-z0-9+/]+=+$/

/**
 * The spellings of a secret: those of `spellings`, and for padded base64 (a
 * signature) those of it without the padding too (as good a secret).
 */
export const secretSpellings = (value: string): ReadonlyArray<readonly [name: string, spelled: string]> =>
  paddedBase64.test(value)
    ? [
      ...spellings(value),
      ...spellings(value.replace(/=+$/, "")).map(([name, spelled]) => [`unpadded-${name}`, spelled] as const)
    ]
    : spellings(value)

/** How many spellings a secret has at most (a signature's, padded and not). */
export const spellingCount = 2 * spellings("").length
