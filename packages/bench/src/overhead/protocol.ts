/**
 * The messages between the benchmark's parent process and its client
 * workers (over the IPC channel of `child_process.fork`).
 */
import type { Operation } from "./plan.js"

/** What the parent asks a worker to do. */
export type Command =
  | {
    readonly kind: "run"
    readonly operation: Operation
    /** Calls in flight at once. */
    readonly concurrency: number
    /** Calls to time, after one untimed wave that also checks the answers. */
    readonly calls: number
  }
  | { readonly kind: "walk" }

/** What a worker answers. */
export type Reply =
  | { readonly kind: "ready"; readonly operations: ReadonlyArray<Operation>; readonly walks: boolean }
  | { readonly kind: "ran"; readonly microsPerCall: number }
  | {
    readonly kind: "walked"
    readonly records: number
    readonly seconds: number
    /** Resident set size just before the walk, and the process's peak, in bytes. */
    readonly rssBefore: number
    readonly peakRss: number
  }
  | { readonly kind: "failed"; readonly message: string }

/** Where the sync worker writes: a database of the bench's own Postgres, as its superuser. */
export interface Database {
  readonly host: string
  readonly port: number
  readonly username: string
  readonly password: string
  readonly database: string
}

/** What the parent asks the sync worker (over IPC, so that the password is on no command line). */
export interface SyncCommand {
  readonly kind: "sync"
  readonly database: Database
}

/** What the sync worker answers. */
export type SyncReply =
  | { readonly kind: "ready" }
  | {
    readonly kind: "synced"
    /** Rows the pipeline reports added, and pages it wrote (one transaction each). */
    readonly added: number
    readonly pages: number
    /** `count(*)` of the table after the sync. */
    readonly rows: number
    readonly seconds: number
    /** Resident set size just before the sync (client and pool built, database migrated), and the peak, in bytes. */
    readonly rssBefore: number
    readonly peakRss: number
  }
  | { readonly kind: "failed"; readonly message: string }
