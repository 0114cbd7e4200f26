/**
 * Fast decoders of structs (`Schema.Struct`, records, a class's fields):
 * generated code where the runtime allows it, else interpreted.
 *
 * Structs are the one place where code is generated (not in workerd while it
 * answers a request): a struct's decoder reads and writes its properties by
 * name, so each read and call site sees one shape and one decoder, and each
 * object is built by a constructor that sizes it for all its properties
 * (built by writes to computed keys, V8 turns an object of more than 19
 * properties into a slow dictionary).
 */
import * as SchemaAST from "effect/SchemaAST"
import type { Compile, Fast } from "./fastDecode.js"
import { absent, bail } from "./fastDecode.js"

/** `true` when every decoder compiled. */
export const all = (fasts: ReadonlyArray<Fast | undefined>): fasts is ReadonlyArray<Fast> =>
  fasts.every((fast) => fast !== undefined)

/** A plain object (not null, not an array). */
export const isObject = (input: unknown): input is Record<PropertyKey, unknown> =>
  typeof input === "object" && input !== null && !Array.isArray(input)

/** Whether an object has a property, as Schema asks it (`in`, own only for `__proto__`). */
const hasProperty = (input: object, key: PropertyKey): boolean =>
  key === "__proto__" ? Object.hasOwn(input, key) : key in input

/**
 * `true` when a struct can be generated: properties named by strings other
 * than `__proto__` (which a write would take for the prototype), and no
 * index signature.
 */
const generable = (ast: SchemaAST.Objects): boolean =>
  ast.indexSignatures.length === 0 &&
  ast.propertySignatures.every((ps) => typeof ps.name === "string" && ps.name !== "__proto__")

/**
 * A struct's decoder as generated code: each property read by name, decoded
 * by its own decoder, and the object built by a constructor that writes the
 * properties in order (an optional one only when it has a value), with the
 * given prototype. The names are written as JSON string literals; the
 * decoders and sentinels are parameters.
 */
const generated = (ast: SchemaAST.Objects, fields: ReadonlyArray<Fast>, prototype: object): Fast => {
  const keys = ast.propertySignatures.map((ps) => JSON.stringify(ps.name))
  const optional = ast.propertySignatures.map((ps) => SchemaAST.isOptional(ps.type))
  const values = keys.map((_, i) => `v${i}`)
  const writes = keys.map((key, i) => `${optional[i] ? `if(v${i}!==absent)` : ""}this[${key}]=v${i};`)
  const reads = keys.map((key, i) =>
    `let v${i}=input[${key}];if(v${i}===undefined&&!(${key} in input))v${i}=absent;` +
    `v${i}=f${i}(v${i});if(v${i}===bail${optional[i] ? "" : `||v${i}===absent`})return bail;`
  )
  const make = new Function(
    "absent",
    "bail",
    "prototype",
    ...fields.map((_, i) => `f${i}`),
    `function Make(${values.join(",")}){${writes.join("")}}Make.prototype=prototype;` +
      "return function(input){if(input===absent)return absent;" +
      "if(typeof input!==\"object\"||input===null||Array.isArray(input))return bail;" +
      `${reads.join("")}return new Make(${values.join(",")})}`
  )
  const decode: Fast = make(absent, bail, prototype, ...fields)
  return decode
}

/**
 * The same struct interpreted: each declared property decoded in order into
 * a new object of the given prototype, then the keys of its string index
 * signatures (a record); other properties are dropped.
 */
const interpreted = (
  ast: SchemaAST.Objects,
  fields: ReadonlyArray<Fast>,
  indexed: ReadonlyArray<Fast>,
  prototype: object
): Fast => {
  const names = ast.propertySignatures.map((ps) => ps.name)
  const declared = new Set<PropertyKey>(names)
  const optional = ast.propertySignatures.map((ps) => SchemaAST.isOptional(ps.type))
  return (input) => {
    if (input === absent) return absent
    if (!isObject(input)) return bail
    const output = Object.create(prototype) as Record<PropertyKey, unknown>
    for (let i = 0; i < names.length; i++) {
      const name = names[i] as PropertyKey
      const value = (fields[i] as Fast)(hasProperty(input, name) ? input[name] : absent)
      if (value === bail) return bail
      if (value === absent) {
        if (!optional[i]) return bail
        continue
      }
      output[name] = value
    }
    for (const fast of indexed) {
      for (const key of Object.keys(input)) {
        const value = fast(input[key])
        if (value === bail) return bail
        if (value !== absent && !declared.has(key)) output[key] = value
      }
    }
    return output
  }
}

/**
 * A struct whose objects have the given prototype (a class's, for its
 * instances): generated where the compiler generates code, the struct allows
 * it and the runtime builds the code at that moment, else interpreted. A required property that decodes to nothing
 * bails (Schema reports it missing).
 */
export const objects = (
  ast: SchemaAST.Objects,
  compile: Compile,
  prototype: object = Object.prototype
): Fast | undefined => {
  if (ast.propertySignatures.length === 0 && ast.indexSignatures.length === 0 && prototype === Object.prototype) {
    return (input) => (input === absent ? absent : input === null || input === undefined ? bail : input)
  }
  if (ast.indexSignatures.some((is) => !SchemaAST.isString(is.parameter) || is.parameter.checks !== undefined)) {
    return undefined
  }
  const fields = ast.propertySignatures.map((ps) => compile(ps.type))
  const indexed = ast.indexSignatures.map((is) => compile(is.type))
  if (!all(fields) || !all(indexed)) return undefined
  if (compile.generates && generable(ast)) {
    try {
      return generated(ast, fields, prototype)
    } catch {
      // code generation refused here: workerd allows it while a module loads, not while it answers a request
    }
  }
  return interpreted(ast, fields, indexed, prototype)
}
