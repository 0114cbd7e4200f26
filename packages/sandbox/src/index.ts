/**
 * @since 0.1.0
 */
export * as Account from "./Account.js"
/**
 * @since 0.1.0
 */
export * as Dataset from "./Dataset.js"
/**
 * @since 0.1.0
 */
export * as DemoKey from "./DemoKey.js"
/**
 * @since 0.1.0
 */
export * as Fault from "./Fault.js"
/**
 * @since 0.1.0
 */
export * as RequestLog from "./RequestLog.js"
/**
 * @since 0.1.0
 */
export * as Route from "./Route.js"
/**
 * @since 0.1.0
 */
export * as Sandbox from "./Sandbox.js"
/**
 * @since 0.1.0
 */
export * as SandboxError from "./SandboxError.js"
/**
 * @since 0.1.0
 */
export * as Sizes from "./Sizes.js"
