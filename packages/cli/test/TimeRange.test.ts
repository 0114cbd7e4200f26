/**
 * The times of `--from` and `--to`.
 */
import { assert, describe, it } from "@effect/vitest"
import { DateTime, Result } from "effect"
import * as TimeRange from "../src/internal/timeRange.js"

const iso = (text: string, end: TimeRange.End) =>
  Result.match(TimeRange.parse(text, end), {
    onFailure: (problem) => `failure: ${problem}`,
    onSuccess: DateTime.formatIso
  })

describe("TimeRange", () => {
  it("reads a date as the first millisecond of the day (start) or its last (end), in UTC", () => {
    assert.strictEqual(iso("2025-01-01", "start"), "2025-01-01T00:00:00.000Z")
    assert.strictEqual(iso("2025-01-01", "end"), "2025-01-01T23:59:59.999Z")
    assert.strictEqual(iso("2024-02-29", "end"), "2024-02-29T23:59:59.999Z")
  })

  it("reads a date and time, UTC unless an offset is given", () => {
    assert.strictEqual(iso("2025-01-01T12:30", "end"), "2025-01-01T12:30:00.000Z")
    assert.strictEqual(iso("2025-01-01 12:30:15", "start"), "2025-01-01T12:30:15.000Z")
    assert.strictEqual(iso("2025-01-01T12:30:15.5Z", "start"), "2025-01-01T12:30:15.500Z")
    assert.strictEqual(iso("2025-01-01T12:30:15.123456Z", "start"), "2025-01-01T12:30:15.123Z")
    assert.strictEqual(iso("2025-01-01T12:30:00+02:00", "start"), "2025-01-01T10:30:00.000Z")
    assert.strictEqual(iso("2025-01-01T00:00:00-0530", "start"), "2025-01-01T05:30:00.000Z")
  })

  it("refuses anything else, saying why", () => {
    assert.match(iso("2025-02-29", "start"), /^failure: "2025-02-29" is not a calendar date/)
    assert.match(iso("2025-13-01T00:00Z", "start"), /^failure: .* not a valid date and time/)
    assert.match(iso("2025-01-01T24:00Z", "start"), /^failure: .* not a valid date and time/)
    assert.match(iso("2025-01-01T10:00+15:00", "start"), /^failure: .* not a valid date and time/)
    assert.match(iso("1735689600000", "start"), /^failure: expected a date/)
    assert.match(iso("yesterday", "start"), /^failure: expected a date/)
  })
})
