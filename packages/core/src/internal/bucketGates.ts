/**
 * The limiter's gates: one per bucket, so that one caller at a time asks the
 * store for a slot and the others queue behind it in order.
 */
import * as Effect from "effect/Effect"
import * as Semaphore from "effect/Semaphore"

/**
 * Runs `body` in the bucket's turn: one caller per bucket at a time, the
 * others queued behind it in order. `body` is told whether its caller queued.
 *
 * @internal
 */
export type InTurn = <A, E, R>(
  key: string,
  body: (queued: boolean) => Effect.Effect<A, E, R>
) => Effect.Effect<A, E, R>

/**
 * Runs `body` holding `gate`: at once when it is open, else after the callers
 * queued before. An open gate is taken and its release installed with no
 * chance of interruption in between.
 */
const holding = <A, E, R>(
  gate: Semaphore.Semaphore,
  body: (queued: boolean) => Effect.Effect<A, E, R>
): Effect.Effect<A, E, R> =>
  Effect.uninterruptibleMask((restore) =>
    Effect.flatMap(
      gate.takeIfAvailable(1),
      (open) =>
        open ? restore(body(false)).pipe(Effect.ensuring(gate.release(1))) : restore(gate.withPermit(body(true)))
    )
  )

/**
 * One gate per bucket, made when the bucket is first asked for. A limiter
 * lets one caller per bucket ask the store at a time, so a bucket that is
 * full costs one store call and one timer per grant, however many callers
 * wait for it.
 *
 * @internal
 */
export const make = (): InTurn => {
  const gates = new Map<string, Semaphore.Semaphore>()
  return (key, body) => {
    let gate = gates.get(key)
    if (gate === undefined) {
      gate = Semaphore.makeUnsafe(1)
      gates.set(key, gate)
    }
    return holding(gate, body)
  }
}
