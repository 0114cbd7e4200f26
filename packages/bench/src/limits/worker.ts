/**
 * A worker process of the rate-limit benchmark: told its limiter and target,
 * it reports ready, drives the workload from "Go" until "Stop", then exits.
 */
import { Effect, Fiber, References } from "effect"
import type { Order } from "./Processes.js"
import type { Limiter, Target } from "./Workload.js"
import { drive } from "./Workload.js"

let setup: { readonly limiter: Limiter; readonly target: Target } | undefined
let running: Fiber.Fiber<void> | undefined

process.on("message", (order: Order) => {
  switch (order._tag) {
    case "Setup":
      setup = order
      process.send?.("ready")
      return
    case "Go":
      // the run's figures come from the sandbox's log: the clients' own retry and 429 lines stay quiet
      if (setup !== undefined) {
        running = Effect.runFork(
          Effect.provideService(drive(setup.limiter, setup.target), References.MinimumLogLevel, "Error")
        )
      }
      return
    case "Stop":
      // a store or socket that does not close promptly does not hold the run up
      setTimeout(() => process.exit(0), 2000).unref()
      void (running === undefined ? Promise.resolve() : Effect.runPromise(Fiber.interrupt(running))).finally(() =>
        process.exit(0)
      )
  }
})
