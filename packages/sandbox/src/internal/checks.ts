/**
 * Parameter checks shared by several routes: the `idLessThan` cursor and a
 * time range in order.
 *
 * @internal
 */
import { Either } from "effect"
import type { ApiFailure } from "./params.js"
import * as Params from "./params.js"
import * as Timeline from "./timeline.js"

/** An optional `idLessThan` cursor: a record id. */
export const cursor = (value: string | undefined): Either.Either<bigint | undefined, ApiFailure> => {
  if (value === undefined) return Either.right(undefined)
  const id = Timeline.parseId(value)
  return id === undefined ? Either.left(Params.invalid("idLessThan")) : Either.right(id)
}

/** A start time not after the end time (when both are given). */
export const ordered = (
  start: number | undefined,
  end: number | undefined
): Either.Either<void, ApiFailure> =>
  start !== undefined && end !== undefined && start > end
    ? Either.left(Params.verification("startTime must not be after endTime"))
    : Either.right(undefined)
