// Negative: an image is a v3 group: `zarr_format` 3 and `node_type` "group" (`const`s).
import type { Image } from "../packages/named_members/types.js";
import { IMAGE } from "./_valid.js";

// @ts-expect-error TS2322 zarr_format is 3
export const format_2: Image = { ...IMAGE, zarr_format: 2 };
// @ts-expect-error TS2322 an image's node_type is "group"
export const node_type_array: Image = { ...IMAGE, node_type: "array" };
