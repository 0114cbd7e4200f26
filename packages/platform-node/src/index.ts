/**
 * @since 0.1.0
 */
export * as BitgetNode from "./BitgetNode.js"
/**
 * @since 0.1.0
 */
export * as NodeSigner from "./NodeSigner.js"
/**
 * @since 0.1.0
 */
export * as RedisRateLimiter from "./RedisRateLimiter.js"
