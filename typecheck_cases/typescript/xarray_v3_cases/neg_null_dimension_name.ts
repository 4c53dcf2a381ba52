// Negative: xarray-v3 `dimension_names` are strings; the base's `null` entries are not allowed.
import type { XarrayDataset } from "../packages/xarray_v3/types.js";
import { DATASET, VARIABLE } from "./_valid.js";

// @ts-expect-error TS2322 dimension names are strings, never null
export const null_name: XarrayDataset = { ...DATASET, members: { t: { ...VARIABLE, dimension_names: [null] } } };
