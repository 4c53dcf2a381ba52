/**
 * What one convention's schema says of each node of a hierarchy, for the tree of its validator
 * page: the node's type (the `$defs` entry its schema names, or a title) and description, found
 * by following the schema down the members as the tree is opened.
 */

import { linearPattern, unreadable } from "./_runtime_ts/patterns.js";
import type { NodeLabel } from "./checker.js";

type Schema = { readonly [key: string]: unknown };

/** Where a bundled schema keeps zomgen's base schemas (`urn:zom:v2`, `urn:zom:v3`). */
const BASE_DEFS = "#/$defs/zomgen:";

const isObject = (value: unknown): value is Schema =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** What the convention says about one node: its type's name and description, and how to find
 * what it says about each member (named members, then patterns, then the others). */
export class Described implements NodeLabel {
  constructor(
    private readonly root: Schema,
    readonly schemas: readonly Schema[],
    readonly typeName: string,
  ) {}

  private walked: [Schema, boolean][] | undefined;
  private members: Schema[] | undefined;

  /** Every schema that applies, with whether it is part of zomgen's bundled base schemas
   * (`#/$defs/zomgen:v3.schema.json/...`), reached through a `$ref` into them. */
  private applyingWithBase(): [Schema, boolean][] {
    this.walked ??= this.walk();
    return this.walked;
  }

  private walk(): [Schema, boolean][] {
    const found: [Schema, boolean][] = [];
    const seen = new Set<Schema>();
    const stack: [Schema, boolean][] = this.schemas.map((schema) => [schema, false]);
    while (stack.length > 0) {
      const next = stack.shift();
      if (next === undefined || seen.has(next[0])) continue;
      const [schema, base] = next;
      seen.add(schema);
      found.push([schema, base]);
      const ref = schema["$ref"];
      if (typeof ref === "string" && ref.startsWith("#/")) {
        const target = ref
          .slice(2)
          .split("/")
          .reduce<unknown>((node, token) => (isObject(node) ? node[token.replaceAll("~1", "/").replaceAll("~0", "~")] : undefined), this.root);
        if (isObject(target)) stack.push([target, base || ref.startsWith(BASE_DEFS)]);
      }
      for (const keyword of ["allOf", "anyOf", "oneOf"]) {
        const branches = schema[keyword];
        if (Array.isArray(branches)) stack.push(...branches.filter(isObject).map((b): [Schema, boolean] => [b, base]));
      }
    }
    return found;
  }

  private applying(): Schema[] {
    return this.applyingWithBase().map(([schema]) => schema);
  }

  /** The convention's own description of the node: the base schemas' ("A ZOM v3 node: ...")
   * says nothing about this convention, and would repeat on every array of a big store. */
  description(): string {
    for (const [schema, base] of this.applyingWithBase()) {
      if (!base && typeof schema["description"] === "string") return schema["description"];
    }
    return "";
  }

  /** What applies to the members of the node: each `members` schema and what it applies
   * (found once, for every member the tree draws). */
  private memberSchemas(): Schema[] {
    if (this.members === undefined) {
      this.members = [];
      for (const schema of this.applying()) {
        const members = isObject(schema["properties"]) ? schema["properties"]["members"] : undefined;
        if (isObject(members)) this.members.push(...new Described(this.root, [members], "").applying());
      }
    }
    return this.members;
  }

  child(name: string): Described {
    const found: Schema[] = [];
    for (const sub of this.memberSchemas()) {
      const named = sub["properties"];
      if (isObject(named) && isObject(named[name])) {
        found.push(named[name]);
        continue;
      }
      const patterns = sub["patternProperties"];
      let matched = false;
      if (isObject(patterns)) {
        for (const [pattern, child] of Object.entries(patterns)) {
          if (isObject(child) && safeTest(pattern, name)) {
            found.push(child);
            matched = true;
          }
        }
      }
      if (!matched && isObject(sub["additionalProperties"])) found.push(sub["additionalProperties"]);
    }
    return new Described(this.root, found, nameOf(found));
  }
}

/** Matched as the run times match (RE2, linear time); a pattern RE2 cannot read names no member. */
function safeTest(pattern: string, text: string): boolean {
  return unreadable(pattern) === null && linearPattern(pattern).test(text);
}

/** The convention's name for a node's type: the `$defs` entry its schema refers to, or a title. */
function nameOf(schemas: readonly Schema[]): string {
  for (const schema of schemas) {
    const ref = schema["$ref"];
    // `#/$defs/Image`, or a bundled document's own `$defs`: `#/$defs/zomgen:v3.schema.json/$defs/Node`
    if (typeof ref === "string" && ref.startsWith("#/$defs/")) return ref.slice(ref.lastIndexOf("/") + 1);
    if (typeof schema["title"] === "string") return schema["title"];
  }
  return schemas.length > 0 ? "(unnamed)" : "(not in the convention)";
}

