// oneof-tagged-union (tests/cases/oneof-tagged-union): a closed object and a tagged union.
import type { Transform, TransformedAttributes } from "../packages/tagged_union/types";

export const scale: TransformedAttributes = { transform: { type: "scale", scale: [1, 2] } };

export function scaleOf(t: Transform): readonly number[] | undefined {
  return t.type === "scale" ? t.scale : undefined; // the tag narrows the union
}

export const unknownKey: TransformedAttributes = {
  transform: { type: "identity" },
  // @ts-expect-error TS2353 the attributes object is closed
  colour: "red",
};

// @ts-expect-error TS2322 the tag of a transform is one of its consts
export const wrongTag: TransformedAttributes = { transform: { type: "rotate" } };
