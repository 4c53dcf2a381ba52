/**
 * zomgen's library for rules in CEL (rules.ts): what a rule needs beyond CEL's standard macros
 * and the strings extension. The TypeScript twin of _runtime/tree.py, which says what each
 * gives: the variable `nodes` (every node at and below `self`, by path), `indices(list)`,
 * `keys(map)` (sorted by code point, as Python sorts), `pathParent(path)` and `pathName(path)`.
 *
 * `asCel` gives a JSON value the numbers both run times give CEL: a whole number within 64 bits
 * is an `int` (a BigInt), every other number a `double`.
 */

import { PROTO, PROTO_ALIAS, isArray, isObject } from "./pointers.js";

export const NODES = "nodes";
const INT_MIN = -(2n ** 63n);
const INT_MAX = 2n ** 63n - 1n;
// CEL's string literals (their text is no code), then the variable `nodes` outside them.
const STRINGS = /'(?:\\.|[^'\\])*'|"(?:\\.|[^"\\])*"/g;
const NODES_READ = /(?<![.\w])nodes(?!\w)/;

/** Does the CEL text `text` read the variable `nodes`? */
export function usesNodes(text: string): boolean {
  return NODES_READ.test(text.replace(STRINGS, "''"));
}

/** Every node at and below `node` (a value `asCel` made) by its path from it ("/" for `node`). */
export function nodesOf(node: unknown): Map<string, unknown> {
  const found = new Map<string, unknown>();
  const waiting: [string, unknown][] = [["/", node]];
  for (let next = waiting.pop(); next !== undefined; next = waiting.pop()) {
    const [path, at] = next;
    found.set(path, at);
    const members = at instanceof Map ? at.get("members") : undefined;
    if (!(members instanceof Map)) continue;
    for (const [name, member] of members) {
      waiting.push([path.endsWith("/") ? path + name : `${path}/${name}`, member]);
    }
  }
  return found;
}

/** `value` with its whole numbers within 64 bits as BigInt (CEL `int`); objects as Maps, so a
 * member named `__proto__` or `constructor` is a key like any other (`__proto__` by its own
 * name again: Ajv's checks see it renamed). */
export function asCel(value: unknown): unknown {
  if (typeof value === "number") {
    if (!Number.isInteger(value)) return value;
    const whole = BigInt(value);
    return whole < INT_MIN || whole > INT_MAX ? value : whole;
  }
  if (isArray(value)) return value.map(asCel);
  if (!isObject(value)) return value;
  return new Map(Object.entries(value).map(([key, item]) => [key === PROTO_ALIAS ? PROTO : key, asCel(item)]));
}

function indices(items: readonly unknown[]): bigint[] {
  return items.map((_item, index) => BigInt(index));
}

/** Code point order, as Python's sorted(): JavaScript's own sort compares UTF-16 units. */
function byCodePoint(a: string, b: string): number {
  const left = Array.from(a, (char) => char.codePointAt(0) ?? 0);
  const right = Array.from(b, (char) => char.codePointAt(0) ?? 0);
  for (let index = 0; index < Math.min(left.length, right.length); index += 1) {
    const step = (left[index] ?? 0) - (right[index] ?? 0);
    if (step !== 0) return step;
  }
  return left.length - right.length;
}

/** A CEL map's keys: zomgen binds maps as `Map`s; a map literal may be an object. */
function keys(mapping: Map<string, unknown> | Record<string, unknown>): string[] {
  const found = mapping instanceof Map ? [...mapping.keys()] : Object.keys(mapping);
  return found.sort(byCodePoint);
}

function pathParent(path: string): string {
  const at = path.lastIndexOf("/");
  if (at < 0) return "";
  return at === 0 ? "/" : path.slice(0, at);
}

function pathName(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}

/** The functions, by their CEL signature. */
export const FUNCTIONS: readonly [string, (value: never) => unknown][] = [
  ["indices(list): list<int>", indices],
  ["keys(map): list<string>", keys],
  ["pathParent(string): string", pathParent],
  ["pathName(string): string", pathName],
];
