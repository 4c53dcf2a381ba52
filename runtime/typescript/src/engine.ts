/**
 * The bundled schema under Ajv: options that give python-jsonschema's verdicts, the zomgen check
 * keywords as Ajv keywords, and the one place where Ajv must be helped to read a key.
 *
 * Why these options: the bundled schema is always draft 2020-12 (zomgen's bundler writes it so), so
 * Ajv2020; `strict: false` because JSON Schema ignores unknown keywords (annotations, `x-*`) and
 * so must we; `validateFormats: false` because the Python loader does not assert `format`
 * either; `validateSchema: false` because `zomgen build` already checked the schema against
 * its metaschema, and a second opinion could only refuse a schema Python accepts;
 * `ownProperties: true` because a document's key `constructor` is its own, never inherited. Ajv never
 * changes a document with these options (no defaults, coercion or removal).
 *
 * `__proto__`: Ajv skips a `properties` entry named `__proto__` (a guard against prototype
 * pollution), so a schema that names that key would be judged differently from Python. The
 * schema's property names and the documents' keys `__proto__` are therefore renamed to a
 * private key before Ajv sees them, and renamed back in every reported problem. Likewise a
 * `$defs` entry named `$id`, which Ajv's scan for ids takes for the schema's own `$id` (and
 * throws): it is renamed, and so are the `$ref`s that point to it.
 *
 * A `false` under `properties` or `patternProperties` (a key the schema forbids) is given to Ajv
 * as `{"not": {}}`, which holds of nothing as `false` does, but is an object of its own: Ajv
 * reports its failure with that object as the parent schema, so the report names where the
 * `false` stands in the bundled schema (`.../properties/node_type`) even when Ajv met it through
 * a `$ref` inside an option of a union, where its schema path starts again from the `$ref`.
 */

import { Ajv2020 } from "ajv/dist/2020.js";
import type { AnySchemaObject, ErrorObject, ValidateFunction } from "ajv/dist/2020.js";
import type { DataValidationCxt } from "ajv/dist/types/index.js";
import { type LinearPattern, linearPattern, unreadable } from "./patterns.js";
import { CHECKS, MEMBER_KIND, MEMBER_NDIM_LENGTH, NDIM_LENGTH } from "./checks.js";
import { CONNECTED, connected } from "./connected.js";
import {
  PROTO,
  PROTO_ALIAS,
  escapeToken,
  hasOwn,
  isArray,
  isObject,
  parsePointer,
  toPointer,
  unescapeToken,
} from "./pointers.js";
import { COUNT_EQUAL, EQUAL, EQUAL_LENGTH, IN, INDEX_OF, PARTITION, REACHES, UNIQUE_BY } from "./relations.js";
import type { Check } from "./violations.js";

/** The bundled schema's own id inside Ajv; fragments of it are compiled on demand (report.ts). */
export const SCHEMA_ID = "urn:zomgen:bundled-schema";

type Mutable = { [key: string]: unknown };

const DEFS = ["$defs", "definitions"];
const ID = "$id";
const ID_ALIAS = "$id\uE000";

const escapeKey = (key: string): string => (key === PROTO ? PROTO_ALIAS : key);
const escapeDefKey = (key: string): string => (key === ID ? ID_ALIAS : key);
export const unescapeKey = (key: string): string =>
  key === PROTO_ALIAS ? PROTO : key === ID_ALIAS ? ID : key;

/** A JSON value with every object key `__proto__` renamed; the value itself if it has none. */
export function escapeKeys(value: unknown): unknown {
  if (!containsProtoKey(value)) return value;
  return copyEscaped(value);
}

function containsProtoKey(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    if (isArray(item)) stack.push(...item);
    else if (isObject(item)) {
      for (const key of Object.keys(item)) {
        if (key === PROTO) return true;
        stack.push(item[key]);
      }
    }
  }
  return false;
}

function copyEscaped(value: unknown): unknown {
  if (isArray(value)) return value.map(copyEscaped);
  if (!isObject(value)) return value;
  return Object.fromEntries(Object.keys(value).map((k) => [escapeKey(k), copyEscaped(value[k])]));
}

// Keywords whose values are schemas, maps of schemas or lists of schemas (draft 2020-12).
const SCHEMA_ONE = [
  "additionalProperties", "items", "contains", "not", "if", "then", "else", "propertyNames",
  "unevaluatedProperties", "unevaluatedItems", "contentSchema",
];
const SCHEMA_MAPS = ["$defs", "definitions", "patternProperties"];
const SCHEMA_LISTS = ["allOf", "anyOf", "oneOf", "prefixItems"];
const POINTER_KEYWORDS = [
  NDIM_LENGTH, MEMBER_KIND, MEMBER_NDIM_LENGTH, EQUAL, EQUAL_LENGTH, COUNT_EQUAL, REACHES, IN,
  UNIQUE_BY, INDEX_OF, PARTITION, CONNECTED,
];

/** The objects that stand for a `false` under `properties` or `patternProperties`. */
const FORBIDDING = new WeakSet<object>();

/** Whether `schema` stands for a `false` that forbids a key (see the module's comment). */
export function forbidsKey(schema: unknown): boolean {
  return isObject(schema) && FORBIDDING.has(schema);
}

function forbidding(sub: unknown): unknown {
  if (sub !== false) return sub;
  const marker = { not: {} };
  FORBIDDING.add(marker);
  return marker;
}

/** Rename `__proto__` wherever a schema names an object key (in place: the schema is our own
 * parse of the package's text), and in the paths of the zomgen checks. */
export function escapeSchema(schema: unknown): void {
  if (!isObject(schema)) return;
  const s = schema as Mutable;
  for (const key of ["properties", "dependentSchemas"]) {
    const map = s[key];
    if (isObject(map)) {
      const renamed = (k: string) => (key === "properties" ? forbidding(map[k]) : map[k]);
      s[key] = Object.fromEntries(Object.keys(map).map((k) => [escapeKey(k), renamed(k)]));
      Object.values(s[key] as Mutable).forEach(escapeSchema);
    }
  }
  const patterns = s["patternProperties"];
  if (isObject(patterns)) {
    s["patternProperties"] = Object.fromEntries(Object.keys(patterns).map((k) => [k, forbidding(patterns[k])]));
  }
  const required = s["required"];
  if (isArray(required)) s["required"] = required.map((k) => (typeof k === "string" ? escapeKey(k) : k));
  const dependent = s["dependentRequired"];
  if (isObject(dependent)) {
    s["dependentRequired"] = Object.fromEntries(
      Object.keys(dependent).map((k) => {
        const names = dependent[k];
        const renamed = isArray(names)
          ? names.map((n) => (typeof n === "string" ? escapeKey(n) : n))
          : names;
        return [escapeKey(k), renamed];
      }),
    );
  }
  if ("const" in s) s["const"] = escapeKeys(s["const"]);
  if (isArray(s["enum"])) s["enum"] = s["enum"].map(escapeKeys);
  for (const key of DEFS) {
    const defs = s[key];
    if (isObject(defs) && hasOwn(defs, ID)) {
      s[key] = Object.fromEntries(Object.keys(defs).map((k) => [escapeDefKey(k), defs[k]]));
    }
  }
  if (typeof s["$ref"] === "string") s["$ref"] = escapeRef(s["$ref"]);
  for (const key of SCHEMA_ONE) escapeSchema(s[key]);
  for (const key of SCHEMA_MAPS) if (isObject(s[key])) Object.values(s[key]).forEach(escapeSchema);
  for (const key of SCHEMA_LISTS) if (isArray(s[key])) s[key].forEach(escapeSchema);
  for (const key of POINTER_KEYWORDS) if (key in s) s[key] = escapePointers(s[key]);
}

/** A local `$ref` (`#/$defs/%24id/...`, percent-encoded) with its `$defs` `$id` tokens renamed. */
function escapeRef(ref: string): string {
  if (!ref.startsWith("#/")) return ref;
  const tokens = ref.slice(2).split("/");
  const decoded = tokens.map((t) => {
    try {
      return unescapeToken(decodeURIComponent(t));
    } catch {
      return null; // not percent-encoding we can read: leave the reference as it is
    }
  });
  if (!decoded.some((t, i) => t === ID && i > 0 && DEFS.includes(decoded[i - 1] ?? ""))) return ref;
  return "#" + decoded
    .map((t, i) => {
      if (t === null) return "/" + tokens[i];
      const renamed = i > 0 && DEFS.includes(decoded[i - 1] ?? "") ? escapeDefKey(t) : t;
      return "/" + encodeURIComponent(escapeToken(renamed));
    })
    .join("");
}

function escapePointer(pointer: unknown): unknown {
  return typeof pointer === "string" && pointer.includes(PROTO)
    ? toPointer(parsePointer(pointer).map(escapeKey))
    : pointer;
}

/** The paths of a check keyword's value with `__proto__` renamed: lists of paths, rules of
 * paths (`[anchor, ...]`, `{member, length_of}`, `{join, with}`, `{path, plus}`; not `{values}`),
 * maps keyed (and, for x-zomgen-unique-by, valued) by paths. */
function escapePointers(value: unknown): unknown {
  if (isArray(value)) {
    return value.map((v) => {
      if (isArray(v)) return escapePointers(v);
      if (isObject(v) && hasOwn(v, "join")) {
        const parts = v["join"];
        return { ...v, join: isArray(parts) ? parts.map(escapePointer) : parts };
      }
      if (isObject(v) && hasOwn(v, "path")) return { ...v, path: escapePointer(v["path"]) };
      if (isObject(v) && hasOwn(v, "values")) return v; // x-zomgen-in's listed values: no paths
      if (isObject(v)) {
        return { ...v, member: escapePointer(v["member"]), length_of: escapePointer(v["length_of"]) };
      }
      return escapePointer(v);
    });
  }
  if (isObject(value)) {
    return Object.fromEntries(
      Object.keys(value).map((k) => [String(escapePointer(k)), escapePointer(value[k])]),
    );
  }
  return value;
}

/** Every object of `schema` -> its JSON pointer (with the original key names), for
 * Problem.schema_path: Ajv hands back the very objects it was given. */
export function schemaLocations(schema: unknown): Map<object, string> {
  const found = new Map<object, string>();
  const stack: [unknown, string][] = [[schema, ""]];
  while (stack.length > 0) {
    const [value, pointer] = stack.pop() ?? [null, ""];
    if (isObject(value)) {
      if (!found.has(value)) found.set(value, pointer);
      for (const k of Object.keys(value)) stack.push([value[k], `${pointer}/${escapeToken(unescapeKey(k))}`]);
    } else if (isArray(value)) {
      value.forEach((v, i) => stack.push([v, `${pointer}/${i}`]));
    }
  }
  return found;
}

/** Every pattern matched by RE2 in linear time, as the Python run time matches it (patterns.ts):
 * never by a backtracking RegExp, which a short value can hold for hours. A pattern RE2 cannot
 * match matches nothing: the report says why (report.ts), as validation.py does. */
const regExp = Object.assign(
  (pattern: string): LinearPattern =>
    unreadable(pattern) === null ? linearPattern(pattern) : { test: () => false, toString: () => `/${pattern}/` },
  { code: "zomgenRegExp" },
);

/** A zomgen check as an Ajv keyword: compiled once per schema value, reporting every violation
 * at its own place inside the node's document. */
function checkKeyword(keyword: string, compileCheck: (value: unknown) => Check) {
  return (value: unknown, parentSchema: AnySchemaObject) => {
    const check = compileCheck(value);
    const validate = (data: unknown, context?: DataValidationCxt): boolean => {
      const found = check(data);
      const base = context?.instancePath ?? "";
      validate.errors = found.map(
        (v): Partial<ErrorObject> => ({
          keyword,
          instancePath: base + toPointer(v.path),
          params: v.at === null ? {} : { at: v.at },
          message: v.message,
          parentSchema,
        }),
      );
      return found.length === 0;
    };
    validate.errors = [] as Partial<ErrorObject>[];
    return validate;
  };
}

export interface Engines {
  /** The verdict: stops at the first failure. */
  readonly fast: ValidateFunction;
  /** Every error, with the schema objects that raised them (verbose). */
  readonly detailed: Ajv2020;
  readonly locations: Map<object, string>;
}

function newAjv(detailed: boolean): Ajv2020 {
  const ajv = new Ajv2020({
    strict: false,
    validateFormats: false,
    validateSchema: false,
    // A property named `constructor` or `toString` must not be found on Object.prototype.
    ownProperties: true,
    allErrors: detailed,
    verbose: detailed,
    logger: false,
    code: { regExp },
  });
  for (const [keyword, compileCheck] of Object.entries({ ...CHECKS, [CONNECTED]: connected })) {
    ajv.addKeyword({ keyword, compile: checkKeyword(keyword, compileCheck), errors: true });
  }
  return ajv;
}

/** Compile the package's schema (JSON text) for verdicts now, and register it for details,
 * compiled the first time a document is invalid. Ajv does not change the schema objects, so
 * both instances share one parse, and the locations apply to both. */
export function compileEngines(schemaText: string): Engines {
  const parsed: unknown = JSON.parse(schemaText);
  if (!isObject(parsed)) throw new Error("the bundled schema is not a JSON object");
  escapeSchema(parsed);
  const schema = { ...parsed, $id: SCHEMA_ID };
  const fast = newAjv(false).compile(schema);
  const detailed = newAjv(true);
  detailed.addSchema(schema);
  return { fast, detailed, locations: schemaLocations(schema) };
}
