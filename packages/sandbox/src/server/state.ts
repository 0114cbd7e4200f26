/**
 * The mutable side of a sandbox: accounts, pending faults, the clock offset,
 * limiter settings and counters, and the request log. Everything here is
 * touched only synchronously, so each request sees and makes atomic changes.
 *
 * @internal
 */
import type { DemoKey } from "../DemoKey.js"
import type { Fault, Injection, Target } from "../Fault.js"
import type { AccountState } from "../internal/data/accounts.js"
import * as Accounts from "../internal/data/accounts.js"
import type { World } from "../internal/data/world.js"
import type { Entry, Stats } from "../RequestLog.js"
import type { RouteName } from "../Route.js"
import type { Shapes } from "../Shapes.js"
import { SlidingWindow } from "./limiter.js"

/** What `reset` restores. */
export interface Initial {
  readonly faults: ReadonlyArray<Injection>
  readonly clockOffset: number
  readonly limits: boolean
  readonly limitScale: number
}

interface Pending {
  readonly fault: Fault
  remaining: number | "forever"
}

/** The mutable state of one sandbox. */
export class State {
  private accounts = new Map<string, AccountState>()
  private faults = new Map<Target, Array<Pending>>()
  private entries: Array<Entry> = []
  private seq = 0
  private planSeq = 0
  private answerSeq = 0
  private counters = { requests: 0, limitViolations: 0, faultsInjected: 0 }
  clockOffset = 0
  limits = true
  limitScale = 1
  readonly limiter = new SlidingWindow()
  /** Addresses locked out after crossing the ceiling, with the time their lockout ends, ms. */
  readonly lockouts = new Map<string, number>()

  constructor(
    readonly world: World,
    readonly keys: ReadonlyArray<DemoKey>,
    private readonly initial: Initial,
    readonly options: {
      readonly openOrders: number
      readonly logCapacity: number
      readonly ipCeilingPerMinute: number
      readonly ipLockoutMillis: number
      readonly rpiOpen: boolean
      readonly taxTimestampPaging: boolean
      readonly shapes: Shapes
    }
  ) {
    this.reset()
  }

  /** Restores the seeded accounts, the initial faults, clock offset and limits; clears the log and counters. */
  reset(): void {
    this.accounts = new Map(
      this.keys.map((key) => [
        key.apiKey,
        Accounts.seed({
          seed: this.world.seed,
          apiKey: key.apiKey,
          anchor: this.world.anchor,
          openOrders: this.options.openOrders,
          symbols: this.world.symbolsByName
        })
      ])
    )
    this.faults = new Map()
    for (const injection of this.initial.faults) this.inject(injection)
    this.clockOffset = this.initial.clockOffset
    this.limits = this.initial.limits
    this.limitScale = this.initial.limitScale
    this.limiter.clear()
    this.lockouts.clear()
    this.entries = []
    this.answerSeq = 0
    this.counters = { requests: 0, limitViolations: 0, faultsInjected: 0 }
  }

  /** Server time, ms (wall clock plus the offset). */
  now(): number {
    return Date.now() + this.clockOffset
  }

  /** The account of a key. */
  account(apiKey: string): AccountState {
    let account = this.accounts.get(apiKey)
    if (account === undefined) {
      account = { orders: new Map(), positions: [], plans: [] }
      this.accounts.set(apiKey, account)
    }
    return account
  }

  /** A fresh 19-digit plan order id. */
  nextPlanOrderId(): string {
    this.planSeq += 1
    return (1_290_000_000_000_000_000n + BigInt(this.world.seed % 1000) * 1_000_000_000_000n +
      BigInt(this.planSeq) * 17n)
      .toString()
  }

  /** The number of the next answer (for shapes drawn per answer). */
  nextAnswer(): number {
    this.answerSeq += 1
    return this.answerSeq
  }

  /** Queues a fault. */
  inject(injection: Injection): void {
    const queue = this.faults.get(injection.target) ?? []
    queue.push({ fault: injection.fault, remaining: injection.times })
    this.faults.set(injection.target, queue)
  }

  /** Drops the faults of a target, or all of them. */
  clearFaults(target?: Target): void {
    if (target === undefined) this.faults.clear()
    else this.faults.delete(target)
  }

  /** The faults still pending. */
  pendingFaults(): ReadonlyArray<Injection> {
    return [...this.faults.entries()].flatMap(([target, queue]) =>
      queue.map((pending) => ({ target, fault: pending.fault, times: pending.remaining }))
    )
  }

  /** Takes the next fault for a route: its own queue first, then `*`. */
  takeFault(route: RouteName): Fault | undefined {
    for (const target of [route, "*"] as const) {
      const queue = this.faults.get(target)
      const head = queue?.[0]
      if (queue === undefined || head === undefined) continue
      if (head.remaining !== "forever") {
        head.remaining -= 1
        if (head.remaining <= 0) queue.shift()
      }
      this.counters.faultsInjected += 1
      return head.fault
    }
    return undefined
  }

  /** Appends a log entry (the oldest entries drop out beyond the capacity). */
  record(entry: Omit<Entry, "seq">): void {
    this.seq += 1
    this.counters.requests += 1
    if (entry.rateLimited) this.counters.limitViolations += 1
    this.entries.push({ seq: this.seq, ...entry })
    if (this.entries.length > this.options.logCapacity * 1.5 + 16) {
      this.entries = this.entries.slice(-this.options.logCapacity)
    }
  }

  /** The log, oldest first. */
  log(): ReadonlyArray<Entry> {
    return this.entries.slice(-this.options.logCapacity)
  }

  /** Clears the log (counters are kept). */
  clearLog(): void {
    this.entries = []
  }

  /** The counters. */
  stats(): Stats {
    return { ...this.counters }
  }
}
