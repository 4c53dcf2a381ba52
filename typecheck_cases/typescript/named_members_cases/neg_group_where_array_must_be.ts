// Negative: the named member "0" is a level (an array), never a group.
import type { Image } from "../packages/named_members/types.js";
import { IMAGE, LABELS } from "./_valid.js";

// @ts-expect-error TS2740 a group where the level "0" must be: it has none of an array's keys
export const group_0: Image = { ...IMAGE, members: { "0": LABELS } };
// @ts-expect-error TS2322 a group literal where the level "0" must be
export const group_0_literal: Image = { ...IMAGE, members: { "0": { zarr_format: 3, node_type: "group", attributes: {}, members: {} } } };
