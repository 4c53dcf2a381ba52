// Negative: `zarr_format` is the `const` 2; `order` is one of the `enum` "C", "F".
import type { XarrayDataset } from "../packages/xarray_v2/types.js";
import { DATASET, VARIABLE } from "./_valid.js";

// @ts-expect-error TS2322 zarr_format is 2
export const format_3: XarrayDataset = { ...DATASET, zarr_format: 3 };
// @ts-expect-error TS2322 order is "C" or "F"
export const order_z: XarrayDataset = { ...DATASET, members: { t: { ...VARIABLE, order: "Z" } } };
