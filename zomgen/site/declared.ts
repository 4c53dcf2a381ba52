/**
 * The catalog page's checks: `zomgen validate STORE` without `--schema`, in the browser. Each
 * node is checked against every convention it declares (a `zarr_conventions` entry, or a
 * convention's own declaration such as OME-Zarr's `ome.version`) or evidently uses, with a
 * warning for each declaration the catalog cannot match. The twin of catalog/declarations.py
 * and catalog/dispatch.py: the same nodes, conventions, warnings and problems (tested side by
 * side in tests/site/test_declared_twins.py).
 *
 * The catalog comes in the bundle (catalog.ts, written by zomgen/site/catalog.py): its entries,
 * and each convention's schema bundled as schema.json is, compiled by Ajv when first needed.
 */

import { Ajv2020 } from "ajv/dist/2020.js";
import type { ValidateFunction } from "ajv/dist/2020.js";
import { repr } from "./_runtime_ts/pointers.js";
import type { Problem } from "./_runtime_ts/problems.js";
import { Validator } from "./_runtime_ts/validator.js";

type Json = { readonly [key: string]: unknown };

export interface CatalogEntry {
  readonly name: string;
  readonly uuid?: string;
  readonly schema_url?: string;
  readonly spec_url?: string;
  readonly namespace?: { readonly style: "nested" | "prefixed"; readonly key: string };
  readonly family?: string;
  readonly declared_when?: Json;
  readonly used_when?: Json;
  /** Indexes into `Catalog.schemas`. */
  readonly schema?: number;
  readonly node_schema?: number;
  readonly strict_schema?: number;
}

export interface Catalog {
  /** Each convention schema's bundled text (one per file, however many entries use it). */
  readonly schemas: readonly string[];
  readonly entries: readonly CatalogEntry[];
}

/** A convention a node is checked against, and why. */
export interface Applied {
  readonly entry: CatalogEntry;
  readonly how: "declared" | "used";
}

export interface DeclaredReport {
  /** Node path -> the conventions applied there, in the walk's order (depth first). */
  readonly nodes: Map<string, Applied[]>;
  readonly strict: boolean;
  readonly problems: Problem[];
  readonly warnings: Problem[];
}

/** The most `zarr_conventions` entries of one node that are read. */
const MAX_DECLARATIONS = 64;
const DECLARATIONS = "/attributes/zarr_conventions";
const IDENTITY = ["uuid", "schema_url", "spec_url"] as const;
const CMO_KEYS = new Set<string>([...IDENTITY, "name", "description"]);
// A version in a URL path: `/v1/`, `/tags/v0.1/`, `/0.5/`.
const VERSION = /\/v?\d+(?:\.\d+)*(?=\/|$)/g;

const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const own = (value: Json, key: string): unknown => (Object.hasOwn(value, key) ? value[key] : undefined);

function problem(node_path: string, pointer: string, message: string, keyword: string): Problem {
  return { node_path, pointer, message, keyword, schema_path: "" };
}

/** The conventions one node declares or uses, its malformed declarations, and the warnings. */
interface NodeConventions {
  readonly applied: Applied[];
  readonly problems: Problem[];
  readonly warnings: Problem[];
}

class Matcher {
  private readonly byIdentity = new Map<string, CatalogEntry>();
  private readonly declaredWhen = new Map<CatalogEntry, ValidateFunction>();
  private readonly usedWhen = new Map<CatalogEntry, ValidateFunction>();

  constructor(readonly entries: readonly CatalogEntry[]) {
    // The recognising schemas are small and never name `__proto__`: plain Ajv, no escaping.
    const ajv = new Ajv2020({ strict: false, validateFormats: false, validateSchema: false, ownProperties: true });
    for (const entry of entries) {
      for (const key of IDENTITY) {
        const value = entry[key];
        if (value !== undefined && !this.byIdentity.has(value)) this.byIdentity.set(value, entry);
      }
      if (entry.declared_when !== undefined) this.declaredWhen.set(entry, ajv.compile(entry.declared_when));
      if (entry.used_when !== undefined) this.usedWhen.set(entry, ajv.compile(entry.used_when));
    }
  }

  node(path: string, document: Json): NodeConventions {
    const found = own(document, "attributes");
    const attributes = isObject(found) ? found : {};
    const applied = new Map<CatalogEntry, Applied>();
    const problems: Problem[] = [];
    const warnings: Problem[] = [];
    for (const entry of this.declared(path, attributes, problems, warnings)) {
      if (!applied.has(entry)) applied.set(entry, { entry, how: "declared" });
    }
    for (const entry of this.entries) {
      const holds = this.declaredWhen.get(entry);
      if (holds !== undefined && holds(document) === true && !applied.has(entry)) applied.set(entry, { entry, how: "declared" });
    }
    for (const entry of this.entries) {
      if (applied.has(entry)) continue;
      // Its `used_when` where it has one (a key of its namespace may be another convention's:
      // OME-Zarr 0.4's `multiscales` list), else its namespace's keys.
      let keys: string[] = [];
      let evident: boolean;
      const holds = this.usedWhen.get(entry);
      if (holds !== undefined) evident = holds(document) === true;
      else {
        keys = entry.namespace !== undefined ? usedBy(entry.namespace, attributes) : [];
        evident = keys.length > 0;
      }
      if (evident && !declarable(entry)) applied.set(entry, { entry, how: "used" });
      else if (evident) {
        // Its schema asks for the declaration: checked where declared, reported here.
        const what = keys.length > 0 ? `keys ${keys.slice(0, 3).join(", ")}` : "what it describes";
        const message = `uses ${entry.name} (${what}) without declaring it; not checked as ${entry.name}`;
        warnings.push(problem(path, "/attributes", message, "undeclared"));
      }
    }
    return { applied: [...applied.values()], problems, warnings };
  }

  private declared(path: string, attributes: Json, problems: Problem[], warnings: Problem[]): CatalogEntry[] {
    if (!Object.hasOwn(attributes, "zarr_conventions")) return [];
    const declared = attributes["zarr_conventions"];
    const zc = (pointer: string, message: string): Problem => problem(path, pointer, message, "zarr_conventions");
    if (!Array.isArray(declared)) {
      problems.push(zc(DECLARATIONS, "must be a list of convention objects"));
      return [];
    }
    if (declared.length > MAX_DECLARATIONS) {
      problems.push(zc(DECLARATIONS, `declares ${declared.length} conventions; only the first ${MAX_DECLARATIONS} are read`));
    }
    const found: CatalogEntry[] = [];
    declared.slice(0, MAX_DECLARATIONS).forEach((item: unknown, index) => {
      const pointer = `${DECLARATIONS}/${index}`;
      if (!isObject(item)) {
        problems.push(zc(pointer, "must be a convention metadata object"));
        return;
      }
      const wrong = malformed(item);
      problems.push(...wrong.map(([key, message]) => zc(`${pointer}/${key}`, message)));
      if (!IDENTITY.some((key) => typeof own(item, key) === "string")) {
        if (wrong.length === 0) problems.push(zc(pointer, "needs at least one of uuid, schema_url, spec_url"));
        return;
      }
      const entry = this.match(item);
      if (entry === undefined) {
        warnings.push(problem(path, pointer, this.unknown(item), "unknown convention"));
        return;
      }
      found.push(entry);
      const url = own(item, "schema_url");
      if (typeof url === "string" && entry.schema_url && url !== entry.schema_url) {
        const message = `declares ${entry.name} by its uuid with schema_url ${url}; checked against the catalog's ${entry.schema_url}`;
        warnings.push(problem(path, `${pointer}/schema_url`, message, "version"));
      }
    });
    return found;
  }

  /** The entry `item` names, by the first of uuid, schema_url and spec_url it has (the
   * zarr-conventions spec's order of identity). */
  private match(item: Json): CatalogEntry | undefined {
    for (const key of IDENTITY) {
      const value = own(item, key);
      if (typeof value === "string") return this.byIdentity.get(value);
    }
    return undefined;
  }

  private unknown(item: Json): string {
    const key = IDENTITY.find((k) => typeof own(item, k) === "string") ?? "uuid";
    const name = own(item, "name");
    const named = `${key} ${String(own(item, key))}${typeof name === "string" ? ` (${name})` : ""}`;
    const url = own(item, "schema_url");
    if (typeof url === "string") {
      const shape = url.replace(VERSION, "/*");
      for (const entry of this.entries) {
        if (entry.schema_url && entry.schema_url.replace(VERSION, "/*") === shape) {
          return `declares ${named}, another version of ${entry.name} than the catalog knows (${entry.schema_url}); not checked`;
        }
      }
    }
    return `declares ${named}, which the catalog does not know; not checked`;
  }
}

function usedBy(namespace: NonNullable<CatalogEntry["namespace"]>, attributes: Json): string[] {
  if (namespace.style === "nested") return Object.hasOwn(attributes, namespace.key) ? [namespace.key] : [];
  return Object.keys(attributes).filter((key) => key.startsWith(namespace.key));
}

/** Does the convention say how a node declares it (so that using it undeclared is worth a
 * warning)? */
function declarable(entry: CatalogEntry): boolean {
  return Boolean(entry.uuid || entry.schema_url || entry.spec_url || entry.declared_when !== undefined);
}

/** [key, what is wrong] for each field of a convention metadata object the spec does not allow. */
function malformed(item: Json): [string, string][] {
  const wrong: [string, string][] = [];
  for (const key of Object.keys(item)) {
    if (!CMO_KEYS.has(key)) wrong.push([key, `${repr(key)} is not a field of a convention metadata object`]);
    else if (typeof item[key] !== "string") wrong.push([key, `${key} must be a string`]);
  }
  return wrong;
}

/** A group's document given without its members (a node's metadata alone). */
function noMembers(node: Json): boolean {
  const isGroup = own(node, "node_type") === "group" || (own(node, "zarr_format") === 2 && !Object.hasOwn(node, "shape"));
  return isGroup && !Object.hasOwn(node, "members");
}

function rooted(base: string, found: Problem): Problem {
  if (base === "/") return found;
  return { ...found, node_path: base + (found.node_path === "/" ? "" : found.node_path) };
}

/** Checks hierarchies against one catalog; each schema is compiled once, when first needed. */
export class DeclaredChecker {
  private readonly matcher: Matcher;
  private readonly validators = new Map<number, Validator>();

  constructor(private readonly catalog: Catalog) {
    this.matcher = new Matcher(catalog.entries);
  }

  private validator(index: number): Validator {
    let found = this.validators.get(index);
    if (found === undefined) {
      found = new Validator(this.catalog.schemas[index] ?? "{}");
      this.validators.set(index, found);
    }
    return found;
  }

  /** Every node of `document` checked against what it declares or evidently uses; with
   * `strict`, against the conventions' strict schemas too. `progress` is told how many nodes
   * have been looked at, every 100. */
  check(document: Json, strict = false, progress?: (nodes: number) => void): DeclaredReport {
    const report: DeclaredReport = { nodes: new Map(), strict, problems: [], warnings: [] };
    const seen = new Set<string>();
    // Each problem once, however many schemas find it (a strict schema repeats the spec's).
    const addNew = (found: readonly Problem[]): void => {
      for (const p of found) {
        const key = JSON.stringify([p.node_path, p.pointer, p.message]);
        if (!seen.has(key)) {
          seen.add(key);
          report.problems.push(p);
        }
      }
    };
    let lookedAt = 0;
    // (node path, node, the families an ancestor was checked by), depth first in order
    const stack: [string, Json, ReadonlySet<string>][] = [["/", document, new Set()]];
    for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
      const [path, node, skipped] = next;
      lookedAt += 1;
      if (progress !== undefined && lookedAt % 100 === 0) progress(lookedAt);
      const found = this.matcher.node(path, node);
      report.problems.push(...found.problems);
      // Below a node a family checked, its schema describes what the node holds: keys of a
      // convention used there undeclared are not worth a warning.
      report.warnings.push(...found.warnings.filter((w) => !(skipped.size > 0 && w.keyword === "undeclared")));
      const applied = found.applied.filter((a) => a.entry.family === undefined || !skipped.has(a.entry.family));
      if (applied.length > 0) report.nodes.set(path, applied);
      for (const a of applied) addNew(this.checkOne(path, node, a.entry, report));
      if (strict) {
        for (const a of found.applied) {
          if (a.entry.strict_schema !== undefined) addNew(this.validator(a.entry.strict_schema).problems(node).map((p) => rooted(path, p)));
        }
      }
      const below = new Set(skipped);
      for (const a of applied) if (a.entry.family !== undefined) below.add(a.entry.family);
      const members = own(node, "members");
      if (isObject(members)) {
        const children = Object.keys(members).filter((name) => isObject(members[name]));
        for (const name of children.reverse()) stack.push([`${path.replace(/\/+$/, "")}/${name}`, members[name] as Json, below]);
      }
    }
    if (progress !== undefined) progress(lookedAt);
    if (report.nodes.size === 0) {
      report.warnings.push(problem("/", "", "no convention of the catalog is declared or used here", "catalog"));
    }
    return report;
  }

  private checkOne(path: string, node: Json, entry: CatalogEntry, report: DeclaredReport): Problem[] {
    if (entry.schema === undefined) {
      const message = `${entry.name} is known but its schema is not available offline; not checked`;
      report.warnings.push(problem(path, "", message, "catalog"));
      return [];
    }
    const schema = entry.node_schema !== undefined && noMembers(node) ? entry.node_schema : entry.schema;
    return this.validator(schema).problems(node).map((p) => rooted(path, p));
  }
}

/** The report in `zomgen validate --format json`'s shape. */
export function reportJson(report: DeclaredReport): Json {
  return {
    valid: report.problems.length === 0,
    strict: report.strict,
    nodes: [...report.nodes].map(([node_path, applied]) => ({
      node_path,
      conventions: applied.map(({ entry, how }) => ({
        name: entry.name,
        ...(entry.uuid !== undefined ? { uuid: entry.uuid } : {}),
        ...(entry.schema_url !== undefined ? { schema_url: entry.schema_url } : {}),
        how,
      })),
    })),
    problems: report.problems,
    warnings: report.warnings,
  };
}
