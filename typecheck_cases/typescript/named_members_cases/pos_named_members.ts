// Positive: named members are typed per name; a level's narrowed data type is a literal union.
// Extra levels and extra label attributes are fine (open objects; the Python twin of these
// lines is diff_pep728_extra_items: pyright accepts them, mypy has no PEP 728 yet).
import type { Expect, Equal } from "../_expect.js";
import type { ArraySpec, GroupSpec, Image, JsonObject, Labels, Level } from "../packages/named_members/types.js";
import { parse } from "../packages/named_members/validate.js";
import { IMAGE, LABELS, LEVEL, WITH_LABELS } from "./_valid.js";

export const image = parse(WITH_LABELS);
export type T1 = Expect<Equal<typeof image, Image>>;
export type T2 = Expect<Equal<(typeof image.members)["0"], Level>>;
export type T3 = Expect<Equal<Level["data_type"], "uint8" | "uint16">>;
export type T4 = Expect<Equal<(typeof image.members)["labels"], Labels | undefined>>;
export type T5 = Expect<Equal<Labels["attributes"]["labels"], readonly string[]>>;
export const two_levels: Image = { ...IMAGE, members: { "0": LEVEL, "1": LEVEL } };
export const labelled: Image = { ...IMAGE, members: { "0": LEVEL, labels: { ...LABELS, attributes: { labels: ["cells"], colour: "red" } } } };
// A node is its generic base.
export const base: GroupSpec<JsonObject, Image["members"]> = WITH_LABELS;
export const level_base: ArraySpec<JsonObject> = LEVEL;
