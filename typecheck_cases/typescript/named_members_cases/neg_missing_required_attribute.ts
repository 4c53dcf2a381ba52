// Negative: a labels group's attributes must list its `labels` (`required`).
import type { Image } from "../packages/named_members/types.js";
import { IMAGE, LABELS, LEVEL } from "./_valid.js";

// @ts-expect-error TS2322 labels is required (TS2322: an open object is an intersection)
export const no_labels: Image = { ...IMAGE, members: { "0": LEVEL, labels: { ...LABELS, attributes: {} } } };
