// Positive: a `oneOf` tagged by `type` is a discriminated union, narrowed by its tag.
import type { Expect, Equal } from "../_expect.js";
import type { ArraySpec, Identity, Transform, Transformed, TransformedAttributes, TransformScale, TransformTranslation } from "../packages/tagged_union/types.js";
import { parse } from "../packages/tagged_union/validate.js";
import { TRANSFORMED } from "./_valid.js";

export const scaled: Transformed = { ...TRANSFORMED, attributes: { transform: { type: "scale", scale: [1, 2] } } };
export const array = parse(scaled);
export type T1 = Expect<Equal<typeof array, Transformed>>;
export type T2 = Expect<Equal<Transform, TransformScale | TransformTranslation | Identity>>;
export type T3 = Expect<Equal<Transform["type"], "scale" | "translation" | "identity">>;

export function scaleOf(t: Transform): readonly number[] | undefined {
  return t.type === "scale" ? t.scale : undefined; // the tag narrows the union
}
export const base: ArraySpec<TransformedAttributes> = array;
