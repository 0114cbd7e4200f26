/**
 * The fast decoder of a class (`Schema.Class` and its kin: a declaration
 * whose first encoding link is the class's constructor over a plain struct),
 * with no annotation of its own.
 *
 * The first value is built as Schema builds it: the struct's fields decoded,
 * then the class's constructor. When that instance is a plain one (it holds
 * exactly the decoded fields as ordinary properties, and no class between it
 * and Schema's own declares a constructor or a private member), the next
 * instances are built as a struct with the class's prototype, as the
 * constructor does with fields it trusts, instead of building the fields
 * twice. Any other class keeps its constructor for every value.
 */
import * as SchemaAST from "effect/SchemaAST"
import type * as SchemaGetter from "effect/SchemaGetter"
import { checked, encodingChecksOf, getterStep } from "./decodeSteps.js"
import type { Compile, Fast } from "./fastDecode.js"
import { absent, bail, ownFastDecode } from "./fastDecode.js"
import { objects } from "./structDecoder.js"

/** The class's struct, when the node is a class over a plain struct (no encoding or fast decoder of its own). */
export const classStruct = (ast: SchemaAST.AST): SchemaAST.Objects | undefined => {
  const link = ast.encoding?.[0]
  if (!SchemaAST.isDeclaration(ast) || link === undefined || link.transformation._tag !== "Transformation") {
    return undefined
  }
  const struct = link.to
  return SchemaAST.isObjects(struct) && struct.encoding === undefined && encodingChecksOf(struct) === undefined &&
      ownFastDecode(struct) === undefined
    ? struct
    : undefined
}

/** `true` when a property is an ordinary one: a writable, enumerable, configurable value. */
const ordinary = (descriptor: PropertyDescriptor | undefined): boolean =>
  descriptor !== undefined && "value" in descriptor && descriptor.writable === true &&
  descriptor.enumerable === true && descriptor.configurable === true

/**
 * `true` when the classes from the instance's own up to Schema's (the first
 * with its own `fields`) declare no constructor and no private member.
 */
const plainClasses = (instance: object): boolean => {
  for (
    let constructor: unknown = instance.constructor;
    typeof constructor === "function";
    constructor = Object.getPrototypeOf(constructor)
  ) {
    if (Object.hasOwn(constructor, "fields")) return true
    const source = Function.prototype.toString.call(constructor)
    if (source.includes("constructor") || source.includes("#")) return false
  }
  return false
}

/** `true` when the instance holds exactly the decoded fields, in order, as ordinary properties. */
const plainInstance = (instance: object, fields: object): boolean => {
  const keys = Reflect.ownKeys(instance)
  const expected = Reflect.ownKeys(fields)
  return Object.isExtensible(instance) && keys.length === expected.length &&
    keys.every((key, i) =>
      key === expected[i] && ordinary(Object.getOwnPropertyDescriptor(instance, key)) &&
      (instance as Record<PropertyKey, unknown>)[key] === (fields as Record<PropertyKey, unknown>)[key]
    ) &&
    plainClasses(instance)
}

const paths = new WeakMap<SchemaAST.AST, "prototype" | "constructor">()

/**
 * How a class's fast decoder builds its instances after the first (by the
 * class's prototype, or by its constructor), once it has built one.
 */
export const classPath = (ast: SchemaAST.AST): "prototype" | "constructor" | undefined => paths.get(ast)

/**
 * A class's fast decoder (its first encoding link and its own type), or
 * `undefined` when the node is no class over a plain struct or its struct
 * has no fast decoder.
 */
export const classDecoder = (compile: Compile, ast: SchemaAST.AST): Fast | undefined => {
  const struct = classStruct(ast)
  const link = ast.encoding?.[0]
  const fields = struct === undefined ? undefined : compile(struct)
  if (struct === undefined || link === undefined || fields === undefined) return undefined
  const construct = getterStep(link.transformation.decode as SchemaGetter.Getter<unknown, unknown, unknown>)
  const byConstructor: Fast = (input) => {
    const decoded = fields(input)
    return decoded === bail || decoded === absent ? decoded : construct(decoded)
  }
  let next: Fast | undefined
  return (input) => {
    if (next !== undefined) return next(input)
    const decoded = fields(input)
    if (decoded === bail || decoded === absent) return decoded
    const first = construct(decoded)
    if (typeof first === "object" && first !== null) {
      const made = plainInstance(first, decoded as object)
        ? objects(struct, compile, Object.getPrototypeOf(first) as object)
        : undefined
      next = made === undefined
        ? byConstructor
        : struct.checks === undefined
        ? made
        : checked(made, struct, struct.checks)
      paths.set(ast, made === undefined ? "constructor" : "prototype")
    }
    return first
  }
}
