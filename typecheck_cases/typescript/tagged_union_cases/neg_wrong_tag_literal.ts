// Negative: a transform's tag `type` is one of the branches' `const`s.
import type { Transformed } from "../packages/tagged_union/types.js";
import { TRANSFORMED } from "./_valid.js";

// @ts-expect-error TS2322 the tag of a transform is one of its consts
export const rotate: Transformed = { ...TRANSFORMED, attributes: { transform: { type: "rotate" } } };
