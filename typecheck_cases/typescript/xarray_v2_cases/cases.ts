// xarray-v2: positives, then one mistake per directive (the same mistakes as the Python cases).
import type { ArraySpec, Variable, VariableAttributes, XarrayDataset } from "../packages/xarray_v2/types";

const variable: Variable = {
  zarr_format: 2,
  attributes: { _ARRAY_DIMENSIONS: ["y", "x"], units: "K" }, // unknown keys of an open object are fine
  shape: [2, 3],
  chunks: [2, 3],
  dtype: "<f8",
  compressor: null,
  fill_value: "NaN",
  order: "C",
  filters: null,
};
export const dataset: XarrayDataset = { zarr_format: 2, attributes: {}, members: { t: variable } };
export const base: ArraySpec<VariableAttributes> = variable; // a node is its generic base

// @ts-expect-error TS2322 a variable's attributes must carry _ARRAY_DIMENSIONS (TS2322: an open object is an intersection)
export const missing: VariableAttributes = { units: "K" };

export const wrongConst: Variable = {
  // @ts-expect-error TS2322 zarr_format is 2 in a v2 variable
  zarr_format: 3,
  attributes: { _ARRAY_DIMENSIONS: ["x"] },
  shape: [2],
  chunks: [2],
  dtype: "<f8",
  compressor: null,
  fill_value: 0,
  order: "C",
  filters: null,
};

// @ts-expect-error TS2540 documents are readonly, like the frozen models
variable.shape = [1];
