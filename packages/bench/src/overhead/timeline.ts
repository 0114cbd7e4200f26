/**
 * Where one call's time goes, next to the floor doing the same I/O, in one
 * process against the static responder: the callbacks the event loop runs
 * per call, by kind (socket reads, immediates, ticks, promise jobs, timers:
 * an extra loop turn or scheduler hop would show here), and the call split
 * into before the transport is asked to send, the transport (send to the
 * body's last byte), and after (envelope, decoding, spans, metrics).
 * Figures are printed, never asserted.
 *
 *   npx -y pnpm@10 bench:timeline
 */
import * as BitgetClient from "@bitget-effect/core/BitgetClient"
import * as BitgetConfig from "@bitget-effect/core/BitgetConfig"
import { HttpTransport } from "@bitget-effect/core/HttpTransport"
import * as NodeSigner from "@bitget-effect/platform-node/NodeSigner"
import * as UndiciTransport from "@bitget-effect/platform-node/UndiciTransport"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { createHook } from "node:async_hooks"
import { options, over } from "./clients/bitgetEffect.js"
import type { Client } from "./clients/Client.js"
import * as Floor from "./clients/floor.js"
import { micros } from "./format.js"
import { spawn } from "./ipc.js"
import type { Operation } from "./plan.js"
import { summarize } from "./stats.js"
import { toText } from "./table.js"

/** The rows: a public call, a signed GET and a signed POST. */
const operations: ReadonlyArray<Operation> = ["symbolsOne", "futuresPage", "batchCancel"]
const calls = Number(process.env.TIMELINE_CALLS ?? 2000)
const warmUp = 300

/** When the client's transport was asked to send, and when it had the whole answer. */
const marks = { sent: 0, received: 0 }

/** bitget-effect on `BitgetNode`'s parts, its transport marking when it sends and when the answer is in. */
const marked = (baseUrl: string): Client => {
  const transport = Layer.effect(
    HttpTransport,
    Effect.map(UndiciTransport.make(), (inner) =>
      HttpTransport.of({
        send: (request) =>
          Effect.suspend(() => {
            marks.sent = performance.now()
            return Effect.tap(
              inner.send(request),
              () =>
                Effect.sync(() => {
                  marks.received = performance.now()
                })
            )
          })
      }))
  )
  return over(
    BitgetClient.layerTransport.pipe(
      Layer.provide(Layer.mergeAll(transport, NodeSigner.layer, BitgetConfig.layer(options(baseUrl))))
    )
  )
}

/** The type of every live async resource, from the start (sockets are opened during the warm-up). */
const types = new Map<number, string>()
/** Callbacks run while counting, by type; `undefined` while not counting. */
let counts: Map<string, number> | undefined
createHook({
  init: (id, type) => {
    types.set(id, type)
  },
  before: (id) => {
    if (counts === undefined) return
    const type = types.get(id) ?? "unknown"
    counts.set(type, (counts.get(type) ?? 0) + 1)
  },
  destroy: (id) => {
    types.delete(id)
  }
}).enable()

/** Callbacks the event loop ran per call, by async resource type, over `calls` calls. */
const callbacks = async (call: () => Promise<number>): Promise<Map<string, number>> => {
  const counted = new Map<string, number>()
  counts = counted
  for (let i = 0; i < calls; i++) await call()
  counts = undefined
  return new Map([...counted].map(([type, count]) => [type, count / calls]))
}

/** Median wall time per call of the floor, and of each part of the client's calls. */
const parts = async (floor: () => Promise<number>, ours: () => Promise<number>) => {
  const wall: Array<number> = []
  const before: Array<number> = []
  const transport: Array<number> = []
  const after: Array<number> = []
  for (let i = 0; i < calls; i++) {
    let start = performance.now()
    await floor()
    wall.push(performance.now() - start)
    start = performance.now()
    await ours()
    const end = performance.now()
    before.push(marks.sent - start)
    transport.push(marks.received - marks.sent)
    after.push(end - marks.received)
  }
  const median = (values: ReadonlyArray<number>) => micros(summarize(values).median * 1000)
  return [median(wall), median(before), median(transport), median(after)]
}

/** The callbacks of a call as text: `TCPWRAP 1, Immediate 3, ...`, most frequent first. */
const describe = (counts: Map<string, number>): string =>
  [...counts].sort((a, b) => b[1] - a[1]).map(([type, n]) => `${type} ${Number(n.toFixed(2))}`).join(", ")

const main = async () => {
  const responder = spawn<never, { readonly port: number }>("./responder.js", ["5000"])
  try {
    const { port } = await responder.next()
    const baseUrl = `http://127.0.0.1:${port}`
    const floor = await Floor.make(baseUrl)
    const ours = marked(baseUrl)
    const split: Array<ReadonlyArray<string>> = []
    const loop: Array<ReadonlyArray<string>> = []
    for (const operation of operations) {
      const floorCall = floor.operations[operation]
      const ourCall = ours.operations[operation]
      if (floorCall === undefined || ourCall === undefined) continue
      for (let i = 0; i < warmUp; i++) await Promise.all([floorCall(), ourCall()])
      split.push([operation, ...await parts(floorCall, ourCall)])
      loop.push([operation, "floor", describe(await callbacks(floorCall))])
      loop.push([operation, "bitget-effect", describe(await callbacks(ourCall))])
    }
    console.log(toText({
      title: `Wall time per call, median of ${calls} (floor and client alternating)`,
      headers: ["row", "floor, whole call", "before send", "transport", "after the answer"],
      rows: split
    }))
    console.log("")
    console.log(toText({
      title: `Callbacks the event loop ran per call, by kind (mean of ${calls} calls)`,
      headers: ["row", "client", "callbacks"],
      rows: loop
    }))
    await ours.close?.()
  } finally {
    await responder.close()
  }
}

main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
