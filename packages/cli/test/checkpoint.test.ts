/**
 * The checkpoint of an export to a file, on a real file system: written as
 * readable JSON and read back, what counts as no progress, how a checkpoint
 * differs from the export asked, when `--resume` can continue from it (the
 * `.part` file at least as long as it says), and when an existing `--out` is
 * refused. A file system that cannot say whether a file exists counts it as
 * missing.
 */
import * as Resumable from "@bitget-effect/core/Resumable"
import * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
import { assert, describe, it } from "@effect/vitest"
import { DateTime, Effect, Exit, FileSystem, Option, PlatformError } from "effect"
import { join } from "node:path"
import * as Checkpoint from "../src/internal/checkpoint.js"
import { UsageError } from "../src/internal/usageError.js"

const from = DateTime.makeUnsafe("2025-01-01T00:00:00.000Z")
const to = DateTime.makeUnsafe("2025-03-31T23:59:59.999Z")
const midway = DateTime.makeUnsafe("2025-02-01T00:00:00.000Z")

/** The tax stream's checkpoint after a page of the second 30-day window. */
const stream = new Resumable.Checkpoint({
  version: 1,
  stream: "GET /api/v2/tax/spot-record",
  start: from,
  end: to,
  spanMillis: 30 * 86_400_000,
  order: "oldestFirst",
  next: new Resumable.Position({ window: 1, windowEnd: midway, cursor: "1203", seen: ["1204", "1203"] })
})

/** A checkpoint of a tax export to CSV, with `overrides`. */
const checkpointOf = (overrides: Partial<ConstructorParameters<typeof Checkpoint.Checkpoint>[0]> = {}) =>
  new Checkpoint.Checkpoint({
    version: 2,
    kind: "tax-records",
    productType: null,
    format: "csv",
    from,
    to,
    bytes: 53,
    records: 120,
    stream,
    ...overrides
  })

/** What the export of `checkpointOf()` asks for, with `overrides`. */
const wantedOf = (overrides: Partial<Checkpoint.Wanted> = {}): Checkpoint.Wanted => ({
  kind: "tax-records",
  productType: null,
  format: "csv",
  from,
  to: Option.some(to),
  ...overrides
})

/** A temporary directory on the real file system, removed after the test, with the paths of an export to it. */
const exportDir = Effect.gen(function*() {
  const fs = yield* FileSystem.FileSystem
  const dir = yield* fs.makeTempDirectoryScoped({ prefix: "bitget-checkpoint-" })
  return { dir, paths: Checkpoint.paths(join(dir, "tax.csv")) }
})

/** The problem of a `UsageError` an effect fails with (fails the test on anything else). */
const problemOf = <A, R>(effect: Effect.Effect<A, UsageError, R>) =>
  Effect.gen(function*() {
    const exit = yield* Effect.exit(effect)
    if (Exit.isSuccess(exit)) return assert.fail(`succeeded with ${String(exit.value)}`)
    const error = exit.cause.reasons.find((reason) => reason._tag === "Fail")?.error
    assert.instanceOf(error, UsageError, String(exit.cause))
    return (error as UsageError).problem
  })

/** A file system on which asking whether a file exists fails (as a permission error may), and nothing exists. */
const existsFails = FileSystem.layerNoop({
  exists: (path) =>
    Effect.fail(
      PlatformError.systemError({
        _tag: "PermissionDenied",
        module: "FileSystem",
        method: "exists",
        pathOrDescriptor: path
      })
    )
})

describe("Checkpoint", () => {
  it("keeps the partial output and the checkpoint beside --out", () => {
    assert.deepStrictEqual(Checkpoint.paths("/tmp/tax.csv"), {
      out: "/tmp/tax.csv",
      part: "/tmp/tax.csv.part",
      checkpoint: "/tmp/tax.csv.checkpoint.json"
    })
  })

  it("prints as a Checkpoint, with its fields", () => {
    assert.match(
      String(checkpointOf()),
      /^Checkpoint\(\{"version":2,"kind":"tax-records",.*"records":120,"stream":.*"cursor":"1203".*\}\)$/
    )
  })

  it("holds no progress only before the first page", () => {
    assert.isTrue(Checkpoint.isEmpty(checkpointOf({ records: 0, stream: null })))
    assert.isFalse(Checkpoint.isEmpty(checkpointOf({ records: 0 })), "a page with no record")
    assert.isFalse(Checkpoint.isEmpty(checkpointOf({ records: 3 })))
  })

  it.effect("writes readable JSON, ending with a newline, that reads back as the checkpoint; no temporary file stays", () =>
    Effect.gen(function*() {
      const fs = yield* FileSystem.FileSystem
      const { dir, paths } = yield* exportDir
      const checkpoint = checkpointOf({ kind: "futures-orders", productType: "COIN-FUTURES", format: "ndjson" })
      yield* Checkpoint.write(paths.checkpoint, checkpoint)
      assert.strictEqual(
        yield* fs.readFileString(paths.checkpoint),
        [
          "{",
          "  \"version\": 2,",
          "  \"kind\": \"futures-orders\",",
          "  \"productType\": \"COIN-FUTURES\",",
          "  \"format\": \"ndjson\",",
          "  \"from\": \"2025-01-01T00:00:00.000Z\",",
          "  \"to\": \"2025-03-31T23:59:59.999Z\",",
          "  \"bytes\": 53,",
          "  \"records\": 120,",
          "  \"stream\": {",
          "    \"version\": 1,",
          "    \"stream\": \"GET /api/v2/tax/spot-record\",",
          "    \"start\": \"2025-01-01T00:00:00.000Z\",",
          "    \"end\": \"2025-03-31T23:59:59.999Z\",",
          "    \"spanMillis\": 2592000000,",
          "    \"order\": \"oldestFirst\",",
          "    \"next\": {",
          "      \"window\": 1,",
          "      \"windowEnd\": \"2025-02-01T00:00:00.000Z\",",
          "      \"cursor\": \"1203\",",
          "      \"seen\": [",
          "        \"1204\",",
          "        \"1203\"",
          "      ]",
          "    }",
          "  }",
          "}",
          ""
        ].join("\n")
      )
      assert.deepStrictEqual(yield* fs.readDirectory(dir), ["tax.csv.checkpoint.json"])
      const read = yield* Checkpoint.read(paths.checkpoint)
      assert.isTrue(Option.isSome(read))
      assert.deepStrictEqual(Option.getOrThrow(read), checkpoint)
      // written again: replaced whole
      yield* Checkpoint.write(paths.checkpoint, checkpointOf({ records: 7 }))
      assert.strictEqual(Option.getOrThrow(yield* Checkpoint.read(paths.checkpoint)).records, 7)
    }).pipe(Effect.scoped, Effect.provide(NodeFileSystem.layer)))

  it.effect("reads None where there is no checkpoint, and refuses a file that is not one, saying what to do", () =>
    Effect.gen(function*() {
      const fs = yield* FileSystem.FileSystem
      const { dir, paths } = yield* exportDir
      assert.isTrue(Option.isNone(yield* Checkpoint.read(paths.checkpoint)))
      const json = JSON.parse(JSON.stringify(checkpointOf()))
      for (const text of ["{", JSON.stringify({ ...json, version: 3 }), JSON.stringify({ ...json, stream: {} })]) {
        yield* fs.writeFileString(paths.checkpoint, text)
        assert.strictEqual(
          yield* problemOf(Checkpoint.read(paths.checkpoint)),
          `cannot read the checkpoint ${paths.checkpoint} (not a checkpoint of this version): delete it to start over`,
          text
        )
      }
      // an export of 0.2 resumed from a time
      yield* fs.writeFileString(
        paths.checkpoint,
        JSON.stringify({ ...json, version: 1, stream: undefined, resumeFrom: DateTime.formatIso(midway) })
      )
      assert.strictEqual(
        yield* problemOf(Checkpoint.read(paths.checkpoint)),
        `cannot read the checkpoint ${paths.checkpoint} (written by bitget 0.2, which resumed from a time; finish ` +
          "it with @bitget-effect/cli@0.2): delete it to start over"
      )
      // there, but not a file that can be read
      const directory = join(dir, "directory.checkpoint.json")
      yield* fs.makeDirectory(directory)
      const problem = yield* problemOf(Checkpoint.read(directory))
      assert.isTrue(problem.startsWith(`cannot read the checkpoint ${directory} (BadResource: `), problem)
      assert.isTrue(problem.endsWith("): delete it to start over"), problem)
    }).pipe(Effect.scoped, Effect.provide(NodeFileSystem.layer)))

  it.effect("reads None when the file system cannot say whether the checkpoint exists", () =>
    Effect.gen(function*() {
      assert.isTrue(Option.isNone(yield* Checkpoint.read("/nowhere/tax.csv.checkpoint.json")))
    }).pipe(Effect.provide(existsFails)))

  it("names each way a checkpoint differs from the export asked, and --to only when given", () => {
    assert.deepStrictEqual(Checkpoint.differences(checkpointOf(), wantedOf()), [])
    assert.deepStrictEqual(Checkpoint.differences(checkpointOf(), wantedOf({ to: Option.none() })), [])
    assert.deepStrictEqual(
      Checkpoint.differences(
        checkpointOf(),
        wantedOf({
          kind: "futures-orders",
          productType: "USDT-FUTURES",
          format: "ndjson",
          from: midway,
          to: Option.some(midway)
        })
      ),
      [
        "the export is futures-orders, the checkpoint's is tax-records",
        "--product-type is USDT-FUTURES, the checkpoint's is (none)",
        "--format is ndjson, the checkpoint's is csv",
        "--from is 2025-02-01T00:00:00.000Z, the checkpoint's is 2025-01-01T00:00:00.000Z",
        "--to is 2025-02-01T00:00:00.000Z, the checkpoint's is 2025-03-31T23:59:59.999Z"
      ]
    )
    assert.deepStrictEqual(
      Checkpoint.differences(
        checkpointOf({ kind: "futures-orders", productType: "COIN-FUTURES" }),
        wantedOf({ kind: "futures-orders", productType: "COIN-FUTURES", to: Option.none() })
      ),
      []
    )
    assert.deepStrictEqual(
      Checkpoint.differences(checkpointOf({ productType: "COIN-FUTURES" }), wantedOf({ to: Option.none() })),
      ["--product-type is (none), the checkpoint's is COIN-FUTURES"]
    )
  })

  it.effect("resumes from a checkpoint of the same export whose .part is at least as long as it says", () =>
    Effect.gen(function*() {
      const fs = yield* FileSystem.FileSystem
      const { paths } = yield* exportDir
      const checkpoint = checkpointOf({ bytes: 10 })
      assert.strictEqual(
        yield* problemOf(Checkpoint.resumePoint(paths, wantedOf())),
        `nothing to resume: there is no checkpoint ${paths.checkpoint} (run without --resume to start)`
      )
      yield* Checkpoint.write(paths.checkpoint, checkpoint)
      assert.strictEqual(
        yield* problemOf(Checkpoint.resumePoint(paths, wantedOf({ format: "ndjson", from: midway }))),
        `the checkpoint ${paths.checkpoint} is of another export: ` +
          "--format is ndjson, the checkpoint's is csv; " +
          "--from is 2025-02-01T00:00:00.000Z, the checkpoint's is 2025-01-01T00:00:00.000Z"
      )
      assert.strictEqual(
        yield* problemOf(Checkpoint.resumePoint(paths, wantedOf())),
        `${paths.part} is missing: delete ${paths.checkpoint} to start over`
      )
      yield* fs.writeFileString(paths.part, "123456789")
      assert.strictEqual(
        yield* problemOf(Checkpoint.resumePoint(paths, wantedOf())),
        `${paths.part} is shorter than the checkpoint says (9 < 10 bytes): delete ${paths.checkpoint} to start over`
      )
      for (const part of ["1234567890", "1234567890 and more written after the checkpoint"]) {
        yield* fs.writeFileString(paths.part, part)
        assert.deepStrictEqual(yield* Checkpoint.resumePoint(paths, wantedOf()), checkpoint, part)
        assert.deepStrictEqual(yield* Checkpoint.resumePoint(paths, wantedOf({ to: Option.none() })), checkpoint, part)
      }
    }).pipe(Effect.scoped, Effect.provide(NodeFileSystem.layer)))

  it.effect("tells a missing .part from an empty one when the checkpoint counts a single byte", () =>
    Effect.gen(function*() {
      const fs = yield* FileSystem.FileSystem
      const { paths } = yield* exportDir
      yield* Checkpoint.write(paths.checkpoint, checkpointOf({ bytes: 1 }))
      assert.strictEqual(
        yield* problemOf(Checkpoint.resumePoint(paths, wantedOf())),
        `${paths.part} is missing: delete ${paths.checkpoint} to start over`
      )
      yield* fs.writeFileString(paths.part, "")
      assert.strictEqual(
        yield* problemOf(Checkpoint.resumePoint(paths, wantedOf())),
        `${paths.part} is shorter than the checkpoint says (0 < 1 bytes): delete ${paths.checkpoint} to start over`
      )
    }).pipe(Effect.scoped, Effect.provide(NodeFileSystem.layer)))

  it.effect("refuses an existing --out, offering --resume only when a checkpoint is beside it", () =>
    Effect.gen(function*() {
      const fs = yield* FileSystem.FileSystem
      const { paths } = yield* exportDir
      yield* Checkpoint.refuseToReplace(paths)
      // a checkpoint without the file: nothing to replace
      yield* Checkpoint.write(paths.checkpoint, checkpointOf())
      yield* Checkpoint.refuseToReplace(paths)
      yield* fs.writeFileString(paths.out, "id\n")
      assert.strictEqual(
        yield* problemOf(Checkpoint.refuseToReplace(paths)),
        `--out ${paths.out} already exists: add --force to replace it, or --resume to continue the export ` +
          `${paths.checkpoint} keeps`
      )
      yield* fs.remove(paths.checkpoint)
      assert.strictEqual(
        yield* problemOf(Checkpoint.refuseToReplace(paths)),
        `--out ${paths.out} already exists: add --force to replace it, or choose another --out`
      )
    }).pipe(Effect.scoped, Effect.provide(NodeFileSystem.layer)))

  it.effect("does not refuse an --out the file system cannot say exists", () =>
    Checkpoint.refuseToReplace(Checkpoint.paths("/nowhere/tax.csv")).pipe(Effect.provide(existsFails)))
})
