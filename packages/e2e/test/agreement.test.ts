/**
 * Core and sandbox agree on every endpoint: each descriptor of
 * `@bitget-effect/core` has a sandbox route with the same method and path,
 * access rule, frequency limit and bounds (longest time window, largest page,
 * closed value tables), and each route has a descriptor (but those declared
 * sandbox-only, with the reason they are served). Each side keeps its
 * own copy of the exchange's facts (the sandbox stands for the exchange); this
 * test is where they meet. The descriptors are found by walking core's
 * modules, so a new endpoint is checked without editing this file.
 */
import * as Core from "@bitget-effect/core"
import { Route } from "@bitget-effect/sandbox"
import { assert, describe, it } from "@effect/vitest"
import { Duration } from "effect"
import { type Descriptor, descriptors } from "./support.js"

/** The bounds both sides may state, each compared as text. */
type Bounds = Core.Endpoint.Bounds | Route.Bounds

/** Every bound of an endpoint as `name: value` lines, enum tables as sorted value sets. */
const boundLines = (bounds: Bounds | undefined): ReadonlyArray<string> => [
  ...(bounds?.windowDays === undefined ? [] : [`window ${bounds.windowDays} days`]),
  ...(bounds?.pageSize === undefined ? [] : [`page size ${bounds.pageSize}`]),
  ...Object.entries(bounds?.enums ?? {}).map(([field, values]) => `${field} ∈ {${[...values].sort().join(", ")}}`)
]

/** The bound lines one side states and the other does not, each named by the side that states it. */
const boundDifferences = (core: Bounds | undefined, sandbox: Bounds | undefined): ReadonlyArray<string> => {
  const [ours, theirs] = [boundLines(core), boundLines(sandbox)]
  return [
    ...ours.filter((line) => !theirs.includes(line)).map((line) => `core only: ${line}`),
    ...theirs.filter((line) => !ours.includes(line)).map((line) => `sandbox only: ${line}`)
  ]
}

/** The sandbox's access rule for a core auth mode. */
const accessOf = (auth: Descriptor["auth"]): Route.Access => auth === "optional" ? "identified" : auth

/** Calls per second of a core rate limit. */
const perSecondOf = ({ limit, window }: Core.Endpoint.RateLimit): number => limit / (Duration.toMillis(window) / 1000)

const { label } = Core.Endpoint

/**
 * The sandbox's routes that no core endpoint calls, each with why it is
 * served: the only ones allowed to have no descriptor.
 */
const sandboxOnly: Readonly<Record<string, string>> = {
  "symbol-price": "the mark price place-pos-tpsl checks trigger prices against, for clients that place TP/SL"
}

/** Every difference between core's descriptors and the sandbox's routes, one line each. */
const differences = (): ReadonlyArray<string> => {
  const routes = new Map(Route.routes.map((route) => [label(route), route]))
  const endpoints = new Set(descriptors.map(label))
  const found: Array<string> = []
  for (const endpoint of descriptors) {
    const route = routes.get(label(endpoint))
    if (route === undefined) {
      found.push(
        `${
          label(endpoint)
        }: core endpoint ${endpoint.name} has no sandbox route (a module of routes/, listed in routes/table.ts)`
      )
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
    for (const line of boundDifferences(endpoint.bounds, route.bounds)) found.push(`${label(endpoint)}: ${line}`)
  }
  for (const route of Route.routes) {
    if (!endpoints.has(label(route)) && !Object.hasOwn(sandboxOnly, route.name)) {
      found.push(`${label(route)}: sandbox route ${route.name} has no core endpoint`)
    }
  }
  for (const name of Object.keys(sandboxOnly)) {
    const route = Route.find(name)
    if (route === undefined) found.push(`${name}: declared sandbox-only, but the sandbox has no such route`)
    else if (endpoints.has(label(route))) found.push(`${name}: declared sandbox-only, but core calls it`)
  }
  return found
}

describe("core and sandbox agreement", () => {
  it("every core endpoint and sandbox route match in method, path, auth, rate limit and bounds", () => {
    assert.deepStrictEqual(differences(), [], "core and sandbox disagree")
  })

  it("the bounds are compared: the tax window, page sizes and each closed table are stated on both sides", () => {
    const stated = (name: string) => boundLines(descriptors.find((endpoint) => endpoint.name === name)?.bounds)
    assert.include(stated("tax.spotRecords"), "window 30 days")
    assert.isTrue(stated("tax.spotRecords").some((line) => line.startsWith("taxType ∈")))
    assert.isTrue(stated("mix.ordersHistory").some((line) => line.startsWith("orderSource ∈")))
    assert.isTrue(stated("mix.ordersHistory").some((line) => line.startsWith("productType ∈")))
    assert.include(boundLines(Route.find("tax-records")?.bounds), "window 30 days")
  })
})
