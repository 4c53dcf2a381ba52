/**
 * What one convention's schema says of each node of a hierarchy, for the tree of its validator
 * page: the node's type (the `$defs` entry its schema names, or a title) and description, found
 * by following the schema down the members as the tree is opened.
 */

import type { NodeLabel } from "./page.js";

type Schema = { readonly [key: string]: unknown };

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

  private applying(): Schema[] {
    const found: Schema[] = [];
    const seen = new Set<Schema>();
    const stack = [...this.schemas];
    while (stack.length > 0) {
      const schema = stack.shift();
      if (schema === undefined || seen.has(schema)) continue;
      seen.add(schema);
      found.push(schema);
      const ref = schema["$ref"];
      if (typeof ref === "string" && ref.startsWith("#/")) {
        const target = ref
          .slice(2)
          .split("/")
          .reduce<unknown>((node, token) => (isObject(node) ? node[token.replaceAll("~1", "/").replaceAll("~0", "~")] : undefined), this.root);
        if (isObject(target)) stack.push(target);
      }
      for (const keyword of ["allOf", "anyOf", "oneOf"]) {
        const branches = schema[keyword];
        if (Array.isArray(branches)) stack.push(...branches.filter(isObject));
      }
    }
    return found;
  }

  description(): string {
    for (const schema of this.applying()) {
      if (typeof schema["description"] === "string") return schema["description"];
    }
    return "";
  }

  child(name: string): Described {
    const found: Schema[] = [];
    for (const schema of this.applying()) {
      const members = isObject(schema["properties"]) ? schema["properties"]["members"] : undefined;
      if (!isObject(members)) continue;
      for (const sub of new Described(this.root, [members], "").applying()) {
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
    }
    return new Described(this.root, found, nameOf(found));
  }
}

function safeTest(pattern: string, text: string): boolean {
  try {
    return new RegExp(pattern, "u").test(text);
  } catch {
    return false;
  }
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

