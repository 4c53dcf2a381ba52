// Valid pieces of xarray-v2 documents; each negative case changes one thing.
import type { Variable, XarrayDataset } from "../packages/xarray_v2/types.js";

export const DATASET: XarrayDataset = { zarr_format: 2, attributes: {}, members: {} };
export const VARIABLE: Variable = {
  zarr_format: 2,
  attributes: { _ARRAY_DIMENSIONS: ["x"] },
  shape: [2],
  chunks: [2],
  dtype: "<f8",
  compressor: null,
  fill_value: 0,
  order: "C",
  filters: null,
};
export const WITH_VARIABLE: XarrayDataset = { ...DATASET, members: { t: VARIABLE } };
