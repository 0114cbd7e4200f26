/**
 * Parameter checks shared by several routes: the `idLessThan` cursor, a time
 * range in order, and symbols compared as the exchange compares them.
 *
 * @internal
 */
import * as Result from "effect/Result"
import { DAY } from "../data/time.js"
import * as Timeline from "../data/timeline.js"
import type { ApiFailure } from "./params.js"
import * as Params from "./params.js"

/** An optional `idLessThan` cursor: a record id. */
export const cursor = (value: string | undefined): Result.Result<bigint | undefined, ApiFailure> => {
  if (value === undefined) return Result.succeed(undefined)
  const id = Timeline.parseId(value)
  return id === undefined ? Result.fail(Params.invalid("idLessThan")) : Result.succeed(id)
}

/** A start time not after the end time (when both are given). */
export const ordered = (
  start: number | undefined,
  end: number | undefined
): Result.Result<void, ApiFailure> =>
  start !== undefined && end !== undefined && start > end
    ? Result.fail(Params.verification("startTime must not be after endTime"))
    : Result.succeed(undefined)

/** Whether two symbols (or coins) are the same, in any case. */
export const sameSymbol = (a: string, b: string): boolean => a.toUpperCase() === b.toUpperCase()

/** A range `[start, end]` of at most `days` days (a route's `bounds.windowDays`); `failure` when longer. */
export const spanWithin = (
  start: number,
  end: number,
  days: number,
  failure: ApiFailure
): Result.Result<void, ApiFailure> => end - start > days * DAY ? Result.fail(failure) : Result.succeed(undefined)
