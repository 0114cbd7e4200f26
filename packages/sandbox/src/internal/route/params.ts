/**
 * Request parameters and the exchange's validation codes.
 *
 * @internal
 */
import * as Data from "effect/Data"
import * as Result from "effect/Result"
import * as Messages from "./messages.js"

/** An error answer: HTTP status, exchange code and message, `data: null`. */
export class ApiFailure extends Data.TaggedError("ApiFailure")<{
  readonly status: number
  readonly code: string
  readonly msg: string
}> {}

/** An HTTP 400 error answer. */
export const failure = (code: string, msg: string): ApiFailure => new ApiFailure({ status: 400, code, msg })

/** An HTTP 400 error answer with the exchange's message of its code, the values filled in. */
export const coded = (code: Messages.Code, ...values: ReadonlyArray<string | number>): ApiFailure =>
  failure(code, Messages.english(code, ...values))

/** 40019: a required parameter is missing or blank. */
export const missing = (name: string) => coded("40019", name)

/** 40020: a parameter has a value outside its enum or format. */
export const invalid = (name: string) => coded("40020", name)

/** 40017: a rule across parameters is broken. */
export const verification = (detail: string) => coded("40017", detail)

/** 40053: a value is outside its allowed range, which the message states ("limit should be between 1 and 500"). */
export const outOfRange = (name: string, min: number, max: number) => coded("40053", name, min, max)

/**
 * 40034: the value sent (a symbol) does not exist. The message names the
 * value, as live: "Parameter NOTACOINUSDT does not exist".
 */
export const notExist = (value: string) => coded("40034", value)

/** Decoded query parameters (the first of repeated names wins). */
export class Query {
  private readonly values = new Map<string, string>()
  constructor(pairs: ReadonlyArray<readonly [string, string]>) {
    for (const [key, value] of pairs) if (!this.values.has(key)) this.values.set(key, value)
  }
  /** The value, or `undefined` when absent or blank. */
  get(name: string): string | undefined {
    const value = this.values.get(name)
    return value === undefined || value.trim() === "" ? undefined : value
  }
}

/** A string field of a JSON body (numbers are accepted and written as strings), `undefined` when absent or blank. */
export const field = (
  body: Readonly<Record<string, unknown>>,
  name: string
): Result.Result<string | undefined, ApiFailure> => {
  const value = body[name]
  if (value === undefined || value === null) return Result.succeed(undefined)
  if (typeof value === "number" && Number.isFinite(value)) return Result.succeed(String(value))
  if (typeof value !== "string") return Result.fail(invalid(name))
  return Result.succeed(value.trim() === "" ? undefined : value)
}

/** A required value. */
export const required = <A>(name: string, value: A | undefined): Result.Result<A, ApiFailure> =>
  value === undefined ? Result.fail(missing(name)) : Result.succeed(value)

/** One of the allowed values; the canonical spelling is returned. */
export const oneOf = <const A extends string>(
  name: string,
  value: string,
  allowed: ReadonlyArray<A>,
  options?: { readonly caseInsensitive?: boolean }
): Result.Result<A, ApiFailure> => {
  const found = options?.caseInsensitive === true
    ? allowed.find((candidate) => candidate.toLowerCase() === value.toLowerCase())
    : allowed.find((candidate) => candidate === value)
  return found === undefined ? Result.fail(invalid(name)) : Result.succeed(found)
}

/** An optional value that must be one of the allowed ones when present. */
export const optionalOneOf = <const A extends string>(
  name: string,
  value: string | undefined,
  allowed: ReadonlyArray<A>,
  options?: { readonly caseInsensitive?: boolean }
): Result.Result<A | undefined, ApiFailure> =>
  value === undefined ? Result.succeed(undefined) : oneOf(name, value, allowed, options)

/** An optional millisecond timestamp. */
export const millis = (name: string, value: string | undefined): Result.Result<number | undefined, ApiFailure> => {
  if (value === undefined) return Result.succeed(undefined)
  const parsed = /^\d{1,16}$/.test(value) ? Number(value) : Number.NaN
  return Number.isSafeInteger(parsed) ? Result.succeed(parsed) : Result.fail(invalid(name))
}

/** An optional `limit`: a positive integer up to `max`, `fallback` when absent. */
export const limit = (
  value: string | undefined,
  options: { readonly fallback: number; readonly max: number }
): Result.Result<number, ApiFailure> => {
  if (value === undefined) return Result.succeed(options.fallback)
  if (!/^-?\d{1,12}$/.test(value)) return Result.fail(invalid("limit"))
  const parsed = Number(value)
  return parsed < 1 || parsed > options.max ? Result.fail(outOfRange("limit", 1, options.max)) : Result.succeed(parsed)
}

/** A positive decimal string. */
export const positiveDecimal = (name: string, value: string): Result.Result<string, ApiFailure> =>
  /^\d+(\.\d+)?$/.test(value) && Number(value) > 0 ? Result.succeed(value) : Result.fail(invalid(name))

/** A client order id: `[0-9a-zA-Z-+_#]`, shorter than 50. */
export const clientOid = (name: string, value: string | undefined): Result.Result<string | undefined, ApiFailure> =>
  value === undefined || /^[0-9a-zA-Z\-+_#]{1,49}$/.test(value) ? Result.succeed(value) : Result.fail(invalid(name))
