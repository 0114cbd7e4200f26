#!/usr/bin/env node
/**
 * The `bitget` command: `bitget export <tax-records|futures-orders|p2p-orders>
 * --from … [--to …] [--out FILE] …` (see `bitget export --help` and the
 * package's README).
 */
import * as Cli from "../Cli.js"

Cli.main(process.argv)
