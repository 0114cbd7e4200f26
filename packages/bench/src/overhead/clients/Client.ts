/**
 * What every compared client provides: one call of each operation it has a
 * method for, and a walk over the whole tax ledger if it can page.
 */
import { day } from "../../time.js"
import type { Operation } from "../plan.js"

/** A client under test, built once per process. */
export interface Client {
  /** One request of each operation, resolving to the number of records in the answer; a missing one prints "—". */
  readonly operations: Partial<Record<Operation, () => Promise<number>>>
  /** Walks every tax record (500 a page, `idLessThan` paging) and resolves to how many it saw. */
  readonly walkTaxRecords?: () => Promise<number>
  /** Releases what the client holds (connections, runtime). */
  readonly close?: () => Promise<void>
}

/** Builds a client against the responder at `baseUrl`. */
export type MakeClient = (baseUrl: string) => Client | Promise<Client>

/** The time window every tax request states: the last day (the responder's records all fall in it). */
export const taxWindow = (): { readonly startTime: number; readonly endTime: number } => {
  const endTime = Date.now()
  return { startTime: endTime - day, endTime }
}
