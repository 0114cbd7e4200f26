#!/usr/bin/env node
/**
 * The `bitget` command: `bitget export <tax-records|futures-orders|p2p-orders>
 * --from … [--to …] [--out FILE] …` and `bitget sync <…> [--database URL] …`
 * (see `--help` and the package's README), with the version of the package it
 * runs from.
 */
import * as Cli from "../Cli.js"
import { packageVersion } from "../internal/packageVersion.js"

Cli.main(process.argv, packageVersion(process.argv))
