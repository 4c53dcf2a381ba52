// Positive: valid xarray-v2 documents type-check, with the types users rely on. Unknown keys of
// the open attributes object are fine (the Python twin of these lines is diff_pep728_extra_items:
// pyright accepts them, mypy has no PEP 728 yet).
import type { Expect, Equal } from "../_expect.js";
import type { ArraySpec, GroupSpec, JsonObject, JsonValue, Variable, VariableAttributes, XarrayDataset } from "../packages/xarray_v2/types.js";
import { assertXarrayDataset, parse } from "../packages/xarray_v2/validate.js";
import { DATASET, VARIABLE } from "./_valid.js";

export const dataset_doc: XarrayDataset = { ...DATASET, members: { t: VARIABLE } };
export const units: XarrayDataset = { ...DATASET, members: { t: { ...VARIABLE, attributes: { _ARRAY_DIMENSIONS: ["x"], units: "K" } } } };
export const dataset = parse(units);
export type T1 = Expect<Equal<typeof dataset, XarrayDataset>>;
export type T2 = Expect<Equal<(typeof dataset.members)[string], Variable>>;
export type T3 = Expect<Equal<VariableAttributes["_ARRAY_DIMENSIONS"], readonly string[]>>;
export type T4 = Expect<Equal<Variable["shape"], readonly number[]>>;
export const unit: unknown = dataset.members["t"]?.attributes["units"];
// A node is its generic base, with its narrowed attribute and member types.
export const base: GroupSpec<JsonObject, { readonly [name: string]: ArraySpec<VariableAttributes> }> = dataset_doc;
export const array_base: ArraySpec<VariableAttributes> = VARIABLE;

export function dimensions(document: unknown): readonly string[] {
  assertXarrayDataset(document); // narrows, or throws ZomError with every problem
  return document.members["t"]?.attributes._ARRAY_DIMENSIONS ?? [];
}
export type T5 = Expect<Equal<JsonValue extends unknown ? true : false, true>>;
