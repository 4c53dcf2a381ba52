/**
 * What validation reports: `Problem` (plain data) and `ZomError`, which carries them. The
 * fields are those of the Python `Problem` and of `zomgen validate --format json`, spelled the
 * same, so a problem list can be compared, logged or shown alike whichever language made it.
 */

/** One thing wrong with one node. */
export interface Problem {
  /** The node: `/` for the root, `/labels/cells` for a grandchild. */
  readonly node_path: string;
  /** The offending value inside that node's document (RFC 6901), `""` for the node itself. */
  readonly pointer: string;
  readonly message: string;
  /** The JSON Schema keyword that failed (`type`, `required`...) or a zomgen check. */
  readonly keyword: string;
  /** Where the failing keyword stands in the package's bundled schema.json. */
  readonly schema_path: string;
  /** The convention (and version) whose rule found it, where a check applies several. */
  readonly convention?: string;
  /** The CEL text of the rule that found it, for `x-zomgen-rules`. */
  readonly rule?: string;
}

/** Past this many problems an error message counts the rest instead of listing them. */
const MAX_LISTED = 50;

export function formatProblem(problem: Problem): string {
  const where = problem.pointer ? `${problem.node_path}: ${problem.pointer}` : problem.node_path;
  return `${where}: ${problem.message}`;
}

export function formatProblems(problems: readonly Problem[], limit: number = MAX_LISTED): string {
  const lines = problems.slice(0, limit).map(formatProblem);
  if (problems.length > limit) lines.push(`... and ${problems.length - limit} more problems`);
  return lines.join("\n");
}

/** A document that breaks its convention: lists every problem. */
export class ZomError extends Error {
  readonly problems: readonly Problem[];

  constructor(problems: readonly Problem[]) {
    const count = problems.length;
    super(`${count} problem${count === 1 ? "" : "s"}:\n${formatProblems(problems)}`);
    this.name = "ZomError";
    this.problems = problems;
  }
}

/**
 * One place the check could not look, and why (a group the store cannot list, a declared
 * convention without a schema, nothing declared): not a fault of the hierarchy, but a reason it
 * cannot be called valid. The Python `Unchecked`, spelled the same.
 */
export interface Unchecked {
  readonly node_path: string;
  readonly pointer: string;
  readonly message: string;
  /** A short kind: `unlisted`, `unknown convention`, `no schema`, `undeclared`, ... */
  readonly reason: string;
}

/** The three verdicts, the same in every surface (CLI, Python, validate.ts, the page). */
export type Verdict = "valid" | "invalid" | "not fully checked";

/** A problem found makes a hierarchy invalid whatever was left unread; with none, it is valid
 * only where nothing was left unchecked. */
export function verdict(problems: readonly unknown[], unchecked: readonly unknown[]): Verdict {
  if (problems.length > 0) return "invalid";
  return unchecked.length > 0 ? "not fully checked" : "valid";
}

/** Nothing wrong was found in what was read, but not everything could be read: `unchecked`
 * says where and why (a loader's `namedMembersOnly: true` accepts unlisted groups). */
export class NotFullyChecked extends ZomError {
  readonly unchecked: readonly Unchecked[];

  constructor(unchecked: readonly Unchecked[]) {
    super([]);
    const count = unchecked.length;
    const lines = unchecked.slice(0, MAX_LISTED).map((u) => formatProblem({ ...u, keyword: u.reason, schema_path: "" }));
    if (count > MAX_LISTED) lines.push(`... and ${count - MAX_LISTED} more`);
    this.message = [`not fully checked: ${count} place${count === 1 ? "" : "s"} not read or checked:`, ...lines].join("\n");
    this.name = "NotFullyChecked";
    this.unchecked = unchecked;
  }
}

/** Where a problem or an unchecked place stands. */
type Placed = Pick<Problem, "node_path" | "pointer">;

/** Problems in the order of the tree: by node (parents first), then pointer; a stable sort
 * keeps the schema's order among equals. Strings compare by code point, as Python's do. */
export function treeOrder(a: Placed, b: Placed): number {
  return (
    compareParts(a.node_path.split("/"), b.node_path.split("/")) ||
    compareParts(a.pointer.split("/"), b.pointer.split("/"))
  );
}

function compareParts(a: readonly string[], b: readonly string[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const order = compareCodePoints(a[i] ?? "", b[i] ?? "");
    if (order !== 0) return order;
  }
  return a.length - b.length;
}

function compareCodePoints(a: string, b: string): number {
  const x = Array.from(a, (c) => c.codePointAt(0) ?? 0);
  const y = Array.from(b, (c) => c.codePointAt(0) ?? 0);
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = (x[i] ?? 0) - (y[i] ?? 0);
    if (d !== 0) return d;
  }
  return x.length - y.length;
}

const KIND_POINTERS: readonly string[] = ["/node_type", "/zarr_format"];

/** A node of the wrong kind (a group where an array must be) fails its schema's `const` on
 * node_type, and then every `required` key of the kind it is not: only the first says anything.
 * For such nodes, keep the problems of node_type and zarr_format. */
export function wrongKindOnly(problems: readonly Problem[]): Problem[] {
  const wrong = new Set(
    problems.filter((p) => p.keyword === "const" && p.pointer === "/node_type").map((p) => p.node_path),
  );
  return problems.filter((p) => !wrong.has(p.node_path) || KIND_POINTERS.includes(p.pointer));
}

/** A store of the other Zarr version (a v2 store checked with a v3 convention) fails at its
 * root's `zarr_format`, then at every key of the version it is not, on every node: only the first
 * says anything. Then the root's zarr_format and node_type problems are all there is to report.
 * A single node of the other version inside a store keeps its details. */
export function wrongVersionOnly(problems: readonly Problem[]): Problem[] {
  if (!wrongVersionAtRoot(problems)) return [...problems];
  return problems.filter((p) => p.node_path === "/" && KIND_POINTERS.includes(p.pointer));
}

export function wrongVersionAtRoot(problems: readonly Problem[]): boolean {
  return problems.some(
    (p) => p.node_path === "/" && p.pointer === "/zarr_format" && (p.keyword === "const" || p.keyword === "enum"),
  );
}

/** One problem per (node, pointer, keyword, message): the same fault reached through two schemas
 * (a convention and the base it extends) is reported once. */
export function dedupe(problems: readonly Problem[]): Problem[] {
  const seen = new Map<string, Problem>();
  for (const p of problems) {
    const key = JSON.stringify([p.node_path, p.pointer, p.keyword, p.message]);
    if (!seen.has(key)) seen.set(key, p);
  }
  return [...seen.values()];
}
