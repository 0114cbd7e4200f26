/**
 * Where the records go: standard output, or a partial file that becomes the
 * output file only when the export is complete. Every write is waited for
 * (the file has the bytes, or the pipe took them), so the file's count of bytes
 * written is exact at any point and memory stays flat whatever the export's
 * size.
 *
 * @since 0.1.0
 */
import * as Effect from "effect/Effect"
import * as FileSystem from "effect/FileSystem"
import type * as PlatformError from "effect/PlatformError"
import * as Schema from "effect/Schema"
import type * as Scope from "effect/Scope"

/**
 * Standard output was closed by its reader (`bitget export … | head`).
 *
 * @since 0.1.0
 * @category errors
 */
export class StdoutClosed extends Schema.TaggedError<StdoutClosed>("@bitget-effect/cli/StdoutClosed")(
  "StdoutClosed",
  {}
) {
  override get message(): string {
    return "standard output was closed"
  }
}

/**
 * A destination for text.
 *
 * @since 0.1.0
 * @category models
 */
export interface Output<E> {
  /** Writes text and waits until it is written. */
  readonly write: (text: string) => Effect.Effect<void, E>
}

/**
 * A file open for the records: an `Output` that can also be flushed to disk.
 *
 * @since 0.2.0
 * @category models
 */
export interface FileOutput extends Output<PlatformError.PlatformError> {
  /** Bytes written so far, counting those kept from an earlier run. */
  readonly bytes: () => number
  /** Waits until what was written is on disk. */
  readonly sync: Effect.Effect<void, PlatformError.PlatformError>
}

const encoder = new TextEncoder()

/**
 * Standard output, written with backpressure (each write waits until the
 * stream has taken it).
 *
 * @since 0.1.0
 * @category constructors
 */
export const stdout: Effect.Effect<Output<StdoutClosed>> = Effect.sync(() => {
  // an EPIPE is reported to the write's callback; without a listener it would also crash the process
  process.stdout.on("error", () => {})
  return {
    write: (text) =>
      text === "" ? Effect.void : Effect.callback<void, StdoutClosed>((resume) => {
        process.stdout.write(encoder.encode(text), (error) => {
          if (error === null || error === undefined) {
            resume(Effect.void)
          } else {
            resume(Effect.fail(new StdoutClosed()))
          }
        })
      })
  }
})

/**
 * A file open for the records: created empty (`keep` is `undefined`), or
 * cut to its first `keep` bytes and written on from there (a resumed
 * export). Closed with the scope.
 *
 * @since 0.1.0
 * @category constructors
 */
export const file = (
  path: string,
  keep: number | undefined
): Effect.Effect<FileOutput, PlatformError.PlatformError, FileSystem.FileSystem | Scope.Scope> =>
  Effect.gen(function*() {
    const fs = yield* FileSystem.FileSystem
    const handle = yield* fs.open(path, { flag: keep === undefined ? "w" : "r+" })
    if (keep !== undefined) {
      yield* handle.truncate(keep)
      yield* handle.seek(BigInt(keep), "start")
    }
    let bytes = keep ?? 0
    return {
      bytes: () => bytes,
      sync: handle.sync,
      // a write is not cut short: the count stays exact and no write lands after the file is closed
      write: (text) => {
        if (text === "") return Effect.void
        const data = encoder.encode(text)
        return Effect.uninterruptible(Effect.map(handle.writeAll(data), () => {
          bytes += data.length
        }))
      }
    }
  })
