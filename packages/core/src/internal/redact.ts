/**
 * Keeps secrets out of everything built from a server's answer: each secret
 * is replaced, in every spelling a server may echo it in, before any text of
 * the answer reaches an error, a log or a span. Every function here runs in
 * time linear in its input and returns text of bounded length.
 */

/** What stands in for a secret. @internal */
export const redactedMark = "<redacted>"

/** Percent-encoding with lower-case hex digits, as some servers write it. */
const lowerHex = (encoded: string): string => encoded.replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase())

/** JSON escaping of every character but letters and digits (`\u002b`), as HTML-safe encoders write it. */
const unicodeEscaped = (text: string, upper: boolean): string =>
  text.replace(/[^0-9A-Za-z]/g, (char) => {
    const hex = char.charCodeAt(0).toString(16).padStart(4, "0")
    return `\\u${upper ? hex.toUpperCase() : hex}`
  })

/**
 * Form encoding (`application/x-www-form-urlencoded`), as `URLSearchParams`
 * and Java's `URLEncoder` write it: `encodeURIComponent` but `!'()~` escaped
 * too, and `+` for a space.
 */
const formEncoded = (url: string): string =>
  url.replace(/[!'()~]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`).replace(/%20/g, "+")

/** The spellings of a secret a server may echo: raw, JSON-escaped, URL- and form-encoded. */
const spellings = (secret: string): ReadonlyArray<string> => {
  const json = JSON.stringify(secret).slice(1, -1)
  const url = encodeURIComponent(secret)
  const plus = url.replace(/%20/g, "+")
  const form = formEncoded(url)
  return [
    secret,
    json,
    json.replace(/\//g, "\\/"),
    unicodeEscaped(secret, false),
    unicodeEscaped(secret, true),
    url,
    lowerHex(url),
    plus,
    lowerHex(plus),
    form,
    lowerHex(form)
  ]
}

/** The text, or `""` when it holds a lone surrogate (which `encodeURIComponent` refuses). */
const wellFormed = (text: string): string => (/[\uD800-\uDFFF]/u.test(text) ? "" : text)

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

/** The key of `util.inspect`'s custom view of an object. */
const inspectCustom: unique symbol = Symbol.for("nodejs.util.inspect.custom")

/** Spellings longest first (so none is left half replaced), each once. */
const longestFirst = (forms: ReadonlyArray<string>): ReadonlyArray<string> =>
  [...new Set(forms)].sort((a, b) => b.length - a.length)

/** Base64 with its padding (a signature): as good a secret without it, in whatever spelling the padding is. */
const padded = /^[A-Za-z0-9+/]{16,}={1,2}$/

/** The spellings of some secrets; a padded base64 secret also without its padding. */
const formsOf = (secrets: ReadonlyArray<string>): ReadonlyArray<string> =>
  secrets.map(wellFormed).filter((secret) => secret !== "").flatMap((secret) =>
    padded.test(secret) ? [...spellings(secret), ...spellings(secret.replace(/=+$/, ""))] : spellings(secret)
  )

/**
 * Removes secrets from text. The spellings it removes live in a closure held
 * by a private field, out of reach of whatever is handed one: it prints,
 * serialises and inspects as `<redacted>`, so a tracer, a logger or an
 * exporter that writes it out shows no secret.
 *
 * @internal
 */
export class Scrubber {
  readonly #forms: () => ReadonlyArray<string>
  constructor(forms: () => ReadonlyArray<string>) {
    this.#forms = forms
  }

  /** The text with every spelling of every secret replaced by `<redacted>`. */
  scrub(text: string): string {
    return this.#forms().reduce(
      (out, form) => (out.includes(form) ? out.split(form).join(redactedMark) : out),
      text
    )
  }

  /** A cut of the text at `at`, moved back to the start of any secret it would split. */
  cutAt(text: string, at: number): number {
    return safeCut(text, at, this.#forms())
  }

  /**
   * A scrubber of these secrets and of `secrets` (empty ones ignored), its
   * spellings worked out only when first used (most answers are successes,
   * which quote nothing).
   */
  including(secrets: ReadonlyArray<string>): Scrubber {
    const mine = this.#forms
    let built: ReadonlyArray<string> | undefined
    return new Scrubber(() => (built ??= longestFirst([...mine(), ...formsOf(secrets)])))
  }

  /** `<redacted>`, never the secrets. */
  toString(): string {
    return redactedMark
  }

  /** `<redacted>`, never the secrets. */
  toJSON(): string {
    return redactedMark
  }

  /** `<redacted>`, never the secrets (`util.inspect`). */
  [inspectCustom](): string {
    return redactedMark
  }
}

/**
 * A scrubber of the given secrets (empty ones ignored).
 *
 * @internal
 */
export const scrubber = (secrets: ReadonlyArray<string>): Scrubber => {
  const forms = longestFirst(formsOf(secrets))
  return new Scrubber(() => forms)
}

/** A scrubber with no secrets. @internal */
export const none: Scrubber = scrubber([])

/**
 * At most `max` characters of a text, secrets removed, with `…` when cut. A
 * long text is cut first (never inside a secret) and only what is kept is
 * scrubbed, so the cost does not grow with the text.
 *
 * @internal
 */
export const clip = (text: string, max: number, secrets: Scrubber): string => {
  const cut = text.length <= max ? text.length : secrets.cutAt(text, max)
  const scrubbed = secrets.scrub(text.slice(0, cut))
  return scrubbed.length <= max && cut === text.length ? scrubbed : `${scrubbed.slice(0, max)}…`
}
