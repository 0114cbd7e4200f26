/**
 * Keeps secrets out of everything built from a server's answer: each secret
 * is replaced, in every spelling a server may echo it in, before any text of
 * the answer reaches an error, a log or a span. Every function here runs in
 * time linear in its input and returns text of bounded length.
 */

/** What stands in for a secret. @internal */
export const redactedMark = "<redacted>"

/**
 * Removes secrets from text; `forms` are the spellings it removes.
 *
 * @internal
 */
export interface Scrubber {
  readonly scrub: (text: string) => string
  readonly forms: ReadonlyArray<string>
}

/** Percent-encoding with lower-case hex digits, as some servers write it. */
const lowerHex = (encoded: string): string => encoded.replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase())

/** JSON escaping of every character but letters and digits (`\u002b`), as HTML-safe encoders write it. */
const unicodeEscaped = (text: string, upper: boolean): string =>
  text.replace(/[^0-9A-Za-z]/g, (char) => {
    const hex = char.charCodeAt(0).toString(16).padStart(4, "0")
    return `\\u${upper ? hex.toUpperCase() : hex}`
  })

/** The spellings of a secret a server may echo: raw, JSON-escaped, URL-encoded. */
const spellings = (secret: string): ReadonlyArray<string> => {
  const json = JSON.stringify(secret).slice(1, -1)
  const url = encodeURIComponent(secret)
  return [
    secret,
    json,
    json.replace(/\//g, "\\/"),
    unicodeEscaped(secret, false),
    unicodeEscaped(secret, true),
    url,
    lowerHex(url),
    url.replace(/%20/g, "+")
  ]
}

/** The text, or `""` when it holds a lone surrogate (which `encodeURIComponent` refuses). */
const wellFormed = (text: string): string => (/[\uD800-\uDFFF]/u.test(text) ? "" : text)

const fromForms = (forms: ReadonlyArray<string>): Scrubber => {
  const sorted = [...new Set(forms)].sort((a, b) => b.length - a.length)
  return {
    forms: sorted,
    scrub: (text) => sorted.reduce((out, form) => (out.includes(form) ? out.split(form).join(redactedMark) : out), text)
  }
}

const formsOf = (secrets: ReadonlyArray<string>): ReadonlyArray<string> =>
  secrets.map(wellFormed).filter((secret) => secret !== "").flatMap(spellings)

/**
 * A scrubber of the given secrets (empty ones ignored), longest spellings
 * first so no spelling is left half replaced.
 *
 * @internal
 */
export const scrubber = (secrets: ReadonlyArray<string>): Scrubber => fromForms(formsOf(secrets))

/**
 * A scrubber of the secrets of both, built only when first used (most answers
 * are successes, which quote nothing).
 *
 * @internal
 */
export const combine = (self: Scrubber, secrets: ReadonlyArray<string>): Scrubber => {
  let built: Scrubber | undefined
  const get = () => (built ??= fromForms([...self.forms, ...formsOf(secrets)]))
  return {
    get forms() {
      return get().forms
    },
    scrub: (text) => get().scrub(text)
  }
}

/** A scrubber with no secrets. @internal */
export const none: Scrubber = scrubber([])

/** Moves a cut back to the start of any secret it would split, looking only near the cut. */
const safeCut = (text: string, at: number, forms: ReadonlyArray<string>): number => {
  let cut = at
  for (let moved = true; moved;) {
    moved = false
    for (const form of forms) {
      const from = Math.max(0, cut - form.length + 1)
      const found = text.slice(from, cut + form.length - 1).indexOf(form)
      if (found !== -1 && from + found < cut) {
        cut = from + found
        moved = true
      }
    }
  }
  return cut
}

/**
 * At most `max` characters of a text, secrets removed, with `…` when cut. A
 * long text is cut first (never inside a secret) and only what is kept is
 * scrubbed, so the cost does not grow with the text.
 *
 * @internal
 */
export const clip = (text: string, max: number, secrets: Scrubber): string => {
  const cut = text.length <= max ? text.length : safeCut(text, max, secrets.forms)
  const scrubbed = secrets.scrub(text.slice(0, cut))
  return scrubbed.length <= max && cut === text.length ? scrubbed : `${scrubbed.slice(0, max)}…`
}
