/**
 * The catalog page's entry point (`zomgen site` without a schema): each node of the store
 * checked against the conventions it declares or evidently uses (declared.ts), as
 * `zomgen validate STORE` does; the tree shows the conventions applied at each node.
 */

import { catalogText } from "./catalog.js";
import { type Catalog, DeclaredChecker } from "./declared.js";
import type { NodeLabel } from "./checker.js";
import { startPage } from "./page.js";

/** The conventions applied at a node, "name (declared)" or "name (used)". */
class AppliedLabel implements NodeLabel {
  readonly typeName: string;

  constructor(
    private readonly nodes: ReadonlyMap<string, string>,
    private readonly path: string,
  ) {
    this.typeName = nodes.get(path) ?? "";
  }

  description(): string {
    return "";
  }

  child(name: string): NodeLabel {
    return new AppliedLabel(this.nodes, this.path === "/" ? `/${name}` : `${this.path}/${name}`);
  }
}

/** Made where the checks run (the page's worker), when first needed: its matchers are
 * compiled as it is made. */
let checker: DeclaredChecker | undefined;

startPage({
  title: "by the conventions it declares",
  probe: {},
  check: (hierarchy, read, { strict }) => {
    checker ??= new DeclaredChecker(JSON.parse(catalogText) as Catalog);
    const report = checker.check(hierarchy, strict);
    const count = [...report.nodes.values()].reduce((sum, applied) => sum + applied.length, 0);
    const nodes = report.nodes.size;
    const note = `, ${count} convention check${count === 1 ? "" : "s"} on ${nodes} node${nodes === 1 ? "" : "s"}${strict ? ", strict" : ""}`;
    const types = [...report.nodes].map(([path, applied]) => [path, applied.map((a) => `${a.entry.name} (${a.how})`).join(", ")] as const);
    return { problems: [...read, ...report.problems], warnings: report.warnings, unchecked: report.unchecked, note, types };
  },
  label: (checked) => new AppliedLabel(new Map(checked.types), "/"),
});
