/**
 * Resumable streams end to end: each of the three paged streams stopped at
 * seeded random pages, again and again, every time resumed from the last
 * page's checkpoint read back from its JSON text, gives exactly what the
 * sandbox holds for the range: every record once, in order.
 */
import type { BitgetClient, BitgetError } from "@bitget-effect/core"
import { FuturesHistory, P2pOrders, Resumable, TaxRecords } from "@bitget-effect/core"
import type { Sandbox } from "@bitget-effect/sandbox"
import { assert, describe } from "@effect/vitest"
import { DateTime, Effect, Stream } from "effect"
import type { ClientOptions } from "./support.js"
import { DAY, freshSandbox, onSandbox, oracle, walkClient, withClient } from "./support.js"

const scale = 20
const sizes = { taxRecords: 900, taxDays: 100, taxBurst: 60, p2pOrders: 700, futuresOrders: 700 }

/** A resumable stream under test: its pages from a checkpoint, and the ids the sandbox holds for it. */
interface Resumed<A> {
  readonly name: string
  readonly client: ClientOptions
  readonly pages: (
    sandbox: Sandbox.Sandbox.Service,
    resume: Resumable.Checkpoint | undefined
  ) => Stream.Stream<Resumable.Page<A>, BitgetError.BitgetError, BitgetClient.BitgetClient>
  readonly id: (item: A) => string
  readonly expected: (sandbox: Sandbox.Sandbox.Service) => ReadonlyArray<string>
}

/** Walks `resumed` in runs of 1 to 4 pages (drawn from `seed`), each run resumed from the last's checkpoint text. */
const walkInRuns = <A>(resumed: Resumed<A>, sandbox: Sandbox.Sandbox.Service, seed: number) =>
  Effect.gen(function*() {
    let state = seed
    const ids: Array<string> = []
    let text: string | undefined
    let runs = 0
    while (text === undefined || !Resumable.isDone(Resumable.decodeJson(text))) {
      state = (state * 1103515245 + 12345) % 2 ** 31
      const stop = 1 + (state % 4)
      const resume = text === undefined ? undefined : Resumable.decodeJson(text)
      const pages = yield* Stream.runCollect(Stream.take(resumed.pages(sandbox, resume), stop)).pipe(
        withClient(resumed.client)
      )
      runs++
      for (const page of pages) ids.push(...page.records.map(resumed.id))
      text = Resumable.encodeJson(pages.at(-1)!.checkpoint)
    }
    assert.deepStrictEqual(ids, resumed.expected(sandbox), `${resumed.name}: exactly the sandbox's records, in order`)
    return runs
  })

describe("resumed streams", () => {
  onSandbox({ seed: 51, sizes, limitScale: scale, anchor: Date.now() })((it) => {
    const taxRange = (sandbox: Sandbox.Sandbox.Service) => ({
      start: sandbox.anchor - 78 * DAY - 12_345,
      end: sandbox.anchor - 2 * DAY
    })
    const tax: Resumed<TaxRecords.SpotTaxRecord> = {
      name: "tax records",
      client: walkClient("tax.spotRecords", scale),
      pages: (sandbox, resume) =>
        TaxRecords.pages({
          startTime: DateTime.makeUnsafe(taxRange(sandbox).start),
          endTime: DateTime.makeUnsafe(taxRange(sandbox).end),
          pageSize: 50,
          resume
        }),
      id: (record) => record.id,
      expected: (sandbox) => oracle(sandbox).taxIds("hmac", taxRange(sandbox).start, taxRange(sandbox).end)
    }
    const futuresRange = (sandbox: Sandbox.Sandbox.Service) => ({
      start: sandbox.anchor - 80 * DAY,
      end: sandbox.anchor
    })
    const futures: Resumed<FuturesHistory.FuturesOrder> = {
      name: "futures history",
      client: walkClient("mix.ordersHistory", 10 * scale),
      pages: (sandbox, resume) =>
        FuturesHistory.pages({
          productType: "USDT-FUTURES",
          startTime: DateTime.makeUnsafe(futuresRange(sandbox).start),
          endTime: DateTime.makeUnsafe(futuresRange(sandbox).end),
          pageSize: 50,
          resume
        }),
      id: (order) => order.orderId,
      expected: (sandbox) =>
        oracle(sandbox).futuresIds("hmac", "USDT-FUTURES", futuresRange(sandbox).start, futuresRange(sandbox).end)
    }
    const p2pStart = (sandbox: Sandbox.Sandbox.Service) => sandbox.anchor - 190 * DAY
    const p2p: Resumed<P2pOrders.P2pOrder> = {
      name: "P2P orders",
      client: { ...walkClient("p2p.orderList", 10 * scale), key: "rsa" },
      pages: (sandbox, resume) =>
        P2pOrders.pages({
          startTime: DateTime.makeUnsafe(p2pStart(sandbox)),
          endTime: DateTime.makeUnsafe(sandbox.anchor),
          pageSize: 50,
          resume
        }),
      id: (order) => order.orderId,
      expected: (sandbox) => oracle(sandbox).p2pIds("rsa", p2pStart(sandbox), sandbox.anchor)
    }

    for (const [resumed, seeds] of [[tax, [1, 2]], [futures, [3, 4]], [p2p, [5, 6]]] as const) {
      it.effect(
        `${resumed.name}: stopped and resumed from the checkpoint's text, every record once`,
        () =>
          Effect.gen(function*() {
            const sandbox = yield* freshSandbox
            assert.isAbove(resumed.expected(sandbox).length, 150, "a walk of many pages")
            for (const seed of seeds) {
              const runs = yield* walkInRuns(resumed as Resumed<unknown>, sandbox, seed)
              assert.isAbove(runs, 3, "stopped and resumed several times")
            }
          }),
        30_000
      )
    }
  })
})
