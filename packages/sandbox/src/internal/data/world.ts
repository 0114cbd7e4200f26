/**
 * The immutable side of a sandbox: the symbol universe and, per key, the
 * virtual historical data sets (built lazily, each a handful of numbers).
 *
 * @internal
 */
import type { ProductType } from "../../Account.js"
import type { Shapes } from "../../Shapes.js"
import type { Sizes } from "../../Sizes.js"
import * as Futures from "./futures.js"
import { hash, hashString } from "./hash.js"
import type { FuturesSymbol, SpotSymbol } from "./market.js"
import { makeFutures, makeSymbols } from "./market.js"
import * as P2p from "./p2p.js"
import * as Tax from "./tax.js"

/** The data of a sandbox. */
export class World {
  readonly symbols: ReadonlyArray<SpotSymbol>
  readonly symbolsByName: ReadonlyMap<string, SpotSymbol>
  readonly futures: ReadonlyMap<ProductType, ReadonlyArray<FuturesSymbol>>
  private readonly p2pSets = new Map<string, P2p.Dataset>()
  private readonly taxSets = new Map<string, Tax.Dataset>()
  private readonly futuresSets = new Map<string, Futures.Dataset>()

  constructor(
    readonly seed: number,
    readonly anchor: number,
    readonly sizes: Sizes,
    /** Whether records vary in shape where live ones do (see `Shapes`). */
    readonly shapes: Shapes = "varied"
  ) {
    this.symbols = makeSymbols(seed, sizes.symbols, anchor, shapes)
    this.symbolsByName = new Map(this.symbols.map((s) => [s.symbol.toUpperCase(), s]))
    this.futures = makeFutures(this.symbols)
  }

  /** A spot symbol by name (case-insensitive). */
  spot(name: string): SpotSymbol | undefined {
    return this.symbolsByName.get(name.toUpperCase())
  }

  /** A futures contract by product type and name (case-insensitive). */
  future(productType: ProductType, name: string): FuturesSymbol | undefined {
    const wanted = name.toUpperCase()
    return this.futures.get(productType)?.find((f) => f.symbol === wanted)
  }

  /** The seed of a key's data. */
  keySeed(apiKey: string, stream: number): number {
    return hash(this.seed, hashString(apiKey), stream)
  }

  /** The P2P orders of a key. */
  p2p(apiKey: string): P2p.Dataset {
    let set = this.p2pSets.get(apiKey)
    if (set === undefined) {
      set = P2p.make({
        seed: this.keySeed(apiKey, 1),
        anchor: this.anchor,
        size: this.sizes.p2pOrders,
        spanDays: this.sizes.p2pDays
      })
      this.p2pSets.set(apiKey, set)
    }
    return set
  }

  /** The tax records of a key. */
  tax(apiKey: string): Tax.Dataset {
    let set = this.taxSets.get(apiKey)
    if (set === undefined) {
      set = Tax.make({
        seed: this.keySeed(apiKey, 2),
        anchor: this.anchor,
        size: this.sizes.taxRecords,
        spanDays: this.sizes.taxDays,
        runLength: this.sizes.taxBurst
      })
      this.taxSets.set(apiKey, set)
    }
    return set
  }

  /** The historical futures orders of a key for a product type. */
  futuresHistory(apiKey: string, productType: ProductType): Futures.Dataset {
    const cacheKey = `${apiKey}\u0000${productType}`
    let set = this.futuresSets.get(cacheKey)
    if (set === undefined) {
      const divisor = productType === "USDT-FUTURES" ? 1 : productType === "COIN-FUTURES" ? 5 : 10
      set = Futures.make({
        seed: this.keySeed(apiKey, 3 + Futures.salt(productType)),
        anchor: this.anchor,
        size: Math.ceil(this.sizes.futuresOrders / divisor),
        productType,
        symbols: this.futures.get(productType) ?? [],
        shapes: this.shapes
      })
      this.futuresSets.set(cacheKey, set)
    }
    return set
  }
}
