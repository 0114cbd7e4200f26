/**
 * Progress on standard error: on a terminal, one line redrawn at most ten
 * times a second (records, pages, windows done of all, time spent waiting
 * for the rate limiter, elapsed time and an estimate of the rest);
 * elsewhere, the same line every five seconds; nothing with `--quiet`.
 * Effect's log lines (retries, rate limiting, clock syncs) are printed above
 * the bar. The view reads the export's state on its own timer: reporting
 * progress costs the export an assignment.
 *
 * @since 0.1.0
 */
import type * as StreamProgress from "@bitget-effect/core/StreamProgress"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Inspectable from "effect/Inspectable"
import * as Logger from "effect/Logger"
import * as LogLevel from "effect/LogLevel"
import * as Schedule from "effect/Schedule"
import type * as Scope from "effect/Scope"

/**
 * How progress is shown: a redrawn bar (a terminal), a line now and then
 * (a file or a pipe), or not at all.
 *
 * @since 0.1.0
 * @category models
 */
export type Mode = "bar" | "lines" | "quiet"

/**
 * The mode for a run: `quiet` when asked, a bar when standard error is a terminal.
 *
 * @since 0.1.0
 * @category constructors
 */
export const modeOf = (options: { readonly quiet: boolean; readonly terminal: boolean }): Mode =>
  options.quiet ? "quiet" : options.terminal ? "bar" : "lines"

/**
 * What the view shows.
 *
 * @since 0.1.0
 * @category models
 */
export interface Snapshot {
  /** What is exported, e.g. `tax-records`. */
  readonly label: string
  /** Records written, counting those of an earlier run that this one resumes. */
  readonly records: number
  /** The stream's latest report, if one has come. */
  readonly progress: StreamProgress.StreamProgress | undefined
  /** Time since this run started walking. */
  readonly elapsed: Duration.Duration
}

const thousands = new Intl.NumberFormat("en-US")

/**
 * A count with thousands separators (`12,345`).
 *
 * @since 0.1.0
 * @category formatting
 */
export const count = (n: number): string => thousands.format(n)

/**
 * A count with its noun, plural unless the count is one (`1 window`, `12,345 records`).
 *
 * @since 0.2.0
 * @category formatting
 */
export const counted = (n: number, noun: string): string => `${count(n)} ${n === 1 ? noun : `${noun}s`}`

/**
 * A duration as `m:ss` or `h:mm:ss`.
 *
 * @since 0.1.0
 * @category formatting
 */
export const clock = (duration: Duration.Duration): string => {
  const total = Math.max(0, Math.round(Duration.toSeconds(duration)))
  const hours = Math.floor(total / 3600)
  const minutes = Math.floor((total % 3600) / 60)
  const seconds = String(total % 60).padStart(2, "0")
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, "0")}:${seconds}` : `${minutes}:${seconds}`
}

/**
 * The time still to go, from the share of windows done so far (`--:--`
 * before the first window is done).
 *
 * @since 0.1.0
 * @category formatting
 */
export const eta = (snapshot: Snapshot): string => {
  const progress = snapshot.progress
  if (progress === undefined || progress.windowsTotal === 0 || progress.windowsDone === 0) return "--:--"
  const done = progress.windowsDone / progress.windowsTotal
  return clock(Duration.millis(Duration.toMillis(snapshot.elapsed) * (1 - done) / done))
}

/**
 * The progress line.
 *
 * @example
 * ```ts
 * // tax-records: 12,345 records, 25 pages, windows 3/13, limiter 12.3s, elapsed 0:25, ETA 1:23
 * ```
 *
 * @since 0.1.0
 * @category formatting
 */
export const line = (snapshot: Snapshot): string => {
  const progress = snapshot.progress
  const parts = [`${snapshot.label}: ${counted(snapshot.records, "record")}`]
  if (progress !== undefined) {
    parts.push(
      counted(progress.pages, "page"),
      `windows ${progress.windowsDone}/${progress.windowsTotal}`,
      `limiter ${(Duration.toMillis(progress.limiterWait) / 1000).toFixed(1)}s`
    )
  }
  parts.push(`elapsed ${clock(snapshot.elapsed)}`, `ETA ${eta(snapshot)}`)
  return parts.join(", ")
}

/**
 * A running view.
 *
 * @since 0.1.0
 * @category models
 */
export interface ProgressView {
  readonly mode: Mode
  /** Prints a line on standard error (above the bar), unless quiet. */
  readonly print: (text: string) => void
  /** Stops the bar (erasing it) and prints a last line, unless quiet. */
  readonly finish: (text: string) => void
  /** Effect's logger, printing through `print`. */
  readonly logger: Logger.Logger<unknown, void>
}

/** Erases the current terminal line and returns to its start. */
const eraseLine = "\r\u001b[K"

/** The text of a log message (Effect passes the arguments of `Effect.log` as an array). */
const messageText = (message: unknown): string =>
  (Array.isArray(message) ? message : [message])
    .map((part) => (typeof part === "string" ? part : Inspectable.toStringUnknown(part)))
    .join(" ")

/** The view's timer until the scope closes: a bar redrawn ten times a second, or a line every five seconds. */
const redraws = (mode: Mode, draw: () => void, printLine: () => void): Effect.Effect<void, never, Scope.Scope> => {
  switch (mode) {
    case "bar":
      return Effect.asVoid(Effect.forkScoped(Effect.repeat(Effect.sync(draw), Schedule.spaced("100 millis"))))
    case "lines":
      return Effect.asVoid(Effect.forkScoped(
        Effect.repeat(Effect.sync(printLine), Schedule.spaced("5 seconds")).pipe(Effect.delay("5 seconds"))
      ))
    default:
      return Effect.void
  }
}

/**
 * Starts a view that renders `snapshot()` on its own timer until the scope
 * closes (a bar is erased then, so that what follows starts on a clean line).
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (options: {
  readonly mode: Mode
  readonly snapshot: () => Snapshot
  /** Where text goes (standard error by default). */
  readonly write?: (text: string) => void
  /** The terminal width, for a bar that must not wrap. */
  readonly columns?: () => number | undefined
}): Effect.Effect<ProgressView, never, Scope.Scope> =>
  Effect.gen(function*() {
    const { mode, snapshot } = options
    const write = options.write ?? ((text: string) => void process.stderr.write(text))
    const columns = options.columns ?? (() => process.stderr.columns)
    let bar = ""
    let stopped = false
    const fit = (text: string) => {
      const width = columns() ?? 0
      return width > 1 && text.length >= width ? text.slice(0, width - 1) : text
    }
    const draw = () => {
      if (mode !== "bar" || stopped) return
      const next = fit(line(snapshot()))
      if (next !== bar) {
        bar = next
        write(eraseLine + bar)
      }
    }
    const print = (text: string) => {
      if (mode === "quiet") return
      if (mode === "bar" && bar !== "") {
        write(`${eraseLine}${text}\n${bar}`)
      } else {
        write(`${text}\n`)
      }
    }
    yield* redraws(mode, draw, () => print(line(snapshot())))
    const stop = () => {
      stopped = true
      if (bar !== "") write(eraseLine)
      bar = ""
    }
    yield* Effect.addFinalizer(() => Effect.sync(stop))
    const logger = Logger.make<unknown, void>(({ logLevel, message }) => {
      const text = `${logLevel.toLowerCase()}: ${messageText(message)}`
      // quiet keeps errors
      if (mode === "quiet" && LogLevel.isGreaterThanOrEqualTo(logLevel, "Error")) write(`${text}\n`)
      else print(text)
    })
    const finish = (text: string) => {
      stop()
      print(text)
    }
    return { mode, print, finish, logger }
  })
