/**
 * zomgen's check keywords: rules JSON Schema cannot express, declared in the schema itself.
 * The TypeScript twin of _runtime/checks.py, rule for rule, so that validate.ts and the Python
 * loader give the same verdicts. The node's own keywords are here:
 *
 * - `x-zomgen-ndim-length: [pointer, ...]`: every list reached has one item per dimension.
 * - `x-zomgen-member-kind: {pointer: "array" | "group" | "node"}`: every string reached names a
 *   member of this group (`a/b` for a grandchild) of that kind.
 * - `x-zomgen-member-ndim-length: [{member, length_of}, ...]`: every string reached by `member`
 *   that names an array has as many dimensions as the list(s) `length_of` reaches, whose `*`s
 *   are bound, left to right, to the positions the `*`s of `member` matched.
 *
 * and the table of all of them (`CHECKS`). The relations between paths that reach into the node
 * and its members (`x-zomgen-equal`, `-equal-length`, `-count-equal`, `-reaches`, `-in`,
 * `-unique-by`, `-index-of`, `-partition`) are relations.ts; where a path reaches, paths.ts;
 * `x-zomgen-connected`, connected.ts; `x-zomgen-rules` (rules in CEL), rules.ts.
 *
 * Each function compiles a keyword's value once into a check (node document in, violations
 * out); engine.ts plugs them into Ajv as ordinary keywords, so they compose with `anyOf`,
 * `not` and `if` like any other keyword.
 */

import { evaluate, findMember, holderOf, kindOf, nodePrefix, parsePath, valueAt } from "./paths.js";
import {
  type Segment,
  WILDCARD,
  isArray,
  isObject,
  match,
  parsePointer,
  repr,
  toPointer,
} from "./pointers.js";
import {
  COUNT_EQUAL,
  EQUAL,
  EQUAL_LENGTH,
  IN,
  INDEX_OF,
  PARTITION,
  REACHES,
  UNIQUE_BY,
  countEqual,
  equal,
  equalLength,
  indexOf,
  isIn,
  partition,
  reaches,
  uniqueBy,
} from "./relations.js";
import { RULES, rules } from "./rules.js";
import { type Check, type Violation, malformed, nDims, nItems } from "./violations.js";

export const NDIM_LENGTH = "x-zomgen-ndim-length";
export const MEMBER_KIND = "x-zomgen-member-kind";
export const MEMBER_NDIM_LENGTH = "x-zomgen-member-ndim-length";
export const KINDS: readonly string[] = ["array", "group", "node"];

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
            `has ${nItems(target.length)}, but the array has ${nDims(shape.length)} ` +
            `(shape ${repr(shape)})`;
          found.push({ path, message, at: index });
        }
      }
    });
    return found;
  };
}

const article = (kind: string): string => (kind === "array" ? "an" : "a");

export function memberKind(value: unknown): Check {
  const rules = isObject(value)
    ? Object.keys(value).map((key) => ({ key, path: parsePath(key), kind: value[key] }))
    : [];
  const valid =
    isObject(value) &&
    rules.every((r) => r.path !== null && typeof r.kind === "string" && KINDS.includes(r.kind));
  return (instance) => {
    if (!isObject(instance) || !isObject(instance["members"])) return [];
    if (!valid) {
      return [malformed(MEMBER_KIND, `expected {pointer: one of ${repr(KINDS)}}`)];
    }
    const found: Violation[] = [];
    for (const { key, path, kind } of rules) {
      if (path === null) continue;
      for (const { location, value: target } of evaluate(instance, path, new Map())) {
        if (typeof target !== "string") continue;
        // a string names a member of the node that holds it (of an array: a sibling)
        const holds = holderOf(instance, location);
        const node = findMember(valueAt(instance, holds), target);
        if (node === undefined) {
          const where =
            holds.length === nodePrefix(location).length ? "this group" : "the group that holds this array";
          found.push({ path: location, message: `${repr(target)} names no member of ${where}`, at: key });
          continue;
        }
        const actual = kindOf(node);
        if (kind !== "node" && actual !== kind) {
          const what = actual === null ? "a node" : `${article(actual)} ${actual}`;
          const message = `${repr(target)} names ${what}, not ${article(String(kind))} ${String(kind)}`;
          found.push({ path: location, message, at: key });
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
              `${repr(target)} has ${nDims(shape.length)} (shape ${repr(shape)}), but ` +
              `${toPointer(listPath)} has ${nItems(list.length)}`;
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
  [EQUAL]: equal,
  [EQUAL_LENGTH]: equalLength,
  [COUNT_EQUAL]: countEqual,
  [REACHES]: reaches,
  [IN]: isIn,
  [UNIQUE_BY]: uniqueBy,
  [INDEX_OF]: indexOf,
  [PARTITION]: partition,
  [RULES]: rules,
};

type Schema = { readonly [key: string]: unknown };

/** The pointers in `schema`'s own check keywords whose strings name members. */
export function memberPatterns(schema: Schema): string[] {
  const found: string[] = [];
  const kinds = schema[MEMBER_KIND];
  if (isObject(kinds)) found.push(...Object.keys(kinds));
  const rules = schema[MEMBER_NDIM_LENGTH];
  if (isArray(rules)) {
    const valid = rules.every((r) => isObject(r) && typeof r["member"] === "string" && typeof r["length_of"] === "string");
    if (valid) for (const rule of rules as readonly Schema[]) found.push(rule["member"] as string);
  }
  const reaches = schema[REACHES];
  for (const rule of isArray(reaches) ? reaches : []) {
    const target = isArray(rule) && rule.length === 2 && typeof rule[1] === "string" ? rule[1] : "";
    const named = MEMBER_TARGET.exec(target)?.[1];
    if (named !== undefined) found.push(named);
  }
  return found;
}

/** A reaches rule whose target is a member named by a value: `/members/{/pointer}`. */
const MEMBER_TARGET = /^\/members\/\{(\/[^{}]*)\}$/;
