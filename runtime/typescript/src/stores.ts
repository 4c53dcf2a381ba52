/**
 * What a package's load.ts calls: a store (an HTTP(S) URL, a local folder under Node, or any
 * zarrita store) read into one document, checked against the package's schema, and either
 * returned or refused with every problem. The twin of api.py and opening.py.
 */

import { httpSource } from "./http.js";
import { namedMemberTree } from "./members.js";
import type { JsonObject } from "./node_files.js";
import { repr } from "./pointers.js";
import { NotFullyChecked, type Problem, type Unchecked, ZomError, formatProblems } from "./problems.js";
import { RULE_BUDGET, overBudget } from "./rules.js";
import { folderSource } from "./local_folder.js";
import { type Readable, type Source, listedSource, readableSource } from "./sources.js";
import { type ReadResult, TRUSTED, readDocument } from "./walk.js";

/** A zarrita store and every key it holds (a zip's entries), so that it can be listed. */
export interface ListedStore {
  readonly store: Readable;
  readonly keys: readonly string[];
}

/** A store: an `http://` or `https://` URL, a `file:` URL or a folder's path (under Node), a
 * store of zarrita's (FetchStore, ZipFileStore, FileSystemStore...), or one with its keys. */
export type StoreInput = string | URL | Readable | ListedStore;

export interface StoreOptions {
  /** The node to read, below the store's root: `""` (the root) or `"a/b"`. */
  readonly path?: string;
  /** Read consolidated metadata where the store has it (default true). */
  readonly useConsolidated?: boolean;
  /** Compare consolidated metadata with the nodes' own files, each place where they disagree a
   * problem (default true); false trusts it: one request, and the files left unread are an
   * accepted place not checked (reason `trusted`). */
  readonly checkConsolidated?: boolean;
  /** Accept that a store which cannot list its groups (a static HTTP server) is read by the
   * members the convention names; otherwise such a read rejects with NotFullyChecked where it
   * finds no problem (default false). */
  readonly namedMembersOnly?: boolean;
  /** Origins (`https://host[:port]`) an HTTP redirect may lead to besides the store's own;
   * `"*"` for any. */
  readonly allowRedirectsTo?: readonly string[];
  /** Requests in flight at most (default 64). */
  readonly concurrency?: number;
  /** Seconds one HTTP request may take (default 30). */
  readonly timeoutSeconds?: number;
  /** Bytes one metadata file may hold (default 64 MiB)... */
  readonly maxDocumentBytes?: number;
  /** ...and the root's files, which may hold the whole hierarchy (default 1 GiB). */
  readonly maxConsolidatedBytes?: number;
  /** Deeper than this, members are reported instead of read (default 256). */
  readonly maxDepth?: number;
  /** Told how many nodes have been read, as the walk goes. */
  readonly progress?: (nodes: number) => void;
}

export const DEFAULT_CONCURRENCY = 64;
export const DEFAULT_TIMEOUT_SECONDS = 30;
export const DEFAULT_MAX_BYTES = 64 * 1024 * 1024;
export const DEFAULT_MAX_CONSOLIDATED_BYTES = 1024 * 1024 * 1024;
export const DEFAULT_MAX_DEPTH = 256;

/** A store that cannot be read at all (not found, not a store, no node at the path). */
export class StoreError extends ZomError {
  constructor(problems: readonly Problem[]) {
    super(problems);
    this.name = "StoreError";
    this.message = `the store cannot be read:\n${formatProblems(problems)}`;
  }
}

function storeProblem(message: string): Problem {
  return { node_path: "/", pointer: "", message, keyword: "read", schema_path: "" };
}

async function openSource(input: StoreInput, options: StoreOptions): Promise<Source> {
  const concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
  if (typeof input !== "string" && !(input instanceof URL)) {
    if ("keys" in input && "store" in input) return listedSource(input.store, input.keys, concurrency);
    return readableSource(input, concurrency);
  }
  const text = input instanceof URL ? input.href : input;
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(text)?.[1]?.toLowerCase();
  if (scheme === "http" || scheme === "https") {
    return httpSource(text, {
      concurrency,
      timeoutSeconds: options.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS,
      allowRedirectsTo: options.allowRedirectsTo ?? [],
    });
  }
  if (scheme !== undefined && scheme.length > 1 && scheme !== "file") {
    throw new StoreError([storeProblem(`cannot read a store from a ${scheme}: URL (http, https, file, or a zarrita store)`)]);
  }
  const path = scheme === "file" ? decodeURIComponent(new URL(text).pathname) : text;
  const folder = await folderSource(path, concurrency);
  if (typeof folder === "string") throw new StoreError([storeProblem(folder)]);
  return folder;
}

/** The store key prefix of a node path inside the store (`labels/cells`, `/labels/cells/`). A
 * `.` or `..` part, an empty one, or a NUL is refused (opening.py's `split_path`): `../outside`
 * would read outside a folder store, or outside the URL's prefix over HTTP. */
function prefixOf(path: string | undefined): string {
  const text = path ?? "";
  const trimmed = text.replace(/^\/+|\/+$/g, "");
  if (text.includes("\0")) throw new StoreError([storeProblem(`path ${repr(text)} is not a node path: it holds a NUL character`)]);
  const parts = trimmed === "" ? [] : trimmed.split("/");
  if (parts.some((part) => part === "" || part === "." || part === "..")) {
    throw new StoreError([storeProblem(`path ${repr(text)} is not a node path: it holds an empty, '.' or '..' part`)]);
  }
  return parts.length > 0 ? `${parts.join("/")}/` : "";
}

/** The hierarchy at `options.path` of `input` as one document, with the problems of reading
 * it; the convention's schema names the members to probe where the store cannot list. */
export async function readStore(input: StoreInput, schema: unknown, options: StoreOptions = {}): Promise<ReadResult> {
  let source: Source;
  let prefix: string;
  try {
    prefix = prefixOf(options.path);
    source = await openSource(input, options);
  } catch (error) {
    if (error instanceof StoreError) return { document: null, problems: [...error.problems], unchecked: [] };
    throw error;
  }
  return readDocument(
    source,
    prefix,
    {
      useConsolidated: options.useConsolidated ?? true,
      checkConsolidated: options.checkConsolidated ?? true,
      maxDepth: options.maxDepth ?? DEFAULT_MAX_DEPTH,
      maxDocumentBytes: options.maxDocumentBytes ?? DEFAULT_MAX_BYTES,
      maxConsolidatedBytes: options.maxConsolidatedBytes ?? DEFAULT_MAX_CONSOLIDATED_BYTES,
      progress: options.progress,
    },
    namedMemberTree(schema),
  );
}

// Ajv's words for a missing key (report.ts keeps them), and python-jsonschema's.
const REQUIRED = /must have required property '(.*)'|^'(.*)' is a required property$/;

/** Schema problems minus those a read problem already explains: a member left out because it
 * could not be read is not also "a required property" of its parent. */
export function notExplained(checked: readonly Problem[], read: readonly Problem[]): Problem[] {
  const unreadable = new Set(read.map((p) => p.node_path));
  if (unreadable.size === 0) return [...checked];
  return checked.filter((problem) => {
    const found = problem.keyword === "required" ? REQUIRED.exec(problem.message) : null;
    if (found === null || problem.pointer !== "/members") return true;
    const parent = problem.node_path.replace(/\/+$/, "");
    return !unreadable.has(`${parent}/${found[1] ?? found[2] ?? ""}`);
  });
}

/** Every problem of the store under the convention ([] when it follows it): the reading's,
 * then the checks'. Rejects with StoreError when the store cannot be read at all, and with
 * NotFullyChecked when no problem was found but a group could not be listed (unless
 * `options.namedMembersOnly` accepts it): [] always means every node was read and checked. */
export async function storeProblems(
  input: StoreInput,
  schema: unknown,
  check: (document: JsonObject) => Problem[],
  options: StoreOptions = {},
): Promise<{ document: JsonObject; problems: Problem[] }> {
  const read = await readStore(input, schema, options);
  if (read.document === null) throw new StoreError(read.problems);
  const found = check(read.document);
  const problems = [...read.problems, ...notExplained(found.filter((p) => !overBudget(p)), read.problems)];
  // a rule stopped by the iteration budget found nothing wrong: its place is not checked
  const budget: Unchecked[] = found.filter(overBudget).map((p) => ({
    node_path: p.node_path,
    pointer: p.pointer,
    message: p.message,
    reason: RULE_BUDGET,
  }));
  // `namedMembersOnly` accepts groups that could not be listed, not rules left unevaluated;
  // `checkConsolidated: false` asked for the nodes' files to be left unread
  const accepted = (u: Unchecked): boolean => u.reason === TRUSTED || (u.reason === "unlisted" && options.namedMembersOnly === true);
  const held = [...read.unchecked.filter((u) => !accepted(u)), ...budget];
  if (problems.length === 0 && held.length > 0) throw new NotFullyChecked(held);
  return { document: read.document, problems };
}
