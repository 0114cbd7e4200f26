/**
 * What the sandbox records about every request it receives, for tests to read.
 *
 * @since 0.1.0
 */
import type { RouteName } from "./Route.js"

/**
 * The outcome of signature verification: `valid` or `invalid` when the
 * signature was checked, `unchecked` when the request was answered before (a
 * missing header, an expired timestamp, a fault) or the call to a public route
 * carried no signature.
 *
 * @since 0.1.0
 * @category models
 */
export type SignatureCheck = "valid" | "invalid" | "unchecked"

/**
 * One received request and how it was answered.
 *
 * @since 0.1.0
 * @category models
 */
export interface Entry {
  /** Position in the log since the server started (1-based, never reused). */
  readonly seq: number
  /** Server time at arrival (including any clock offset), ms. */
  readonly time: number
  readonly method: string
  readonly path: string
  /** The query string exactly as sent (still percent-encoded), without `?`. */
  readonly query: string
  /** The matched route; `undefined` for an unknown path. */
  readonly route: RouteName | undefined
  /** The `ACCESS-KEY` header as sent, if any. */
  readonly apiKey: string | undefined
  readonly signature: SignatureCheck
  /** The HTTP status answered; `undefined` when the connection was reset. */
  readonly status: number | undefined
  /** The envelope `code` answered; `undefined` for a reset, an HTML page or malformed JSON. */
  readonly code: string | undefined
  /** The injected fault, in the CLI form (`503`, `delay:200`, `reset`, …). */
  readonly fault: string | undefined
  /** Whether the sandbox's own frequency limiter refused the request (HTTP 429). */
  readonly rateLimited: boolean
  /** The client address. */
  readonly remoteAddress: string | undefined
  /** Time spent answering, ms. */
  readonly durationMillis: number
}

/**
 * Counters over the whole life of the server (the log itself keeps only the
 * most recent entries).
 *
 * @since 0.1.0
 * @category models
 */
export interface Stats {
  readonly requests: number
  readonly limitViolations: number
  readonly faultsInjected: number
}
