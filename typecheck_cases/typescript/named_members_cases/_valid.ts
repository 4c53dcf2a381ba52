// Valid pieces of named-members documents (tests/cases/named-members/schema.json); each negative
// case changes one thing.
import type { Image, Labels, Level } from "../packages/named_members/types.js";

export const LEVEL: Level = {
  zarr_format: 3,
  node_type: "array",
  attributes: {},
  shape: [2, 2],
  data_type: "uint16",
  chunk_grid: "regular",
  chunk_key_encoding: "default",
  fill_value: 0,
  codecs: ["bytes"],
};
export const IMAGE: Image = { zarr_format: 3, node_type: "group", attributes: {}, members: { "0": LEVEL } };
export const LABELS: Labels = { zarr_format: 3, node_type: "group", attributes: { labels: ["cells"] }, members: {} };
export const WITH_LABELS: Image = { ...IMAGE, members: { "0": LEVEL, labels: LABELS } };
