// Negative: the attributes and every transform are closed (`additionalProperties: false`).
import type { Transformed } from "../packages/tagged_union/types.js";
import { TRANSFORMED } from "./_valid.js";

// @ts-expect-error TS2353 an unknown key on the attributes
export const colour: Transformed = { ...TRANSFORMED, attributes: { transform: { type: "identity" }, colour: "red" } };
// @ts-expect-error TS2353 an unknown key on a transform
export const coloured_identity: Transformed = { ...TRANSFORMED, attributes: { transform: { type: "identity", colour: "red" } } };
