/**
 * Generators shared by the property tests (decoding and encoding).
 */
import { Arbitrary, Schema } from "effect"

/** Integers from `minimum` to `maximum`, inclusive. */
export const integer = (minimum: number, maximum: number): Arbitrary.Arbitrary<number> =>
  Arbitrary.schema(Schema.Int.check(Schema.isBetween({ minimum, maximum })))

/** A natural number below 2^31. */
export const nat: Arbitrary.Arbitrary<number> = integer(0, 2 ** 31 - 1)

/** One of the given values (shrinking towards the first). */
export const constantFrom = <A>(values: ReadonlyArray<A>): Arbitrary.Arbitrary<A> =>
  Arbitrary.map(integer(0, values.length - 1), (index) => values[index] as A)

/** A value of one of the given generators, each as likely (shrinking towards the first). */
export const oneOf = <A>(...arbitraries: ReadonlyArray<Arbitrary.Arbitrary<A>>): Arbitrary.Arbitrary<A> =>
  Arbitrary.flatMap(integer(0, arbitraries.length - 1), (index) => arbitraries[index] as Arbitrary.Arbitrary<A>)
