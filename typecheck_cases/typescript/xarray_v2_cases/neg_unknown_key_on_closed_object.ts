// Negative: a v2 array's metadata is closed (`additionalProperties: false` in the base).
import type { XarrayDataset } from "../packages/xarray_v2/types.js";
import { DATASET, VARIABLE } from "./_valid.js";

// @ts-expect-error TS2353 an unknown key on a variable
export const colour: XarrayDataset = { ...DATASET, members: { t: { ...VARIABLE, colour: "red" } } };
