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
 *
 * Longer than 400 lines because it is the page's twin of three Python modules at once
 * (catalog/declarations.py, dispatch.py and ome_versions.py), kept in one file so that the
 * bundle's catalog code is read, and compared with them, in one place.
 */

import { Ajv2020 } from "ajv/dist/2020.js";
import type { ValidateFunction } from "ajv/dist/2020.js";
import { repr } from "./_runtime_ts/pointers.js";
import { type Problem, type Unchecked, type Verdict, verdict } from "./_runtime_ts/problems.js";
import { RULE_BUDGET, overBudget } from "./_runtime_ts/rules.js";
import { Validator } from "./_runtime_ts/validator.js";
import { declaredNodeKeys, otherKeys, otherKeyWarning } from "./other_keys.js";

type Json = { readonly [key: string]: unknown };

export interface CatalogEntry {
  readonly name: string;
  readonly uuid?: string;
  readonly schema_url?: string;
  readonly spec_url?: string;
  readonly namespace?: { readonly style: "nested" | "prefixed"; readonly key: string };
  readonly version?: string;
  readonly family?: string;
  /** The Zarr versions of the nodes its schema describes; both where absent. */
  readonly zarr_formats?: readonly number[];
  readonly declared_when?: Json;
  readonly used_when?: Json;
  /** Indexes into `Catalog.schemas`. */
  readonly schema?: number;
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
  /** The places not checked (dispatch.py's NOT_CHECKED kinds, and the groups not listed). */
  readonly unchecked: Unchecked[];
  /** The nodes of the hierarchy looked at. */
  lookedAt: number;
}

/** The matcher's notes that say a place was not checked (dispatch.py's NOT_CHECKED). */
const NOT_CHECKED = new Set(["unknown convention", "undeclared", "no schema", "zarr format", "nothing declared", RULE_BUDGET]);
/** What a family's schema judges instead, below a node that family checked (dispatch.py). */
const JUDGED = new Set(["undeclared", "no schema", "ome-zarr version"]);

/** A matcher's note: a place not checked, or a warning about what was checked. */
function note(report: DeclaredReport, warning: Problem): void {
  if (NOT_CHECKED.has(warning.keyword)) {
    report.unchecked.push({ node_path: warning.node_path, pointer: warning.pointer, message: warning.message, reason: warning.keyword });
  } else report.warnings.push(warning);
}

/** The report's verdict: valid, invalid, or not fully checked. */
export function reportVerdict(report: DeclaredReport): Verdict {
  return verdict(report.problems, report.unchecked);
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

function problem(node_path: string, pointer: string, message: string, keyword: string, convention?: string): Problem {
  const found = { node_path, pointer, message, keyword, schema_path: "" };
  return convention === undefined ? found : { ...found, convention };
}

/** How problems name an entry: its name, and its version where the name does not say it
 * (entries.py's `Entry.label`). */
function label(entry: CatalogEntry): string {
  return entry.version === undefined || entry.name.includes(entry.version) ? entry.name : `${entry.name} ${entry.version}`;
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
  /** The OME-Zarr versions some entry has a schema for (ome_versions.py). */
  private readonly omeChecked: ReadonlySet<string>;

  constructor(readonly entries: readonly CatalogEntry[]) {
    this.omeChecked = new Set(entries.flatMap((e) => (e.version !== undefined && (e.family ?? "").startsWith("ome-zarr") ? [e.version] : [])));
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
    omeVersionNotes(path, document, this.omeChecked, problems, warnings);
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
    const zc = (pointer: string, message: string): Problem => problem(path, pointer, message, "zarr_conventions", "zarr-conventions");
    if (!Array.isArray(declared)) {
      problems.push(zc(DECLARATIONS, "must be a list of convention objects"));
      return [];
    }
    if (declared.length > MAX_DECLARATIONS) {
      problems.push(zc(DECLARATIONS, `declares ${declared.length} conventions; only the first ${MAX_DECLARATIONS} are read`));
    }
    const found: CatalogEntry[] = [];
    const firstAt = new Map<CatalogEntry, string>(); // the declaration that named each first
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
      const first = firstAt.get(entry);
      if (first !== undefined) {
        warnings.push(problem(path, pointer, `declares ${entry.name} again (as ${first} does); read once`, "repeated"));
        return;
      }
      firstAt.set(entry, pointer);
      found.push(entry);
      // The identity decides (declarations.py says why the name is still worth a warning).
      const name = own(item, "name");
      if (typeof name === "string" && name !== entry.name) {
        const message = `names the convention ${repr(name)}, but its identity is ${entry.name}'s; checked as ${entry.name}`;
        warnings.push(problem(path, `${pointer}/name`, message, "name"));
      }
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

// OME-Zarr's version policy: the twin of catalog/ome_versions.py (its docstring says why).
const OME_PUBLISHED = ["0.1", "0.2", "0.3", "0.4", "0.5", "0.6.dev1", "0.6.dev2", "0.6.dev3", "0.6.dev4", "0.6rc0", "0.6", "0.9.dev1"];
const OME_FORM = /^(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)(?:\.dev[1-9][0-9]*|rc(?:0|[1-9][0-9]*))?$/;
const NEWEST_SERIES: readonly [number, number] = [0, 9];
const OME_LAYOUT_SERIES: readonly [number, number] = [0, 5];
const OME_KEYWORD = "ome-zarr version";

const atLeast = (a: readonly [number, number], b: readonly [number, number]): boolean => a[0] > b[0] || (a[0] === b[0] && a[1] >= b[1]);

/** [pointer, version, under `ome`] of each OME-Zarr version the attributes declare. */
function declaredVersions(attributes: Json): [string, unknown, boolean][] {
  const found: [string, unknown, boolean][] = [];
  const ome = own(attributes, "ome");
  if (isObject(ome) && Object.hasOwn(ome, "version")) found.push(["/attributes/ome/version", ome["version"], true]);
  const multiscales = own(attributes, "multiscales");
  if (Array.isArray(multiscales)) {
    multiscales.forEach((item: unknown, index) => {
      if (isObject(item) && Object.hasOwn(item, "version")) found.push([`/attributes/multiscales/${index}/version`, item["version"], false]);
    });
  }
  for (const key of ["plate", "well"]) {
    const value = own(attributes, key);
    if (isObject(value) && Object.hasOwn(value, "version")) found.push([`/attributes/${key}/version`, value["version"], false]);
  }
  return found;
}

/** The problems and places not checked of the OME-Zarr versions one node declares. */
function omeVersionNotes(path: string, document: Json, checked: ReadonlySet<string>, problems: Problem[], warnings: Problem[]): void {
  const attributes = own(document, "attributes");
  if (!isObject(attributes)) return;
  const zarrFormat = own(document, "zarr_format");
  const wrong = (pointer: string, message: string): number => problems.push(problem(path, pointer, message, OME_KEYWORD, "OME-Zarr"));
  for (const [pointer, version, underOme] of declaredVersions(attributes)) {
    if (typeof version !== "string") {
      wrong(pointer, "an OME-Zarr version is a string");
      continue;
    }
    const form = OME_FORM.exec(version);
    const series: [number, number] | undefined = form === null ? undefined : [Number(form[1]), Number(form[2])];
    const published = OME_PUBLISHED.includes(version);
    const newer = series !== undefined && atLeast(series, NEWEST_SERIES) && !published;
    if (!(published || newer)) {
      wrong(pointer, `${repr(version)} is not an OME-Zarr version: the published ones are ${OME_PUBLISHED.join(", ")}`);
      continue;
    }
    const omeLayout = series !== undefined && atLeast(series, OME_LAYOUT_SERIES);
    if (underOme && !omeLayout) {
      wrong(pointer, `OME-Zarr ${version} keeps its metadata in the attributes themselves; under \`ome\` the version is 0.5 or later`);
    } else if (!underOme && omeLayout) {
      wrong(pointer, `OME-Zarr ${version} keeps its metadata under \`ome\` (/attributes/ome/version), not in the attributes themselves`);
    } else if ((zarrFormat === 2 || zarrFormat === 3) && zarrFormat !== (omeLayout ? 3 : 2)) {
      wrong("/zarr_format", `OME-Zarr ${version} is stored in Zarr v${omeLayout ? 3 : 2} only`);
    } else if (!checked.has(version)) {
      const why = newer ? "newer than any version zomgen's catalog knows" : "a version zomgen's catalog has no schema for";
      warnings.push(problem(path, pointer, `declares OME-Zarr ${version}, ${why}; not checked`, "no schema"));
    }
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

/** A problem of the node at `base`'s document as one of the hierarchy, naming the convention
 * whose rule found it. */
/** "'members' is a required property", as Ajv or Python says it. */
function membersRequired(found: Problem): boolean {
  return found.keyword === "required" && /^'members' is a required property$|^must have required property 'members'$/.test(found.message);
}

function rooted(base: string, found: Problem, convention: string): Problem {
  const where = base === "/" ? found.node_path : base + (found.node_path === "/" ? "" : found.node_path);
  return { ...found, node_path: where, convention };
}

/** Checks hierarchies against one catalog; each schema is compiled once, when first needed. */
export class DeclaredChecker {
  private readonly matcher: Matcher;
  private readonly validators = new Map<number, Validator>();
  private readonly nodeKeys = new Map<number, Set<string>>();

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
    const report: DeclaredReport = { nodes: new Map(), strict, problems: [], warnings: [], unchecked: [], lookedAt: 0 };
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
    const writersKeys: [string, Json, string][] = []; // v2 keys outside the spec
    // (node path, node, the families an ancestor was checked by), depth first in order
    const stack: [string, Json, ReadonlySet<string>][] = [["/", document, new Set()]];
    for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
      const [path, node, skipped] = next;
      lookedAt += 1;
      if (progress !== undefined && lookedAt % 100 === 0) progress(lookedAt);
      for (const key of otherKeys(node)) writersKeys.push([path, node, key]);
      const found = this.matcher.node(path, node);
      // Below a node a family checked, its schema describes what the node holds, and judges
      // it: keys of a convention used there undeclared, and the OME-Zarr version a node
      // declares (dispatch.py's JUDGED says why).
      report.problems.push(...found.problems.filter((p) => !(skipped.size > 0 && JUDGED.has(p.keyword))));
      for (const w of found.warnings) if (!(skipped.size > 0 && JUDGED.has(w.keyword))) note(report, w);
      const applied = found.applied.filter((a) => a.entry.family === undefined || !skipped.has(a.entry.family));
      if (applied.length > 0) report.nodes.set(path, applied);
      for (const a of applied) addNew(this.checkOne(path, node, a.entry, report));
      if (strict) {
        for (const a of found.applied) {
          if (a.entry.strict_schema !== undefined) addNew(this.validator(a.entry.strict_schema).problems(node).map((p) => rooted(path, p, `${label(a.entry)} (strict)`)));
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
    report.lookedAt = lookedAt;
    const declared = this.declaredNodeKeys(report);
    for (const [path, node, key] of writersKeys) {
      if (!declared.has(key)) report.warnings.push(otherKeyWarning(path, node, key));
    }
    if (report.nodes.size === 0 && report.unchecked.length === 0 && report.problems.length === 0) {
      note(report, problem("/", "", "no convention of the catalog is declared or used here: nothing was checked", "nothing declared"));
    }
    return report;
  }

  /** The node keys the conventions applied anywhere in the run declare. */
  private declaredNodeKeys(report: DeclaredReport): Set<string> {
    const found = new Set<string>();
    for (const applied of report.nodes.values()) {
      for (const { entry } of applied) {
        if (entry.schema === undefined) continue;
        let keys = this.nodeKeys.get(entry.schema);
        if (keys === undefined) {
          keys = declaredNodeKeys(JSON.parse(this.catalog.schemas[entry.schema] ?? "{}"));
          this.nodeKeys.set(entry.schema, keys);
        }
        keys.forEach((key) => found.add(key));
      }
    }
    return found;
  }

  private checkOne(path: string, node: Json, entry: CatalogEntry, report: DeclaredReport): Problem[] {
    if (entry.schema === undefined) {
      const message = `${entry.name} is known but its schema is not available offline; not checked`;
      note(report, problem(path, "", message, "no schema"));
      return [];
    }
    const zarrFormat = own(node, "zarr_format");
    const formats = entry.zarr_formats ?? [2, 3];
    if ((zarrFormat === 2 || zarrFormat === 3) && !formats.includes(zarrFormat)) {
      const versions = formats.map((f) => `v${f}`).join(" and ");
      const message = `${entry.name} is defined for Zarr ${versions} nodes only (its catalog entry's zarr_formats); this Zarr v${zarrFormat} node is not checked as ${entry.name}`;
      note(report, problem(path, "/zarr_format", message, "zarr format"));
      return [];
    }
    let problems = this.validator(entry.schema).problems(node);
    // A node's metadata alone: every rule that needs only the metadata, not the members'
    // requirement (dispatch.py's `_check`).
    if (noMembers(node)) problems = problems.filter((p) => !membersRequired(p));
    // a rule left unevaluated by the budget of its evaluation: its place is not checked
    for (const p of problems.filter(overBudget)) note(report, { ...rooted(path, p, label(entry)), keyword: RULE_BUDGET });
    return problems.filter((p) => !overBudget(p)).map((p) => rooted(path, p, label(entry)));
  }
}

/** The report in `zomgen validate --format json`'s shape. */
export function reportJson(report: DeclaredReport): Json {
  const status = reportVerdict(report);
  return {
    status,
    valid: status === "valid",
    strict: report.strict,
    nodes_read: report.lookedAt,
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
    unchecked: report.unchecked.map((u) => ({ ...u, accepted: false })),
    warnings: report.warnings,
  };
}
