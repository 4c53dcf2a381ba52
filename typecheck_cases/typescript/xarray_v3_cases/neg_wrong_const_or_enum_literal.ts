// Negative: `zarr_format` is the `const` 3 and a variable's `node_type` the `const` "array".
import type { XarrayDataset } from "../packages/xarray_v3/types.js";
import { DATASET, VARIABLE } from "./_valid.js";

// @ts-expect-error TS2322 zarr_format is 3
export const format_2: XarrayDataset = { ...DATASET, zarr_format: 2 };
// @ts-expect-error TS2322 a variable's node_type is "array"
export const node_type_group: XarrayDataset = { ...DATASET, members: { t: { ...VARIABLE, node_type: "group" } } };
