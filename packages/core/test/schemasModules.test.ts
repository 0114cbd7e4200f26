/**
 * `Schemas` after its split: every export of `DecimalSchemas`,
 * `TimestampSchemas` and `EnumSchemas` is the same value under `Schemas`
 * (through the package's index and through `@bitget-effect/core/Schemas`),
 * and the types it re-exports are the same types (`expectTypeOf`, checked by
 * the compiler).
 */
import { assert, describe, it } from "@effect/vitest"
import { Schema } from "effect"
import { expectTypeOf } from "vitest"
import * as DecimalSchemas from "../src/DecimalSchemas.js"
import * as EnumSchemas from "../src/EnumSchemas.js"
import { Schemas } from "../src/index.js"
import * as SchemasModule from "../src/Schemas.js"
import * as TimestampSchemas from "../src/TimestampSchemas.js"

const moved = { DecimalSchemas, EnumSchemas, TimestampSchemas }

describe("Schemas re-exports the modules split from it", () => {
  for (const [name, module] of Object.entries(moved)) {
    it(`every export of ${name} is the same value under Schemas`, () => {
      const names = Object.keys(module)
      assert.isAtLeast(names.length, 2)
      for (const key of names) {
        const value: unknown = Reflect.get(module, key)
        assert.strictEqual(Reflect.get(Schemas, key), value, `Schemas.${key}`)
        assert.strictEqual(Reflect.get(SchemasModule, key), value, `Schemas.${key} (module)`)
      }
    })
  }

  it("the index's Schemas is the Schemas module", () => {
    assert.deepStrictEqual(Object.keys(Schemas).sort(), Object.keys(SchemasModule).sort())
    assert.strictEqual(Schemas.Decimal, DecimalSchemas.Decimal)
    assert.strictEqual(Schemas.Timestamp, TimestampSchemas.Timestamp)
    assert.strictEqual(Schemas.OpenEnum, EnumSchemas.OpenEnum)
    assert.strictEqual(Schemas.Unrecognized, EnumSchemas.Unrecognized)
  })

  it("an open enum decoded through Schemas is the type EnumSchemas names", () => {
    const sides = ["buy", "sell"] as const
    type Side = Schemas.OneOf<typeof sides>
    const decoded: Schemas.OpenEnum<Side> = Schema.decodeSync(Schemas.OpenEnum(sides))("hold")
    const same: EnumSchemas.OpenEnum<EnumSchemas.OneOf<typeof sides>> = decoded
    expectTypeOf<Schemas.OpenEnum<Side>>().toEqualTypeOf<EnumSchemas.OpenEnum<"buy" | "sell">>()
    expectTypeOf<SchemasModule.OneOf<typeof sides>>().toEqualTypeOf<EnumSchemas.OneOf<typeof sides>>()
    expectTypeOf<Schemas.Unrecognized>().toEqualTypeOf<EnumSchemas.Unrecognized>()
    assert.instanceOf(same, EnumSchemas.Unrecognized)
    assert.strictEqual(EnumSchemas.enumText(same), "hold")
  })
})
