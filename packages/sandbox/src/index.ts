/**
 * A local Bitget exchange on a real HTTP server, for end-to-end tests, demos
 * and benchmarks: the operations of `@bitget-effect/core` with the exchange's
 * authentication, rate limits and error codes, seeded data of any size, fault
 * injection and a request log.
 *
 * `Account`: the mutable trading state of each demo key (open orders,
 * positions, TP/SL plans).
 *
 * @since 0.1.0
 */
export * as Account from "./Account.js"

/**
 * What a sandbox holds, read without HTTP, to check a client's results against.
 *
 * @since 0.1.0
 */
export * as Dataset from "./Dataset.js"

/**
 * The API keys the sandbox accepts: fixed HMAC keys and an RSA key.
 *
 * @since 0.1.0
 */
export * as DemoKey from "./DemoKey.js"

/**
 * Faults to inject into a route: gateway errors, 429s, delays, resets, broken JSON, error codes.
 *
 * @since 0.1.0
 */
export * as Fault from "./Fault.js"

/**
 * What the sandbox records about every request it receives.
 *
 * @since 0.1.0
 */
export * as RequestLog from "./RequestLog.js"

/**
 * The routes the sandbox serves, with their access rule, frequency limit and bounds.
 *
 * @since 0.1.0
 */
export * as Route from "./Route.js"

/**
 * Starts a sandbox (a scoped effect or a layer) and controls it while it runs.
 *
 * @since 0.1.0
 */
export * as Sandbox from "./Sandbox.js"

/**
 * The ways starting a sandbox can fail.
 *
 * @since 0.1.0
 */
export * as SandboxError from "./SandboxError.js"

/**
 * How much data a sandbox simulates, and the defaults.
 *
 * @since 0.1.0
 */
export * as Sizes from "./Sizes.js"

/**
 * How much the sandbox's answers vary in shape: every shape the live exchange
 * sends (seeded), or one fixed shape.
 *
 * @since 0.2.0
 */
export * as Shapes from "./Shapes.js"
