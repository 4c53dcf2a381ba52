// Negative: parse returns a deeply frozen document, the root and every node: its types are
// readonly (TS2540), and writing into it throws TypeError at run time.
import { parse } from "../packages/xarray_v3/validate.js";
import { WITH_VARIABLE } from "./_valid.js";

export function assign_members(): void {
  const dataset = parse(WITH_VARIABLE);
  // @ts-expect-error TS2540 the root's members are readonly
  dataset.members = {};
}

export function assign_dimension_names(): void {
  const dataset = parse(WITH_VARIABLE);
  const t = dataset.members["t"];
  if (t === undefined) throw new Error("parse lost the member t");
  // @ts-expect-error TS2540 a member's metadata is readonly
  t.dimension_names = ["y"];
}
