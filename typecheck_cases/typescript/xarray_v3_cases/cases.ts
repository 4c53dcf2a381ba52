// xarray-v3: positives, then one mistake per directive (the same mistakes as the Python cases).
import type { AnyNode, ArraySpec, JsonObject, Variable, XarrayDataset } from "../packages/xarray_v3/types";

const variable: Variable = {
  zarr_format: 3,
  node_type: "array",
  attributes: { units: "K" },
  shape: [2, 3],
  data_type: "float32",
  chunk_grid: { name: "regular", configuration: { chunk_shape: [2, 3] } },
  chunk_key_encoding: { name: "default" },
  fill_value: 0,
  codecs: ["bytes"],
  dimension_names: ["y", "x"],
};
export const dataset: XarrayDataset = { zarr_format: 3, node_type: "group", attributes: {}, members: { t: variable } };
export const base: ArraySpec<JsonObject> = variable;
export const anyNode: AnyNode = dataset;

export const withGroup: XarrayDataset = {
  zarr_format: 3,
  node_type: "group",
  attributes: {},
  // @ts-expect-error TS2322 every member is a variable (an array), never a group
  members: { g: { zarr_format: 3, node_type: "group", attributes: {}, members: {} } },
};

// @ts-expect-error TS2741 dimension_names is required
export const noNames: Variable = {
  zarr_format: 3,
  node_type: "array",
  attributes: {},
  shape: [2],
  data_type: "float32",
  chunk_grid: "regular",
  chunk_key_encoding: "default",
  fill_value: 0,
  codecs: ["bytes"],
};

export const nullName: Variable = {
  zarr_format: 3,
  node_type: "array",
  attributes: {},
  shape: [2, 2],
  data_type: "float32",
  chunk_grid: "regular",
  chunk_key_encoding: "default",
  fill_value: 0,
  codecs: ["bytes"],
  // @ts-expect-error TS2322 dimension names are strings, never null
  dimension_names: ["x", null],
};

export const wrongNodeType: Variable = {
  zarr_format: 3,
  // @ts-expect-error TS2322 a variable's node_type is "array"
  node_type: "group",
  attributes: {},
  shape: [2],
  data_type: "float32",
  chunk_grid: "regular",
  chunk_key_encoding: "default",
  fill_value: 0,
  codecs: ["bytes"],
  dimension_names: ["x"],
};

// @ts-expect-error TS2540 documents are readonly, like the frozen models
dataset.members = {};
