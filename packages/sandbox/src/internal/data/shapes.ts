/**
 * Where live answers vary, which shape one answer (or one record) takes:
 * drawn from the seed under `varied`, the canonical one always under
 * `canonical`.
 *
 * @internal
 */
import type { Shapes } from "../../Shapes.js"
import { Draw } from "./hash.js"

/** Whether the variant (non-canonical) shape is taken at `(seed, salt, index)`, with probability `share`. */
export const variant = (shapes: Shapes, seed: number, salt: number, index: number, share = 0.5): boolean =>
  shapes === "varied" && Draw.at(seed, salt, index).chance(share)
