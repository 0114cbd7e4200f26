/**
 * Parameter checks shared by several routes: the `idLessThan` cursor and a
 * time range in order.
 *
 * @internal
 */
import { Result } from "effect"
import type { ApiFailure } from "./params.js"
import * as Params from "./params.js"
import * as Timeline from "./timeline.js"

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
