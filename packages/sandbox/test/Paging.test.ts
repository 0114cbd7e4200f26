import { assert, describe, it, layer } from "@effect/vitest"
import { Effect } from "effect"
import * as Sandbox from "../src/Sandbox.js"
import type { Params } from "./support.js"
import { code, data, DAY, paths, signedGet } from "./support.js"

interface P2pPage {
  readonly orderList: ReadonlyArray<
    { readonly orderId: string; readonly ctime: string; readonly coin: string; readonly status: string }
  >
  readonly minOrderId: string
}

interface TaxRecord {
  readonly id: string
  readonly coin: string
  readonly ts: string
  readonly bizOrderId: string
}

interface FuturesPage {
  readonly entrustedList:
    | ReadonlyArray<{
      readonly orderId: string
      readonly clientOid: string
      readonly symbol: string
      readonly orderSource: string
      readonly cTime: string
      readonly enterPointSource: string
    }>
    | null
  readonly endId: string | null
}

/** Asserts ids strictly decrease (as big integers) and times never increase. */
const assertNewestFirst = (ids: ReadonlyArray<string>, times: ReadonlyArray<string>) => {
  for (let i = 1; i < ids.length; i++) {
    assert.isTrue(BigInt(ids[i] ?? "0") < BigInt(ids[i - 1] ?? "0"), `id ${ids[i]} after ${ids[i - 1]}`)
    assert.isTrue(Number(times[i]) <= Number(times[i - 1]), `time ${times[i]} after ${times[i - 1]}`)
  }
  assert.isTrue(ids.every((id) => /^\d{19}$/.test(id)))
  assert.strictEqual(new Set(ids).size, ids.length, "no duplicates")
}

const sizes = { p2pOrders: 3_000, p2pDays: 60, taxRecords: 20_000, taxDays: 365, taxBurst: 600, futuresOrders: 2_000 }

describe("paging", () => {
  layer(Sandbox.layer({ limits: false, sizes }))((it) => {
    it.effect("walks P2P orders by minOrderId, newest first, with no duplicates", () =>
      Effect.gen(function*() {
        const sandbox = yield* Sandbox.Sandbox
        const key = sandbox.credentials.hmac
        // the orders span 60 days; startTime is required (60001 without it)
        const since: Params = [["startTime", String(Date.now() - 89 * DAY)]]
        const walk = (filters: Params) =>
          Effect.gen(function*() {
            const orders: Array<P2pPage["orderList"][number]> = []
            let cursor: string | undefined
            let pages = 0
            while (true) {
              const reply = yield* signedGet(sandbox, key, paths.p2p, [
                ...since,
                ...filters,
                ...(cursor === undefined ? [] : [["idLessThan", cursor] as const])
              ])
              assert.strictEqual(code(reply), "00000", reply.text)
              const page = data<P2pPage>(reply)
              if (page.orderList.length === 0) {
                assert.strictEqual(page.minOrderId, "")
                break
              }
              assert.strictEqual(page.minOrderId, page.orderList[page.orderList.length - 1]?.orderId)
              orders.push(...page.orderList)
              cursor = page.minOrderId
              pages++
            }
            return { orders, pages }
          })
        const all = yield* walk([])
        assert.strictEqual(all.orders.length, 3_000)
        assert.strictEqual(all.pages, 30, "limit defaults to 100")
        assertNewestFirst(all.orders.map((o) => o.orderId), all.orders.map((o) => o.ctime))
        const sample = all.orders[1234] as P2pPage["orderList"][number] & { readonly orderNo: string }
        const byOrderNo = data<P2pPage>(
          yield* signedGet(sandbox, key, paths.p2p, [...since, ["orderNo", sample.orderNo]])
        )
        assert.deepStrictEqual(byOrderNo.orderList, [sample])
        const filtered = yield* walk([["coin", "USDT"], ["status", "Completed"], ["limit", "37"]])
        assert.isAbove(filtered.orders.length, 100)
        assert.isTrue(filtered.orders.every((o) => o.coin === "USDT" && o.status === "completed"))
        assertNewestFirst(filtered.orders.map((o) => o.orderId), filtered.orders.map((o) => o.ctime))
      }))

    it.effect("walks tax records by the last id across a burst of >500 records sharing one timestamp", () =>
      Effect.gen(function*() {
        const sandbox = yield* Sandbox.Sandbox
        const key = sandbox.credentials.rsa
        const now = Date.now()
        const window: Params = [["startTime", String(now - 30 * DAY)], ["endTime", String(now)]]
        const records: Array<TaxRecord> = []
        let cursor: string | undefined
        while (true) {
          const reply = yield* signedGet(sandbox, key, paths.tax, [
            ...window,
            ...(cursor === undefined ? [] : [["idLessThan", cursor] as const])
          ])
          const page = data<ReadonlyArray<TaxRecord>>(reply)
          if (page.length === 0) break
          assert.isAtMost(page.length, 500)
          records.push(...page)
          cursor = page[page.length - 1]?.id
        }
        const perTimestamp = new Map<string, number>()
        for (const r of records) perTimestamp.set(r.ts, (perTimestamp.get(r.ts) ?? 0) + 1)
        assert.strictEqual(Math.max(...perTimestamp.values()), 600, "the whole burst is walked")
        assert.isAbove(records.length, 1_500)
        assertNewestFirst(records.map((r) => r.id), records.map((r) => r.ts))
        assert.isTrue(records.every((r) => Number(r.ts) >= now - 30 * DAY && Number(r.ts) <= now))
        assert.isTrue(records.some((r) => r.bizOrderId === "") && records.some((r) => /^\d{19}$/.test(r.bizOrderId)))
        const cjk = data<ReadonlyArray<TaxRecord>>(
          yield* signedGet(sandbox, key, paths.tax, [["coin", "币安人生"], ...window, ["limit", "50"]])
        )
        assert.isAbove(cjk.length, 0)
        assert.isTrue(cjk.every((r) => r.coin === "币安人生"))
      }))

    it.effect("walks futures history by endId to an end answered with nulls", () =>
      Effect.gen(function*() {
        const sandbox = yield* Sandbox.Sandbox
        const key = sandbox.credentials.hmac
        const orders: Array<NonNullable<FuturesPage["entrustedList"]>[number]> = []
        let cursor: string | undefined
        let last: FuturesPage | undefined
        while (true) {
          const reply = yield* signedGet(sandbox, key, paths.futures, [
            ["productType", "USDT-FUTURES"],
            ...(cursor === undefined ? [] : [["idLessThan", cursor] as const])
          ])
          last = data<FuturesPage>(reply)
          if (last.entrustedList === null) break
          assert.strictEqual(last.endId, last.entrustedList[last.entrustedList.length - 1]?.orderId)
          orders.push(...last.entrustedList)
          cursor = last.endId ?? undefined
        }
        assert.deepStrictEqual(last, { entrustedList: null, endId: null })
        assert.strictEqual(orders.length, 2_000)
        assertNewestFirst(orders.map((o) => o.orderId), orders.map((o) => o.cTime))
        assert.isTrue(orders.every((o) => Number(o.cTime) > Date.now() - 90 * DAY))
        assert.isTrue(orders.every((o) => o.enterPointSource === o.enterPointSource.toLowerCase()))
        const sample = orders[777]
        assert.isDefined(sample)
        const byId = data<FuturesPage>(
          yield* signedGet(sandbox, key, paths.futures, [["productType", "usdt-futures"], ["orderId", sample.orderId]])
        )
        assert.deepStrictEqual(byId.entrustedList, [sample])
        const byClientOid = data<FuturesPage>(
          yield* signedGet(sandbox, key, paths.futures, [["productType", "USDT-FUTURES"], [
            "clientOid",
            sample.clientOid
          ]])
        )
        assert.deepStrictEqual(byClientOid.entrustedList, [sample])
        const bySymbol = data<FuturesPage>(
          yield* signedGet(sandbox, key, paths.futures, [["productType", "USDT-FUTURES"], ["symbol", "ETHUSDT"], [
            "orderSource",
            "market"
          ]])
        )
        assert.isTrue((bySymbol.entrustedList ?? []).every((o) => o.symbol === "ETHUSDT" && o.orderSource === "market"))
        assert.isAbove(bySymbol.entrustedList?.length ?? 0, 0)
      }))
  })

  layer(Sandbox.layer({ limits: false, sizes: { ...sizes, taxBurst: 700 }, taxTimestampPaging: true }))((it) => {
    it.effect("can reproduce the reported stall when more than a page shares one timestamp", () =>
      Effect.gen(function*() {
        const sandbox = yield* Sandbox.Sandbox
        const key = sandbox.credentials.hmac
        const now = Date.now()
        const window: Params = [["startTime", String(now - 30 * DAY)], ["endTime", String(now)]]
        let cursor: string | undefined
        let previous: ReadonlyArray<TaxRecord> = []
        for (let i = 0; i < 20; i++) {
          const page = data<ReadonlyArray<TaxRecord>>(
            yield* signedGet(sandbox, key, paths.tax, [
              ...window,
              ...(cursor === undefined ? [] : [["idLessThan", cursor] as const])
            ])
          )
          const next = page[page.length - 1]?.id
          if (next === cursor) {
            assert.deepStrictEqual(page, previous)
            return
          }
          previous = page
          cursor = next
        }
        assert.fail("the cursor never stalled")
      }))
  })

  layer(
    Sandbox.layer({ limits: false, sizes: { p2pOrders: 5_000_000, taxRecords: 10_000_000, futuresOrders: 3_000_000 } })
  )(
    (it) => {
      it.effect("pages data sets of millions without materialising them", () =>
        Effect.gen(function*() {
          const sandbox = yield* Sandbox.Sandbox
          const key = sandbox.credentials.hmac
          const end = sandbox.anchor - 300 * DAY
          const first = data<P2pPage>(
            yield* signedGet(sandbox, key, paths.p2p, [["startTime", String(end - DAY)], ["endTime", String(end)]])
          )
          assert.strictEqual(first.orderList.length, 100)
          assert.isTrue(first.orderList.every((o) => Number(o.ctime) <= end && Number(o.ctime) >= end - DAY))
          const second = data<P2pPage>(
            yield* signedGet(sandbox, key, paths.p2p, [["startTime", String(end - DAY)], ["endTime", String(end)], [
              "idLessThan",
              first.minOrderId
            ]])
          )
          assert.isTrue(BigInt(second.orderList[0]?.orderId ?? "0") < BigInt(first.minOrderId))
          const tax = data<ReadonlyArray<TaxRecord>>(
            yield* signedGet(sandbox, key, paths.tax, [["startTime", String(end - 30 * DAY)], ["endTime", String(end)]])
          )
          assert.strictEqual(tax.length, 500)
          const futures = data<FuturesPage>(
            yield* signedGet(sandbox, key, paths.futures, [["productType", "USDT-FUTURES"], [
              "startTime",
              String(Date.now() - 89 * DAY)
            ], [
              "endTime",
              String(Date.now() - 88 * DAY)
            ]])
          )
          assert.strictEqual(futures.entrustedList?.length, 100)
        }))
    }
  )

  it.effect("is deterministic for a seed and anchor", () =>
    Effect.gen(function*() {
      const anchor = Math.floor(Date.now() / 60_000) * 60_000
      const page = (seed: number) =>
        Effect.scoped(Effect.gen(function*() {
          const sandbox = yield* Sandbox.make({ seed, anchor, limits: false, sizes: { symbols: 50, p2pOrders: 500 } })
          const reply = yield* signedGet(sandbox, sandbox.credentials.hmac, paths.p2p, [
            ["startTime", String(anchor - 30 * DAY)],
            ["limit", "20"]
          ])
          const symbols = yield* signedGet(sandbox, sandbox.credentials.hmac, paths.tradeRate, [[
            "businessType",
            "spot"
          ]])
          return [reply.json?.data, symbols.json?.data]
        }))
      const a = yield* page(7)
      const b = yield* page(7)
      const c = yield* page(8)
      assert.deepStrictEqual(a, b)
      assert.notDeepEqual(a[0], c[0])
    }))
})
