/**
 * Ajv's errors -> Problems, the way the Python loader reports them (_runtime/validation.py):
 * every error split into node path + pointer, a failed `anyOf` / `oneOf` replaced by the errors
 * of the option the value meant (meant.ts) or else came closest, wrong-kind nodes reduced to
 * their node_type, a store of the other Zarr version to its root's zarr_format, duplicates
 * dropped, problems in tree order.
 *
 * With `allErrors`, Ajv lists a failed combinator's branch errors, flat, just before the
 * combinator's own error, and does not say which branch raised which. So each branch is
 * validated again on its own (a fragment of the bundled schema, compiled once by Ajv): that
 * gives the branch's errors, and their count says how many of the flat list were the branch's.
 * This runs only for documents that are invalid.
 *
 * Longer than 400 lines because, as validation.py in Python, turning the engine's errors into
 * problems is one pipeline read in the order a problem passes through it.
 */

import type { ErrorObject, ValidateFunction } from "ajv/dist/2020.js";
import { SCHEMA_ID, type Engines, forbidsKey, unescapeKey } from "./engine.js";
import { PROTO_ALIAS, escapeToken, isArray, isObject, parsePointer, repr, splitNodePointer } from "./pointers.js";
import { type Resolve, resolver, ruledOut } from "./meant.js";
import { unreadable } from "./patterns.js";
import {
  type Problem,
  dedupe,
  treeOrder,
  wrongKindOnly,
  wrongVersionAtRoot,
  wrongVersionOnly,
} from "./problems.js";

/** Messages longer than this are shortened. */
const MAX_MESSAGE = 300;
/** Each option's part in the problem of a value that matches no option and was meant for none. */
const OPTION_LINE = 120;
const COMBINATORS: readonly string[] = ["anyOf", "oneOf"];
const WRAPPERS: readonly string[] = ["if", "propertyNames"];
/** Failures that say "this branch describes another kind of value", at the combinator's value. */
const SHAPE_KEYWORDS: readonly string[] = [
  "type", "required", "additionalProperties", "unevaluatedProperties", "dependentRequired",
];

interface Cause {
  readonly error: ErrorObject;
  /** The absolute instance path (the error's own is relative to the value a branch checked). */
  readonly path: string;
}

interface Walk {
  /** The errors as the schema raised them, a combinator's branch errors left out. */
  readonly entries: Cause[];
  /** The same, each failed combinator replaced by its deepest cause. */
  readonly causes: Cause[];
}

class Reporter {
  private readonly fragments = new Map<string, ValidateFunction | null>();
  private readonly engines: Engines;
  private readonly resolve: Resolve;

  constructor(engines: Engines) {
    this.engines = engines;
    this.resolve = resolver(engines.locations);
  }

  problems(errors: readonly ErrorObject[]): Problem[] {
    const causes = mergeUnexpected(this.walk(errors, "").causes, this.engines.locations);
    const found = dedupe(causes.map((c) => this.problem(c)));
    const kept = wrongVersionOnly(wrongKindOnly(found));
    // a store of the other Zarr version: not also the `false` that forbids its node_type
    const other = wrongVersionAtRoot(found);
    return (other ? kept.filter((p) => p.keyword !== "false schema") : kept).sort(treeOrder);
  }

  private walk(errors: readonly ErrorObject[], prefix: string): Walk {
    const entries: Cause[] = [];
    const causes: Cause[][] = [];
    let i = errors.length - 1;
    while (i >= 0) {
      const error = errors[i];
      i -= 1;
      // Ajv wraps the errors of `then` / `else` in an `if` error, and those of a property name
      // in a `propertyNames` error; python-jsonschema reports the inner errors alone.
      if (error === undefined || WRAPPERS.includes(error.keyword)) continue;
      let cause: Cause = { error: asForbidden(error), path: prefix + error.instancePath };
      if (COMBINATORS.includes(error.keyword) && isArray(error.schema)) {
        const result = this.combinator(cause);
        i -= result.consumed;
        causes.push(result.causes);
      } else if (error.keyword === "contains") {
        const result = this.contains(cause);
        i -= result.consumed;
        cause = result.cause;
        causes.push([cause]);
      } else {
        causes.push([cause]);
      }
      entries.push(cause);
    }
    return { entries: entries.reverse(), causes: causes.reverse().flat() };
  }

  /** The causes in the option the value meant: the only one its constants do not rule out
   * (meant.ts), else, among those not ruled out, the branch that came closest: the fewest signs
   * of being meant for another kind of value, then the one that got deepest into the value
   * before it failed (its shallowest cause is the deepest), then the fewest errors. Each key
   * missing or unexpected counts once: Ajv gives each its own error, as counted here, and
   * validation.py's `_faults` counts python-jsonschema's one error naming several keys alike.
   * When two branches tie, the combinator's own error is the honest answer, its message giving
   * where each option first fails (optionLines). As validation.py does. */
  private combinator(cause: Cause): { causes: Cause[]; consumed: number } {
    const { error, path } = cause;
    const branches = isArray(error.schema) ? error.schema : [];
    const holder = error.parentSchema ? this.engines.locations.get(error.parentSchema) : undefined;
    const out = ruledOut(branches, error.data, this.resolve, (schema, value) => this.holds(schema, value));
    let consumed = 0;
    const scored: { score: [number, number, number]; causes: Cause[]; option: number; isFalse: boolean }[] = [];
    const passing = (error.params as { passingSchemas?: unknown }).passingSchemas;
    // A `oneOf` that two options pass stops at the second: the options after it left no errors.
    const last = isArray(passing) ? Math.max(...passing.map(Number)) : branches.length - 1;
    for (let j = 0; j <= last && j < branches.length; j++) {
      const pointer = `${holder ?? ""}/${error.keyword}/${j}`;
      const branchErrors = this.branchErrors(pointer, branches[j], error.data);
      if (branchErrors === null) continue;
      consumed += branchErrors.length;
      const walk = this.walk(branchErrors, path);
      const base = depth(path);
      const mismatch = walk.entries.reduce((n, e) => n + otherKind(e, base), 0);
      const reached = walk.causes.length === 0 ? base : Math.min(...walk.causes.map((c) => depth(c.path)));
      const isFalse = branches[j] === false;
      scored.push({ score: [-mismatch, reached, -walk.causes.length], causes: walk.causes, option: j, isFalse });
    }
    if (holder === undefined || (passing !== undefined && passing !== null) || scored.length === 0) {
      return { causes: [cause], consumed };
    }
    const meant = scored.filter((s) => !out.has(s.option));
    const candidates = meant.length > 0 ? meant : scored;
    const ranked = [...candidates].sort((a, b) => compareScores(b.score, a.score));
    const [best, second] = ranked;
    if (best === undefined) return { causes: [cause], consumed };
    if (second !== undefined && compareScores(best.score, second.score) === 0) {
      const header = `${summary(error.data)} matches none of the ${error.keyword} options`;
      const message = `${header}; ${optionLines(candidates, path, this.engines.locations)}`;
      const params = { ...error.params, oneLinePerOption: true, header };
      return { causes: [{ error: { ...error, message, params }, path }], consumed };
    }
    return { causes: best.causes, consumed };
  }

  /** A failed `contains` keeps the errors of every item that did not match; they are not the
   * problem (no item had to match), so they are counted out. The keyword is named as
   * python-jsonschema names it: `contains` when no item matched, else `minContains` or
   * `maxContains`. */
  private contains(cause: Cause): { cause: Cause; consumed: number } {
    const { error } = cause;
    const holder = error.parentSchema ? this.engines.locations.get(error.parentSchema) : undefined;
    const items = isArray(error.data) ? error.data : [];
    const schema = isObject(error.parentSchema) ? error.parentSchema["contains"] : undefined;
    let consumed = 0;
    let matches = 0;
    for (const item of items) {
      const itemErrors = this.branchErrors(`${holder ?? ""}/contains`, schema, item);
      if (itemErrors === null) matches += 1;
      else consumed += itemErrors.length;
    }
    if (holder === undefined) return { cause, consumed: 0 };
    const params = error.params as { minContains?: unknown };
    const min = typeof params.minContains === "number" ? params.minContains : 1;
    const keyword = matches === 0 ? "contains" : matches < min ? "minContains" : "maxContains";
    return { cause: { error: { ...error, keyword }, path: cause.path }, consumed };
  }

  /** Whether `value` satisfies `schema`, a subschema of the bundled schema (meant.ts asks). */
  private holds(schema: unknown, value: unknown): boolean {
    if (typeof schema === "boolean") return schema;
    const pointer = isObject(schema) ? this.engines.locations.get(schema) : undefined;
    return pointer === undefined || this.branchErrors(pointer, schema, value) === null;
  }

  /** The errors of one branch on its own, or null when it passes. */
  private branchErrors(pointer: string, branch: unknown, data: unknown): ErrorObject[] | null {
    if (branch === true) return null;
    if (branch === false) {
      const message = "boolean schema is false";
      return [{ keyword: "false schema", instancePath: "", schemaPath: `#${pointer}`, params: {}, message, data }];
    }
    let validate = this.fragments.get(pointer);
    if (validate === undefined) {
      const tokens = parsePointer(pointer).map((t) => "/" + encodeURIComponent(escapeToken(t)));
      const ref = `${SCHEMA_ID}#${tokens.join("")}`;
      validate = this.engines.detailed.getSchema(ref) ?? null;
      this.fragments.set(pointer, validate);
    }
    if (validate === null || validate(data) === true) return null;
    return [...(validate.errors ?? [])];
  }

  private problem({ error, path }: Cause): Problem {
    const segments = parsePointer(path).map(unescapeKey);
    const [nodePath, pointer] = splitNodePointer(segments);
    const holder = error.parentSchema ? this.engines.locations.get(error.parentSchema) : undefined;
    const at = (error.params as { at?: unknown }).at;
    const forbidden = forbiddenKey(error, this.engines.locations);
    if (forbidden !== null) {
      // the key a `false` forbids, named at its own pointer as false_schemas.py names it
      return { node_path: nodePath, pointer, message: message(error), keyword: error.keyword, schema_path: forbidden };
    }
    let schemaPath: string;
    if (holder === undefined) {
      schemaPath = error.schemaPath.replace(/^#/, "");
    } else {
      schemaPath = `${holder}/${escapeToken(error.keyword)}`;
      // a zomgen check names the entry of its value that failed
      if (typeof at === "string" || typeof at === "number") schemaPath += `/${escapeToken(at)}`;
    }
    const keyword = error.keyword;
    return { node_path: nodePath, pointer, message: message(error), keyword, schema_path: schemaPath };
  }
}

/** The schema path of a key a `false` subschema under `properties` or `patternProperties`
 * forbids (where its stand-in, engine.ts's `{"not": {}}`, stands); null for any other error. */
function forbiddenKey(error: ErrorObject, locations: Map<object, string>): string | null {
  if (error.keyword !== "false schema" || !forbidsKey(error.parentSchema)) return null;
  return isObject(error.parentSchema) ? (locations.get(error.parentSchema) ?? null) : null;
}

/** The failure of a `false` that forbids a key (Ajv's `not` of its stand-in) as python-jsonschema
 * names it, keyword `false schema`; any other error as it is. */
function asForbidden(error: ErrorObject): ErrorObject {
  if (error.keyword !== "not" || !forbidsKey(error.parentSchema)) return error;
  return { ...error, keyword: "false schema", schemaPath: error.schemaPath.replace(/\/not$/, "/false schema") };
}

/** The name of the key a `false` under `properties` or `patternProperties` forbids (the last
 * token of the error's instance path), or null for a `false` that stands elsewhere. */
function forbiddenKeyName(error: ErrorObject): string | null {
  if (!forbidsKey(error.parentSchema)) return null;
  const key = parsePointer(error.instancePath).pop();
  return key === undefined ? null : unescapeKey(key);
}

const UNEXPECTED: { readonly [keyword: string]: string } = {
  additionalProperties: "additionalProperty",
  unevaluatedProperties: "unevaluatedProperty",
};

/** Ajv reports each unexpected key of an object as an error of its own; python-jsonschema one
 * error naming them all. Merged, so that one fault is one problem in both languages: one
 * problem per object and per schema refusing its keys (Ajv's errors of one keyword share its
 * parent schema; a schema path relative to a fragment, `#/additionalProperties`, does not tell
 * two schemas apart), each key named once (a schema met twice). Two schemas refusing the same
 * keys (a closed base object and a closed option of an extension) give equal messages, one
 * problem after `dedupe`, as python-jsonschema's equal errors do. */
function mergeUnexpected(causes: readonly Cause[], locations: Map<object, string>): Cause[] {
  const merged: Cause[] = [];
  const groups = new Map<string, { index: number; names: unknown[] }>();
  for (const cause of causes) {
    const param = UNEXPECTED[cause.error.keyword];
    if (param === undefined) {
      merged.push(cause);
      continue;
    }
    const parent = cause.error.parentSchema;
    const holder = isObject(parent) ? locations.get(parent) : undefined;
    const key = JSON.stringify([cause.path, cause.error.keyword, holder ?? cause.error.schemaPath]);
    const names = (cause.error.params as { [key: string]: unknown })[param];
    const group = groups.get(key);
    if (group === undefined) {
      groups.set(key, { index: merged.length, names: [names] });
      merged.push(cause);
    } else if (!group.names.includes(names)) {
      group.names.push(names);
      const first = merged[group.index];
      if (first !== undefined) {
        const params = { [param]: group.names.length === 1 ? group.names[0] : [...group.names] };
        merged[group.index] = { path: first.path, error: { ...first.error, params } };
      }
    }
  }
  return merged;
}

/** Where each option first fails (its shallowest cause), one short part per option, as
 * validation.py words it. */
function optionLines(
  options: readonly { causes: Cause[]; option: number; isFalse: boolean }[],
  base: string,
  locations: Map<object, string>,
): string {
  return options
    .map(({ causes: each, option, isFalse }) => {
      const label = isFalse ? "a `false` option" : `option ${option}`;
      // its unexpected keys named together, as python-jsonschema names them
      const causes = mergeUnexpected(each, locations);
      const head = causes[0];
      if (head === undefined) return `${label}: fails`;
      const first = causes.reduce((a, b) => (depth(b.path) < depth(a.path) ? b : a), head);
      const where = first.path.slice(base.length) || "itself";
      // an option that is a union of its own says so, without its options' parts
      const header = (first.error.params as { header?: unknown }).header;
      const text = typeof header === "string" ? header : message(first.error);
      return `${label}: ${where}: ${short(text, OPTION_LINE)}`;
    })
    .join("; ");
}

function short(text: string, limit: number): string {
  return text.length <= limit ? text : text.slice(0, limit - 3) + "...";
}

/** A value in a few words: objects and lists by their size. */
function summary(value: unknown): string {
  if (isArray(value)) return `[...] (a list of ${value.length} items)`;
  if (isObject(value)) return `{...} (an object with ${Object.keys(value).length} keys)`;
  return short(repr(value), 60);
}

function depth(path: string): number {
  return path === "" ? 0 : path.split("/").length - 1;
}

function compareScores(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < a.length; i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

/** How strongly an error says its branch is for another kind of value: a wrong JSON type most
 * (3), a missing or unexpected key or a wrong tag less (1), anything else not (0). */
function otherKind({ error, path }: Cause, base: number): number {
  const below = depth(path) - base;
  if (below === 0 && error.keyword === "type") return 3;
  if (below === 0) return SHAPE_KEYWORDS.includes(error.keyword) ? 1 : 0;
  return below === 1 && error.keyword === "const" ? 1 : 0;
}

/** Ajv's message, with what it leaves out: which key was unexpected or is depended on, which
 * constant, and the value given (Python's messages quote it), shown as `shown` writes it. */
/** Why RE2 cannot match a pattern (null when it can, or it is no string). */
function unmatchable(pattern: unknown): string | null {
  return typeof pattern === "string" ? unreadable(pattern) : null;
}

function message(error: ErrorObject): string {
  const params = error.params as { [key: string]: unknown };
  const base = error.message ?? error.keyword;
  let text: string;
  const param = UNEXPECTED[error.keyword];
  if (param !== undefined && param in params) text = `${base} (${unexpected(params[param])})`;
  else if (error.keyword === "const") text = `${base} ${JSON.stringify(params["allowedValue"])}`;
  else if (error.keyword === "enum") text = `${base} ${JSON.stringify(params["allowedValues"])}`;
  else if (error.keyword === "required") text = `must have required property ${repr(params["missingProperty"])}`;
  else if (error.keyword === "pattern" && unmatchable(params["pattern"]) !== null) {
    return `the schema's pattern ${repr(params["pattern"])} cannot be matched: ${unmatchable(params["pattern"])}`;
  }
  else if (error.keyword === "dependentRequired" || error.keyword === "dependencies") {
    text = `must have property ${repr(params["missingProperty"])} when property ${repr(params["property"])} is present`;
  } else if (error.keyword === "false schema") {
    const key = forbiddenKeyName(error);
    if (key !== null) return `${repr(key)} is not allowed here: its schema is false`;
    text = "False schema does not allow";
  } else text = base;
  text = text.replaceAll(PROTO_ALIAS, "__proto__");
  if ((params["oneLinePerOption"] as unknown) === true) return text; // each part short already
  // Ajv's words say what was wanted, never what was given; Python's quote the value.
  const given = GIVEN.has(error.keyword) && "data" in error ? ` (given: ${shown(error.data)})` : "";
  return short(text, MAX_MESSAGE - given.length) + given;
}

/** How a message shows the value given, in both run times (validation.py's `_shown`): its
 * Python-style repr up to SHOWN characters; past that a list or an object by its size, any
 * other value cut short. */
function shown(value: unknown): string {
  const size = isArray(value) ? value.length : isObject(value) ? Object.keys(value).length : 0;
  const text = size > SHOWN ? "" : repr(value).replaceAll(PROTO_ALIAS, "__proto__");
  if (size <= SHOWN && text.length <= SHOWN) return text;
  return isArray(value) || isObject(value) ? summary(value) : text.slice(0, SHOWN - 3) + "...";
}

/** The value given is shown in full up to this many characters. */
const SHOWN = 100;

// The keywords whose failure is about the value itself: their messages show it.
const GIVEN = new Set([
  "const", "enum", "type", "pattern", "format", "minimum", "maximum", "exclusiveMinimum",
  "exclusiveMaximum", "multipleOf", "minLength", "maxLength", "minItems", "maxItems",
  "uniqueItems", "minProperties", "maxProperties", "contains", "minContains", "maxContains",
  "not", "false schema", "anyOf", "oneOf", "items", "unevaluatedItems",
]);

/** The unexpected keys, named in the order python-jsonschema names them (by code point). */
function unexpected(names: unknown): string {
  if (!isArray(names)) return `${repr(names)} was unexpected`;
  const codes = (name: unknown): number[] => Array.from(String(name), (c) => c.codePointAt(0) ?? 0);
  const sorted = [...names].sort((a, b) => compareScores(codes(a), codes(b)) || String(a).length - String(b).length);
  return `${sorted.map(repr).join(", ")} were unexpected`;
}

/** Every problem of an invalid (escaped) document, from the detailed engine's errors. */
export function report(engines: Engines, document: unknown): Problem[] {
  const validate = engines.detailed.getSchema(SCHEMA_ID);
  if (validate === undefined || validate(document) === true) return [];
  // A store of the other Zarr version is reported at its root alone (wrongVersionOnly), so its
  // root is described first, without members, as validation.py does.
  const alone = rootAlone(document);
  if (alone !== null && validate(alone) !== true) {
    const first = new Reporter(engines).problems([...(validate.errors ?? [])]);
    if (wrongVersionAtRoot(first)) return first;
  }
  validate(document);
  return new Reporter(engines).problems([...(validate.errors ?? [])]);
}

/** The root node without its members (null if it has none to leave out). */
function rootAlone(document: unknown): unknown {
  if (!isObject(document)) return null;
  const members = document["members"];
  if (!isObject(members) || Object.keys(members).length === 0) return null;
  return { ...document, members: {} };
}
