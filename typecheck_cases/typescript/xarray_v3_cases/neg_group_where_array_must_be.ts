// Negative: every member of an xarray dataset is a variable (an array), never a group.
import type { XarrayDataset } from "../packages/xarray_v3/types.js";
import { DATASET, GROUP } from "./_valid.js";

// @ts-expect-error TS2740 a group where a variable must be: it has none of an array's keys
export const group_member: XarrayDataset = { ...DATASET, members: { g: GROUP } };
// @ts-expect-error TS2322 a group literal where a variable must be
export const group_member_literal: XarrayDataset = { ...DATASET, members: { g: { zarr_format: 3, node_type: "group", attributes: {}, members: {} } } };
