/**
 * JSON pointers (RFC 6901): node paths inside a ZOM tree, and the wildcard paths of the zomgen
 * check keywords. The TypeScript twin of _runtime/pointers.py: the two must split and
 * match pointers identically, or the two languages would report problems at different places.
 */

export type JsonValue =
  | null
  | boolean
  | number
  | string
  | readonly JsonValue[]
  | { readonly [key: string]: JsonValue };

export type Segment = string | number;

export const WILDCARD = "*";
export const PROTO = "__proto__";
/** What a document's key `__proto__` is called while Ajv looks (engine.ts): a private-use
 * character cannot clash. A check that reads keys as names gives it back its own. */
export const PROTO_ALIAS = "__proto__\uE000";

export function isObject(value: unknown): value is { readonly [key: string]: unknown } {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function isArray(value: unknown): value is readonly unknown[] {
  return Array.isArray(value);
}

export function hasOwn(value: object, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(value, key);
}

/** The key under which `value` holds `key`: `key` itself, or for `__proto__` the name Ajv's
 * checks see it under (PROTO_ALIAS); null when `value` does not hold it. A check that reads a
 * name from the document (a member named in an attribute) finds the member by it. */
export function ownKey(value: object, key: string): string | null {
  if (hasOwn(value, key)) return key;
  return key === PROTO && hasOwn(value, PROTO_ALIAS) ? PROTO_ALIAS : null;
}

export function escapeToken(token: Segment): string {
  return String(token).replaceAll("~", "~0").replaceAll("/", "~1");
}

export function unescapeToken(token: string): string {
  return token.replaceAll("~1", "/").replaceAll("~0", "~");
}

export function toPointer(segments: Iterable<Segment>): string {
  let out = "";
  for (const segment of segments) out += "/" + escapeToken(segment);
  return out;
}

/** `/a/b~1c` -> ["a", "b/c"]; "" -> []. A pointer without its leading `/` reads as if it had
 * one, so a hand-written `attributes/x` in a schema still means what it says. */
export function parsePointer(pointer: string): string[] {
  if (pointer === "") return [];
  const body = pointer.startsWith("/") ? pointer.slice(1) : pointer;
  return body.split("/").map(unescapeToken);
}

/** Absolute segments in a ZOM tree -> [node path, pointer inside that node's document]. While
 * the next segment is `members` and one more follows, that one is a child's name:
 * `members/labels/members/cells/attributes/x` -> ["/labels/cells", "/attributes/x"]. */
export function splitNodePointer(segments: readonly Segment[]): [string, string] {
  const names: string[] = [];
  let i = 0;
  while (i + 1 < segments.length && segments[i] === "members") {
    names.push(String(segments[i + 1]));
    i += 2;
  }
  return ["/" + names.join("/"), toPointer(segments.slice(i))];
}

/** RFC 6901 array index: digits without a leading zero. */
function isIndex(token: string): boolean {
  return /^(0|[1-9][0-9]*)$/.test(token);
}

export interface Match {
  readonly path: readonly Segment[];
  readonly value: unknown;
}

/** Every (concrete path, value) that `pattern` reaches in `document`, in document order; a `*`
 * segment stands for every item of a list or every value of an object. Absent targets give
 * nothing: the schema's own keywords (`required`, `type`) report those. */
export function match(document: unknown, pattern: readonly string[]): Match[] {
  let partial: Match[] = [{ path: [], value: document }];
  for (const token of pattern) {
    const next: Match[] = [];
    for (const { path, value } of partial) {
      if (isObject(value)) {
        if (token === WILDCARD) {
          for (const key of Object.keys(value)) next.push({ path: [...path, key], value: value[key] });
        } else if (hasOwn(value, token)) {
          next.push({ path: [...path, token], value: value[token] });
        }
      } else if (isArray(value)) {
        if (token === WILDCARD) {
          value.forEach((item, index) => next.push({ path: [...path, index], value: item }));
        } else if (isIndex(token) && Number(token) < value.length) {
          next.push({ path: [...path, Number(token)], value: value[Number(token)] });
        }
      }
    }
    partial = next;
  }
  return partial;
}

const ESCAPES: { readonly [char: string]: string } = { "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t" };

// What Python's `str.isprintable` calls not printable: control, format, surrogate, private-use
// and unassigned characters, and the separators but the ASCII space.
const NOT_PRINTABLE = /^[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]$/u;

/** One character of a string as Python's `repr` writes it: what is not printable escaped as
 * \xhh, \uhhhh or \Uhhhhhhhh (U+202E, which would turn the text beside it around, too). */
function reprChar(char: string, quote: string): string {
  if (char === quote) return `\\${char}`;
  const escaped = ESCAPES[char];
  if (escaped !== undefined) return escaped;
  if (char === " " || !NOT_PRINTABLE.test(char)) return char;
  const code = char.codePointAt(0) ?? 0;
  if (code < 0x100) return `\\x${code.toString(16).padStart(2, "0")}`;
  if (code < 0x10000) return `\\u${code.toString(16).padStart(4, "0")}`;
  return `\\U${code.toString(16).padStart(8, "0")}`;
}

/** A Python-style repr of a JSON value, so messages read the same in both languages. */
export function repr(value: unknown): string {
  if (typeof value === "string") {
    const quote = value.includes("'") && !value.includes('"') ? '"' : "'";
    let body = "";
    for (const char of value) body += reprChar(char, quote);
    return quote + body + quote;
  }
  if (value === null) return "None";
  if (value === true) return "True";
  if (value === false) return "False";
  if (isArray(value)) return "[" + value.map(repr).join(", ") + "]";
  if (isObject(value)) {
    return "{" + Object.keys(value).map((k) => `${repr(k)}: ${repr(value[k])}`).join(", ") + "}";
  }
  return String(value);
}
