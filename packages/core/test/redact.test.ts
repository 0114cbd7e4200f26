/**
 * The scrubber every text from an answer passes (`internal/redact.ts`): each
 * spelling a server may echo a secret in, written out here by hand, and the
 * cut of a long text, which never goes through a secret. These are the tests
 * its mutation score counts (`npx -y pnpm@10 mutation -- --module redact`).
 */
import { assert, describe, it } from "@effect/vitest"
import { inspect } from "node:util"
import * as Redact from "../src/internal/redact.js"

/** A secret with a digit, both cases, and every character the encodings treat apart. */
const secret = `P4/ss wo+rd!'()~"`

/** Its spellings, by hand. */
const spellings = {
  raw: secret,
  json: `P4/ss wo+rd!'()~\\"`,
  jsonSlash: `P4\\/ss wo+rd!'()~\\"`,
  unicodeLower: "P4\\u002fss\\u0020wo\\u002brd\\u0021\\u0027\\u0028\\u0029\\u007e\\u0022",
  unicodeUpper: "P4\\u002Fss\\u0020wo\\u002Brd\\u0021\\u0027\\u0028\\u0029\\u007E\\u0022",
  url: "P4%2Fss%20wo%2Brd!'()~%22",
  urlLower: "P4%2fss%20wo%2brd!'()~%22",
  plus: "P4%2Fss+wo%2Brd!'()~%22",
  plusLower: "P4%2fss+wo%2brd!'()~%22",
  form: "P4%2Fss+wo%2Brd%21%27%28%29%7E%22",
  formLower: "P4%2fss+wo%2brd%21%27%28%29%7e%22"
}

const scrub = (secrets: ReadonlyArray<string>, text: string): string => Redact.scrubber(secrets).scrub(text)

describe("scrub", () => {
  it("the spellings differ from one another, so each is a case of its own", () => {
    assert.strictEqual(new Set(Object.values(spellings)).size, Object.keys(spellings).length)
  })

  for (const [name, spelling] of Object.entries(spellings)) {
    it(`replaces the ${name} spelling`, () => {
      assert.strictEqual(
        scrub([secret], `<${spelling}> and again <${spelling}>`),
        "<<redacted>> and again <<redacted>>"
      )
    })
  }

  it("replaces the JSON form with an escaped slash", () => {
    assert.strictEqual(scrub(["a/b"], `{"echo":"a\\/b"}`), `{"echo":"<redacted>"}`)
  })

  it("replaces form encoding's + for a space, in both cases of hex", () => {
    assert.strictEqual(scrub(["my key/1"], "k=my+key%2F1&l=my+key%2f1"), "k=<redacted>&l=<redacted>")
  })

  it("replaces lower-case \\u00xx and %xx escapes", () => {
    assert.strictEqual(scrub(["a+b"], "a\\u002bb a%2bb"), "<redacted> <redacted>")
  })

  it("replaces the longest spelling first, so a secret inside another leaves nothing behind", () => {
    assert.strictEqual(scrub(["abc", "abcdef"], "abcdef abc"), "<redacted> <redacted>")
    assert.strictEqual(scrub(["abcdef", "abc"], "abcdef abc"), "<redacted> <redacted>")
  })

  it("replaces a padded base64 secret without its padding too, a short one only whole", () => {
    const signature = "U2lnbmF0dXJlT2ZUaGVSZXF1ZXN0IQ=="
    assert.strictEqual(scrub([signature], "U2lnbmF0dXJlT2ZUaGVSZXF1ZXN0IQ, end"), "<redacted>, end")
    assert.strictEqual(scrub(["U2lnbmF0dXJlT2ZUaGVSZXF1ZXN0IQ="], "U2lnbmF0dXJlT2ZUaGVSZXF1ZXN0IQ."), "<redacted>.")
    assert.strictEqual(scrub(["abc="], "abc abc="), "abc <redacted>")
    assert.strictEqual(scrub(["U2lnbmF0dXJlT2ZU==="], "U2lnbmF0dXJlT2ZU."), "U2lnbmF0dXJlT2ZU.")
    assert.strictEqual(
      scrub(["U2lnbmF0dXJl=T2ZU="], "U2lnbmF0dXJl=T2ZU U2lnbmF0dXJl"),
      "U2lnbmF0dXJl=T2ZU U2lnbmF0dXJl"
    )
    // base64 as a whole only: a secret with another character before its base64 tail keeps its "="
    assert.strictEqual(scrub(["key-U2lnbmF0dXJlT2ZUaGVS="], "key-U2lnbmF0dXJlT2ZUaGVS."), "key-U2lnbmF0dXJlT2ZUaGVS.")
  })

  it("ignores empty secrets and one with a lone surrogate (no URL form), keeping the others", () => {
    assert.strictEqual(scrub([""], "text"), "text")
    assert.strictEqual(scrub(["\uD800lone", "key-1"], "\uD800lone key-1"), "\uD800lone <redacted>")
    assert.strictEqual(scrub(["lone\uDC00"], "lone\uDC00"), "lone\uDC00")
  })

  it("replaces a secret holding a character outside the BMP, in its URL form too", () => {
    assert.strictEqual(scrub(["k\u{1F511}"], "k\u{1F511} k%F0%9F%94%91"), "<redacted> <redacted>")
  })

  it("leaves a text without secrets as it is, with no secrets at all too", () => {
    assert.strictEqual(scrub([secret], "nothing to hide"), "nothing to hide")
    assert.strictEqual(Redact.none.scrub(secret), secret)
  })

  it("including adds secrets to a scrubber's own, the empty ones ignored", () => {
    const scrubber = Redact.scrubber(["key-1"]).including(["sig-2", ""])
    assert.strictEqual(scrubber.scrub("key-1 sig-2 key-1"), "<redacted> <redacted> <redacted>")
    assert.strictEqual(scrubber.scrub("key-1 sig-2"), "<redacted> <redacted>", "its spellings, once built, are kept")
    assert.strictEqual(Redact.scrubber(["key-1"]).scrub("sig-2"), "sig-2", "the scrubber it came from is unchanged")
  })

  it("writes itself out as the mark, never the secrets", () => {
    const scrubber = Redact.scrubber([secret])
    assert.strictEqual(Redact.redactedMark, "<redacted>")
    assert.strictEqual(String(scrubber), "<redacted>")
    assert.strictEqual(JSON.stringify(scrubber), "\"<redacted>\"")
    assert.strictEqual(inspect(scrubber), "<redacted>")
  })
})

describe("clip", () => {
  const secrets = Redact.scrubber(["SECRET"])

  it("keeps a text within the limit whole, scrubbed", () => {
    assert.strictEqual(Redact.clip("abc", 3, Redact.none), "abc")
    assert.strictEqual(Redact.clip("a SECRET", 100, secrets), "a <redacted>")
  })

  it("cuts a longer text at the limit, with …", () => {
    assert.strictEqual(Redact.clip("abcdef", 3, Redact.none), "abc…")
    assert.strictEqual(Redact.clip("abcd", 3, Redact.none), "abc…")
  })

  it("cuts a text that scrubbing made longer than the limit", () => {
    assert.strictEqual(Redact.clip("SECRET", 6, secrets), "<redac…")
  })

  it("never cuts through a secret: a cut inside one moves to its start", () => {
    const text = "xx-SECRET-yy"
    for (let max = 4; max <= 8; max++) assert.strictEqual(Redact.clip(text, max, secrets), "xx-…", `at ${max}`)
    assert.strictEqual(Redact.clip(text, 3, secrets), "xx-…", "a cut at its start stays")
    assert.strictEqual(Redact.clip(text, 9, secrets), "xx-<redac…", "a cut at its end stays")
    assert.strictEqual(Redact.clip("SECRETxx", 3, secrets), "…", "a secret at the start")
  })

  it("never cuts through a secret in any spelling", () => {
    const text = `echo: ${spellings.unicodeLower}`
    assert.strictEqual(Redact.clip(text, 20, Redact.scrubber([secret])), "echo: …")
    assert.strictEqual(Redact.clip(`echo: ${spellings.formLower}`, 20, Redact.scrubber([secret])), "echo: …")
  })

  it("moves again when the new cut falls inside another secret that overlaps the first", () => {
    const overlapping = Redact.scrubber(["ABCD", "CDEF"])
    assert.strictEqual(Redact.clip("xxABCDEFyy", 7, overlapping), "xx…")
    assert.strictEqual(Redact.clip("xxABCDEFyy", 5, overlapping), "xx…")
  })

  it("only looks near the cut: a secret well before it is scrubbed, not cut at", () => {
    assert.strictEqual(Redact.clip("SECRET and then a long tail", 14, secrets), "<redacted> and…")
  })
})
