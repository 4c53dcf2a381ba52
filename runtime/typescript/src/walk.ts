/**
 * Reading a hierarchy into ONE ZOM document: every node's document (node_files.ts), each
 * group's under its parent's `members`. The twin of reading.py, walk_steps.py and streamed.py:
 * consolidated metadata, where present and wanted, gives the hierarchy, and the nodes' own files
 * are read beside it to say where the two disagree (consolidated_check.ts), unless the caller
 * trusts it; otherwise a group is
 * listed as soon as its metadata arrives and each member it lists (or, where the store cannot
 * list, each member the convention names) is read at once, with at most `concurrency` requests
 * in flight.
 *
 * Anything wrong with one node (unreadable, not JSON, a forbidden name, v2 and v3 metadata in
 * one node, too deep, too large) is a Problem of that node, and the node is left out; only an
 * unusable root makes the whole read fail (document null).
 *
 * Longer than 400 lines because it is one walk, the twin of three Python modules: the root and
 * consolidated metadata (reading.py), what happens at each node (walk_steps.py) and the order
 * requests go in (streamed.py) share the Walk's state, which splitting would pass around.
 */

import { ListedNames, disagreements, listedNames } from "./consolidated_check.js";
import type { Forced, NamedMembers } from "./members.js";
import {
  ALL_FILES,
  type Entries,
  type JsonObject,
  METADATA_NAMES,
  NodeReader,
  V2_FILES,
  V3,
  ZARRAY,
  ZATTRS,
  ZGROUP,
  ZMETADATA,
  forbiddenName,
  v2Entries,
  v3Entries,
} from "./node_files.js";
import { isObject, repr } from "./pointers.js";
import { type Problem, type Unchecked, treeOrder } from "./problems.js";
import type { Fetched, Listing, Source } from "./sources.js";
import { Failure } from "./sources.js";

export interface ReadLimits {
  readonly useConsolidated: boolean;
  /** False: consolidated metadata is taken without reading the nodes' own files to compare. */
  readonly checkConsolidated?: boolean | undefined;
  /** Deeper than this, members are reported instead of read. */
  readonly maxDepth: number;
  /** Each metadata file over this is a problem of its node... */
  readonly maxDocumentBytes: number;
  /** ...except the root's, which may hold the whole hierarchy's consolidated metadata. */
  readonly maxConsolidatedBytes: number;
  /** Told the number of nodes read as the walk goes (every 100 nodes, and at the end). */
  readonly progress?: ((nodes: number) => void) | undefined;
}

export interface ReadResult {
  readonly document: JsonObject | null;
  readonly problems: Problem[];
  /** The groups the store could not list (a static HTTP server answering 404 for a folder),
   * whose members were found only by the names the convention gives, in tree order. */
  readonly unchecked: Unchecked[];
}

/** The reason, and what is said, of the place left unread where the caller trusts consolidated
 * metadata (consolidated.py's TRUSTED). */
export const TRUSTED = "trusted";
const TRUSTED_MESSAGE =
  "the nodes' own metadata files were not read: the consolidated metadata was trusted without comparing it with them";

/** Said of each group the store could not list (reading.py's `Read.unchecked`). */
const UNLISTED =
  "the store cannot list this group's members: only the members the convention names were read, so others may exist unchecked";

interface WalkNode {
  readonly names: readonly string[];
  readonly path: string;
  readonly prefix: string;
  readonly members: JsonObject | null; // the parent's `members`, to attach to
  tree: NamedMembers | null;
  readonly forced: Forced;
  readonly listed: boolean; // found by listing (else: named by the convention, maybe absent)
  document: JsonObject | null;
}

/** At most `limit` jobs running; the others wait their turn, first come first served. */
class Gate {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly limit: number) {}

  async run<T>(job: () => Promise<T>): Promise<T> {
    if (this.running >= this.limit) await new Promise<void>((go) => this.waiting.push(go));
    this.running++;
    try {
      return await job();
    } finally {
      this.running--;
      this.waiting.shift()?.();
    }
  }
}

// An unlisted group is asked for the names its members' metadata give at most this many times.
const PROBE_ROUNDS = 4;

// Stands for a file known to exist whose content is never used (see childFiles).
const PRESENT = new TextEncoder().encode("{}");

function joinPath(parent: string, name: string): string {
  return parent === "/" ? `/${name}` : `${parent}/${name}`;
}

class Walk extends NodeReader {
  private readonly gate: Gate;
  private nodes = 1;
  /** The groups whose listing the store could not give, by node path. */
  readonly unlisted = new Set<string>();
  // False once the root has no index: the source lists no folder, and asking every group's
  // would cost a request each for nothing (the named members are probed instead).
  private indexes = true;
  /** Consolidated metadata taken without reading the nodes' files. */
  trusted = false;
  /** Where the nodes' files were compared with consolidated metadata: the file walk's own
   * problems, then the disagreements, after the rest (as reading.py appends them). */
  readonly compared: Problem[] = [];
  /** A v2 root's files as `.zmetadata` gives them, compared with its own. */
  private rootEntry: Map<string, unknown> | undefined;

  constructor(
    private readonly source: Source,
    private readonly limits: ReadLimits,
    private readonly tree: NamedMembers | null,
  ) {
    super();
    this.gate = new Gate(Math.max(1, source.concurrency));
  }

  private get(key: string, limit: number): Promise<Fetched> {
    return this.gate.run(() => this.source.get(key, limit));
  }

  private async files(prefix: string, names: readonly string[], limit: number): Promise<Map<string, Fetched>> {
    const got = await Promise.all(names.map((n) => this.get(prefix + n, limit)));
    return new Map(names.map((n, i) => [n, got[i]]));
  }

  async run(prefix: string): Promise<JsonObject | null> {
    const rootLimit = Math.max(this.limits.maxDocumentBytes, this.limits.maxConsolidatedBytes);
    const names = [...ALL_FILES, ...(this.limits.useConsolidated ? [ZMETADATA] : [])];
    const fetched = await this.files(prefix, names, rootLimit);
    const zmetadata = fetched.get(ZMETADATA);
    fetched.delete(ZMETADATA);
    let files = this.parseFiles("/", fetched);
    if (files === null) return null;
    let entries: Entries | null = null;
    const ownRootFiles = [V3, ZARRAY, ZGROUP].some((n) => files?.has(n));
    if (!ownRootFiles && zmetadata !== undefined) {
      // zarr-python opens a consolidated v2 store from .zmetadata alone: the root's own files
      // come from it too.
      this.version = 2;
      entries = this.v2Consolidated(zmetadata);
      const own = entries?.get("");
      if (entries !== null && own !== undefined) {
        files = own;
        entries.delete("");
      }
    }
    const v3 = files.get(V3);
    const envelope = isObject(v3) ? v3["consolidated_metadata"] : undefined;
    const document = this.build("/", files);
    if (document === null) {
      if (this.problems.length === 0) {
        const where = prefix ? `'${prefix.replace(/\/$/, "")}'` : "the root of the store";
        this.problem("/", `no Zarr group or array at ${where} (no zarr.json, .zgroup or .zarray)`);
      }
      return null;
    }
    this.version = files.has(V3) ? 3 : 2;
    if (!Object.hasOwn(document, "members")) return document;
    if (entries === null && this.limits.useConsolidated) {
      if (this.version === 3) {
        const [found, problems] = v3Entries(envelope);
        entries = found;
        this.problems.push(...problems);
      } else if (zmetadata !== undefined) {
        entries = this.v2Consolidated(zmetadata);
        // the root was read from its own files; its entry is compared with them
        this.rootEntry = entries?.get("");
        entries?.delete("");
      }
    }
    const root: WalkNode = {
      names: [],
      path: "/",
      prefix,
      members: null,
      tree: this.tree,
      forced: new Map(),
      listed: true,
      document,
    };
    if (entries === null) {
      await this.walkGroup(root);
    } else {
      this.fromEntries(document, entries);
      // A store of .zmetadata alone (GDAL's) has no files for it to disagree with.
      if (ownRootFiles && this.limits.checkConsolidated === false) this.trusted = true;
      else if (ownRootFiles) await this.compareWithFiles(prefix, document, entries);
    }
    this.limits.progress?.(this.nodes);
    return document;
  }

  /** Read the hierarchy again from its nodes' own files, and note every place where they
   * disagree with the consolidated metadata `document` was built from. */
  private async compareWithFiles(prefix: string, document: JsonObject, entries: Entries): Promise<void> {
    const limits = { ...this.limits, useConsolidated: false, progress: undefined };
    const files = new Walk(this.source, limits, new ListedNames(this.tree, listedNames(entries.keys())));
    const fromFiles = await files.run(prefix);
    const key = (p: Problem): string => JSON.stringify([p.node_path, p.pointer, p.message, p.keyword]);
    const seen = new Set(this.problems.map(key));
    const own = [...files.problems].sort(walkOrder).filter((p) => !seen.has(key(p)));
    this.compared.push(...own);
    let consolidated = document;
    if (this.rootEntry !== undefined) {
      const root = this.build("/", this.rootEntry);
      if (root !== null) consolidated = { ...root, members: document["members"] ?? {} };
    }
    if (fromFiles !== null) {
      const unreadable = [...new Set(files.problems.map((p) => p.node_path))].sort();
      this.compared.push(...disagreements(consolidated, fromFiles, unreadable));
    }
  }

  private v2Consolidated(zmetadata: Fetched): Entries | null {
    const parsed = this.parseFiles("/", new Map([[ZMETADATA, zmetadata]]));
    if (parsed === null) return null;
    const [entries, problems] = v2Entries(parsed.get(ZMETADATA) as JsonObject);
    this.problems.push(...problems);
    return entries;
  }

  /** The tree from consolidated entries, parents before children. */
  private fromEntries(root: JsonObject, entries: Entries): void {
    const nodes = new Map<string, JsonObject>([["", root]]);
    const depth = (key: string): number => key.split("/").length;
    const keys = [...entries.keys()].sort((a, b) => depth(a) - depth(b) || (a < b ? -1 : a > b ? 1 : 0));
    for (const key of keys) {
      const names = key.split("/");
      const path = `/${key}`;
      const bad = names.map(forbiddenName).find((why) => why !== null);
      if (bad !== undefined && bad !== null) {
        this.problem(path, `consolidated metadata lists ${repr(key)}: ${bad}`);
        continue;
      }
      if (names.length > this.limits.maxDepth) {
        this.problem(path, `deeper than ${this.limits.maxDepth} levels: not read`);
        continue;
      }
      const members = nodes.get(names.slice(0, -1).join("/"))?.["members"];
      if (!isObject(members)) {
        this.problem(path, "consolidated metadata lists this node, but not its parent as a group");
        continue;
      }
      const document = this.build(path, entries.get(key) ?? new Map());
      if (document !== null) {
        (members as JsonObject)[names[names.length - 1] ?? ""] = document;
        nodes.set(key, document);
      }
    }
    this.nodes = nodes.size;
  }

  private async walkGroup(group: WalkNode): Promise<void> {
    const listing = this.indexes ? await this.gate.run(() => this.source.list(group.prefix)) : undefined;
    if (listing === undefined && group.names.length === 0) this.indexes = false;
    let children = this.membersOf(group, listing);
    const probing = !Array.isArray(listing) && group.tree !== null;
    const tried = children.map((child) => child.names[child.names.length - 1] ?? "");
    const below: Promise<void>[] = [];
    for (let round = 1; children.length > 0; round++) {
      await Promise.all(
        children.map(async (child) => {
          const got = await this.childFiles(child.prefix, child.listed);
          if (this.take(child, got)) below.push(this.walkGroup(child));
        }),
      );
      // Once an unlisted group's members are read, it is asked again: a name may come from a
      // member's own metadata (bioformats2raw's OME/.zattrs names the series beside it).
      children = probing && round < PROBE_ROUNDS ? this.membersOf(group, undefined, tried) : [];
      tried.push(...children.map((child) => child.names[child.names.length - 1] ?? ""));
    }
    await Promise.all(below);
  }

  /** A member's metadata files. On a local disk: its version's files, and whether the other
   * version's are there (present ones stand as `{}`: build() then reports the mixed node
   * without reading them). On a remote store, in stages, as streamed.py asks: the version's
   * own files (`.zarray` and `.zattrs` for v2), then a v2 node without `.zarray` is asked for
   * `.zgroup`, then a node with nothing of the hierarchy's version for the other version's
   * files, to report it instead of skipping it in silence (a member only named, not listed,
   * is most likely absent: `.zarray` and `.zgroup` tell a v2 node, `.zattrs` alone is none). */
  private async childFiles(prefix: string, listed: boolean): Promise<Map<string, Fetched>> {
    const limit = this.limits.maxDocumentBytes;
    const v3 = this.version === 3;
    const other: readonly string[] = v3 ? V2_FILES : [V3];
    if (this.source.probesOtherVersion) {
      const got = await this.files(prefix, v3 ? [V3] : V2_FILES, limit);
      for (const [name, value] of await this.files(prefix, other, limit)) {
        got.set(name, value === undefined ? undefined : PRESENT);
      }
      return got;
    }
    const got = await this.files(prefix, v3 ? [V3] : [ZARRAY, ZATTRS], limit);
    const more = async (names: readonly string[]): Promise<void> => {
      for (const [name, value] of await this.files(prefix, names, limit)) got.set(name, value);
    };
    if (!v3 && got.get(ZARRAY) === undefined) await more([ZGROUP]);
    if ([...got.values()].every((value) => value === undefined)) {
      await more(v3 && !listed ? [ZARRAY, ZGROUP] : other);
    }
    return got;
  }

  /** The candidate members of one group, from its listing (and, where it cannot be listed,
   * the names the convention gives); problems of the listing noted. */
  private membersOf(group: WalkNode, listing: Listing, tried: readonly string[] = []): WalkNode[] {
    const document = group.document ?? {};
    let named: Forced = new Map();
    if (group.tree !== null && !Array.isArray(listing)) named = group.tree.names(document);
    if (listing === undefined) this.unlisted.add(group.path);
    if (listing instanceof Failure) {
      if (listing.message.startsWith("symlink loop")) {
        // A folder already walked, reached again through a link: not a node of its own.
        this.problem(group.path, listing.message);
        this.drop(group);
        return [];
      }
      this.problem(group.path, `cannot list the members: ${listing.message}`);
    }
    const listed = Array.isArray(listing) ? (listing as readonly string[]) : [];
    if (listed.length > 0 && group.names.length > 0 && this.mixed(group, listed)) return [];
    const names = [...new Set(listed.filter((n) => !METADATA_NAMES.has(n)))].sort(byCodePoint);
    const skipped = new Set([...names, ...tried]);
    const candidates = [...names, ...[...named.keys()].filter((n) => !skipped.has(n))];
    const listedNames = new Set(names);
    if (candidates.length > 0 && group.names.length >= this.limits.maxDepth) {
      this.problem(group.path, `the hierarchy is deeper than ${this.limits.maxDepth} levels: members not read`);
      return [];
    }
    const members = document["members"];
    const found: WalkNode[] = [];
    for (const name of candidates) {
      const path = joinPath(group.path, name);
      if (name === "" || name === "." || name === ".." || name.includes("/")) {
        this.problem(path, `forbidden node name ${repr(name)}`);
        continue;
      }
      found.push({
        names: [...group.names, name],
        path,
        prefix: `${group.prefix}${name}/`,
        members: isObject(members) ? (members as JsonObject) : null,
        tree: group.tree, // the parent's tree: `child()` is taken once it is a group
        forced: named.get(name) ?? new Map(),
        listed: listedNames.has(name),
        document: null,
      });
    }
    return found;
  }

  /** A listing that shows the group's own files of the other Zarr version: a mixed group
   * (noted, group left out). */
  private mixed(group: WalkNode, listing: readonly string[]): boolean {
    const others: readonly string[] = this.version === 3 ? V2_FILES : [V3];
    const other = listing.filter((n) => others.includes(n)).sort();
    if (other.length === 0) return false;
    const own = this.version === 3 ? V3 : ZGROUP;
    this.problem(group.path, `Zarr v3 and v2 metadata mixed in one node (${[own, ...other].join(", ")})`);
    this.drop(group);
    return true;
  }

  /** Leave a group out of its parent's members. */
  private drop(group: WalkNode): void {
    if (group.members !== null) delete group.members[group.names[group.names.length - 1] ?? ""];
  }

  /** The child's document from its files, attached to its parent; true when it is a group,
   * whose members are to be read next. */
  private take(child: WalkNode, got: Map<string, Fetched>): boolean {
    const files = this.parseFiles(child.path, got);
    if (files === null) return false;
    const name = child.names[child.names.length - 1] ?? "";
    const document = this.build(child.path, files);
    if (document === null) return false;
    const reason = forbiddenName(name);
    if (reason !== null) {
      this.problem(child.path, `forbidden node name ${repr(name)}: ${reason}`);
      return false;
    }
    if (child.members !== null) child.members[name] = document;
    this.nodes++;
    if (this.nodes % 100 === 0) this.limits.progress?.(this.nodes);
    if (!Object.hasOwn(document, "members")) return false;
    child.document = document;
    if (child.tree !== null) child.tree = child.tree.child(name, child.forced);
    return true;
  }
}

function byCodePoint(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The hierarchy below `prefix` ("" or "a/b/") of `source` as one ZOM document, and every
 * problem met reading it (in tree order). `tree` names the members to probe where the
 * source cannot list. Never writes. */
export async function readDocument(
  source: Source,
  prefix: string,
  limits: ReadLimits,
  tree: NamedMembers | null,
): Promise<ReadResult> {
  const walk = new Walk(source, limits, tree);
  const document = await walk.run(prefix);
  if (document === null) return { document, problems: [...walk.problems].sort(walkOrder), unchecked: [] };
  const unlisted = [...walk.unlisted].map((path) => ({ node_path: path, pointer: "/members", message: UNLISTED, reason: "unlisted" }));
  const trusted = walk.trusted ? [{ node_path: "/", pointer: "", message: TRUSTED_MESSAGE, reason: TRUSTED }] : [];
  const problems = [...[...walk.problems].sort(walkOrder), ...walk.compared];
  return { document, problems, unchecked: [...trusted, ...unlisted.sort(treeOrder)] };
}

/** Reading problems level by level (a node's before its members'), in tree order within a
 * level: the order in which the Python loader walks, and reports. */
function walkOrder(a: Problem, b: Problem): number {
  return depthOf(a.node_path) - depthOf(b.node_path) || treeOrder(a, b);
}

function depthOf(path: string): number {
  return path.split("/").filter((part) => part !== "").length;
}
