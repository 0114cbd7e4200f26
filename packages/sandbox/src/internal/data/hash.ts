/**
 * Counter-based pseudo-randomness: every value is a pure function of its inputs,
 * so record `i` of a data set can be computed without computing the ones before it.
 *
 * @internal
 */

const mix = (input: number): number => {
  let x = input >>> 0
  x ^= x >>> 16
  x = Math.imul(x, 0x7feb352d)
  x ^= x >>> 15
  x = Math.imul(x, 0x846ca68b)
  x ^= x >>> 16
  return x >>> 0
}

const TWO_32 = 4_294_967_296

/** A 32-bit hash of a list of numbers (integers up to 2^53 are folded in whole). */
export const hash = (...parts: ReadonlyArray<number>): number => {
  let h = 0x9e3779b9
  for (const part of parts) {
    const low = part >>> 0
    const high = Math.floor(part / TWO_32) >>> 0
    h = mix(h ^ mix(low + 0x632be5ab))
    if (high !== 0) h = mix(h ^ mix(high + 0x85157af5))
  }
  return h
}

/** A 32-bit hash of a string (FNV-1a over UTF-16 code units, then mixed). */
export const hashString = (text: string): number => {
  let h = 0x811c9dc5
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i)
    h = Math.imul(h, 0x01000193)
  }
  return mix(h)
}

/** Draws successive values from one (seed, stream, index) position. */
export class Draw {
  private counter = 0
  constructor(private readonly base: number) {}

  /** Starts the draws of record `index` of `stream` under `seed`. */
  static at(seed: number, stream: number, index: number): Draw {
    return new Draw(hash(seed, stream, index))
  }

  /** A float in [0, 1). */
  unit(): number {
    return hash(this.base, this.counter++) / TWO_32
  }

  /** An integer in [min, max] (inclusive). */
  int(min: number, max: number): number {
    return min + Math.floor(this.unit() * (max - min + 1))
  }

  /** A float in [min, max). */
  between(min: number, max: number): number {
    return min + this.unit() * (max - min)
  }

  /** True with probability `p`. */
  chance(p: number): boolean {
    return this.unit() < p
  }

  /** One element of a non-empty array. */
  pick<A>(items: ReadonlyArray<A>): A {
    return items[Math.floor(this.unit() * items.length)] as A
  }

  /** One element of a non-empty array of `[value, weight]` pairs. */
  weighted<A>(items: ReadonlyArray<readonly [A, number]>): A {
    let total = 0
    for (const [, weight] of items) total += weight
    let point = this.unit() * total
    for (const [value, weight] of items) {
      point -= weight
      if (point < 0) return value
    }
    return (items[items.length - 1] as readonly [A, number])[0]
  }

  /** `length` decimal digits, the first one non-zero. */
  digits(length: number): string {
    let out = String(this.int(1, 9))
    while (out.length < length) out += String(this.int(0, 9))
    return out
  }
}
