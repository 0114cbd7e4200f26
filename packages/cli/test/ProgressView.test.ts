/**
 * The progress view's words: every count is pluralised as it should be
 * ("1 window", "2 windows"), in the progress line as in the summaries.
 */
import { assert, describe, it } from "@effect/vitest"
import { Duration, Option } from "effect"
import * as ProgressView from "../src/internal/progressView.js"

describe("the progress view", () => {
  it("counts with the noun in the singular for one only", () => {
    assert.strictEqual(ProgressView.counted(0, "record"), "0 records")
    assert.strictEqual(ProgressView.counted(1, "window"), "1 window")
    assert.strictEqual(ProgressView.counted(2, "page"), "2 pages")
    assert.strictEqual(ProgressView.counted(12_345, "record"), "12,345 records")
  })

  it("writes the progress line with those counts", () => {
    const line = ProgressView.line({
      label: "tax-records",
      records: 1,
      progress: {
        endpoint: "GET /api/v2/tax/spot-record",
        records: 1,
        pages: 1,
        windowsDone: 0,
        windowsTotal: 1,
        window: Option.none(),
        limiterWait: Duration.zero
      },
      elapsed: Duration.seconds(3)
    })
    assert.strictEqual(line, "tax-records: 1 record, 1 page, windows 0/1, limiter 0.0s, elapsed 0:03, ETA --:--")
  })
})
