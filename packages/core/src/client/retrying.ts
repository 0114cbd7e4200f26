/**
 * How a call tries again: at once, after syncing the clock, when the exchange
 * refuses its timestamp; then per the endpoint's retry policy. Each retry is
 * recorded (`instrumentation.ts`) before it is made.
 *
 * @internal
 */
import * as Effect from "effect/Effect"
import type { LazyArg } from "effect/Function"
import * as Schedule from "effect/Schedule"
import type { BitgetError } from "../BitgetError.js"
import { isApiErrorOfKind } from "../BitgetError.js"
import * as Instrumentation from "./instrumentation.js"
import type { Plan } from "./plan.js"

const isClockSkew = isApiErrorOfKind("ClockSkew")

/**
 * Retries an effect per a schedule, building the schedule's state only once
 * it has failed (most calls succeed at once): the first failure is the
 * schedule's first input, as with `Effect.retry`.
 */
const retryAfterFailure = <A, E, R>(
  self: Effect.Effect<A, E, R>,
  schedule: LazyArg<Schedule.Schedule<unknown, E>>
): Effect.Effect<A, E, R> =>
  Effect.catch(self, (first) => {
    let replay = true
    return Effect.retry(
      Effect.suspend(() => {
        if (!replay) return self
        replay = false
        return Effect.fail(first)
      }),
      schedule()
    )
  })

/**
 * A call's attempts: `attempt` once; on a refused timestamp, `syncClock` and
 * `attempt` again; the whole retried per the plan's policy (each retry syncs
 * again on a refused timestamp).
 *
 * @internal
 */
export const retried = <A>(
  attempt: Effect.Effect<A, BitgetError>,
  plan: Plan,
  call: Instrumentation.CallState,
  syncClock: Effect.Effect<unknown, BitgetError>
): Effect.Effect<A, BitgetError> =>
  retryAfterFailure(
    Effect.catchIf(attempt, isClockSkew, (error) =>
      Instrumentation.resyncing(plan, call, error).pipe(
        Effect.andThen(syncClock),
        Effect.andThen(attempt)
      )),
    () => Schedule.tap(plan.policy, ({ duration, input }) => Instrumentation.retrying(plan, call, input, duration))
  )
