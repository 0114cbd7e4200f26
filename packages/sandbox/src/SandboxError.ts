/**
 * The ways starting a sandbox can fail.
 *
 * @since 0.1.0
 */
import * as Schema from "effect/Schema"

/**
 * The sandbox could not start: the address could not be bound (`Serve`), the
 * RSA key given could not be read (`Key`), or an option is out of range (`Options`).
 *
 * @since 0.1.0
 * @category errors
 */
export class SandboxError extends Schema.TaggedError<SandboxError>("@bitget-effect/sandbox/SandboxError")(
  "SandboxError",
  {
    reason: Schema.Literals(["Serve", "Key", "Options"]),
    description: Schema.String
  }
) {
  override get message(): string {
    return `sandbox failed to start (${this.reason}): ${this.description}`
  }
}
