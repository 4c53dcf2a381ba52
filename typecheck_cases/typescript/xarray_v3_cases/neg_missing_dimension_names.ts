// Negative: every xarray-v3 variable has `dimension_names` (required by the convention).
import type { XarrayDataset } from "../packages/xarray_v3/types.js";
import { DATASET } from "./_valid.js";

// @ts-expect-error TS2741 dimension_names is required
export const no_names: XarrayDataset = { ...DATASET, members: { t: { zarr_format: 3, node_type: "array", attributes: {}, shape: [2], data_type: "float32", chunk_grid: { name: "regular", configuration: { chunk_shape: [2] } }, chunk_key_encoding: { name: "default" }, fill_value: 0, codecs: ["bytes"] } } };
