/**
 * bitget-effect through its public API, on whichever layer a client module
 * gives (`bitgetNode.ts`, `bitgetFetch.ts`): client-side rate limiting off and
 * one attempt per call, built once into a `ManagedRuntime`; every call is
 * `runtime.runPromise(...)`.
 */
import * as BatchCancel from "@bitget-effect/core/BatchCancel"
import type * as BitgetClient from "@bitget-effect/core/BitgetClient"
import type * as BitgetConfig from "@bitget-effect/core/BitgetConfig"
import * as Credentials from "@bitget-effect/core/Credentials"
import * as FuturesHistory from "@bitget-effect/core/FuturesHistory"
import * as Symbols from "@bitget-effect/core/Symbols"
import * as TaxRecords from "@bitget-effect/core/TaxRecords"
import type { Layer } from "effect"
import { DateTime, ManagedRuntime, Stream } from "effect"
import * as Fixtures from "../fixtures.js"
import type { Client } from "./Client.js"
import { taxWindow } from "./Client.js"

/** The options every bitget-effect row runs with, whatever the layer. */
export const options = (baseUrl: string): BitgetConfig.BitgetOptionsInput => ({
  baseUrl,
  credentials: Credentials.hmac(Fixtures.credentials),
  rateLimit: { enabled: false },
  retry: { maxAttempts: 1 },
  syncClockOnStart: false
})

/** The last day as the stream and page requests state it. */
export const lastDay = (): { readonly startTime: DateTime.Utc; readonly endTime: DateTime.Utc } => {
  const { endTime, startTime } = taxWindow()
  return { startTime: DateTime.makeUnsafe(startTime), endTime: DateTime.makeUnsafe(endTime) }
}

/** The bitget-effect client on `layer`. */
export const over = (layer: Layer.Layer<BitgetClient.BitgetClient>): Client => {
  const runtime = ManagedRuntime.make(layer)
  const cancel: BatchCancel.BatchCancelRequest = {
    symbol: Fixtures.oneSymbol,
    orderList: Fixtures.cancelOrderIds.map((orderId) => ({ orderId }))
  }
  return {
    operations: {
      symbolsOne: () => runtime.runPromise(Symbols.symbols({ symbol: Fixtures.oneSymbol })).then((a) => a.length),
      symbolsAll: () => runtime.runPromise(Symbols.symbols()).then((a) => a.length),
      taxPage: () =>
        runtime.runPromise(TaxRecords.spotRecords({ ...lastDay(), limit: Fixtures.taxPageSize })).then((a) => a.length),
      futuresPage: () =>
        runtime.runPromise(
          FuturesHistory.ordersHistory({ productType: Fixtures.productType, limit: Fixtures.futuresPageSize })
        ).then((page) => page.entrustedList.length),
      batchCancel: () =>
        runtime.runPromise(BatchCancel.batchCancelOrders(cancel)).then((result) =>
          result.allCancelled ? result.succeeded.length : -1
        )
    },
    walkTaxRecords: () => runtime.runPromise(Stream.runCount(TaxRecords.stream(lastDay()))),
    close: () => runtime.dispose()
  }
}
