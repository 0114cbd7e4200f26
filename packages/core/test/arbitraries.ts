/**
 * Generators shared by the property tests (decoding and encoding), and a
 * property check that counts the inputs reaching each branch under test.
 */
import { Arbitrary, Effect, Schema } from "effect"

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

/**
 * Arrays of `minLength` to `maxLength` items, the length drawn first
 * (shrinking towards `minLength`). `Arbitrary.array` grows its arrays with
 * the run's size, at most 10 unless a check sets it, so its `maxLength` is
 * never reached beyond that: a generator that promises longer values draws
 * their length itself.
 */
export const arrayOf = <A>(
  item: Arbitrary.Arbitrary<A>,
  minLength: number,
  maxLength: number
): Arbitrary.Arbitrary<Array<A>> =>
  Arbitrary.flatMap(
    integer(minLength, maxLength),
    (length) => Arbitrary.array(item, { minLength: length, maxLength: length })
  )

/** Text of `minLength` to `maxLength` characters, each one of `alphabet`. */
export const textOf = (alphabet: string, minLength: number, maxLength: number): Arbitrary.Arbitrary<string> =>
  Arbitrary.map(
    arrayOf(integer(0, alphabet.length - 1), minLength, maxLength),
    (indexes) => indexes.map((i) => alphabet[i]).join("")
  )

/**
 * Checks `property` over `arbitrary` as `it.prop` does (a failing input is
 * shrunk, then fails the test with the counterexample) and answers, for each
 * of `branches`, how many of the inputs checked it held for. A test asserts
 * a minimum of each, so a generator that stops reaching the inputs a
 * property is about fails the test instead of passing it untested.
 */
export const checkCounting = <A, K extends string>(
  arbitrary: Arbitrary.Arbitrary<A>,
  branches: { readonly [key in K]: (input: A) => boolean },
  property: (input: A) => void,
  options: Arbitrary.CheckOptions
): Effect.Effect<{ readonly [key in K]: number }> =>
  Effect.suspend(() => {
    const tests = Object.entries<(input: A) => boolean>(branches)
    const counts = new Map(tests.map(([key]) => [key, 0]))
    const check = (input: A) => {
      for (const [key, holds] of tests) if (holds(input)) counts.set(key, (counts.get(key) ?? 0) + 1)
      // a thrown assertion fails the property (a defect would end the check unshrunk)
      return Effect.as(Effect.catchCause(Effect.sync(() => property(input)), Effect.fail), true)
    }
    return Effect.flatMap(Arbitrary.checkEffect(arbitrary, check, options), (result) => {
      const failure = Arbitrary.formatCheckFailure(result)
      return failure === undefined
        ? Effect.succeed(Object.fromEntries(counts) as { readonly [key in K]: number })
        : Effect.die(new Error(failure))
    })
  })
