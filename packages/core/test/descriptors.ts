/**
 * Every endpoint descriptor core exports, found by walking its modules (as the
 * e2e agreement test does), so that a suite that must cover every endpoint
 * takes its list from here and fails on a new one it has no entry for.
 */
import { assert, it } from "@effect/vitest"
import * as Endpoint from "../src/Endpoint.js"
import * as Core from "../src/index.js"

/** An endpoint descriptor, whatever its request and answer. */
type Descriptor = Endpoint.Endpoint<unknown, unknown, object, unknown>

/** Every descriptor exported by a module of core, each once. */
export const descriptors: ReadonlyArray<Descriptor> = Endpoint.collect(Core)

/** A suite's entries, one per endpoint, keyed by the endpoint's name (`tax.spotRecords`). */
export type ByEndpoint<A> = { readonly [name: string]: A }

/**
 * Each entry of a suite's table with its descriptor, in the table's order,
 * and a test that fails, naming them, when the table lacks an endpoint or
 * names one core does not have.
 */
export const covered = <A>(table: ByEndpoint<A>): ReadonlyArray<readonly [Descriptor, A]> => {
  it("has an entry for every endpoint core exports", () => {
    assert.deepStrictEqual(Endpoint.gaps(descriptors, table), [], "endpoints and the suite's table differ")
  })
  return Object.entries(table).flatMap(([name, entry]) => {
    const endpoint = descriptors.find((descriptor) => descriptor.name === name)
    return endpoint === undefined ? [] : [[endpoint, entry] as const]
  })
}
