/**
 * A sliding-window frequency limiter: a call is allowed when fewer than
 * `limit` calls were allowed in the `window` ms before it. Refused calls are
 * not counted, so a client that keeps hammering is still served at the limit.
 *
 * @internal
 */

interface Bucket {
  times: Array<number>
  head: number
}

/** The outcome of one call. */
export interface Decision {
  readonly allowed: boolean
  /** Calls left in the current window after this one. */
  readonly remaining: number
}

/** Sliding-window counters by key. */
export class SlidingWindow {
  private readonly buckets = new Map<string, Bucket>()

  /** Counts a call under `key` at `now` if the limit allows it. */
  take(key: string, limit: number, window: number, now: number): Decision {
    let bucket = this.buckets.get(key)
    if (bucket === undefined) {
      bucket = { times: [], head: 0 }
      this.buckets.set(key, bucket)
    }
    const { times } = bucket
    while (bucket.head < times.length && (times[bucket.head] as number) <= now - window) bucket.head++
    if (bucket.head > 1024 && bucket.head * 2 > times.length) {
      bucket.times = times.slice(bucket.head)
      bucket.head = 0
    }
    const used = bucket.times.length - bucket.head
    if (used >= limit) return { allowed: false, remaining: 0 }
    bucket.times.push(now)
    return { allowed: true, remaining: limit - used - 1 }
  }

  /** Forgets every counter. */
  clear(): void {
    this.buckets.clear()
  }
}
