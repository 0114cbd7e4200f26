/**
 * Every endpoint descriptor core exports, found by walking its modules (as the
 * e2e agreement test does), so that a suite that must cover every endpoint
 * takes its list from here and fails on a new one it has no entry for.
 */
import { assert, it } from "@effect/vitest"
import * as Endpoint from "../src/Endpoint.js"
import * as Core from "../src/index.js"

/** An endpoint descriptor, whatever its request and answer. */
export type Descriptor = Endpoint.Endpoint<unknown, unknown, object, unknown>

/** Every descriptor exported by a module of core, each once. */
export const descriptors: ReadonlyArray<Descriptor> = Endpoint.collect(Core)

/** A suite's entries, one per endpoint, keyed by the endpoint's name (`tax.spotRecords`). */
export type ByEndpoint<A> = { readonly [name: string]: A }

/** What a table lacks or has too many: one line per endpoint without an entry, and per key naming no endpoint. */
export const gaps = <A>(table: ByEndpoint<A>): ReadonlyArray<string> => {
  const names = new Set(descriptors.map((endpoint) => endpoint.name))
  return [
    ...descriptors.filter((endpoint) => !Object.hasOwn(table, endpoint.name)).map((endpoint) =>
      `no entry for ${endpoint.name} (${endpoint.method} ${endpoint.path})`
    ),
    ...Object.keys(table).filter((name) => !names.has(name)).map((name) => `an entry for ${name}, which core lacks`)
  ]
}

/**
 * Each entry of a suite's table with its descriptor, in the table's order,
 * and a test that fails, naming them, when the table lacks an endpoint or
 * names one core does not have.
 */
export const covered = <A>(table: ByEndpoint<A>): ReadonlyArray<readonly [Descriptor, A]> => {
  it("has an entry for every endpoint core exports", () => {
    assert.deepStrictEqual(gaps(table), [], "endpoints and the suite's table differ")
  })
  return Object.entries(table).flatMap(([name, entry]) => {
    const endpoint = descriptors.find((descriptor) => descriptor.name === name)
    return endpoint === undefined ? [] : [[endpoint, entry] as const]
  })
}
