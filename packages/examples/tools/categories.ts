/**
 * The categories the API reference groups exports under: every `@category`
 * of a published package's public modules is one of these (the docs check,
 * `test/checks/docs.test.ts`, fails on any other).
 */
export const categories = {
  models: "types and classes of values: requests, records, options",
  schemas: "Schema building blocks: decimals, timestamps, enums, ids, optional values",
  constructors: "functions and values that build a value, a schedule, a config or a decoder",
  constants: "fixed values and tables: limits, names, golden vectors",
  endpoints: "endpoint descriptors (method, path, auth, rate limit, schemas)",
  operations: "an Effect that does one thing: a call of the exchange, a file read or written",
  streams: "a paginated listing, as a Stream",
  services: "service tags and references",
  layers: "layers that provide a service",
  errors: "error classes and their unions",
  accessors: "functions that read or look up a part of a value",
  predicates: "refinements and yes/no questions about a value",
  formatting: "functions that write a value as text",
  combinators: "functions that wrap an Effect or a Stream",
  metrics: "the client's metrics",
  running: "commands and the entry points that run a program or a command"
} as const satisfies Readonly<Record<string, string>>
