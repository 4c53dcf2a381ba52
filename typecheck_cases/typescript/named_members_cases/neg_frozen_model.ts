// Negative: parse returns a deeply frozen document, the root, its named members and their
// attributes: readonly types (TS2540), TypeError at run time.
import { parse } from "../packages/named_members/validate.js";
import { WITH_LABELS } from "./_valid.js";

export function assign_members(): void {
  const image = parse(WITH_LABELS);
  // @ts-expect-error TS2540 the root's members are readonly
  image.members = { "0": image.members["0"] };
}

export function assign_data_type(): void {
  const image = parse(WITH_LABELS);
  // @ts-expect-error TS2540 a named member's metadata is readonly
  image.members["0"].data_type = "uint8";
}

export function assign_labels(): void {
  const labels = parse(WITH_LABELS).members.labels;
  if (labels === undefined) throw new Error("parse lost the labels");
  // @ts-expect-error TS2540 attributes are readonly
  labels.attributes.labels = [];
}
