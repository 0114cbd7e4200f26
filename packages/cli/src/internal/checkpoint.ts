/**
 * The checkpoint of an export to a file: `FILE.checkpoint.json` beside the
 * partial output `FILE.part`. It names the export (kind, product type,
 * format, range) and a point up to which the output is complete: the byte
 * length of `FILE.part`, the records in it, and the core stream's own
 * checkpoint after the last of them (`Resumable`), from which the walk goes
 * on neither repeating nor skipping a record. Written atomically (a
 * temporary file renamed over it) after every page.
 *
 * @since 0.1.0
 */
import * as FuturesHistory from "@bitget-effect/core/FuturesHistory"
import * as Resumable from "@bitget-effect/core/Resumable"
import * as DateTime from "effect/DateTime"
import * as Effect from "effect/Effect"
import * as FileSystem from "effect/FileSystem"
import * as Option from "effect/Option"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import * as ExportKind from "./exportKind.js"
import * as Format from "./format.js"
import { UsageError } from "./usageError.js"

const NonNegativeInt = Schema.Int.check(Schema.isGreaterThanOrEqualTo(0))

/**
 * A checkpoint.
 *
 * @since 0.1.0
 * @category models
 */
export class Checkpoint extends Schema.Class<Checkpoint>("Checkpoint")({
  version: Schema.Literal(2),
  kind: Schema.Literals(ExportKind.kinds),
  /** The product type of a futures export; `null` for the others. */
  productType: Schema.NullOr(Schema.Literals(FuturesHistory.productTypes)),
  format: Schema.Literals(Format.formats),
  /** The range exported, both ends included (ISO 8601 in the file). */
  from: Schema.DateTimeUtcFromString,
  to: Schema.DateTimeUtcFromString,
  /** The partial file's first `bytes` bytes hold the header and `records` records, those before `stream`. */
  bytes: NonNegativeInt,
  records: NonNegativeInt,
  /** The stream's checkpoint after the records kept; `null` before the first page. */
  stream: Schema.NullOr(Resumable.Checkpoint)
}) {}

/**
 * `true` for a checkpoint that holds no progress: no page walked (resuming
 * from it is starting over).
 *
 * @since 0.2.0
 * @category predicates
 */
export const isEmpty = (checkpoint: Checkpoint): boolean => checkpoint.stream === null

const CheckpointJson = Schema.fromJsonString(Checkpoint, { space: 2 })
const decode = Schema.decodeUnknownResult(CheckpointJson)
const encode = Schema.encodeSync(CheckpointJson)
/** Reads an earlier version's checkpoint only to say so. */
const decodeVersion1 = Schema.decodeUnknownResult(
  Schema.fromJsonString(Schema.Struct({ version: Schema.Literal(1), resumeFrom: Schema.String }))
)

/**
 * The files of an export to `out`: the partial output and the checkpoint.
 *
 * @since 0.1.0
 * @category models
 */
export interface Paths {
  readonly out: string
  readonly part: string
  readonly checkpoint: string
}

/**
 * The files beside `out`.
 *
 * @since 0.1.0
 * @category constructors
 */
export const paths = (out: string): Paths => ({ out, part: `${out}.part`, checkpoint: `${out}.checkpoint.json` })

/**
 * Reads a checkpoint: `None` when there is none, a `UsageError` when the file
 * cannot be read as one.
 *
 * @since 0.1.0
 * @category operations
 */
export const read = (path: string): Effect.Effect<Option.Option<Checkpoint>, UsageError, FileSystem.FileSystem> =>
  Effect.gen(function*() {
    const fs = yield* FileSystem.FileSystem
    const unreadable = (why: string) =>
      new UsageError({ problem: `cannot read the checkpoint ${path} (${why}): delete it to start over` })
    if (!(yield* Effect.orElseSucceed(fs.exists(path), () => false))) return Option.none()
    const text = yield* Effect.mapError(fs.readFileString(path), (error) => unreadable(error.message))
    const decoded = decode(text)
    if (Result.isSuccess(decoded)) return Option.some(decoded.success)
    return yield* unreadable(
      Result.isSuccess(decodeVersion1(text))
        ? "written by bitget 0.2, which resumed from a time; finish it with @bitget-effect/cli@0.2"
        : "not a checkpoint of this version"
    )
  })

/**
 * Writes a checkpoint atomically: to `path.tmp`, then renamed over `path`.
 *
 * @since 0.1.0
 * @category operations
 */
export const write = (path: string, checkpoint: Checkpoint) =>
  Effect.gen(function*() {
    const fs = yield* FileSystem.FileSystem
    const temporary = `${path}.tmp`
    yield* fs.writeFileString(temporary, encode(checkpoint) + "\n")
    yield* fs.rename(temporary, path)
  })

/**
 * What an export asks for, to compare with a checkpoint.
 *
 * @since 0.1.0
 * @category models
 */
export interface Wanted {
  readonly kind: ExportKind.Kind
  readonly productType: ExportKind.ProductType | null
  readonly format: Format.Format
  readonly from: DateTime.Utc
  /** `None` when `--to` was not given (then the checkpoint's applies). */
  readonly to: Option.Option<DateTime.Utc>
}

/**
 * How a checkpoint differs from what is asked, one line per difference
 * (empty when they match).
 *
 * @since 0.1.0
 * @category predicates
 */
export const differences = (checkpoint: Checkpoint, wanted: Wanted): ReadonlyArray<string> => {
  const out: Array<string> = []
  const compare = (name: string, saved: string, asked: string) => {
    if (saved !== asked) out.push(`${name} is ${asked}, the checkpoint's is ${saved}`)
  }
  compare("the export", checkpoint.kind, wanted.kind)
  compare("--product-type", checkpoint.productType ?? "(none)", wanted.productType ?? "(none)")
  compare("--format", checkpoint.format, wanted.format)
  compare("--from", DateTime.formatIso(checkpoint.from), DateTime.formatIso(wanted.from))
  if (Option.isSome(wanted.to)) compare("--to", DateTime.formatIso(checkpoint.to), DateTime.formatIso(wanted.to.value))
  return out
}

/**
 * What `--resume` continues from: the checkpoint beside `paths.out`, checked
 * against what is asked and against `FILE.part` (at least as long as the
 * checkpoint says). Fails with a `UsageError` when there is none or it does
 * not fit.
 *
 * @since 0.2.0
 * @category accessors
 */
export const resumePoint = (
  paths: Paths,
  wanted: Wanted
): Effect.Effect<Checkpoint, UsageError, FileSystem.FileSystem> =>
  Effect.gen(function*() {
    const fs = yield* FileSystem.FileSystem
    const saved = yield* read(paths.checkpoint)
    if (Option.isNone(saved)) {
      return yield* new UsageError({
        problem: `nothing to resume: there is no checkpoint ${paths.checkpoint} (run without --resume to start)`
      })
    }
    const checkpoint = saved.value
    const problems = differences(checkpoint, wanted)
    if (problems.length > 0) {
      return yield* new UsageError({
        problem: `the checkpoint ${paths.checkpoint} is of another export: ${problems.join("; ")}`
      })
    }
    const size = yield* fs.stat(paths.part).pipe(
      Effect.map((info) => Number(info.size)),
      Effect.orElseSucceed(() => -1)
    )
    if (size < checkpoint.bytes) {
      return yield* new UsageError({
        problem:
          `${paths.part} is ${
            size < 0 ? "missing" : `shorter than the checkpoint says (${size} < ${checkpoint.bytes} bytes)`
          }: ` +
          `delete ${paths.checkpoint} to start over`
      })
    }
    return checkpoint
  })

/**
 * Fails with a `UsageError` when `paths.out` exists (an earlier export, done):
 * it names the file, and `--force` to replace it, or `--resume` to continue
 * the export that a checkpoint beside it keeps.
 *
 * @since 0.2.0
 * @category operations
 */
export const refuseToReplace = (paths: Paths): Effect.Effect<void, UsageError, FileSystem.FileSystem> =>
  Effect.gen(function*() {
    const fs = yield* FileSystem.FileSystem
    const exists = (path: string) => Effect.orElseSucceed(fs.exists(path), () => false)
    if (!(yield* exists(paths.out))) return
    const resumable = yield* exists(paths.checkpoint)
    return yield* new UsageError({
      problem: `--out ${paths.out} already exists: add --force to replace it` +
        (resumable ? `, or --resume to continue the export ${paths.checkpoint} keeps` : ", or choose another --out")
    })
  })
