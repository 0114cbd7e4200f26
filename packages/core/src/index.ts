/**
 * A typed client for the Bitget REST API on Effect: every operation is an
 * `Effect` that needs a `BitgetClient` (on Node.js, `BitgetNode.layer` from
 * `@bitget-effect/platform-node`; on any runtime with fetch and WebCrypto,
 * `BitgetFetch.layer`), with decimals as `BigDecimal`, times as `DateTime.Utc`
 * and typed errors.
 *
 * `BatchCancel`: batch cancel spot orders (up to 50 per call).
 *
 * @since 0.1.0
 */
export * as BatchCancel from "./BatchCancel.js"

/**
 * The client service and its generic pipeline.
 *
 * @since 0.1.0
 */
export * as BitgetClient from "./BitgetClient.js"

/**
 * Client configuration, `layer` and `layerConfig`.
 *
 * @since 0.1.0
 */
export * as BitgetConfig from "./BitgetConfig.js"

/**
 * The error family and code classification.
 *
 * @since 0.1.0
 */
export * as BitgetError from "./BitgetError.js"

/**
 * The client on web standards only (`fetch`, WebCrypto): Bun, Deno, Cloudflare
 * Workers, Node.js.
 *
 * @since 0.2.0
 */
export * as BitgetFetch from "./BitgetFetch.js"

/**
 * A mock client for testing code that uses Bitget.
 *
 * @since 0.1.0
 */
export * as BitgetMock from "./BitgetMock.js"

/**
 * API credentials (HMAC or RSA), held as `Redacted`.
 *
 * @since 0.1.0
 */
export * as Credentials from "./Credentials.js"

/**
 * Exact decimals: the schemas of prices, sizes, rates and amounts, and their fixed-point text.
 *
 * @since 0.3.0
 */
export * as DecimalSchemas from "./DecimalSchemas.js"

/**
 * Endpoint descriptors.
 *
 * @since 0.1.0
 */
export * as Endpoint from "./Endpoint.js"

/**
 * Open and closed enums: `OpenEnum`, `Unrecognized`, `ClosedEnum`.
 *
 * @since 0.3.0
 */
export * as EnumSchemas from "./EnumSchemas.js"

/**
 * Failures as text for people: what failed and what to do.
 *
 * @since 0.3.0
 */
export * as FailureText from "./FailureText.js"

/**
 * Spot 24-hour fund net flow.
 *
 * @since 0.1.0
 */
export * as FundNetFlow from "./FundNetFlow.js"

/**
 * Futures order history.
 *
 * @since 0.1.0
 */
export * as FuturesHistory from "./FuturesHistory.js"

/**
 * The value tables and enum schemas of futures order history (re-exported by `FuturesHistory`).
 *
 * @since 0.3.0
 */
export * as FuturesHistoryEnums from "./FuturesHistoryEnums.js"

/**
 * The HTTP exchange under the client: one request, its answer read within a
 * size cap and a deadline.
 *
 * @since 0.1.0
 */
export * as HttpTransport from "./HttpTransport.js"

/**
 * Records as plain JSON (ISO times, decimals as strings, `null` for `None`)
 * and back.
 *
 * @since 0.3.0
 */
export * as Json from "./Json.js"

/**
 * Open interest limits of a futures symbol.
 *
 * @since 0.1.0
 */
export * as OpenInterestLimit from "./OpenInterestLimit.js"

/**
 * P2P merchant orders.
 *
 * @since 0.1.0
 */
export * as P2pOrders from "./P2pOrders.js"

/**
 * Place position take-profit / stop-loss plans.
 *
 * @since 0.1.0
 */
export * as PositionTpsl from "./PositionTpsl.js"

/**
 * Client-side rate limiting per endpoint × scope.
 *
 * @since 0.1.0
 */
export * as RateLimiter from "./RateLimiter.js"

/**
 * Where a rate limiter keeps its send times: the store contract and the in-process store.
 *
 * @since 0.3.0
 */
export * as RateLimiterStore from "./RateLimiterStore.js"

/**
 * Resumable streams: pages with checkpoints, for exactly-once pipelines.
 *
 * @since 0.3.0
 */
export * as Resumable from "./Resumable.js"

/**
 * Retry policy per endpoint.
 *
 * @since 0.1.0
 */
export * as Retry from "./Retry.js"

/**
 * RPI order book depth.
 *
 * @since 0.1.0
 */
export * as RpiOrderBook from "./RpiOrderBook.js"

/**
 * Schema building blocks: decimals, timestamps, optional values, open enums, ids.
 *
 * @since 0.1.0
 */
export * as Schemas from "./Schemas.js"

/**
 * The exchange's clock.
 *
 * @since 0.1.0
 */
export * as ServerTime from "./ServerTime.js"

/**
 * The signature rule and the `Signer` service.
 *
 * @since 0.1.0
 */
export * as Signer from "./Signer.js"

/**
 * Progress of the paginated streams, for whoever asks.
 *
 * @since 0.1.0
 */
export * as StreamProgress from "./StreamProgress.js"

/**
 * Spot symbol information.
 *
 * @since 0.1.0
 */
export * as Symbols from "./Symbols.js"

/**
 * Spot tax (transaction) records.
 *
 * @since 0.1.0
 */
export * as TaxRecords from "./TaxRecords.js"

/**
 * Span names, span attributes and metrics of the client.
 *
 * @since 0.1.0
 */
export * as Telemetry from "./Telemetry.js"

/**
 * Millisecond timestamps as `DateTime.Utc`.
 *
 * @since 0.3.0
 */
export * as TimestampSchemas from "./TimestampSchemas.js"

/**
 * All-symbol trade fee rates of a business line.
 *
 * @since 0.1.0
 */
export * as TradeRates from "./TradeRates.js"

/**
 * A `Signer` on WebCrypto.
 *
 * @since 0.1.0
 */
export * as WebCryptoSigner from "./WebCryptoSigner.js"
