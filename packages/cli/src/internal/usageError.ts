/**
 * A command line the export cannot run: a bad time, a flag that does not
 * fit the export, a checkpoint that does not match. Found before anything
 * is sent; the command exits with code 2.
 *
 * @since 0.1.0
 */
import * as Schema from "effect/Schema"

/**
 * A usage error, with the message printed to the user.
 *
 * @since 0.1.0
 * @category errors
 */
export class UsageError extends Schema.TaggedError<UsageError>("@bitget-effect/cli/UsageError")("UsageError", {
  problem: Schema.String
}) {
  override get message(): string {
    return this.problem
  }
}

/**
 * `true` for a `UsageError`.
 *
 * @since 0.1.0
 * @category predicates
 */
export const isUsageError = (u: unknown): u is UsageError => u instanceof UsageError
