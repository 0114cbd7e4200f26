/**
 * The modules under mutation testing: where a bug costs money or leaks a
 * secret. One table, read by the script (`run.ts`) and, through the section it
 * writes, by docs/reliability.md. `threshold` is the score a module's tests were
 * brought to and are held at: below it the run fails. A module without one is
 * reported, not enforced.
 */

/** A workspace package whose unit tests kill the mutants of its modules. */
export type Package = "core" | "cli"

export interface Module {
  /** What `--module` takes. */
  readonly name: string
  readonly package: Package
  /** What a bug in it breaks. */
  readonly guards: string
  /** Its files, from the repository root (globs allowed). */
  readonly files: ReadonlyArray<string>
  /**
   * The test files run against its mutants, when its own tests are to kill
   * them all (a change to one reruns the module in CI); else every unit test
   * of its package.
   */
  readonly tests?: ReadonlyArray<string>
  /** The least score (percent) enforced, when its tests were brought there. */
  readonly threshold?: number
}

const core = (file: string) => `packages/core/src/${file}`
const coreTest = (file: string) => `packages/core/test/${file}`

export const modules: ReadonlyArray<Module> = [
  {
    name: "Retry",
    package: "core",
    guards: "retry and idempotency",
    files: [core("Retry.ts")],
    tests: [coreTest("Retry.test.ts")],
    threshold: 90
  },
  {
    name: "Signer",
    package: "core",
    guards: "signing, canonical query",
    files: [core("Signer.ts"), core("client/request.ts")],
    tests: [coreTest("Signer.test.ts"), coreTest("request.test.ts")],
    threshold: 90
  },
  {
    name: "redact",
    package: "core",
    guards: "secret redaction",
    files: [core("internal/redact.ts")],
    tests: [coreTest("redact.test.ts"), coreTest("SecretsInTelemetry.test.ts")],
    threshold: 90
  },
  {
    name: "envelope",
    package: "core",
    guards: "envelope, error classification",
    files: [core("client/envelope.ts"), core("BitgetError.ts"), core("FailureText.ts")],
    tests: [coreTest("BitgetError.test.ts"), coreTest("envelope.test.ts")],
    threshold: 90
  },
  {
    name: "BatchCancel",
    package: "core",
    guards: "batch-cancel accounting",
    files: [core("BatchCancel.ts"), core("internal/batchChecks.ts"), core("internal/cancelWorkflow.ts")],
    tests: [coreTest("BatchCancel.test.ts"), coreTest("CancelOrders.test.ts")],
    threshold: 90
  },
  {
    name: "RateLimiter",
    package: "core",
    guards: "rate limiter",
    files: [
      core("RateLimiter.ts"),
      core("RateLimiterStore.ts"),
      core("internal/settlements.ts"),
      core("internal/bucketGates.ts")
    ],
    tests: [coreTest("RateLimiter.test.ts"), coreTest("RateLimiterPacing.test.ts"), coreTest("limiterDetails.test.ts")],
    threshold: 90
  },
  {
    name: "paging",
    package: "core",
    guards: "pagination and windows",
    files: [core("paging/*.ts")],
    tests: [
      coreTest("paginate.test.ts"),
      coreTest("Streams.test.ts"),
      coreTest("pagingWalk.test.ts"),
      coreTest("resumable.test.ts"),
      // the one page of a kept history (`paging/keptHistory.ts`): refused or completed before sending
      coreTest("FuturesHistory.test.ts"),
      // the open walk of a kept history: the times sent, fresh, narrowed and resumed
      coreTest("keptHistory.test.ts")
    ],
    threshold: 90
  },
  {
    name: "Schemas",
    package: "core",
    guards: "decimal and timestamp decoding",
    files: [
      core("Schemas.ts"),
      core("DecimalSchemas.ts"),
      core("TimestampSchemas.ts"),
      core("EnumSchemas.ts"),
      core("internal/decimalText.ts"),
      core("internal/timestampText.ts")
    ],
    tests: [
      coreTest("Schemas.test.ts"),
      coreTest("decimalText.test.ts"),
      coreTest("schemasFields.test.ts"),
      coreTest("schemasJson.test.ts")
    ],
    threshold: 90
  },
  {
    name: "encoder",
    package: "core",
    guards: "request encoding",
    files: [core("internal/encoder.ts")],
    tests: [coreTest("encoding.test.ts")],
    threshold: 90
  },
  {
    name: "checkpoint",
    package: "cli",
    guards: "the CLI's export checkpoint",
    files: ["packages/cli/src/internal/checkpoint.ts"],
    tests: ["packages/cli/test/checkpoint.test.ts"],
    threshold: 90
  }
]
