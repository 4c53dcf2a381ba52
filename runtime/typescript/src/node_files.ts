/**
 * A node's metadata files -> its ZOM document (`NodeReader`), and consolidated metadata ->
 * the files of every node it lists. The twins of metadata_files.py and consolidated.py, with the
 * same rules and the same messages:
 *
 * - v3: the node's zarr.json minus `consolidated_metadata`, `attributes` defaulted to {};
 * - v2: `.zgroup` / `.zarray` plus `attributes` from `.zattrs` ({} when absent);
 * - groups get an empty `members`, for the walk to fill.
 */

import { isArray, isObject, repr, toPointer } from "./pointers.js";
import type { Problem } from "./problems.js";
import { Failure, type Fetched } from "./sources.js";

export const V3 = "zarr.json";
export const ZARRAY = ".zarray";
export const ZGROUP = ".zgroup";
export const ZATTRS = ".zattrs";
export const ZMETADATA = ".zmetadata";
export const V2_FILES = [ZARRAY, ZGROUP, ZATTRS] as const;
export const ALL_FILES = [V3, ...V2_FILES] as const;
export const METADATA_NAMES: ReadonlySet<string> = new Set([...ALL_FILES, ZMETADATA]);

export type JsonObject = { [key: string]: unknown };

export function readProblem(node_path: string, message: string, pointer = ""): Problem {
  return { node_path, pointer, message, keyword: "read", schema_path: "" };
}

/** Why `name` cannot be a node name (core spec, "Node names"), or null. */
export function forbiddenName(name: string): string | null {
  if (name === "" || name.includes("/")) return "a node name cannot be empty or hold '/'";
  if (/^\.+$/.test(name)) return "a node name cannot consist of periods only";
  if (name.startsWith("__")) return "node names starting with '__' are reserved";
  return null;
}

function kind(value: unknown): string {
  if (isArray(value)) return "array";
  if (value === null) return "null";
  return typeof value === "string" ? "string" : typeof value === "boolean" ? "boolean" : "number";
}

const UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** `data` -> the JSON object it holds, or a message saying why it is not one. */
export function parseObject(data: Uint8Array, what: string): JsonObject | string {
  let text: string;
  try {
    text = UTF8.decode(data);
  } catch {
    return `${what} is not UTF-8 text`;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    if (error instanceof RangeError) return `${what} nests deeper than ${MAX_DEPTH} levels`;
    const constant = bareConstant(text);
    if (constant !== null) return `${what}: ${constant} is not JSON (Zarr writes it as the string "${constant}")`;
    return `${what} is not JSON: ${error instanceof Error ? error.message : String(error)}`;
  }
  if (!isObject(value) || isArray(value)) return `${what} holds a JSON ${kind(value)}, not an object`;
  // Both checks walk the value, and only when the text says they may find something.
  if (brackets(text) > MAX_DEPTH && deeperThan(value, MAX_DEPTH)) return `${what} nests deeper than ${MAX_DEPTH} levels`;
  if (LONG_DIGITS.test(text) && holdsAnInfinity(value)) return `${what} ${BEYOND_FLOAT}`;
  return value as JsonObject;
}

/** The deepest nesting of arrays and objects read in one metadata document, as jsontext.py
 * reads it: past it, JavaScript's walks overflow the stack (a raw RangeError). */
export const MAX_DEPTH = 512;
const BEYOND_FLOAT = "holds a number beyond what a 64-bit float holds (it would read as an infinity)";
// `1e400` or 309 digits and more: JSON.parse reads them as an infinity, Python exactly
const LONG_DIGITS = /[0-9]{309}|[eE][+]?[0-9]{3}/;

function brackets(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 0x5b || code === 0x7b) count++;
  }
  return count;
}

function deeperThan(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    const [node, depth] = item;
    if (depth > limit) return true;
    const children = isArray(node) ? node : isObject(node) ? Object.values(node) : [];
    for (const child of children) if (typeof child === "object" && child !== null) stack.push([child, depth + 1]);
  }
  return false;
}

function holdsAnInfinity(value: unknown): boolean {
  const stack: unknown[] = [value];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    if (typeof item === "number" && !Number.isFinite(item)) return true;
    const children = isArray(item) ? item : isObject(item) ? Object.values(item) : [];
    for (const child of children) stack.push(child); // not a spread: a long array overflows one
  }
  return false;
}

/** The first NaN, Infinity or -Infinity outside a string of a text JSON.parse refused: what
 * Python's json reads as a number and jsontext.py refuses with its own message. */
function bareConstant(text: string): string | null {
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (inString) {
      if (char === "\\") i++;
      else if (char === '"') inString = false;
    } else if (char === '"') {
      inString = true;
    } else {
      for (const constant of ["NaN", "Infinity", "-Infinity"]) {
        if (text.startsWith(constant, i)) return constant;
      }
    }
  }
  return null;
}

export class NodeReader {
  readonly problems: Problem[] = [];
  /** The hierarchy's Zarr version once its root is read (0 before). */
  version = 0;

  problem(path: string, message: string, pointer = ""): void {
    this.problems.push(readProblem(path, message, pointer));
  }

  /** name -> parsed object for every file present; null (problems noted) when any is
   * unreadable or not a JSON object. */
  parseFiles(path: string, fetched: ReadonlyMap<string, Fetched>): Map<string, unknown> | null {
    const files = new Map<string, unknown>();
    let ok = true;
    for (const [name, got] of fetched) {
      if (got === undefined) continue;
      if (got instanceof Failure) {
        this.problem(path, `${name}: ${got.message}`);
        ok = false;
        continue;
      }
      const parsed = parseObject(got, name);
      if (typeof parsed === "string") {
        this.problem(path, parsed);
        ok = false;
      } else {
        files.set(name, parsed);
      }
    }
    return ok ? files : null;
  }

  /** The node's ZOM document from its metadata files, or null (not a node, or a problem
   * noted). Groups get an empty `members` to fill. */
  build(path: string, files: ReadonlyMap<string, unknown>): JsonObject | null {
    const v2 = [ZARRAY, ZGROUP].filter((n) => files.has(n));
    if (files.has(V3) && (v2.length > 0 || files.has(ZATTRS))) {
      const found = ALL_FILES.filter((n) => files.has(n)).join(", ");
      this.problem(path, `Zarr v3 and v2 metadata mixed in one node (${found})`);
      return null;
    }
    if (!files.has(V3) && v2.length === 0) {
      if (files.has(ZATTRS)) this.problem(path, ".zattrs without .zgroup or .zarray: not a node");
      return null;
    }
    if (v2.length === 2) {
      this.problem(path, "both .zarray and .zgroup: a node is an array or a group");
      return null;
    }
    const version = files.has(V3) ? 3 : 2;
    if (this.version && version !== this.version) {
      this.problem(path, `a Zarr v${version} node in a Zarr v${this.version} hierarchy`);
      return null;
    }
    for (const [name, value] of files) {
      if (!isObject(value) || isArray(value)) {
        this.problem(path, `${name} holds a ${pythonType(value)}, not an object`);
        return null;
      }
    }
    const main = (version === 3 ? files.get(V3) : files.get(v2[0] ?? ZARRAY)) as JsonObject;
    const document: JsonObject = { ...main };
    delete document["consolidated_metadata"];
    if (version === 3) {
      if (!Object.hasOwn(document, "attributes")) document["attributes"] = {};
    } else {
      document["attributes"] = (files.get(ZATTRS) as JsonObject | undefined) ?? {};
    }
    const isGroup = version === 3 ? document["node_type"] === "group" : v2[0] === ZGROUP;
    if (isGroup) {
      if (Object.hasOwn(document, "members")) {
        const message = "the metadata holds a 'members' key, which the ZOM reserves; ignored";
        this.problem(path, message, "/members");
      }
      document["members"] = {};
    }
    return document;
  }
}

/** Python's name for a JSON value's type, as metadata_files.py's message has it. */
function pythonType(value: unknown): string {
  if (isArray(value)) return "list";
  if (value === null) return "NoneType";
  if (typeof value === "string") return "str";
  if (typeof value === "boolean") return "bool";
  return Number.isInteger(value) ? "int" : "float";
}

/** relative node path ("a/b") -> metadata file name -> its parsed content. */
export type Entries = Map<string, Map<string, unknown>>;

function consolidatedProblem(pointer: readonly string[], message: string): Problem {
  return readProblem("/", message, toPointer(pointer));
}

/** The nodes listed by the root zarr.json's `consolidated_metadata`; null when it has none
 * (or a malformed envelope, reported). */
export function v3Entries(envelope: unknown): [Entries | null, Problem[]] {
  if (envelope === undefined || envelope === null) return [null, []];
  const where = ["consolidated_metadata"];
  if (!isObject(envelope) || isArray(envelope)) {
    return [null, [consolidatedProblem(where, "consolidated metadata must be an object or null")]];
  }
  const problems: Problem[] = [];
  if (envelope["kind"] !== "inline") {
    const message = `consolidated metadata kind is ${repr(envelope["kind"] ?? null)}, not 'inline'`;
    problems.push(consolidatedProblem([...where, "kind"], message));
  }
  if (envelope["must_understand"] !== false) {
    const message = "consolidated metadata must say must_understand: false";
    problems.push(consolidatedProblem([...where, "must_understand"], message));
  }
  const metadata = envelope["metadata"];
  if (!isObject(metadata) || isArray(metadata)) {
    problems.push(consolidatedProblem([...where, "metadata"], "consolidated metadata must be an object"));
  }
  if (problems.length > 0 || !isObject(metadata)) return [null, problems];
  const entries: Entries = new Map();
  for (const key of Object.keys(metadata)) entries.set(key, new Map([[V3, metadata[key]]]));
  return [entries, []];
}

/** The nodes listed by a root `.zmetadata`; the root's own files under the key "". */
export function v2Entries(zmetadata: JsonObject): [Entries | null, Problem[]] {
  const problems: Problem[] = [];
  if (zmetadata["zarr_consolidated_format"] !== 1) {
    const found = repr(zmetadata["zarr_consolidated_format"] ?? null);
    problems.push(consolidatedProblem([], `.zmetadata: zarr_consolidated_format is ${found}, not 1`));
  }
  const metadata = zmetadata["metadata"];
  if (!isObject(metadata) || isArray(metadata)) {
    problems.push(consolidatedProblem([], ".zmetadata: metadata must be an object"));
  }
  if (problems.length > 0 || !isObject(metadata)) return [null, problems];
  const entries: Entries = new Map();
  for (const key of Object.keys(metadata)) {
    const cut = key.lastIndexOf("/");
    const parent = cut < 0 ? "" : key.slice(0, cut);
    const name = key.slice(cut + 1);
    if ((V2_FILES as readonly string[]).includes(name)) {
      if (!entries.has(parent)) entries.set(parent, new Map());
      entries.get(parent)?.set(name, metadata[key]);
    }
  }
  return [entries, []];
}
