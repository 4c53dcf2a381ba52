// named-members (tests/cases/named-members): named members, a narrowed data type.
import type { Image, LabelsAttributes, Level } from "../packages/named_members/types";

const level: Level = {
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
export const image: Image = { zarr_format: 3, node_type: "group", attributes: {}, members: { "0": level, "1": level } };

export const wrongType: Level = {
  zarr_format: 3,
  node_type: "array",
  attributes: {},
  shape: [2, 2],
  // @ts-expect-error TS2322 a level's data type is "uint8" or "uint16"
  data_type: "float64",
  chunk_grid: "regular",
  chunk_key_encoding: "default",
  fill_value: 0,
  codecs: ["bytes"],
};

export const noZero: Image = {
  zarr_format: 3,
  node_type: "group",
  attributes: {},
  // @ts-expect-error TS2322 the member "0" is required (TS2322: named members meet the index of the others)
  members: {},
};

// @ts-expect-error TS2322 a labels group lists its labels (TS2322: an open object is an intersection)
export const noLabels: LabelsAttributes = {};
