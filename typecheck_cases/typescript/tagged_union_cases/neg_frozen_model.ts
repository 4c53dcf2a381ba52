// Negative: parse returns a deeply frozen document, the root, its attributes and each transform:
// readonly types (TS2540), TypeError at run time.
import { parse } from "../packages/tagged_union/validate.js";
import { TRANSFORMED } from "./_valid.js";

export function assign_shape(): void {
  const array = parse(TRANSFORMED);
  // @ts-expect-error TS2540 the root's metadata is readonly
  array.shape = [3];
}

export function assign_transform(): void {
  const array = parse(TRANSFORMED);
  // @ts-expect-error TS2540 attributes are readonly
  array.attributes.transform = { type: "scale", scale: [2] };
}

export function assign_tag(): void {
  const transform = parse(TRANSFORMED).attributes.transform;
  // @ts-expect-error TS2540 a transform is readonly
  transform.type = "identity";
}
