// Valid pieces of tagged-union documents (tests/cases/oneof-tagged-union); each negative case
// changes one thing.
import type { Transformed } from "../packages/tagged_union/types.js";

export const TRANSFORMED: Transformed = {
  zarr_format: 3,
  node_type: "array",
  attributes: { transform: { type: "identity" } },
  shape: [2],
  data_type: "float32",
  chunk_grid: "regular",
  chunk_key_encoding: "default",
  fill_value: 0,
  codecs: ["bytes"],
};
