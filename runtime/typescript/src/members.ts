/**
 * The members a convention names, for stores that cannot be listed (plain HTTP without an
 * index, a zip read through zarrita): the twin of members.py. At each level, the members
 * `properties.members.properties` names (through local `$ref`, `allOf`, `anyOf`, `oneOf`), and
 * those a node's own document names through the zomgen check keywords (OME's
 * `datasets[].path`), known once that node is read. Computed level by level, so recursive
 * schemas are fine.
 */

import { memberPatterns } from "./checks.js";
import { isArray, isObject, match, parsePointer } from "./pointers.js";

/** name -> the names below it that the walk must also probe (from paths such as "a/b"). */
export type Forced = Map<string, Forced>;

/** What the walk asks of a node where its store cannot list: the members to probe, and the same
 * for each member (named_members.py). MemberTree answers for a convention; ListedNames
 * (consolidated_check.ts) adds the members consolidated metadata lists. */
export interface NamedMembers {
  names(document: unknown): Forced;
  child(name: string, forced?: Forced): NamedMembers;
}
type Schema = { readonly [key: string]: unknown };

function resolveLocalRef(root: unknown, ref: string): unknown {
  if (!ref.startsWith("#")) return undefined;
  let node: unknown = root;
  let tokens: string[];
  try {
    tokens = parsePointer(decodeURIComponent(ref.slice(1)));
  } catch {
    return undefined;
  }
  for (const token of tokens) {
    if (isObject(node) && Object.hasOwn(node, token)) node = node[token];
    else if (isArray(node) && /^[0-9]+$/.test(token) && Number(token) < node.length) node = node[Number(token)];
    else return undefined;
  }
  return node;
}

export class MemberTree implements NamedMembers {
  private collected: [Map<string, unknown[]>, unknown[], string[][]] | undefined;

  constructor(
    private readonly root: unknown,
    private readonly schemas: readonly unknown[],
    private readonly forced: Forced = new Map(),
  ) {}

  private collect(): [Map<string, unknown[]>, unknown[], string[][]] {
    if (this.collected !== undefined) return this.collected;
    const named = new Map<string, unknown[]>();
    const others: unknown[] = [];
    const patterns: string[][] = [];
    for (const schema of this.applying(this.schemas)) {
      patterns.push(...memberPatterns(schema).map(parsePointer));
      const properties = schema["properties"];
      const members = isObject(properties) ? properties["members"] : undefined;
      for (const sub of this.applying(members === undefined ? [] : [members])) {
        const here = sub["properties"];
        if (isObject(here)) {
          for (const name of Object.keys(here)) {
            const list = named.get(name) ?? [];
            list.push(here[name]);
            named.set(name, list);
          }
        }
        const extra = sub["additionalProperties"];
        if (isObject(extra)) others.push(extra);
        const byPattern = sub["patternProperties"];
        if (isObject(byPattern)) others.push(...Object.values(byPattern));
      }
    }
    this.collected = [named, others, patterns];
    return this.collected;
  }

  /** Every member name the convention gives this node, given the node's own document: name
   * -> the names below it that must be probed too (`a/b` in a dataset path). */
  names(document: unknown): Forced {
    const [named, , patterns] = this.collect();
    const found: Forced = new Map([...named.keys()].map((name) => [name, new Map()]));
    merge(found, this.forced);
    for (const pattern of patterns) {
      for (const { value } of match(document, pattern)) {
        if (typeof value === "string") force(found, value.split("/"));
      }
    }
    return found;
  }

  child(name: string, forced?: Forced): MemberTree {
    const [named, others] = this.collect();
    return new MemberTree(this.root, named.get(name) ?? others, forced);
  }

  /** Every subschema that may apply to the same instance: the schemas themselves and what
   * they reach through local `$ref`, `allOf`, `anyOf`, `oneOf`. */
  private *applying(schemas: readonly unknown[]): Generator<Schema> {
    const seen = new Set<unknown>();
    const stack = [...schemas].reverse();
    while (stack.length > 0) {
      const schema = stack.pop();
      if (!isObject(schema) || seen.has(schema)) continue;
      seen.add(schema);
      yield schema;
      const ref = schema["$ref"];
      if (typeof ref === "string") {
        const target = resolveLocalRef(this.root, ref);
        if (target !== undefined) stack.push(target);
      }
      for (const keyword of ["allOf", "anyOf", "oneOf"]) {
        const branches = schema[keyword];
        if (isArray(branches)) stack.push(...[...branches].reverse());
      }
    }
  }
}

function force(forced: Forced, parts: readonly string[]): void {
  let level = forced;
  for (const part of parts) {
    if (part === "" || part === "." || part === "..") return; // x-zomgen-member-kind reports it
    let below = level.get(part);
    if (below === undefined) {
      below = new Map();
      level.set(part, below);
    }
    level = below;
  }
}

function merge(into: Forced, other: Forced): void {
  for (const [name, below] of other) {
    let target = into.get(name);
    if (target === undefined) {
      target = new Map();
      into.set(name, target);
    }
    merge(target, below);
  }
}

/** The member tree of the document root under `schema` (a bundled convention schema). */
export function namedMemberTree(schema: unknown): MemberTree {
  return new MemberTree(schema, [schema]);
}
