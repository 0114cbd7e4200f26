/**
 * Node.js support for `@bitget-effect/core`: the client over undici with the
 * node:crypto signer in one layer, a `runMain` that ends a failed program with
 * lines a person can act on, and a Redis store for rate limits shared between
 * processes.
 *
 * `BitgetNode`: the client with its Node.js platform as a layer, and `runMain`.
 *
 * @since 0.1.0
 */
export * as BitgetNode from "./BitgetNode.js"

/**
 * The `Signer` service on node:crypto (HMAC-SHA256 and SHA256withRSA).
 *
 * @since 0.1.0
 */
export * as NodeSigner from "./NodeSigner.js"

/**
 * A `RateLimiterStore` in Redis, for processes or hosts that share one API key or address.
 *
 * @since 0.1.0
 */
export * as RedisRateLimiter from "./RedisRateLimiter.js"

/**
 * The `HttpTransport` straight on undici: a pooled keep-alive agent, one
 * deadline per request, the body read within its size cap.
 *
 * @since 0.1.0
 */
export * as UndiciTransport from "./UndiciTransport.js"
