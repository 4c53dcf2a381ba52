// Negative: every member of an xarray dataset is a variable (an array), never a group.
import type { XarrayDataset } from "../packages/xarray_v2/types.js";
import { DATASET } from "./_valid.js";

// @ts-expect-error TS2353 a group literal where a variable must be: `members` is no array key
export const group_member: XarrayDataset = { ...DATASET, members: { g: { zarr_format: 2, attributes: { _ARRAY_DIMENSIONS: [] }, members: {} } } };
