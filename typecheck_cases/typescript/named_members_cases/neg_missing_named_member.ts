// Negative: the member "0" is required (`members.required` in the schema).
import type { Image } from "../packages/named_members/types.js";
import { IMAGE, LABELS } from "./_valid.js";

// @ts-expect-error TS2322 the member "0" is required (TS2322: named members meet the index of the others)
export const no_members: Image = { ...IMAGE, members: {} };
// @ts-expect-error TS2322 labels alone do not make an image
export const only_labels: Image = { ...IMAGE, members: { labels: LABELS } };
