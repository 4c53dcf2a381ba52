// Negative: v3 node metadata is closed: a key the core spec does not name is an extension, which
// must be an object with `"must_understand": false` (ZEP 9), so `"colour": "red"` is refused.
import type { XarrayDataset } from "../packages/xarray_v3/types.js";
import { DATASET, VARIABLE } from "./_valid.js";

// @ts-expect-error TS2353 an unknown key on the group
export const colour: XarrayDataset = { ...DATASET, colour: "red" };
// @ts-expect-error TS2353 an unknown key on a variable
export const colour_variable: XarrayDataset = { ...DATASET, members: { t: { ...VARIABLE, colour: "red" } } };
