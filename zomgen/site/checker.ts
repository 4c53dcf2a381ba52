/**
 * What the validator page asks of the checks it shows (page.ts draws them, worker.ts runs them):
 * a `PageChecker` (one convention's validate.ts, or the catalog's dispatch on what each node
 * declares: declared.ts), what it found (`Checked`), and the labels of the tree.
 */

import type { Problem, Unchecked } from "./_runtime_ts/problems.js";

/** What the tree shows of a node besides its name and kind, and the same for its members. */
export interface NodeLabel {
  readonly typeName: string;
  description(): string;
  child(name: string): NodeLabel;
}

/** What a check found, as plain data (it is found in the page's worker and posted to the
 * page): its problems (the reading's come first), warnings, the places the checks could not
 * look (the page adds the groups the store could not list), and the types the tree shows
 * where the checker names them. */
export interface Checked {
  readonly problems: readonly Problem[];
  readonly warnings: readonly Problem[];
  readonly unchecked: readonly Unchecked[];
  /** Said after the counts in the summary (", 6 convention checks on 4 nodes"). */
  readonly note: string;
  /** [node path, its type in the tree]: the catalog page's conventions applied at each node;
   * none where the convention's schema names the types (`Described`). */
  readonly types: readonly (readonly [string, string])[];
}

export interface CheckOptions {
  /** The catalog page's "strict rules" box, as it was when the check began. */
  readonly strict: boolean;
}

export interface PageChecker {
  /** What the summary says the store is valid as: a convention's root type, or "by the
   * conventions it declares". */
  readonly title: string;
  /** The schema whose named members are probed where the server cannot list (or null). */
  readonly probe: unknown;
  /** Runs in the page's worker (on the page itself only where no worker can start). */
  check(document: Node, read: readonly Problem[], options: CheckOptions): Checked;
  /** Runs on the page: the root's label in the tree, from what `check` found. */
  label(checked: Checked): NodeLabel;
}

type Node = { readonly [key: string]: unknown };
