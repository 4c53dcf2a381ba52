// Negative: v3 node metadata is closed (ZEP 9: an extension must be an object with
// `"must_understand": false`), so `"colour": "red"` is refused, on the image and on a member.
import type { Image } from "../packages/named_members/types.js";
import { IMAGE, LEVEL } from "./_valid.js";

// @ts-expect-error TS2353 an unknown key on the image
export const colour: Image = { ...IMAGE, colour: "red" };
// @ts-expect-error TS2353 an unknown key on the level "0"
export const colour_0: Image = { ...IMAGE, members: { "0": { ...LEVEL, colour: "red" } } };
