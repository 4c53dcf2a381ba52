/**
 * The relation keywords: they compare values that paths (paths.ts) reach anywhere in the node and
 * its members. The TypeScript twin of _runtime/relations.py, rule for rule and message for
 * message:
 *
 * - `x-zomgen-equal: [[anchor, other, ...], ...]`: every value `other` reaches equals the
 *   anchor's (an other `{"join": [path, ...], "with": separator}` joins what its paths reach).
 * - `x-zomgen-equal-length`: every list `other` reaches has as many items as the anchor's list;
 *   an other `{"path": path, "plus": n}` has n items fewer.
 * - `x-zomgen-count-equal`: `other` reaches as many values as the integer at the anchor says.
 * - `x-zomgen-reaches`: `other` reaches a value, for every value of the anchor.
 * - `x-zomgen-in`: every value of the anchor is one of the values `other` reaches, if it reaches
 *   any; an other `{"values": [...]}` lists them.
 * - `x-zomgen-unique-by: {list path: key path}`: no two items of a list share a key.
 * - `x-zomgen-index-of`: every number the anchor reaches is an index of the list `other` reaches.
 * - `x-zomgen-partition`: the lists of indices the anchor reaches hold every index of the list
 *   `other` reaches exactly once, and nothing else.
 *
 * Like the other check keywords (checks.ts), each function here compiles a keyword's value once
 * into a check (node document in, violations out).
 */

import {
  type Choice,
  type Path,
  type Reached,
  boundTo,
  canonical,
  describe,
  evaluate,
  nodePrefix,
  parsePath,
  segmentValue,
  short,
} from "./paths.js";
import { WILDCARD, hasOwn, isArray, isObject, repr, toPointer } from "./pointers.js";
import { type Check, type Violation, malformed, nDims, nItems } from "./violations.js";

export const EQUAL = "x-zomgen-equal";
export const EQUAL_LENGTH = "x-zomgen-equal-length";
export const COUNT_EQUAL = "x-zomgen-count-equal";
export const REACHES = "x-zomgen-reaches";
export const IN = "x-zomgen-in";
export const UNIQUE_BY = "x-zomgen-unique-by";
export const INDEX_OF = "x-zomgen-index-of";
export const PARTITION = "x-zomgen-partition";

/** `{"join": [path, ...], "with": separator}`: the strings (or integers) the paths reach,
 * joined; one value per path, else nothing. */
export interface Join {
  readonly parts: readonly Path[];
  readonly separator: string;
}

/** `{"path": path, "plus": n}` (equal-length only): a list whose length plus n is the anchor's
 * (OME-Zarr 0.6: an affine row has one item more than its input system has axes). */
export interface Plus {
  readonly path: Path;
  readonly plus: number;
}

/** `{"values": [value, ...]}` (in only): the values themselves, not reached by a path. */
export interface Listed {
  readonly listed: readonly unknown[];
}

export type Operand = Path | Join | Plus | Listed;

const isJoin = (operand: Operand): operand is Join => "parts" in operand;
const isPlus = (operand: Operand): operand is Plus => "plus" in operand;
const isListed = (value: unknown): value is Listed => isObject(value) && isArray(value["listed"]);

function listedOperand(value: { readonly [key: string]: unknown }): Listed | null {
  const values = value["values"];
  if (Object.keys(value).length !== 1 || !isArray(values) || values.length === 0) return null;
  return { listed: values };
}

function plusOperand(value: { readonly [key: string]: unknown }): Plus | null {
  const keys = Object.keys(value);
  const path = value["path"];
  const plus = value["plus"];
  if (keys.length !== 2 || typeof path !== "string" || typeof plus !== "number") return null;
  if (!Number.isInteger(plus)) return null;
  const parsed = parsePath(path);
  return parsed === null ? null : { path: parsed, plus };
}

/** A rule's other operand, as `keyword` allows it; null if malformed. */
export function parseOperand(value: unknown, keyword: string): Operand | null {
  if (typeof value === "string") return parsePath(value);
  if (keyword === EQUAL_LENGTH && isObject(value)) return plusOperand(value);
  if (keyword === IN && isObject(value)) return listedOperand(value);
  if (keyword !== EQUAL) return null;
  if (!isObject(value) || Object.keys(value).some((k) => k !== "join" && k !== "with")) return null;
  const parts = value["join"];
  const separator = hasOwn(value, "with") ? value["with"] : "";
  if (!isArray(parts) || parts.length === 0 || typeof separator !== "string") return null;
  const parsed = parts.map((p) => (typeof p === "string" ? parsePath(p) : null));
  if (parsed.some((p) => p === null)) return null;
  return { parts: parsed.filter((p): p is Path => p !== null), separator };
}

type Rule = readonly [Path, readonly Operand[]];

/** The operand with its paths bound to the anchor's `*`s. */
export function bindOperand(anchor: Path, o: Operand): Operand {
  if (isJoin(o)) return { parts: o.parts.map((p) => boundTo(anchor, p)), separator: o.separator };
  if (isPlus(o)) return { path: boundTo(anchor, o.path), plus: o.plus };
  if (isListed(o)) return o;
  return boundTo(anchor, o);
}

function ruleList(value: unknown, keyword: string): Rule[] | null {
  if (!isArray(value)) return null;
  const rules: Rule[] = [];
  for (const rule of value) {
    if (!isArray(rule) || rule.length < 2 || typeof rule[0] !== "string") return null;
    const anchor = parsePath(rule[0]);
    const others = rule.slice(1).map((o) => parseOperand(o, keyword));
    if (anchor === null || others.some((o) => o === null)) return null;
    rules.push([anchor, others.filter((o): o is Operand => o !== null).map((o) => bindOperand(anchor, o))]);
  }
  return rules;
}

/** What an operand reaches; a join reaches one value without a location, or nothing. */
export function reach(root: unknown, op: Operand, choices: ReadonlyMap<number, Choice>): Reached[] {
  if (isPlus(op)) return evaluate(root, op.path, choices);
  if (isListed(op)) return [{ location: [], value: op, choices: new Map() }];
  if (!isJoin(op)) return evaluate(root, op, choices);
  const texts: string[] = [];
  for (const part of op.parts) {
    const reached = evaluate(root, part, choices);
    const text = reached.length === 1 ? segmentValue(reached[0]?.value) : null;
    if (text === null) return [];
    texts.push(text);
  }
  return [{ location: [], value: texts.join(op.separator), choices: new Map() }];
}

const SHAPES: { readonly [keyword: string]: string } = {
  [EQUAL]: "[[anchor path, path or {join, with}, ...], ...]",
  [EQUAL_LENGTH]: "[[anchor path, path or {path, plus}, ...], ...]",
  [COUNT_EQUAL]: "[[anchor path, path, ...], ...]",
  [REACHES]: "[[anchor path, path, ...], ...]",
  [IN]: "[[anchor path, path or {values}, ...], ...]",
  [INDEX_OF]: "[[anchor path, path, ...], ...]",
  [PARTITION]: "[[anchor path, path, ...], ...]",
};

/** Everything an other path reaches for one anchor value (count-equal, reaches, in); where it
 * reaches nothing because the list its first free `*` ranges over is there but empty, that
 * list (`x-zomgen-in`: nothing is one of an empty list). */
interface Whole {
  readonly whole: true;
  readonly text: string;
  readonly values: readonly Reached[];
  readonly empty: Reached | null;
}

/** The empty list or object that the first `*` of `path` not bound to the anchor ranges over,
 * where the path up to it reaches one; null where it reaches none (absent). */
function presentAndEmpty(root: unknown, path: Path, choices: ReadonlyMap<number, Choice>): Reached | null {
  const free = path.tokens.findIndex((token, i) => token === WILDCARD && !path.links.has(i));
  if (free < 0) return null;
  const links = new Map([...path.links].filter(([i]) => i < free));
  for (const reached of evaluate(root, { text: path.text, tokens: path.tokens.slice(0, free), links }, choices)) {
    const value = reached.value;
    if ((isArray(value) && value.length === 0) || (isObject(value) && Object.keys(value).length === 0)) return reached;
  }
  return null;
}

const WHOLE: readonly string[] = [COUNT_EQUAL, REACHES, IN];
// Their problems stand at the anchor's value: the others' values have no place of their own
// (a whole), or are right where the anchor is wrong (the list an index is out of).
const AT_ANCHOR: readonly string[] = [...WHOLE, INDEX_OF, PARTITION];

function isWhole(value: unknown): value is Whole {
  return isObject(value) && value["whole"] === true;
}

// (anchor's value, other's value, whether the problem stands at the other's, its `plus`)
type Compare = (a: Reached, o: Reached, placed: boolean, plus: number) => string | null;

/** A relation keyword: for every value the anchor reaches, each other operand (its shared `*`s
 * bound) is compared with it; a problem stands at the other operand's value (at the anchor's,
 * for a join or a count). */
function relation(keyword: string, compare: Compare): (value: unknown) => Check {
  return (value) => {
    const rules = ruleList(value, keyword);
    return (instance) => {
      if (!isObject(instance)) return [];
      if (rules === null) return [malformed(keyword, `expected ${SHAPES[keyword] ?? ""}`)];
      const found: Violation[] = [];
      rules.forEach(([anchor, others], index) => {
        for (const a of evaluate(instance, anchor, new Map())) {
          for (const other of others) {
            const placed = !isJoin(other) && !AT_ANCHOR.includes(keyword);
            const plus = isPlus(other) ? other.plus : 0;
            // compared as a whole: how many values, or which, and where
            let reached: Reached[];
            if (WHOLE.includes(keyword) && !isJoin(other) && !isPlus(other) && !isListed(other)) {
              // (a node above this document may be there: only `reaches` is told of it, and holds)
              const values = evaluate(instance, other, a.choices, null, new Map(), keyword === REACHES);
              const empty = keyword === IN && values.length === 0 ? presentAndEmpty(instance, other, a.choices) : null;
              reached = [{ location: [], value: { whole: true, text: other.text, values, empty }, choices: new Map() }];
            } else reached = reach(instance, other, a.choices);
            for (const o of reached) {
              const message = compare(a, o, placed, plus);
              if (message !== null) found.push({ path: placed ? o.location : a.location, message: message + joined(other), at: index });
            }
          }
        }
      });
      return found;
    };
  };
}

/** What a join was made of, after its problem's message: the paths name the keys involved
 * (relations.py's `_joined`). */
function joined(other: Operand): string {
  if (!isJoin(other)) return "";
  return `, the join of ${other.parts.map((p) => p.text).join(" and ")} with ${repr(other.separator)}`;
}

const compareEqual: Compare = (a, o, placed) => {
  if (canonical(a.value) === canonical(o.value)) return null;
  if (placed) return `${short(o.value)} does not equal ${describe(a.location, o.location)} (${short(a.value)})`;
  return `${short(a.value)} does not equal ${short(o.value)}`;
};

const compareLength: Compare = (a, o, _placed, plus) => {
  if (!isArray(a.value) || !isArray(o.value) || a.value.length === o.value.length + plus) return null;
  const other = describe(a.location, o.location);
  if (plus !== 0) {
    return `has ${nItems(o.value.length)}, so ${other} must have ${nItems(o.value.length + plus)}, but has ${a.value.length}`;
  }
  if (o.location.length > 0 && o.location[o.location.length - 1] === "shape") {
    return (
      `the array has ${nDims(o.value.length)} (shape ${repr(o.value)}), but ${other} has ` +
      `${nItems(a.value.length)}`
    );
  }
  return `has ${nItems(o.value.length)}, but ${other} has ${nItems(a.value.length)}`;
};

const compareCount: Compare = (a, o) => {
  if (typeof a.value !== "number" || !Number.isInteger(a.value) || !isWhole(o.value)) return null;
  const count = o.value.values.length;
  if (a.value === count) return null;
  return `is ${a.value}, but ${nItems(count)} ${count === 1 ? "is" : "are"} there`;
};

const compareReaches: Compare = (a, o) => {
  if (!isWhole(o.value) || o.value.values.length > 0) return null;
  return `${short(a.value)}: ${o.value.text} reaches nothing`;
};

const compareIn: Compare = (a, o) => {
  if (isListed(o.value)) {
    const text = canonical(a.value);
    if (o.value.listed.some((v) => canonical(v) === text)) return null;
    return `${short(a.value)} is not one of ${short(o.value.listed)}`;
  }
  if (isWhole(o.value) && o.value.empty !== null) {
    return `${short(a.value)} is not one of [], the values of ${o.value.text}: ${describe(o.value.empty.location, a.location)} is empty`;
  }
  if (!isWhole(o.value) || o.value.values.length === 0) return null;
  const values = o.value.values.map((v) => v.value);
  const text = canonical(a.value);
  if (values.some((v) => canonical(v) === text)) return null;
  const first = o.value.values[0]?.location ?? [];
  const pointer = toPointer(first.slice(nodePrefix(first).length)) || "the document";
  const whose = describe(first, a.location).slice(pointer.length);
  return `${short(a.value)} is not one of ${short(values)}, the values of ${o.value.text}${whose}`;
};

/** Whether a number is no index of a list of `length` items (a value of another type is left
 * to the schema). */
function notAnIndex(value: unknown, length: number): boolean {
  if (typeof value !== "number") return false;
  return !(Number.isInteger(value) && value >= 0 && value < length);
}

const compareIndexOf: Compare = (a, o) => {
  if (!isArray(o.value) || !notAnIndex(a.value, o.value.length)) return null;
  const other = describe(o.location, a.location);
  return `${short(a.value)} is not an index of ${other} (${nItems(o.value.length)})`;
};

const comparePartition: Compare = (a, o) => {
  if (!isArray(a.value) || a.value.length === 0 || !isArray(o.value)) return null;
  const length = o.value.length;
  const holders = new Map<number, number[]>(); // index -> the items holding it, once per time
  const faults: string[] = [];
  a.value.forEach((indices, item) => {
    for (const value of isArray(indices) ? indices : []) {
      if (notAnIndex(value, length)) faults.push(`item ${item} holds ${short(value)}, which is not an index`);
      else if (typeof value === "number") holders.set(value, [...(holders.get(value) ?? []), item]);
    }
  });
  for (const index of [...holders.keys()].sort((x, y) => x - y)) {
    const by = holders.get(index) ?? [];
    if (by.length > 1) faults.push(`${index} is held ${by.length} times (by items ${by.join(", ")})`);
  }
  const missing = [...Array(length).keys()].filter((i) => !holders.has(i));
  if (missing.length > 0) {
    faults.push(`${missing.join(", ")} ${missing.length === 1 ? "is" : "are"} held by no item`);
  }
  if (faults.length === 0) return null;
  const other = describe(o.location, a.location);
  return `must hold each index of ${other} (${nItems(length)}) exactly once: ${faults.join("; ")}`;
};

export const equal = relation(EQUAL, compareEqual);
export const equalLength = relation(EQUAL_LENGTH, compareLength);
export const countEqual = relation(COUNT_EQUAL, compareCount);
export const reaches = relation(REACHES, compareReaches);
export const isIn = relation(IN, compareIn);
export const indexOf = relation(INDEX_OF, compareIndexOf);
export const partition = relation(PARTITION, comparePartition);

export function uniqueBy(value: unknown): Check {
  const parsed = isObject(value)
    ? Object.keys(value).map((key) => {
        const by = value[key];
        return { key, items: parsePath(key), by: typeof by === "string" ? parsePath(by) : null };
      })
    : [];
  const valid = isObject(value) && parsed.every((r) => r.items !== null && r.by !== null);
  return (instance) => {
    if (!isObject(instance)) return [];
    if (!valid) return [malformed(UNIQUE_BY, "expected {list path: key path}")];
    const found: Violation[] = [];
    for (const { key, items: list, by } of parsed) {
      if (list === null || by === null) continue;
      for (const reached of evaluate(instance, list, new Map())) {
        if (!isArray(reached.value)) continue;
        const first = new Map<string, number>();
        reached.value.forEach((item, index) => {
          const keys = evaluate(instance, by, new Map(), [[...reached.location, index], item]);
          const only = keys[0];
          if (keys.length !== 1 || only === undefined) return;
          const text = canonical(only.value);
          const seen = first.get(text);
          if (seen === undefined) {
            first.set(text, index);
            return;
          }
          const message = `${short(only.value)} is also the ${by.text || "value"} of item ${seen}`;
          found.push({ path: only.location, message, at: key });
        });
      }
    }
    return found;
  };
}
