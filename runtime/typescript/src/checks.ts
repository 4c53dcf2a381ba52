/**
 * zomgen's check keywords: rules JSON Schema cannot express, declared in the schema itself.
 * The TypeScript twin of the Python run time's _runtime/checks.py, rule for rule, so
 * that validate.ts and the Python loader give the same verdicts:
 *
 * - `x-zomgen-ndim-length: [pointer, ...]`: every list reached has one item per dimension.
 * - `x-zomgen-member-kind: {pointer: "array" | "group" | "node"}`: every string reached names a
 *   member of this group (`a/b` for a grandchild) of that kind.
 * - `x-zomgen-member-ndim-length: [{member, length_of}, ...]`: every string reached by `member`
 *   that names an array has as many dimensions as the list(s) `length_of` reaches, whose `*`s
 *   are bound, left to right, to the positions the `*`s of `member` matched.
 *
 * - relations between paths that reach into the node and its members (`->`, `[*]`, `{path}`):
 *   `x-zomgen-equal`, `x-zomgen-equal-length`, `x-zomgen-count-equal`, `x-zomgen-reaches`,
 *   `x-zomgen-in`, `x-zomgen-unique-by`, `x-zomgen-index-of`, `x-zomgen-partition`.
 *
 * Each function compiles a keyword's value once into a check (node document in, violations
 * out); engine.ts plugs them into Ajv as ordinary keywords, so they compose with `anyOf`,
 * `not` and `if` like any other keyword. *
 * This one file is longer than zomgen's 400-line rule for modules on purpose: it is a
 * keyword-per-function module, rule for rule beside the Python run time's checks.py,
 * relations.py and paths.py, so that a reader compares the two run times function by function.
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
  unescapeToken,
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

export function malformed(keyword: string, why: string): Violation {
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
        const holds = holder(instance, location);
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

// ---------------------------------------------------------------- relations between paths
//
// A path is a JSON pointer relative to the node's document whose segments may also be: `*`
// every item of a list (or value of an object), `[*]` the list of what the rest of the path
// reaches in every item (one value per item, else nothing), `->` the member node the string
// reached so far names (relative to the node holding the string), and `{path}` the string or
// integer that path reaches, used as a segment. (_runtime/checks.py, rule for rule.)

export const EQUAL = "x-zomgen-equal";
export const EQUAL_LENGTH = "x-zomgen-equal-length";
export const COUNT_EQUAL = "x-zomgen-count-equal";
export const REACHES = "x-zomgen-reaches";
export const IN = "x-zomgen-in";
export const UNIQUE_BY = "x-zomgen-unique-by";
export const INDEX_OF = "x-zomgen-index-of";
export const PARTITION = "x-zomgen-partition";
const FOLLOW = "->";
const COLLECT = "[*]";
const DESCEND = "**";
const WORDS = "[words]"; // the whitespace-separated words of a string (CF `coordinates`)
const NODE = "[node]"; // the path of the node holding the value reached so far (`A/labels/x`)
const LAST = "[last]"; // the last item of a list (a sequence's last step)

export type Location = readonly Segment[];
// What a `*` took (a key or an index), or a `**` (the keys from where it stood to the value)
type Choice = Segment | Location;

/** What a `->` reaches when its `..`s climb above the node whose document is evaluated: a node
 * this evaluation cannot see, so neither there nor missing. */
const OUTSIDE = Symbol("outside");

/** A `{path}` segment: the value `path` reaches, used as a segment. */
interface Indirect {
  readonly text: string;
  readonly path: Path;
}

/** A `[key={path}]` segment: the items whose `key` equals the one value `path` reaches. */
interface Select {
  readonly text: string;
  readonly key: string;
  readonly path: Path;
}

/** A `[!key]` segment: the value reached so far, if it is an object without `key` (or with
 * `key` null); else nothing. */
interface Without {
  readonly text: string;
  readonly absent: string;
}

type Token = string | Indirect | Select | Without;
// `[key={` opening a selection: the key is one name, without `/`, `=`, `]` or braces
const SELECT = /\[([^/=\]{}]*)=\{/y;
// `[!key]`, the same kind of key
const WITHOUT = /^\[!([^/=\]{}]*)\]$/;

const isSelect = (token: Token | undefined): token is Select =>
  typeof token === "object" && "key" in token;
const isWithout = (token: Token | undefined): token is Without =>
  typeof token === "object" && "absent" in token;

function selectionAt(body: string, at: number): RegExpExecArray | null {
  SELECT.lastIndex = at;
  return SELECT.exec(body);
}

/** The index of the `}` that closes the `{` at `start`, or -1. */
function closingBrace(body: string, start: number): number {
  let depth = 0;
  for (let j = start; j < body.length; j++) {
    if (body[j] === "{") depth += 1;
    else if (body[j] === "}") {
      depth -= 1;
      if (depth === 0) return j;
    }
  }
  return -1;
}

/** A parsed path; `links`: own `*` index -> the anchor's `*` index it is bound to. */
export interface Path {
  readonly text: string;
  readonly tokens: readonly Token[];
  readonly links: ReadonlyMap<number, number>;
}

interface Reached {
  readonly location: Location;
  readonly value: unknown;
  readonly choices: ReadonlyMap<number, Choice>;
}

/** Split at `/`, keeping a `{...}` or `[key={...}]` segment whole (braces nest); null if
 * unbalanced, or if such a segment runs on past its closing bracket. */
function segments(body: string): string[] | null {
  const out: string[] = [];
  let i = 0;
  const n = body.length;
  for (;;) {
    const selection = i < n && body[i] === "[" ? selectionAt(body, i) : null;
    let j: number;
    if (selection !== null || (i < n && body[i] === "{")) {
      // the `}` that closes the path inside, then `]` for a selection
      const close = closingBrace(body, selection !== null ? i + selection[0].length - 1 : i);
      if (close < 0) return null;
      j = close + 1;
      if (selection !== null) {
        if (body[j] !== "]") return null;
        j += 1;
      }
      if (j < n && body[j] !== "/") return null;
    } else {
      j = body.indexOf("/", i);
      if (j < 0) j = n;
    }
    out.push(body.slice(i, j));
    i = j;
    if (i >= n) return out;
    i += 1;
  }
}

/** A relation path -> its tokens; null if malformed (an unbalanced `{`). */
export function parsePath(text: string): Path | null {
  if (text === "") return { text, tokens: [], links: new Map() };
  const parts = segments(text.startsWith("/") ? text.slice(1) : text);
  if (parts === null) return null;
  const tokens: Token[] = [];
  for (const segment of parts) {
    const selection = selectionAt(segment, 0);
    if (selection !== null) {
      const inner = parsePath(segment.slice(selection[0].length, -2));
      if (inner === null) return null;
      tokens.push({ text: segment, key: unescapeToken(selection[1] ?? ""), path: inner });
    } else if (segment.startsWith("{") && segment.endsWith("}")) {
      const inner = parsePath(segment.slice(1, -1));
      if (inner === null) return null;
      tokens.push({ text: segment, path: inner });
    } else if (WITHOUT.test(segment)) {
      tokens.push({ text: segment, absent: unescapeToken(segment.slice(2, -1)) });
    } else {
      tokens.push(unescapeToken(segment));
    }
  }
  return { text, tokens, links: new Map() };
}

const sameToken = (a: Token | undefined, b: Token | undefined): boolean =>
  typeof a === "string" || typeof b === "string"
    ? a === b
    : a !== undefined && b !== undefined && a.text === b.text;

/** The `*`s and `**`s of `inner` in the prefix it shares with `outer` (index -> the same
 * index). */
function sharedWildcards(outer: readonly Token[], inner: readonly Token[]): Map<number, number> {
  const links = new Map<number, number>();
  const shared = Math.min(inner.length, outer.length);
  for (let i = 0; i < shared; i++) {
    const mine = inner[i];
    if (!sameToken(mine, outer[i]) || mine === COLLECT) break;
    if (mine === WILDCARD || mine === DESCEND) links.set(i, i);
  }
  return links;
}

// A path -> for each of its `{path}` and `[key={path}]` tokens (by index), the inner path's
// `*`s in the prefix it shares with the path (computed once: every evaluation asks).
const innerLinks = new WeakMap<Path, Map<number, Map<number, number>>>();

/** What the path inside segment `i` of `path` (`{path}`, `[key={path}]`) reaches: its `*`s
 * bound to the anchor's (`choices`) and, in the prefix it shares with `path`, to the items
 * `path`'s own `*`s took (`taken`). */
function evaluateInner(
  root: unknown,
  path: Path,
  i: number,
  choices: ReadonlyMap<number, Choice>,
  taken: ReadonlyMap<number, Choice>,
): Reached[] {
  const token = path.tokens[i];
  if (token === undefined || typeof token === "string" || isWithout(token)) return [];
  let known = innerLinks.get(path);
  if (known === undefined) innerLinks.set(path, (known = new Map()));
  let links = known.get(i);
  if (links === undefined) {
    links = sharedWildcards(path.tokens.slice(0, i), token.path.tokens);
    known.set(i, links);
  }
  const own = new Map<number, Choice>();
  for (const [j, k] of links) {
    const item = taken.get(k);
    if (item !== undefined) own.set(j, item);
  }
  return evaluate(root, token.path, choices, null, own);
}

/** `path` with its `*`s in the prefix it shares with the anchor bound to the anchor's (and so
 * the paths inside its `{path}` and `[key={path}]` segments). */
function boundTo(anchor: Path, path: Path): Path {
  const links = sharedWildcards(anchor.tokens, path.tokens);
  const tokens = path.tokens.map((t): Token =>
    typeof t === "string" || isWithout(t)
      ? t
      : isSelect(t)
        ? { text: t.text, key: t.key, path: boundTo(anchor, t.path) }
        : { text: t.text, path: boundTo(anchor, t.path) },
  );
  return { text: path.text, tokens, links };
}

/** The location of the node holding `location`: its leading `members/<name>` pairs. */
function nodePrefix(location: Location): Location {
  let i = 0;
  while (i + 1 < location.length && location[i] === "members") i += 2;
  return location.slice(0, i);
}

/** The node whose members a string at `location` names: the node holding it, or, when that is
 * an array (which has no members), the group holding the array: its siblings. */
function holder(root: unknown, location: Location): Location {
  const prefix = nodePrefix(location);
  if (prefix.length > 0 && kindOf(valueAt(root, prefix)) === "array") return prefix.slice(0, -2);
  return prefix;
}

/** The location of the node `relative` names from the node at `holder`: member names (`A/1`)
 * and `..`s (a trailing `/` after a `..` allowed: `../../`); `OUTSIDE` if it climbs above
 * `root`; null if it names no node. */
function relativeNode(root: unknown, holder: Location, relative: string): Location | typeof OUTSIDE | null {
  const names = relative.split("/");
  if (names.length > 1 && names[names.length - 1] === "" && names[names.length - 2] === "..") names.pop();
  const target: Segment[] = [...holder];
  let node = valueAt(root, holder);
  for (const name of names) {
    if (name === "..") {
      if (target.length === 0) return OUTSIDE;
      target.splice(-2, 2);
      node = valueAt(root, target);
      continue;
    }
    const members = isObject(node) ? node["members"] : undefined;
    if (!isObject(members) || name === "" || name === "." || !hasOwn(members, name)) return null;
    node = members[name];
    target.push("members", name);
  }
  return target;
}

function valueAt(root: unknown, location: Location): unknown {
  let value: unknown = root;
  for (const step of location) {
    if (isArray(value)) value = value[Number(step)];
    else if (isObject(value)) value = value[String(step)];
  }
  return value;
}

function segmentValue(value: unknown): string | null {
  if (typeof value === "string") return value;
  if (typeof value === "number" && Number.isInteger(value)) return String(value);
  return null;
}

const isIndexToken = (token: string): boolean => /^(0|[1-9][0-9]*)$/.test(token);

/** Every (location, value) `path` reaches from `start` (the node's document when null), in
 * document order; `choices` are the anchor's, for the bound `*`s; `inherited`, for a path
 * inside a segment, the items its outer path's `*`s took (index -> key). With `outside`, a
 * `->` that climbs above the document reaches `OUTSIDE` (at the string), else nothing. */
export function evaluate(
  root: unknown,
  path: Path,
  choices: ReadonlyMap<number, Choice>,
  start: readonly [Location, unknown] | null = null,
  inherited: ReadonlyMap<number, Choice> = new Map(),
  outside = false,
): Reached[] {
  const bound = new Map<number, Choice>();
  for (const [i, j] of path.links) {
    const choice = choices.get(j);
    if (choice !== undefined) bound.set(i, choice);
  }
  for (const [i, item] of inherited) bound.set(i, item);
  const found: Reached[] = [];
  const tokens = path.tokens;
  const step = (i: number, location: Location, value: unknown, taken: Map<number, Choice>): void => {
    if (i === tokens.length) {
      found.push({ location, value, choices: new Map(taken) });
      return;
    }
    const token = tokens[i];
    if (token === WILDCARD) {
      let keys: Segment[];
      if (isObject(value)) keys = Object.keys(value);
      else if (isArray(value)) keys = value.map((_, index) => index);
      else return;
      const only = bound.get(i);
      if (only !== undefined) keys = keys.filter((k) => k === only);
      for (const key of keys) {
        const child = isArray(value) ? value[Number(key)] : isObject(value) ? value[String(key)] : undefined;
        step(i + 1, [...location, key], child, new Map([...taken, [i, key]]));
      }
      return;
    }
    if (token === COLLECT) {
      if (!isArray(value)) return;
      const collected: unknown[] = [];
      const rest: Path = { text: path.text, tokens: tokens.slice(i + 1), links: new Map() };
      for (let index = 0; index < value.length; index++) {
        const below = evaluate(root, rest, new Map(), [[...location, index], value[index]]);
        if (below.length !== 1) return;
        collected.push(below[0]?.value);
      }
      found.push({ location, value: collected, choices: new Map(taken) });
      return;
    }
    if (token === LAST) {
      if (isArray(value) && value.length > 0) step(i + 1, [...location, value.length - 1], value[value.length - 1], taken);
      return;
    }
    if (token === NODE) {
      // (at the same place: a problem about it stands where the path had arrived)
      const names = nodePrefix(location).filter((_, k) => k % 2 === 1);
      step(i + 1, location, names.map(String).join("/"), taken);
      return;
    }
    if (token === WORDS) {
      if (typeof value === "string") {
        for (const word of value.split(/[ \t\n\r\f\v]+/).filter((w) => w !== "")) step(i + 1, location, word, taken);
      }
      return;
    }
    if (token === DESCEND) {
      // the value itself, then every value below it, depth first (document order); if bound,
      // only the anchor's (the same keys below this place)
      const only = bound.get(i);
      if (only !== undefined) {
        let here = value;
        for (const key of only as Location) {
          if (isObject(here) && typeof key === "string" && hasOwn(here, key)) here = here[key];
          else if (isArray(here) && typeof key === "number" && key < here.length) here = here[key];
          else return;
        }
        step(i + 1, [...location, ...(only as Location)], here, new Map([...taken, [i, only]]));
        return;
      }
      // an explicit stack, so a deep document cannot exhaust the stack
      const stack: [Location, unknown][] = [[[], value]];
      for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
        const [below, here] = next;
        step(i + 1, [...location, ...below], here, new Map([...taken, [i, below]]));
        const children: [Segment, unknown][] = isObject(here)
          ? Object.entries(here)
          : isArray(here)
            ? here.map((child, index): [Segment, unknown] => [index, child])
            : [];
        for (let c = children.length - 1; c >= 0; c--) {
          const [key, child] = children[c] as [Segment, unknown];
          stack.push([[...below, key], child]);
        }
      }
      return;
    }
    if (token === FOLLOW) {
      if (typeof value !== "string") return;
      const target = relativeNode(root, holder(root, location), value);
      if (target === OUTSIDE) {
        if (outside) found.push({ location, value: OUTSIDE, choices: new Map(taken) });
      } else if (target !== null) {
        step(i + 1, target, valueAt(root, target), taken);
      }
      return;
    }
    if (isWithout(token)) {
      if (isObject(value) && (!hasOwn(value, token.absent) || value[token.absent] === null)) {
        step(i + 1, location, value, taken);
      }
      return;
    }
    if (isSelect(token)) {
      const reached = evaluateInner(root, path, i, choices, taken);
      if (reached.length !== 1) return;
      const wanted = canonical(reached[0]?.value);
      const keys: Segment[] = isObject(value)
        ? Object.keys(value)
        : isArray(value)
          ? value.map((_, index) => index)
          : [];
      for (const key of keys) {
        const item = isArray(value) ? value[Number(key)] : isObject(value) ? value[String(key)] : undefined;
        if (isObject(item) && hasOwn(item, token.key) && canonical(item[token.key]) === wanted) {
          step(i + 1, [...location, key], item, taken);
        }
      }
      return;
    }
    let literal: string;
    if (token === undefined) return;
    if (typeof token !== "string") {
      const reached = evaluateInner(root, path, i, choices, taken);
      const text = reached.length === 1 ? segmentValue(reached[0]?.value) : null;
      if (text === null) return;
      literal = text;
    } else {
      literal = token;
    }
    if (isObject(value) && hasOwn(value, literal)) {
      step(i + 1, [...location, literal], value[literal], taken);
    } else if (isArray(value) && isIndexToken(literal) && Number(literal) < value.length) {
      step(i + 1, [...location, Number(literal)], value[Number(literal)], taken);
    }
  };
  const [location, value] = start ?? [[], root];
  step(0, location, value, new Map());
  return found;
}

/** A text equal for equal JSON values (key order aside). */
export function canonical(value: unknown): string {
  const normal = (v: unknown): unknown => {
    if (isArray(v)) return v.map(normal);
    if (isObject(v)) {
      return Object.fromEntries(Object.keys(v).sort().map((k) => [k, normal(v[k])]));
    }
    return v;
  };
  return JSON.stringify(normal(value));
}

export function short(value: unknown): string {
  const text = repr(value);
  return text.length <= 80 ? text : text.slice(0, 77) + "...";
}

/** `location` for a message read at `here`: its pointer, plus which node holds it when that is
 * not the problem's node. */
function describe(location: Location, here: Location): string {
  const node = nodePrefix(location);
  const pointer = toPointer(location.slice(node.length)) || "the document";
  const mine = nodePrefix(here);
  if (node.length === mine.length && node.every((s, i) => s === mine[i])) return pointer;
  const names = node.filter((_, i) => i % 2 === 1).map(String);
  const below = mine.filter((_, i) => i % 2 === 1).map(String);
  if (names.every((n, i) => below[i] === n) && names.length <= below.length) {
    const up = below.length - names.length;
    return `${pointer} of the group ${up === 1 ? "above" : `${up} levels above`}`;
  }
  return `${pointer} of member ${repr(names.join("/"))}`;
}

export interface Join {
  readonly parts: readonly Path[];
  readonly separator: string;
}

/** `{"path": path, "plus": n}` (equal-length only): a list whose length plus n is the anchor's
 * (OME-Zarr 0.6: an affine row has one item more than its input system has axes). */
interface Plus {
  readonly path: Path;
  readonly plus: number;
}

/** `{"values": [value, ...]}` (in only): the values themselves, not reached by a path. */
interface Listed {
  readonly listed: readonly unknown[];
}

export type Operand = Path | Join | Plus | Listed;

export const isJoin = (operand: Operand): operand is Join => "parts" in operand;
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
export function operand(value: unknown, keyword: string): Operand | null {
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
export function bound(anchor: Path, o: Operand): Operand {
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
    const others = rule.slice(1).map((o) => operand(o, keyword));
    if (anchor === null || others.some((o) => o === null)) return null;
    rules.push([anchor, others.filter((o): o is Operand => o !== null).map((o) => bound(anchor, o))]);
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
    return `has ${items(o.value.length)}, so ${other} must have ${items(o.value.length + plus)}, but has ${a.value.length}`;
  }
  if (o.location.length > 0 && o.location[o.location.length - 1] === "shape") {
    return (
      `the array has ${dims(o.value.length)} (shape ${repr(o.value)}), but ${other} has ` +
      `${items(a.value.length)}`
    );
  }
  return `has ${items(o.value.length)}, but ${other} has ${items(a.value.length)}`;
};

const compareCount: Compare = (a, o) => {
  if (typeof a.value !== "number" || !Number.isInteger(a.value) || !isWhole(o.value)) return null;
  const count = o.value.values.length;
  if (a.value === count) return null;
  return `is ${a.value}, but ${items(count)} ${count === 1 ? "is" : "are"} there`;
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
  return `${short(a.value)} is not an index of ${other} (${items(o.value.length)})`;
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
  return `must hold each index of ${other} (${items(length)}) exactly once: ${faults.join("; ")}`;
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
};
