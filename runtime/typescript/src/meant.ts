/**
 * Which options of a failed `anyOf` / `oneOf` a value cannot have meant, by the constants that
 * tell the options apart: the same rule, step for step, as _runtime/meant.py (read its
 * docstring for why). An option's tags are the `const` and `enum` values it requires at a path
 * below the value, its closed objects those allowing no key or only named ones, and its parts
 * the subschemas it gives each such path, read through `$ref`, `allOf` and up to three levels of
 * `properties`. It is ruled out when the value carries another option's tag and this option
 * forbids that value there: its own tag there allows something else, a closed object on the way
 * does not allow the key leading there, or one of its parts there refuses the value.
 */

import { unescapeKey } from "./engine.js";
import { hasOwn, isArray, isObject, parsePointer, toPointer } from "./pointers.js";

/** How many levels of `properties` an option's tags are read through (attributes/ome/version). */
const DEPTH = 3;

type Path = readonly string[];

interface Tag {
  readonly path: Path;
  readonly allowed: readonly unknown[];
}

interface Part {
  readonly path: Path;
  /** A subschema of the bundled schema (an object), or `false`. */
  readonly schema: unknown;
}

interface Closed {
  readonly path: Path;
  /** The keys allowed there; null for none. */
  readonly keys: ReadonlySet<string> | null;
}

/** A local `$ref` -> the schema object it names (null if none). */
export type Resolve = (ref: string) => unknown;

/** Whether a value satisfies a subschema of the bundled schema (`false` included). */
export type Holds = (schema: unknown, value: unknown) => boolean;

/** `pointer -> object` over the bundled schema, from its `object -> pointer` locations. */
export function resolver(locations: Map<object, string>): Resolve {
  const byPointer = new Map<string, object>();
  for (const [value, pointer] of locations) byPointer.set(pointer, value);
  return (ref) => {
    if (!ref.startsWith("#")) return null;
    let tokens: string[];
    try {
      tokens = parsePointer(decodeURIComponent(ref.slice(1)));
    } catch {
      return null;
    }
    return byPointer.get(toPointer(tokens.map(unescapeKey))) ?? null;
  };
}

/** The indexes of `options` that `value` cannot have meant. */
export function ruledOut(
  options: readonly unknown[],
  value: unknown,
  resolve: Resolve,
  holds: Holds,
): Set<number> {
  const read = options.map((option) => new Reading(option, resolve));
  const out = new Set<number>();
  read.forEach((own, i) => {
    const carried = read.filter((_, j) => j !== i).flatMap((other) => other.taggedIn(value));
    if (carried.some(([path, held]) => own.rejects(path, held, holds))) out.add(i);
  });
  return out;
}

/** One option's tags (path -> the values allowed there), closed objects and parts. */
class Reading {
  readonly tags: Tag[] = [];
  readonly closed: Closed[] = [];
  readonly parts: Part[] = [];

  constructor(option: unknown, resolve: Resolve) {
    this.read(option, resolve, [], new Set());
  }

  private read(schema: unknown, resolve: Resolve, path: Path, seen: ReadonlySet<object>): void {
    if (!isObject(schema) || seen.has(schema)) return;
    const inside = new Set(seen).add(schema);
    if (hasOwn(schema, "const")) this.tags.push({ path, allowed: [schema["const"]] });
    const choices = schema["enum"];
    if (isArray(choices)) this.tags.push({ path, allowed: [...choices] });
    const properties = schema["properties"];
    const named = new Set(isObject(properties) ? Object.keys(properties) : []);
    if (schema["maxProperties"] === 0) this.closed.push({ path, keys: null });
    else if (schema["additionalProperties"] === false && !hasOwn(schema, "patternProperties")) {
      this.closed.push({ path, keys: named });
    }
    const ref = schema["$ref"];
    if (typeof ref === "string") this.read(resolve(ref), resolve, path, inside);
    const parts = schema["allOf"];
    if (isArray(parts)) for (const part of parts) this.read(part, resolve, path, inside);
    if (path.length < DEPTH && isObject(properties)) {
      for (const key of Object.keys(properties)) {
        const sub = properties[key];
        if (sub === false || isObject(sub)) this.parts.push({ path: [...path, key], schema: sub });
        this.read(sub, resolve, [...path, key], inside);
      }
    }
  }

  /** [path, the value there] for each tag of this option the value carries. */
  taggedIn(value: unknown): [Path, unknown][] {
    const found: [Path, unknown][] = [];
    for (const { path, allowed } of this.tags) {
      const [present, held] = at(value, path);
      if (present && allows(allowed, held)) found.push([path, held]);
    }
    return found;
  }

  /** Whether this option forbids `held` at `path`: a tag there that does not allow it, a
   * closed object on the way that does not allow the key leading there, or a part there that
   * `held` does not satisfy. */
  rejects(path: Path, held: unknown, holds: Holds): boolean {
    if (this.tags.some((t) => samePath(t.path, path) && !allows(t.allowed, held))) return true;
    const closedOnTheWay = this.closed.some((c) => {
      const key = path[c.path.length];
      return c.path.length < path.length && samePath(c.path, path.slice(0, c.path.length)) &&
        key !== undefined && (c.keys === null || !c.keys.has(key));
    });
    if (closedOnTheWay) return true;
    return this.parts.some((p) => samePath(p.path, path) && !holds(p.schema, held));
  }
}

function at(value: unknown, path: readonly string[]): [boolean, unknown] {
  let here = value;
  for (const key of path) {
    if (!isObject(here) || !hasOwn(here, key)) return [false, null];
    here = here[key];
  }
  return [true, here];
}

function samePath(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((k, i) => k === b[i]);
}

function allows(allowed: readonly unknown[], value: unknown): boolean {
  return allowed.some((a) => same(a, value));
}

/** JSON equality (1 and 1.0 are one number in JavaScript already). */
function same(a: unknown, b: unknown): boolean {
  if (isArray(a) && isArray(b)) return a.length === b.length && a.every((x, i) => same(x, b[i]));
  if (isObject(a) && isObject(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => hasOwn(b, k) && same(a[k], b[k]));
  }
  return a === b;
}
