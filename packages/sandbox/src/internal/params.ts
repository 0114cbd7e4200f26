/**
 * Request parameters and the exchange's validation codes.
 *
 * @internal
 */
import { Data, Either } from "effect"

/** An error answer: HTTP status, exchange code and message, `data: null`. */
export class ApiFailure extends Data.TaggedError("ApiFailure")<{
  readonly status: number
  readonly code: string
  readonly msg: string
}> {}

/** An HTTP 400 error answer. */
export const failure = (code: string, msg: string): ApiFailure => new ApiFailure({ status: 400, code, msg })

/** 40019: a required parameter is missing or blank. */
export const missing = (name: string) => failure("40019", `Parameter ${name} cannot be empty`)

/** 40020: a parameter has a value outside its enum or format. */
export const invalid = (name: string) => failure("40020", `Parameter ${name} error`)

/** 40017: a rule across parameters is broken. */
export const verification = (detail: string) => failure("40017", `Parameter verification failed ${detail}`)

/** 40053: a value is outside its allowed range. */
export const outOfRange = () => failure("40053", "Value range verification failed")

/** 40034: the named thing (a symbol) does not exist. */
export const notExist = (name: string) => failure("40034", `Parameter ${name} does not exist`)

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
): Either.Either<string | undefined, ApiFailure> => {
  const value = body[name]
  if (value === undefined || value === null) return Either.right(undefined)
  if (typeof value === "number" && Number.isFinite(value)) return Either.right(String(value))
  if (typeof value !== "string") return Either.left(invalid(name))
  return Either.right(value.trim() === "" ? undefined : value)
}

/** A required value. */
export const required = <A>(name: string, value: A | undefined): Either.Either<A, ApiFailure> =>
  value === undefined ? Either.left(missing(name)) : Either.right(value)

/** One of the allowed values; the canonical spelling is returned. */
export const oneOf = <const A extends string>(
  name: string,
  value: string,
  allowed: ReadonlyArray<A>,
  options?: { readonly caseInsensitive?: boolean }
): Either.Either<A, ApiFailure> => {
  const found = options?.caseInsensitive === true
    ? allowed.find((candidate) => candidate.toLowerCase() === value.toLowerCase())
    : allowed.find((candidate) => candidate === value)
  return found === undefined ? Either.left(invalid(name)) : Either.right(found)
}

/** An optional value that must be one of the allowed ones when present. */
export const optionalOneOf = <const A extends string>(
  name: string,
  value: string | undefined,
  allowed: ReadonlyArray<A>,
  options?: { readonly caseInsensitive?: boolean }
): Either.Either<A | undefined, ApiFailure> =>
  value === undefined ? Either.right(undefined) : oneOf(name, value, allowed, options)

/** An optional millisecond timestamp. */
export const millis = (name: string, value: string | undefined): Either.Either<number | undefined, ApiFailure> => {
  if (value === undefined) return Either.right(undefined)
  const parsed = /^\d{1,16}$/.test(value) ? Number(value) : Number.NaN
  return Number.isSafeInteger(parsed) ? Either.right(parsed) : Either.left(invalid(name))
}

/** An optional `limit`: a positive integer up to `max`, `fallback` when absent. */
export const limit = (
  value: string | undefined,
  options: { readonly fallback: number; readonly max: number }
): Either.Either<number, ApiFailure> => {
  if (value === undefined) return Either.right(options.fallback)
  if (!/^-?\d{1,12}$/.test(value)) return Either.left(invalid("limit"))
  const parsed = Number(value)
  return parsed < 1 || parsed > options.max ? Either.left(outOfRange()) : Either.right(parsed)
}

/** A positive decimal string. */
export const positiveDecimal = (name: string, value: string): Either.Either<string, ApiFailure> =>
  /^\d+(\.\d+)?$/.test(value) && Number(value) > 0 ? Either.right(value) : Either.left(invalid(name))

/** A client order id: `[0-9a-zA-Z-+_#]`, shorter than 50. */
export const clientOid = (name: string, value: string | undefined): Either.Either<string | undefined, ApiFailure> =>
  value === undefined || /^[0-9a-zA-Z\-+_#]{1,49}$/.test(value) ? Either.right(value) : Either.left(invalid(name))

/** Milliseconds in a day. */
export const DAY = 86_400_000
