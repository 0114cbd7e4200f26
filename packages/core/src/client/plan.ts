/**
 * What a client works out once per endpoint rather than per call: its names
 * and instruments, retry policy, decoder and rate-limit bucket.
 *
 * @internal
 */
import type * as Result from "effect/Result"
import type * as Schema from "effect/Schema"
import type { BitgetOptions } from "../BitgetConfig.js"
import type { Endpoint } from "../Endpoint.js"
import { decoder } from "../internal/decoder.js"
import type { Limiter } from "../RateLimiter.js"
import * as Retry from "../Retry.js"
import * as Instrumentation from "./instrumentation.js"

/** Everything a call of an endpoint needs that its input does not change. @internal */
export interface Plan extends Instrumentation.Labels {
  readonly policy: Retry.Policy
  readonly decode: (data: unknown) => Result.Result<unknown, Schema.SchemaError>
  readonly bucket: Parameters<Limiter["take"]>[0]
}

/**
 * The plans of a client's endpoints, each made at its first call and kept
 * while the endpoint lives.
 *
 * @internal
 */
export const planner = (config: BitgetOptions): (endpoint: Endpoint<unknown, unknown>) => Plan => {
  const plans = new WeakMap<object, Plan>()
  return (endpoint) => {
    let plan = plans.get(endpoint)
    if (plan === undefined) {
      const labels = Instrumentation.labels(endpoint, config.baseUrl)
      plan = {
        ...labels,
        policy: Retry.schedule(endpoint, { ...config.retry, ...config.retry.endpoints?.[endpoint.name] }),
        decode: decoder(endpoint.response),
        bucket: { name: endpoint.name, label: labels.name, rateLimit: endpoint.rateLimit }
      }
      plans.set(endpoint, plan)
    }
    return plan
  }
}
