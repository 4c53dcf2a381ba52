// Positive: valid xarray-v3 documents type-check, with the types users rely on; parse and the
// guard give the convention's types.
import type { Expect, Equal } from "../_expect.js";
import type { AnyNode, ArraySpec, GroupSpec, JsonObject, Variable, XarrayDataset } from "../packages/xarray_v3/types.js";
import { isXarrayDataset, parse, validate, type Problem } from "../packages/xarray_v3/validate.js";
import { VARIABLE, WITH_VARIABLE } from "./_valid.js";

export const dataset_doc: XarrayDataset = { zarr_format: 3, node_type: "group", attributes: { title: "demo" }, members: { t: VARIABLE } };
export const dataset = parse(dataset_doc);
export type T1 = Expect<Equal<typeof dataset, XarrayDataset>>;
export type T2 = Expect<Equal<(typeof dataset.members)[string], Variable>>;
export type T3 = Expect<Equal<Variable["dimension_names"], readonly string[]>>;
export type T4 = Expect<Equal<Variable["node_type"], "array">>;
export type T5 = Expect<Equal<ReturnType<typeof validate>, Problem[]>>;
// A node is its generic base, with its narrowed attribute and member types.
export const base: GroupSpec<JsonObject, { readonly [name: string]: ArraySpec<JsonObject> }> = WITH_VARIABLE;
export const array_base: ArraySpec<JsonObject> = VARIABLE;
export const any_node: AnyNode = WITH_VARIABLE;

export function narrows(document: unknown): readonly string[] {
  // the guard narrows unknown JSON to the convention's type
  return isXarrayDataset(document) ? Object.keys(document.members) : [];
}
