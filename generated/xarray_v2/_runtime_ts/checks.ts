/**
 * zomgen's check keywords: rules JSON Schema cannot express, declared in the schema itself
 * (docs/extra-checks.md). The TypeScript twin of zomgen/runtime/checks.py, rule for rule, so
 * that validate.ts and the Python loader give the same verdicts:
 *
 * - `x-zomgen-ndim-length: [pointer, ...]`: every list reached has one item per dimension.
 * - `x-zomgen-member-kind: {pointer: "array" | "group" | "node"}`: every string reached names a
 *   member of this group (`a/b` for a grandchild) of that kind.
 * - `x-zomgen-member-ndim-length: [{member, length_of}, ...]`: every string reached by `member`
 *   that names an array has as many dimensions as the list(s) `length_of` reaches, whose `*`s
 *   are bound, left to right, to the positions the `*`s of `member` matched.
 *
 * Each function compiles a keyword's value once into a check (node document in, violations
 * out); engine.ts plugs them into Ajv as ordinary keywords, so they compose with `anyOf`,
 * `not` and `if` like any other keyword.
 */

import {
  type Segment,
  WILDCARD,
  hasOwn,
  isArray,
  isObject,
  match,
  parsePointer,
  repr,
  toPointer,
} from "./pointers.js";

export const NDIM_LENGTH = "x-zomgen-ndim-length";
export const MEMBER_KIND = "x-zomgen-member-kind";
export const MEMBER_NDIM_LENGTH = "x-zomgen-member-ndim-length";
const KINDS: readonly string[] = ["array", "group", "node"];

/** `path`: where in the node's document; `at`: which entry of the keyword's value (a list
 * index or an object key), for the schema path; null when the value itself is malformed. */
export interface Violation {
  readonly path: readonly Segment[];
  readonly message: string;
  readonly at: string | number | null;
}

export type Check = (instance: unknown) => Violation[];

function malformed(keyword: string, why: string): Violation {
  return { path: [], message: `the schema's ${keyword} is malformed: ${why}`, at: null };
}

const items = (n: number): string => (n === 1 ? `${n} item` : `${n} items`);
const dims = (n: number): string => (n === 1 ? `${n} dimension` : `${n} dimensions`);

function pointerList(value: unknown): string[][] | null {
  if (!isArray(value) || !value.every((p) => typeof p === "string")) return null;
  return value.map((p) => parsePointer(String(p)));
}

export function ndimLength(value: unknown): Check {
  const patterns = pointerList(value);
  return (instance) => {
    if (!isObject(instance)) return [];
    const shape = instance["shape"];
    if (!isArray(shape)) return []; // a group, or a broken array that `type` / `required` report
    if (patterns === null) return [malformed(NDIM_LENGTH, "expected a list of JSON pointers")];
    const found: Violation[] = [];
    patterns.forEach((pattern, index) => {
      for (const { path, value: target } of match(instance, pattern)) {
        if (isArray(target) && target.length !== shape.length) {
          const message =
            `has ${items(target.length)}, but the array has ${dims(shape.length)} ` +
            `(shape ${repr(shape)})`;
          found.push({ path, message, at: index });
        }
      }
    });
    return found;
  };
}

function kindOf(node: unknown): string | null {
  if (!isObject(node)) return null;
  const nodeType = node["node_type"];
  if (nodeType === "array" || nodeType === "group") return nodeType;
  if (hasOwn(node, "shape")) return "array";
  if (hasOwn(node, "members")) return "group";
  return null;
}

/** The member node `relative` (`a` or `a/b`) names below `instance`, or undefined. */
export function findMember(instance: unknown, relative: string): unknown {
  let node: unknown = instance;
  for (const name of relative.split("/")) {
    const members = isObject(node) ? node["members"] : undefined;
    if (!isObject(members) || name === "" || name === "." || name === ".." || !hasOwn(members, name)) {
      return undefined;
    }
    node = members[name];
  }
  return node;
}

const article = (kind: string): string => (kind === "array" ? "an" : "a");

export function memberKind(value: unknown): Check {
  const rules = isObject(value)
    ? Object.keys(value).map((key) => ({ key, pattern: parsePointer(key), kind: value[key] }))
    : [];
  const valid = isObject(value) && rules.every((r) => typeof r.kind === "string" && KINDS.includes(r.kind));
  return (instance) => {
    if (!isObject(instance) || !isObject(instance["members"])) return [];
    if (!valid) {
      return [malformed(MEMBER_KIND, `expected {pointer: one of ${repr(KINDS)}}`)];
    }
    const found: Violation[] = [];
    for (const { key, pattern, kind } of rules) {
      for (const { path, value: target } of match(instance, pattern)) {
        if (typeof target !== "string") continue;
        const node = findMember(instance, target);
        if (node === undefined) {
          found.push({ path, message: `${repr(target)} names no member of this group`, at: key });
          continue;
        }
        const actual = kindOf(node);
        if (kind !== "node" && actual !== kind) {
          const what = actual === null ? "a node" : `${article(actual)} ${actual}`;
          const message = `${repr(target)} names ${what}, not ${article(String(kind))} ${String(kind)}`;
          found.push({ path, message, at: key });
        }
      }
    }
    return found;
  };
}

/** Replace the `*`s of `pattern`, left to right, with `bindings`; extra `*`s stay. */
function bind(pattern: readonly string[], bindings: readonly Segment[]): string[] {
  let next = 0;
  return pattern.map((token) => {
    if (token !== WILDCARD) return token;
    const bound = bindings[next++];
    return bound === undefined ? WILDCARD : String(bound);
  });
}

interface NdimRule {
  readonly member: string[];
  readonly lengthOf: string[];
}

function ndimRules(value: unknown): NdimRule[] | null {
  if (!isArray(value)) return null;
  const rules: NdimRule[] = [];
  for (const rule of value) {
    if (!isObject(rule)) return null;
    const member = rule["member"];
    const lengthOf = rule["length_of"];
    if (typeof member !== "string" || typeof lengthOf !== "string") return null;
    rules.push({ member: parsePointer(member), lengthOf: parsePointer(lengthOf) });
  }
  return rules;
}

export function memberNdimLength(value: unknown): Check {
  const rules = ndimRules(value);
  return (instance) => {
    if (!isObject(instance) || !isObject(instance["members"])) return [];
    if (rules === null) {
      return [malformed(MEMBER_NDIM_LENGTH, 'expected [{"member": ..., "length_of": ...}]')];
    }
    const found: Violation[] = [];
    rules.forEach(({ member, lengthOf }, index) => {
      for (const { path, value: target } of match(instance, member)) {
        if (typeof target !== "string") continue;
        const node = findMember(instance, target);
        const shape = isObject(node) ? node["shape"] : undefined;
        if (!isArray(shape)) continue; // no such array: x-zomgen-member-kind says so, if asked
        const bindings = path.filter((_, i) => member[i] === WILDCARD);
        for (const { path: listPath, value: list } of match(instance, bind(lengthOf, bindings))) {
          if (isArray(list) && list.length !== shape.length) {
            const message =
              `${repr(target)} has ${dims(shape.length)} (shape ${repr(shape)}), but ` +
              `${toPointer(listPath)} has ${items(list.length)}`;
            found.push({ path, message, at: index });
          }
        }
      }
    });
    return found;
  };
}

/** keyword -> compiler of its value */
export const CHECKS: { readonly [keyword: string]: (value: unknown) => Check } = {
  [NDIM_LENGTH]: ndimLength,
  [MEMBER_KIND]: memberKind,
  [MEMBER_NDIM_LENGTH]: memberNdimLength,
};
