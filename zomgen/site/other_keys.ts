/**
 * Keys a writer put in `.zgroup` or `.zarray` beside the Zarr v2 spec's own: a warning each,
 * unless a convention checked in the same run declares the key on a node. The twin of
 * catalog/other_keys.py (the same keys, pointers and words).
 */

import { escapeToken, isArray, isObject, repr } from "./_runtime_ts/pointers.js";
import type { Problem } from "./_runtime_ts/problems.js";

type Json = { readonly [key: string]: unknown };

export const OTHER_KEY = "other key";

const V2_GROUP = ["zarr_format", "attributes", "members"];
const V2_ARRAY = [
  "zarr_format",
  "attributes",
  "shape",
  "chunks",
  "dtype",
  "compressor",
  "fill_value",
  "order",
  "filters",
  "dimension_separator",
];
const BASE_NODES = ["/GroupSpec", "/ArraySpec", "/Node"];

/** The keys of a v2 node's document outside the spec's own (none for a v3 node). */
export function otherKeys(node: Json): string[] {
  if (node["zarr_format"] !== 2) return [];
  const known = Object.hasOwn(node, "shape") ? V2_ARRAY : V2_GROUP;
  return Object.keys(node).filter((key) => !known.includes(key));
}

export function otherKeyWarning(nodePath: string, node: Json, key: string): Problem {
  const file = Object.hasOwn(node, "shape") ? ".zarray" : ".zgroup";
  const message =
    `${repr(key)} in ${file} is not a Zarr v2 key (the spec: other keys SHOULD NOT be present, ` +
    "and readers ignore them); no convention checked here declares it";
  return { node_path: nodePath, pointer: "/" + escapeToken(key), message, keyword: OTHER_KEY, schema_path: "" };
}

/** Every key a convention's schema lists on a node: its own `properties` or `required` in a
 * subschema that refines a base group or array. */
export function declaredNodeKeys(schema: unknown): Set<string> {
  const found = new Set<string>();
  const stack: unknown[] = [schema];
  for (let item = stack.pop(); item !== undefined || stack.length > 0; item = stack.pop()) {
    if (isArray(item)) stack.push(...item);
    else if (isObject(item)) {
      if (refinesANode(item)) listed(item).forEach((key) => found.add(key));
      stack.push(...Object.values(item));
    }
  }
  return found;
}

function refinesANode(schema: Json): boolean {
  const refs: unknown[] = [schema["$ref"]];
  const allOf = schema["allOf"];
  if (isArray(allOf)) for (const part of allOf) if (isObject(part)) refs.push(part["$ref"]);
  return refs.some((ref) => typeof ref === "string" && BASE_NODES.some((end) => ref.endsWith(end)));
}

function listed(schema: Json): string[] {
  const keys: string[] = [];
  const properties = schema["properties"];
  if (isObject(properties)) keys.push(...Object.keys(properties));
  const required = schema["required"];
  if (isArray(required)) for (const key of required) if (typeof key === "string") keys.push(key);
  return keys;
}
