/**
 * Reading the raw answers of the clients that do not decode: the length of
 * a list inside the parsed JSON, checked just enough to fail loudly on an
 * error envelope.
 */

/** A parsed envelope or `data` value, read loosely. */
export type Json = { readonly [key: string]: unknown }

/** The `data` of a parsed success envelope; throws on anything else. */
export const dataOf = (parsed: unknown): unknown => {
  const envelope = parsed as Json | null
  if (envelope === null || typeof envelope !== "object" || envelope.code !== "00000") {
    throw new Error(`not a success envelope: ${JSON.stringify(parsed).slice(0, 200)}`)
  }
  return envelope.data
}

/** The length of `value`, or of `value[key]` when a key is given; -1 when it is not a list. */
export const lengthOf = (value: unknown, key?: string): number => {
  const list = key === undefined ? value : (value as Json | null)?.[key]
  return Array.isArray(list) ? list.length : -1
}

/** The `id` of the last record of a list of records, if any. */
export const lastId = (value: unknown): string | undefined => {
  const last: unknown = Array.isArray(value) ? value.at(-1) : undefined
  const id = (last as Json | undefined)?.id
  return typeof id === "string" ? id : undefined
}

/**
 * Walks pages newest first with `idLessThan` = the last id, until a short
 * page, counting the records: what a user of a client without a stream writes.
 */
export const walkPages = async (
  page: (cursor: string | undefined) => Promise<unknown>,
  pageSize: number
): Promise<number> => {
  let count = 0
  let cursor: string | undefined
  for (;;) {
    const records = await page(cursor)
    const length = lengthOf(records)
    count += Math.max(0, length)
    cursor = lastId(records)
    if (length < pageSize || cursor === undefined) return count
  }
}
