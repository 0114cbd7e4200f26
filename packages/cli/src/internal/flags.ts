/**
 * What `bitget export` and `bitget sync` share on their command lines: the
 * `--product-type`, `--base-url` and `--quiet` flags, and the checks of their
 * values.
 *
 * @since 0.3.0
 */
import * as FuturesHistory from "@bitget-effect/core/FuturesHistory"
import { Flag } from "effect/cli"
import * as Option from "effect/Option"
import * as Result from "effect/Result"
import * as ExportKind from "./exportKind.js"
import { UsageError } from "./usageError.js"

/**
 * `--product-type`, for futures orders only.
 *
 * @since 0.3.0
 * @category constants
 */
export const productType = Flag.Literals("product-type", FuturesHistory.productTypes).pipe(
  Flag.withDescription(`futures-orders only: the product type (default ${ExportKind.defaultProductType})`),
  Flag.optional
)

/**
 * `--base-url`, in place of `BITGET_BASE_URL`.
 *
 * @since 0.3.0
 * @category constants
 */
export const baseUrl = Flag.String("base-url").pipe(
  Flag.withMetavar("URL"),
  Flag.withDescription("the exchange's address (default: BITGET_BASE_URL, or https://api.bitget.com)"),
  Flag.optional
)

/**
 * `--quiet`: no progress and no log on standard error.
 *
 * @since 0.3.0
 * @category constants
 */
export const quiet = Flag.Boolean("quiet").pipe(
  Flag.withAlias("q"),
  Flag.withDescription("no progress and no log on standard error (errors still)"),
  Flag.withDefault(false)
)

/**
 * The product type of a run of `kind`: the one given (or the default) for
 * futures orders, `null` for the others, which take none.
 *
 * @since 0.3.0
 * @category constructors
 */
export const checkProductType = (
  kind: ExportKind.Kind,
  given: Option.Option<ExportKind.ProductType>
): Result.Result<ExportKind.ProductType | null, UsageError> => {
  if (ExportKind.byKind[kind].futures) {
    return Result.succeed(Option.getOrElse(given, () => ExportKind.defaultProductType))
  }
  return Option.isSome(given)
    ? Result.fail(new UsageError({ problem: `--product-type applies to futures-orders only, not to ${kind}` }))
    : Result.succeed(null)
}

/**
 * `--base-url`, trimmed, if it is an http(s) URL.
 *
 * @since 0.3.0
 * @category constructors
 */
export const checkBaseUrl = (given: Option.Option<string>): Result.Result<Option.Option<string>, UsageError> => {
  const url = Option.map(given, (text) => text.trim())
  return Option.isSome(url) && !/^https?:\/\/[^\s/]+/i.test(url.value)
    ? Result.fail(new UsageError({ problem: `--base-url: expected an http(s) URL, got "${url.value}"` }))
    : Result.succeed(url)
}
