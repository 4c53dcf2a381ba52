// Negative: `_ARRAY_DIMENSIONS` is required in every variable's attributes.
import type { XarrayDataset } from "../packages/xarray_v2/types.js";
import { DATASET, VARIABLE } from "./_valid.js";

// @ts-expect-error TS2322 _ARRAY_DIMENSIONS is required (TS2322: an open object is an intersection)
export const no_dimensions: XarrayDataset = { ...DATASET, members: { t: { ...VARIABLE, attributes: {} } } };
