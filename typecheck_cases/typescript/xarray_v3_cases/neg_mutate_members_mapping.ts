// Negative: a document's members and attributes are read-only maps; nothing can be added or
// replaced (TS2542), and parse's frozen result throws TypeError at run time.
import { parse } from "../packages/xarray_v3/validate.js";
import { VARIABLE, WITH_VARIABLE } from "./_valid.js";

export function add_member(): void {
  const dataset = parse(WITH_VARIABLE);
  // @ts-expect-error TS2542 members only permit reading
  dataset.members["u"] = VARIABLE;
}

export function set_attribute(): void {
  const dataset = parse(WITH_VARIABLE);
  // @ts-expect-error TS2542 attributes only permit reading
  dataset.attributes["title"] = "changed";
}
