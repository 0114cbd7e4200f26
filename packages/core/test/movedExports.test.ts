/**
 * Names that moved to their own module stay where 0.2 programs import them:
 * the limiter's store (now `RateLimiterStore`) through `RateLimiter`, the fetch
 * transport's helpers through `HttpTransport`, each the very same value.
 */
import { assert, describe, it } from "@effect/vitest"
import * as HttpTransport from "../src/HttpTransport.js"
import * as Transport from "../src/internal/transport.js"
import * as RateLimiter from "../src/RateLimiter.js"
import * as RateLimiterStore from "../src/RateLimiterStore.js"

describe("moved exports", () => {
  it("RateLimiter keeps the store's names, as the store module's values", () => {
    assert.strictEqual(RateLimiter.RateLimiterStore, RateLimiterStore.RateLimiterStore)
    assert.strictEqual(RateLimiter.makeMemoryStore, RateLimiterStore.makeMemoryStore)
    assert.strictEqual(RateLimiter.layerMemory, RateLimiterStore.layerMemory)
    assert.strictEqual(RateLimiter.inFlightLimit, RateLimiterStore.inFlightLimit)
  })

  it("HttpTransport keeps its helpers, written once", () => {
    assert.strictEqual(HttpTransport.withDeadline, Transport.withDeadline)
    assert.strictEqual(HttpTransport.timeoutError, Transport.timeoutError)
    assert.strictEqual(HttpTransport.failure, Transport.failure)
    assert.strictEqual(HttpTransport.bodyTooLarge, Transport.bodyTooLarge)
  })
})
