/**
 * `bitget export`: its argument and flags, as `Export.plan` checks them.
 *
 * @since 0.2.0
 */
import { Argument, Command, Flag } from "effect/cli"
import * as DateTime from "effect/DateTime"
import * as Effect from "effect/Effect"
import * as Export from "../Export.js"
import * as ExportKind from "./exportKind.js"
import * as Flags from "./flags.js"
import * as Format from "./format.js"

const kind = Argument.Literals("export", ExportKind.kinds).pipe(
  Argument.withDescription("what to export: tax-records, futures-orders or p2p-orders")
)

const flags = {
  from: Flag.String("from").pipe(
    Flag.withMetavar("DATE"),
    Flag.withDescription(
      "start of the range: a date (2025-01-01, from 00:00:00.000Z) or a date and time (2025-01-01T12:00:00Z)"
    )
  ),
  to: Flag.String("to").pipe(
    Flag.withMetavar("DATE"),
    Flag.withDescription(
      "end of the range, included: a date (to 23:59:59.999Z of that day) or a date and time; default now"
    ),
    Flag.optional
  ),
  productType: Flags.productType,
  format: Flag.Literals("format", Format.formats).pipe(
    Flag.withDescription("csv or ndjson (default: csv for an --out file ending in .csv, ndjson otherwise)"),
    Flag.optional
  ),
  out: Flag.String("out").pipe(
    Flag.withMetavar("FILE"),
    Flag.withDescription("write to FILE (via FILE.part, renamed when complete) instead of standard output"),
    Flag.optional
  ),
  resume: Flag.Boolean("resume").pipe(
    Flag.withDescription("continue an interrupted export to --out FILE from FILE.checkpoint.json"),
    Flag.withDefault(false)
  ),
  force: Flag.Boolean("force").pipe(
    Flag.withDescription("replace --out FILE if it exists (once the export is complete; until then it stays)"),
    Flag.withDefault(false)
  ),
  baseUrl: Flags.baseUrl,
  quiet: Flags.quiet
}

/**
 * The `export` command.
 *
 * @since 0.1.0
 * @category running
 */
export const command = Command.make(
  "export",
  { kind, ...flags },
  (args) => Effect.flatMap(DateTime.now, (now) => Effect.flatMap(Effect.fromResult(Export.plan(args, now)), Export.run))
).pipe(
  Command.withDescription(
    "Export every record of a range as CSV or NDJSON. Credentials from BITGET_API_KEY, BITGET_API_SECRET and " +
      "BITGET_API_PASSPHRASE."
  )
)
