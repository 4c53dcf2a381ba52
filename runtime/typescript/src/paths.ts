/**
 * Paths over a node's document, for the check keywords (checks.ts, relations.ts, connected.ts):
 * where a path reaches. The TypeScript twin of _runtime/paths.py, segment for segment.
 *
 * A path is a JSON pointer relative to the node's document whose segments may also be: `*` every
 * item of a list (or value of an object), `**` the value reached so far and every value below it,
 * `[node]` the path of the node holding the value reached so far (`A/labels/x`; empty for the
 * checked node), `[last]` the last item of a list, `[*]` the list of what the rest of the path
 * reaches in every item (one value per item, else nothing), `->` the member node the string
 * reached so far names (relative to the node holding the string: `s0`, `A/1`, `../../`),
 * `{path}` the string or integer that path reaches, used as a segment, `[key={path}]` the items
 * of a list (or values of an object) whose `key` equals the one value that path reaches, `[!key]`
 * the value reached so far if it is an object without `key` (or with `key` null), and `[words]`
 * the blank-separated words of a string.
 *
 * Longer than 400 lines because the path language is one grammar: its tokens (`Indirect`,
 * `Select`, `Without`), its parser (`parsePath`) and its evaluator (`evaluate`) change together
 * whenever a segment is added, as in paths.py.
 */

import {
  type Segment,
  WILDCARD,
  hasOwn,
  isArray,
  isObject,
  ownKey,
  repr,
  toPointer,
  unescapeToken,
} from "./pointers.js";

/** The kind of a node's document, `array` or `group` (by `node_type`, else by its keys), or
 * null. */
export function kindOf(node: unknown): string | null {
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
    const key = isObject(members) && name !== "" && name !== "." && name !== ".." ? ownKey(members, name) : null;
    if (key === null || !isObject(members)) return undefined;
    node = members[key];
  }
  return node;
}

export const FOLLOW = "->";
export const COLLECT = "[*]";
export const DESCEND = "**";
export const WORDS = "[words]"; // the whitespace-separated words of a string (CF `coordinates`)
export const NODE = "[node]"; // the path of the node holding the value reached so far (`A/labels/x`)
export const LAST = "[last]"; // the last item of a list (a sequence's last step)

export type Location = readonly Segment[];
// What a `*` took (a key or an index), or a `**` (the keys from where it stood to the value)
export type Choice = Segment | Location;

/** What a `->` reaches when its `..`s climb above the node whose document is evaluated: a node
 * this evaluation cannot see, so neither there nor missing. */
export const OUTSIDE = Symbol("outside");

/** A `{path}` segment: the value `path` reaches, used as a segment. */
export interface Indirect {
  readonly text: string;
  readonly path: Path;
}

/** A `[key={path}]` segment: the items whose `key` equals the one value `path` reaches. */
export interface Select {
  readonly text: string;
  readonly key: string;
  readonly path: Path;
}

/** A `[!key]` segment: the value reached so far, if it is an object without `key` (or with
 * `key` null); else nothing. */
export interface Without {
  readonly text: string;
  readonly absent: string;
}

export type Token = string | Indirect | Select | Without;
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

export interface Reached {
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
export function boundTo(anchor: Path, path: Path): Path {
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
export function nodePrefix(location: Location): Location {
  let i = 0;
  while (i + 1 < location.length && location[i] === "members") i += 2;
  return location.slice(0, i);
}

/** The node whose members a string at `location` names: the node holding it, or, when that is
 * an array (which has no members), the group holding the array: its siblings. */
export function holderOf(root: unknown, location: Location): Location {
  const prefix = nodePrefix(location);
  if (prefix.length > 0 && kindOf(valueAt(root, prefix)) === "array") return prefix.slice(0, -2);
  return prefix;
}

/** The location of the node `relative` names from the node at `holder`: member names (`A/1`)
 * and `..`s (a trailing `/` after a `..` allowed: `../../`); `OUTSIDE` if it climbs above
 * `root`; null if it names no node. */
export function relativeNode(root: unknown, holder: Location, relative: string): Location | typeof OUTSIDE | null {
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
    const key = isObject(members) && name !== "" && name !== "." ? ownKey(members, name) : null;
    if (key === null || !isObject(members)) return null;
    node = members[key];
    target.push("members", key);
  }
  return target;
}

export function valueAt(root: unknown, location: Location): unknown {
  let value: unknown = root;
  for (const step of location) {
    if (isArray(value)) value = value[Number(step)];
    else if (isObject(value)) value = value[String(step)];
  }
  return value;
}

export function segmentValue(value: unknown): string | null {
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
      const target = relativeNode(root, holderOf(root, location), value);
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
export function describe(location: Location, here: Location): string {
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
