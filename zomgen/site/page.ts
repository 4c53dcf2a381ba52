/**
 * The validator page (`zomgen site`): a store's URL in, or a zipped store dropped on the page;
 * its hierarchy read by the package's loader (load.ts's machinery) and checked by a
 * `PageChecker` (one convention's validate.ts, or the catalog's dispatch on what each node
 * declares: declared.ts), shown as a tree (each node with its type or conventions, its
 * description and its problems), a table of every problem and warning, and counts. Nothing but
 * the store's URL is ever fetched: the schemas are in the bundle.
 *
 * Bad input ends in a visible message, never a blank page: a URL that does not answer or
 * refuses this page (CORS), metadata that is not JSON, a store too large, a broken zip.
 *
 * This module is the page's face: it takes the URL or the zip and draws what comes back. The
 * store is read and checked off the page's thread, in a worker (worker.ts, which checks on this
 * thread where no worker can start).
 */

import { parsePointer } from "./_runtime_ts/pointers.js";
import { type Problem, type Unchecked, verdict } from "./_runtime_ts/problems.js";
import type { NodeLabel, PageChecker } from "./checker.js";
import { TRUSTED } from "./_runtime_ts/walk.js";
import { Checks, type Source, serveChecks } from "./worker.js";

type Node = { readonly [key: string]: unknown };

const isObject = (value: unknown): value is Node =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function element<K extends keyof HTMLElementTagNameMap>(tag: K, text = "", className = ""): HTMLElementTagNameMap[K] {
  const made = document.createElement(tag);
  if (text) made.textContent = text;
  if (className) made.className = className;
  return made;
}

/** Text from the store (a member name, a pointer, a message quoting a value), isolated from
 * the text around it: a name holding U+202E (right-to-left override) cannot reverse its
 * neighbours (`<bdi>`, which the browser isolates and orders by its own content). */
function isolated(text: string, className = ""): HTMLElement {
  return element("bdi", visibleControls(text), className);
}

// Bidirectional formatting characters (embeddings, overrides, isolates, marks): shown as
// their code point, so `\u202Egnp.exe` reads as what it is, not as "exe.png".
const BIDI_CONTROLS = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/g;

function visibleControls(text: string): string {
  return text.replace(BIDI_CONTROLS, (found) => `[U+${found.codePointAt(0)?.toString(16).toUpperCase().padStart(4, "0") ?? ""}]`);
}

/** The value at `pointer` (RFC 6901) inside `node`, or undefined. */
function valueAt(node: unknown, pointer: string): unknown {
  let here: unknown = node;
  for (const token of parsePointer(pointer)) {
    if (Array.isArray(here) && /^(0|[1-9][0-9]*)$/.test(token)) here = here[Number(token)];
    else if (isObject(here) && Object.hasOwn(here, token)) here = here[token];
    else return undefined;
  }
  return here;
}

/** A JSON value as short text: at most `limit` characters. */
function shortJson(value: unknown, limit = 80): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > limit ? `${text.slice(0, limit - 3)}...` : text;
}

/** An array's shape, data type and chunks, as one line ("shape [2, 3] · float32 · chunks [1, 3]"). */
function arraySummary(node: Node): string {
  if (!Array.isArray(node["shape"])) return "";
  const dtype = node["data_type"] ?? node["dtype"];
  const grid = node["chunk_grid"];
  const configuration = isObject(grid) ? grid["configuration"] : undefined;
  const chunks = node["chunks"] ?? (isObject(configuration) ? configuration["chunk_shape"] : undefined);
  const parts = [`shape ${shortJson(node["shape"])}`];
  if (dtype !== undefined) parts.push(typeof dtype === "string" ? dtype : shortJson(dtype));
  if (chunks !== undefined) parts.push(`chunks ${shortJson(chunks)}`);
  return parts.join(" · ");
}

function byId(id: string): HTMLElement {
  const found = document.getElementById(id);
  if (found === null) throw new Error(`the page has no #${id}`);
  return found;
}

function kindOf(node: Node): string {
  if (isObject(node["members"])) return "group";
  return "shape" in node ? "array" : "node";
}

/** Problems by node path. */
function grouped(problems: readonly Problem[]): Map<string, Problem[]> {
  const found = new Map<string, Problem[]>();
  for (const problem of problems) {
    const list = found.get(problem.node_path) ?? [];
    list.push(problem);
    found.set(problem.node_path, list);
  }
  return found;
}

/** A node's problems, each with the value it is about (from `node`, where given). */
function problemList(problems: readonly Problem[], node?: Node): HTMLUListElement {
  const list = element("ul", "", "problems");
  for (const problem of problems) {
    const item = element("li");
    const where = element("code", "", "pointer");
    where.append(isolated(problem.pointer || "(the node)"));
    const value = node === undefined ? undefined : valueAt(node, problem.pointer);
    const shown = value !== undefined && problem.pointer !== "";
    // The value is shown after the message, highlighted: not also in its own "(given: ...)".
    const message = shown ? problem.message.replace(/ \(given: .*\)$/s, "") : problem.message;
    item.append(where, " ", isolated(message));
    if (shown) {
      const given = element("code", "", "value");
      given.append(isolated(shortJson(value)));
      item.append(" (given: ", given, ")");
    }
    if (problem.convention !== undefined) item.append(" ", element("span", `[${problem.convention}]`, "convention"));
    list.append(item);
  }
  return list;
}

/** The node's own metadata (its attributes, an array's metadata) as JSON, drawn when opened. */
function metadataBox(node: Node): HTMLElement | null {
  const own = Object.fromEntries(Object.entries(node).filter(([key]) => key !== "members"));
  const attributes = node["attributes"];
  if (isObject(attributes) && Object.keys(attributes).length === 0 && !Array.isArray(node["shape"])) return null;
  const box = element("details", "", "metadata");
  box.append(element("summary", "metadata"));
  box.addEventListener("toggle", () => {
    if (box.dataset["filled"]) return;
    box.dataset["filled"] = "yes";
    const text = JSON.stringify(own, null, 1) ?? "";
    box.append(element("pre", text.length > 20000 ? `${text.slice(0, 20000)}\n...` : text));
  });
  return box;
}

/** Nodes below a problem's node path that hold problems, so their branches are shown open. */
function withProblemsBelow(byNode: Map<string, Problem[]>): Set<string> {
  const paths = new Set<string>();
  for (const path of byNode.keys()) {
    const parts = path.split("/").filter(Boolean);
    for (let i = 0; i <= parts.length; i++) paths.add(`/${parts.slice(0, i).join("/")}`);
  }
  return paths;
}

/** Members drawn at a time: more are drawn on request. */
const PAGE = 1000;

/** One node of the tree; its members are built when it is opened (a store of 100,000 nodes
 * shows at once), and opened at once where problems lie below. */
function treeNode(name: string, path: string, node: Node, described: NodeLabel, byNode: Map<string, Problem[]>, open: Set<string>): HTMLElement {
  const own = byNode.get(path) ?? [];
  const members = isObject(node["members"]) ? node["members"] : null;
  const box = members !== null ? element("details") : element("div", "", "leaf");
  box.dataset["path"] = path;
  const head = members !== null ? element("summary") : element("div");
  head.append(isolated(name, "name"), element("span", kindOf(node), "kind"), element("span", described.typeName, "type"));
  const shape = arraySummary(node);
  if (shape) head.append(element("span", shape, "meta"));
  if (own.length > 0) head.append(element("span", `${own.length} problem${own.length === 1 ? "" : "s"}`, "count bad"));
  const description = described.description();
  if (description) head.title = description;
  box.append(head);
  if (description) box.append(element("div", description.split("\n")[0] ?? "", "description"));
  if (own.length > 0) box.append(problemList(own, node));
  const metadata = metadataBox(node);
  if (metadata !== null) box.append(metadata);
  if (members !== null && box instanceof HTMLDetailsElement) {
    const fill = (): void => {
      if (box.dataset["filled"]) return;
      box.dataset["filled"] = "yes";
      const list = element("div", "", "members");
      // Members with problems first drawn, then the others a page at a time: a group of
      // 100,000 members shows at once, and its problems are never behind a "more" button.
      const first: string[] = [];
      const rest: string[] = [];
      for (const name of Object.keys(members).sort()) (open.has(path === "/" ? `/${name}` : `${path}/${name}`) ? first : rest).push(name);
      const draw = (some: readonly string[]): void => {
        for (const child of some) {
          const childPath = path === "/" ? `/${child}` : `${path}/${child}`;
          const value = members[child];
          if (isObject(value)) list.append(treeNode(child, childPath, value, described.child(child), byNode, open));
        }
      };
      draw(first);
      let shown = 0;
      const more = element("button", "", "more");
      more.type = "button";
      const page = (): void => {
        draw(rest.slice(shown, shown + PAGE));
        shown = Math.min(rest.length, shown + PAGE);
        more.textContent = `${rest.length - shown} more members`;
        if (shown >= rest.length) more.remove();
        else list.append(more);
      };
      more.addEventListener("click", page);
      page();
      box.append(list);
    };
    box.addEventListener("toggle", fill);
    if (path === "/" || open.has(path)) {
      box.open = true;
      fill();
    }
  }
  return box;
}

/** Every problem (or warning) in a table: node path, pointer, message; empty when none. */
function problemTable(id: string, problems: readonly Pick<Problem, "node_path" | "pointer" | "message">[]): HTMLTableElement {
  const table = element("table", "", "all-problems");
  table.id = id;
  if (problems.length > 0) {
    const head = element("tr");
    head.append(element("th", "node"), element("th", "pointer"), element("th", "message"));
    table.append(head);
    for (const problem of problems) {
      const row = element("tr");
      for (const text of [problem.node_path, problem.pointer, problem.message]) {
        const cell = element("td");
        cell.append(isolated(text));
        row.append(cell);
      }
      table.append(row);
    }
  }
  return table;
}

function show(result: HTMLElement, ...parts: HTMLElement[]): void {
  result.replaceChildren(...parts);
}

function failure(message: string, problems: readonly Problem[] = []): HTMLElement {
  const box = element("div", "", "error");
  box.setAttribute("role", "alert");
  box.append(element("strong", message));
  if (problems.length > 0) box.append(problemList(problems));
  return box;
}

export function startPage(checker: PageChecker): void {
  if (typeof document === "undefined") {
    serveChecks(checker); // in the page's worker
    return;
  }
  const form = byId("source") as HTMLFormElement;
  const input = byId("url") as HTMLInputElement;
  const file = byId("zip") as HTMLInputElement;
  const status = byId("status");
  const result = byId("result");
  const strictBox = document.getElementById("strict");
  const trustBox = byId("trust-consolidated") as HTMLInputElement;
  const checks = new Checks(checker);
  let running = 0;

  async function check(source: Source, label: string, url: string | null = null): Promise<void> {
    const run = ++running;
    const started = performance.now();
    let readSeconds = 0;
    status.textContent = `Reading ${label}...`;
    show(result);
    const strict = strictBox instanceof HTMLInputElement && strictBox.checked;
    const trustConsolidated = trustBox.checked;
    const outcome = await checks.run(source, { strict, trustConsolidated }, {
      read: (nodes) => {
        if (run === running) status.textContent = `Reading ${label}: ${nodes} nodes read...`;
      },
      checking: (nodes) => {
        readSeconds = (performance.now() - started) / 1000;
        if (run === running) status.textContent = `Checking ${nodes} nodes...`;
      },
    });
    if (run !== running || outcome.kind === "cancelled") return;
    status.textContent = "";
    if (outcome.kind === "failed") {
      show(result, failure(outcome.message, outcome.problems));
      return;
    }
    const { checked, document: hierarchy, nodes } = outcome;
    const problems = checked.problems;
    const checkSeconds = (performance.now() - started) / 1000 - readSeconds;
    const seconds = `${(readSeconds + checkSeconds).toFixed(2)} s: read ${readSeconds.toFixed(2)} s, checked ${checkSeconds.toFixed(2)} s`;
    const byNode = grouped(problems);
    const unchecked = [...outcome.unchecked, ...checked.unchecked];
    // the box asked for consolidated metadata to be trusted: that place is listed, not held
    // against the verdict (as `zomgen validate --trust-consolidated` accepts it)
    const accepted = unchecked.filter((place) => place.reason === TRUSTED).length;
    const verdictFound = verdict(problems, unchecked.filter((place) => place.reason !== TRUSTED));
    const summary = element("p", "", verdictFound === "valid" ? "summary good" : verdictFound === "invalid" ? "summary bad" : "summary partial");
    summary.id = "summary";
    summary.dataset["status"] = verdictFound;
    summary.dataset["checkedIn"] = outcome.where;
    const valid = accepted > 0 ? "Valid as far as read" : "Valid";
    const opening = { valid, invalid: "Not valid", "not fully checked": "Not fully checked:" }[verdictFound];
    const held = unchecked.length - accepted;
    const count = (n: number): string => `${n} place${n === 1 ? "" : "s"}`;
    const places = (held > 0 ? `, ${count(held)} not checked` : "") + (accepted > 0 ? `, ${count(accepted)} accepted unread` : "");
    summary.textContent = `${opening} ${checker.title}: ${nodes} nodes, ${problems.length} problem${problems.length === 1 ? "" : "s"}${places}${checked.note} (${seconds})`;
    const table = problemTable("problems", problems);
    const notChecked = problemTable("unchecked", unchecked);
    if (unchecked.length > 0) notChecked.createCaption().textContent = `Not checked (${unchecked.length}): nothing wrong was found there, but zomgen could not look`;
    const warnings = problemTable("warnings", checked.warnings);
    if (checked.warnings.length > 0) warnings.createCaption().textContent = `${checked.warnings.length} warning${checked.warnings.length === 1 ? "" : "s"}`;
    const tree = element("div", "", "tree");
    tree.id = "tree";
    tree.append(treeNode("/", "/", hierarchy, checker.label(checked), byNode, withProblemsBelow(byNode)));
    const tools = element("div", "", "tools");
    if (url !== null) {
      // the check is a link: the address bar says which store, for a reload or a colleague
      const trusted = trustConsolidated ? "&consolidated=trust" : "";
      history.replaceState(null, "", `?url=${encodeURIComponent(url)}${trusted}`);
      const copy = element("button", "Copy link", "copy");
      copy.type = "button";
      copy.addEventListener("click", () => {
        void navigator.clipboard?.writeText(location.href).then(
          () => (copy.textContent = "Link copied"),
          () => (copy.textContent = location.href),
        );
      });
      tools.append(copy);
    }
    const filter = element("input", "", "filter");
    filter.id = "filter";
    filter.type = "search";
    filter.placeholder = "filter the problems (node, pointer or message)";
    filter.setAttribute("aria-label", "filter the problems");
    filter.addEventListener("input", () => {
      const wanted = filter.value.trim().toLowerCase();
      for (const row of result.querySelectorAll<HTMLTableRowElement>("table.all-problems tr")) {
        if (row.querySelector("td") === null) continue;
        row.hidden = wanted !== "" && !(row.textContent ?? "").toLowerCase().includes(wanted);
      }
    });
    tools.append(filter);
    show(result, summary, tools, table, notChecked, warnings, tree);
  }

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const url = input.value.trim();
    if (!/^https?:\/\//i.test(url)) {
      show(result, failure("Enter the store's http:// or https:// URL."));
      return;
    }
    void check({ url }, url, url).catch((error: unknown) => show(result, failure(`Unexpected failure: ${String(error)}`)));
  });
  file.addEventListener("change", () => {
    const chosen = file.files?.[0];
    if (chosen === undefined) return;
    void check({ zip: chosen }, chosen.name).catch((error: unknown) =>
      show(result, failure(`${chosen.name} cannot be read as a zipped Zarr store: ${String(error)}`)),
    );
  });
  document.body.addEventListener("dragover", (event) => event.preventDefault());
  document.body.addEventListener("drop", (event) => {
    event.preventDefault();
    const dropped = event.dataTransfer?.files[0];
    if (dropped === undefined) return;
    void check({ zip: dropped }, dropped.name).catch((error: unknown) =>
      show(result, failure(`${dropped.name} cannot be read as a zipped Zarr store: ${String(error)}`)),
    );
  });
  checks.prepare();
  const query = new URLSearchParams(location.search);
  const asked = query.get("url");
  if (query.get("consolidated") === "trust") trustBox.checked = true;
  if (asked) {
    input.value = asked;
    form.requestSubmit();
  }
}
