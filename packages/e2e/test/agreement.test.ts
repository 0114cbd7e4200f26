/**
 * Core and sandbox agree on every endpoint: each descriptor of
 * `@bitget-effect/core` has a sandbox route with the same method and path,
 * access rule and frequency limit, and each route has a descriptor. The
 * descriptors are found by walking core's modules, so a new endpoint is
 * checked without editing this file.
 */
import * as Core from "@bitget-effect/core"
import { Route } from "@bitget-effect/sandbox"
import { assert, describe, it } from "@effect/vitest"
import { Duration, Predicate } from "effect"

/** What this test reads of an endpoint descriptor. */
interface Descriptor {
  readonly name: string
  readonly method: string
  readonly path: string
  readonly auth: "signed" | "public" | "optional"
  readonly rateLimit: Core.Endpoint.RateLimit
}

const isDescriptor = (value: unknown): value is Descriptor =>
  Predicate.isObject(value) &&
  typeof value.method === "string" &&
  typeof value.path === "string" &&
  value.path.startsWith("/api/") &&
  typeof value.auth === "string" &&
  Predicate.isObject(value.rateLimit)

/** Every descriptor exported by a module of core, each once. */
const descriptors: ReadonlyArray<Descriptor> = [
  ...new Set(Object.values(Core).flatMap((module) => Object.values(module).filter(isDescriptor)))
]

/** The sandbox's access rule for a core auth mode. */
const accessOf = (auth: Descriptor["auth"]): Route.Access => auth === "optional" ? "identified" : auth

/** Calls per second of a core rate limit. */
const perSecondOf = ({ limit, window }: Core.Endpoint.RateLimit): number => limit / (Duration.toMillis(window) / 1000)

const { label } = Core.Endpoint

/** Every difference between core's descriptors and the sandbox's routes, one line each. */
const differences = (): ReadonlyArray<string> => {
  const routes = new Map(Route.routes.map((route) => [label(route), route]))
  const endpoints = new Set(descriptors.map(label))
  const found: Array<string> = []
  for (const endpoint of descriptors) {
    const route = routes.get(label(endpoint))
    if (route === undefined) {
      found.push(`${label(endpoint)}: core endpoint ${endpoint.name} has no sandbox route`)
      continue
    }
    if (accessOf(endpoint.auth) !== route.access) {
      found.push(`${label(endpoint)}: auth core ${endpoint.auth}, sandbox ${route.access}`)
    }
    const perSecond = perSecondOf(endpoint.rateLimit)
    if (perSecond !== route.perSecond || endpoint.rateLimit.scope !== route.scope) {
      found.push(
        `${label(endpoint)}: rate limit core ${perSecond}/s ${endpoint.rateLimit.scope}, ` +
          `sandbox ${route.perSecond}/s ${route.scope}`
      )
    }
  }
  for (const route of Route.routes) {
    if (!endpoints.has(label(route))) found.push(`${label(route)}: sandbox route ${route.name} has no core endpoint`)
  }
  return found
}

describe("core and sandbox agreement", () => {
  it("every core endpoint and sandbox route match in method, path, auth and rate limit", () => {
    assert.deepStrictEqual(differences(), [], "core and sandbox disagree")
  })
})
