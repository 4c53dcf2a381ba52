// Valid pieces of xarray-v3 documents; each negative case changes one thing.
import type { AnyNode, GroupSpec, JsonObject, Variable, XarrayDataset } from "../packages/xarray_v3/types.js";

export const DATASET: XarrayDataset = { zarr_format: 3, node_type: "group", attributes: {}, members: {} };
export const VARIABLE: Variable = {
  zarr_format: 3,
  node_type: "array",
  attributes: {},
  shape: [2],
  data_type: "float32",
  chunk_grid: { name: "regular", configuration: { chunk_shape: [2] } },
  chunk_key_encoding: { name: "default" },
  fill_value: 0,
  codecs: ["bytes"],
  dimension_names: ["x"],
};
export const GROUP: GroupSpec<JsonObject, { readonly [name: string]: AnyNode }> = {
  zarr_format: 3,
  node_type: "group",
  attributes: {},
  members: {},
};
export const WITH_VARIABLE: XarrayDataset = { ...DATASET, members: { t: VARIABLE } };
