/**
 * Whether a store's consolidated metadata says what its nodes' own files say: the twin of
 * consolidated_check.py. A reader that finds consolidated metadata takes the hierarchy from it
 * and never reads the nodes' files; one that does not reads the files. Where the two disagree
 * the store is two hierarchies at once, so the walk reads both (walk.ts) and every place where
 * they disagree is a problem of its node, at its pointer, with both values.
 *
 * Where the store cannot list its groups, the files are probed by the names the consolidated
 * metadata lists and by those the convention names (`ListedNames`).
 */

import type { Forced, NamedMembers } from "./members.js";
import { type JsonObject, forbiddenName } from "./node_files.js";
import { isArray, isObject, toPointer } from "./pointers.js";
import type { Problem } from "./problems.js";

export const KEYWORD = "consolidated";

/** The node paths the consolidated metadata lists ("a", "a/b") as nested names; those with a
 * forbidden name left out (already reported where the consolidated metadata was read). */
export function listedNames(keys: Iterable<string>): Forced {
  const names: Forced = new Map();
  for (const key of keys) {
    const parts = key.split("/");
    if (parts.some((name) => forbiddenName(name) !== null)) continue;
    let level = names;
    for (const name of parts) {
      let below = level.get(name);
      if (below === undefined) {
        below = new Map();
        level.set(name, below);
      }
      level = below;
    }
  }
  return names;
}

/** The members to probe where a group cannot be listed: those the consolidated metadata lists,
 * and those the convention names (`tree`, where there is one). */
export class ListedNames implements NamedMembers {
  constructor(
    private readonly tree: NamedMembers | null,
    private readonly listed: Forced,
  ) {}

  names(document: unknown): Forced {
    const named: Forced = new Map(this.tree?.names(document) ?? []);
    for (const [name, below] of this.listed) if (!named.has(name)) named.set(name, below);
    return named;
  }

  child(name: string, forced?: Forced): NamedMembers {
    return new ListedNames(this.tree?.child(name, forced) ?? null, this.listed.get(name) ?? new Map());
  }
}

/** A problem for each place where the hierarchy the consolidated metadata gives differs from
 * the one the nodes' files give, in document order (diffs.py's); none at or below the node
 * paths in `unreadable`, whose files could not be read (their own problems say so). */
export function disagreements(consolidated: JsonObject, files: JsonObject, unreadable: readonly string[]): Problem[] {
  const found: Problem[] = [];
  const below = (node: string): boolean =>
    unreadable.some((path) => node === path || path === "/" || node.startsWith(`${path}/`));
  for (const [node, pointer, before, after] of differences(consolidated, files)) {
    if (below(node)) continue;
    found.push({ node_path: node, pointer, message: said(pointer, before, after), keyword: KEYWORD, schema_path: "" });
  }
  return found;
}

const ABSENT = Symbol("absent");
type Side = unknown;
type Difference = [node: string, pointer: string, before: Side, after: Side];
type Pending =
  | { readonly node: string; readonly before: Side; readonly after: Side }
  | { readonly at: string; readonly place: readonly string[]; readonly before: Side; readonly after: Side }
  | { readonly difference: Difference };

/** Every difference between two ZOM documents, depth first in document order: a node's own
 * keys, then its members by name (`before`'s names first); objects by key, lists by position,
 * values as JSON. From a stack, not by recursion: a document may be deep. */
function differences(before: JsonObject, after: JsonObject): Difference[] {
  const found: Difference[] = [];
  const stack: Pending[] = [{ node: "/", before, after }];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    if ("difference" in item) {
      found.push(item.difference);
    } else if ("node" in item) {
      stack.push(...nodeParts(item.node, item.before, item.after).reverse());
    } else if (item.before === ABSENT || item.after === ABSENT) {
      found.push([item.at, toPointer(item.place), item.before, item.after]);
    } else if ((isObject(item.before) && isObject(item.after)) || (isArray(item.before) && isArray(item.after))) {
      const pairs = paired(entries(item.before), entries(item.after));
      const at = item.at;
      stack.push(...pairs.reverse().map(([key, b, a]) => ({ at, place: [...item.place, key], before: b, after: a })));
    } else if (!sameJson(item.before, item.after)) {
      found.push([item.at, toPointer(item.place), item.before, item.after]);
    }
  }
  return found;
}

function nodeParts(path: string, before: Side, after: Side): Pending[] {
  const b = isObject(before) ? before : {};
  const a = isObject(after) ? after : {};
  const own = (node: { readonly [key: string]: unknown }): [string, unknown][] =>
    Object.entries(node).filter(([key]) => key !== "members");
  const parts: Pending[] = paired(own(b), own(a)).map(([key, bv, av]) => ({ at: path, place: [key], before: bv, after: av }));
  for (const [name, bv, av] of paired(members(b), members(a))) {
    const here = path === "/" ? `/${name}` : `${path}/${name}`;
    if (av === ABSENT || bv === ABSENT) parts.push({ difference: [here, "", bv, av] });
    else parts.push({ node: here, before: bv, after: av });
  }
  return parts;
}

function members(node: { readonly [key: string]: unknown }): [string, unknown][] {
  const found = node["members"];
  return isObject(found) ? Object.entries(found) : [];
}

function entries(value: Side): [string, unknown][] {
  if (isArray(value)) return value.map((item, index) => [String(index), item]);
  return isObject(value) ? Object.entries(value) : [];
}

/** (key, before's value, after's value) for `before`'s keys, then those only `after` has. */
function paired(before: [string, unknown][], after: [string, unknown][]): [string, Side, Side][] {
  const afterMap = new Map(after);
  const beforeKeys = new Set(before.map(([key]) => key));
  return [
    ...before.map(([key, value]): [string, Side, Side] => [key, value, afterMap.has(key) ? afterMap.get(key) : ABSENT]),
    ...after.filter(([key]) => !beforeKeys.has(key)).map(([key, value]): [string, Side, Side] => [key, ABSENT, value]),
  ];
}

/** Equal as JSON: numbers by value, objects by keys whatever their order. */
function sameJson(a: unknown, b: unknown): boolean {
  if (isArray(a) && isArray(b)) return a.length === b.length && a.every((item, i) => sameJson(item, b[i]));
  if (isObject(a) && isObject(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && sameJson(a[k], b[k]));
  }
  return a === b || (Number.isNaN(a) && Number.isNaN(b));
}

function said(pointer: string, before: Side, after: Side): string {
  if (pointer === "") {
    if (after === ABSENT) return "the consolidated metadata lists this node, but the store holds no such node";
    return "the store holds this node, but the consolidated metadata does not list it";
  }
  const own = "the node's own metadata file";
  if (before === ABSENT) return `${own} has ${jsonShort(after)}, the consolidated metadata nothing`;
  if (after === ABSENT) return `the consolidated metadata has ${jsonShort(before)}, ${own} nothing`;
  return `the consolidated metadata says ${jsonShort(before)}, ${own} says ${jsonShort(after)}`;
}

/** A value as Python's `json.dumps` writes it (", " and ": " between items), cut to 80. */
function jsonShort(value: unknown): string {
  const text = jsonText(value);
  return text.length <= 80 ? text : `${text.slice(0, 77)}...`;
}

function jsonText(value: unknown): string {
  if (isArray(value)) return `[${value.map(jsonText).join(", ")}]`;
  if (isObject(value)) {
    return `{${Object.entries(value).map(([k, v]) => `${JSON.stringify(k)}: ${jsonText(v)}`).join(", ")}}`;
  }
  if (typeof value === "number" && !Number.isFinite(value)) return Number.isNaN(value) ? "NaN" : value > 0 ? "Infinity" : "-Infinity";
  return JSON.stringify(value) ?? "null";
}
