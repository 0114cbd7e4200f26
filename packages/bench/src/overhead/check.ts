/**
 * The start-up check: one call of every operation through bitget-effect (and
 * the server time), in this process, before anything is timed, so that canned
 * data its schemas refuse fails the run loudly instead of timing errors.
 */
import * as ServerTime from "@bitget-effect/core/ServerTime"
import { Effect, ManagedRuntime } from "effect"
import * as EffectClient from "./clients/bitgetNode.js"
import type { Operation } from "./plan.js"
import { expectedRecords } from "./plan.js"

/** Resolves when every canned answer decodes to the expected number of records; rejects otherwise. */
export const checkResponder = async (baseUrl: string): Promise<void> => {
  const client = await EffectClient.make(baseUrl)
  for (const [operation, call] of Object.entries(client.operations)) {
    const expected = expectedRecords[operation as Operation]
    const records = await call()
    if (records !== expected) throw new Error(`start-up check: ${operation} gave ${records} records, not ${expected}`)
  }
  await client.close?.()
  const runtime = ManagedRuntime.make(EffectClient.layer(baseUrl))
  await runtime.runPromise(Effect.asVoid(ServerTime.serverTime))
  await runtime.dispose()
}
