/**
 * How much data a sandbox simulates, and the defaults.
 *
 * @since 0.1.0
 */
/**
 * How much data the sandbox simulates. The historical sets are virtual: each
 * record is computed from (seed, index) when a page needs it, so sizes in the
 * millions cost no memory.
 *
 * @since 0.1.0
 * @category models
 */
export interface Sizes {
  /** Spot symbols (the first fifteen are well known, including `BTC$USDT` and `币安人生USDT`). */
  readonly symbols: number
  /** Open spot orders seeded per key. */
  readonly openOrders: number
  /** P2P orders per key. */
  readonly p2pOrders: number
  /** Days the P2P orders span, back from the anchor. */
  readonly p2pDays: number
  /** Tax records per key. */
  readonly taxRecords: number
  /** Days the tax records span, back from the anchor. */
  readonly taxDays: number
  /** Tax records sharing one timestamp, about a week before the anchor (0 for none). */
  readonly taxBurst: number
  /** Historical futures orders per key for USDT-FUTURES (COIN-FUTURES get a fifth, USDC-FUTURES a tenth); always 90 days. */
  readonly futuresOrders: number
}

/**
 * The default sizes.
 *
 * @since 0.1.0
 * @category constants
 */
export const defaultSizes: Sizes = {
  symbols: 400,
  openOrders: 60,
  p2pOrders: 5_000,
  p2pDays: 365,
  taxRecords: 20_000,
  taxDays: 365,
  taxBurst: 600,
  futuresOrders: 5_000
}
