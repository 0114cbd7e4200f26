/**
 * How much the sandbox's answers vary in shape. The live exchange sends some
 * things in more than one shape (`requestTime` as a number or a string, an
 * optional field present or left out, book levels as strings or numbers);
 * `varied`, the default, sends each of those shapes, drawn from the seed, so
 * one test run meets all of them. `canonical` sends one fixed shape (the one
 * of Bitget's current doc page), for users who snapshot answers.
 *
 * @since 0.2.0
 */

/**
 * The shape modes, `varied` first (the default).
 *
 * @since 0.2.0
 * @category constants
 */
export const modes = ["varied", "canonical"] as const

/**
 * A shape mode.
 *
 * @since 0.2.0
 * @category models
 */
export type Shapes = (typeof modes)[number]
