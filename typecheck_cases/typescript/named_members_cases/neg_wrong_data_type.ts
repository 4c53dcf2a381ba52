// Negative: a level's data type is narrowed to the `enum` "uint8", "uint16".
import type { Image } from "../packages/named_members/types.js";
import { IMAGE, LEVEL } from "./_valid.js";

// @ts-expect-error TS2322 a level's data type is "uint8" or "uint16"
export const float64: Image = { ...IMAGE, members: { "0": { ...LEVEL, data_type: "float64" } } };
