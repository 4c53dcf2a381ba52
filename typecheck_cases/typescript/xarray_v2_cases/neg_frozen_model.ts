// Negative: parse returns a deeply frozen document, the root and every node and attribute
// object: its types are readonly (TS2540), and writing into it throws TypeError at run time.
import { parse } from "../packages/xarray_v2/validate.js";
import { WITH_VARIABLE } from "./_valid.js";

export function assign_attributes(): void {
  const dataset = parse(WITH_VARIABLE);
  // @ts-expect-error TS2540 the root's attributes are readonly
  dataset.attributes = { title: "changed" };
}

export function assign_order(): void {
  const t = parse(WITH_VARIABLE).members["t"];
  if (t === undefined) throw new Error("parse lost the member t");
  // @ts-expect-error TS2540 a member's metadata is readonly
  t.order = "F";
}

export function assign_array_dimensions(): void {
  const t = parse(WITH_VARIABLE).members["t"];
  if (t === undefined) throw new Error("parse lost the member t");
  // @ts-expect-error TS2540 a member's attributes are readonly
  t.attributes._ARRAY_DIMENSIONS = ["y"];
}
