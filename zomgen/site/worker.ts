/**
 * Where the validator page's checks run: in a Web Worker, so that the page's thread is never
 * held while a store is read and checked. Reading a large store and checking it (Ajv over every
 * node, the report) takes seconds of CPU; on the page's thread it would freeze the tab as long.
 * This module holds what passes between the page and its worker, and both sides of it:
 *
 * - `work`: the store read by the package's loader (a URL, or a zipped store) and checked by
 *   the page's `PageChecker`, wherever it runs;
 * - the worker's side, `serveChecks`: each request read, checked and answered: the progress,
 *   then the document the tree draws, then what the check found;
 * - the page's side, `Checks`: the worker started, each check sent to it, the document put
 *   back together from its parts, and `work` run on the page's own thread where no worker
 *   can start.
 *
 * The worker is made from this very script: bundle.py wraps app.js in the function
 * `zomgenPage`, whose source, run in a worker from a blob: URL, finds no `document` and serves
 * checks where the page would start (page.ts's `startPage`). One script, no second copy of
 * Ajv, zarrita and the schemas; and a blob: URL, because Chromium refuses a worker loaded from
 * a file on a page opened from file:// (a blob: URL works there and over HTTP alike).
 *
 * The document travels as JSON text, one record a node, in parts the page takes in a task
 * each while the worker checks: one structured clone of a 100,000-node document would hold the
 * page for a second, and the page parses a node only when it draws it.
 *
 * Where no worker can start (no Worker, a Content-Security-Policy without `worker-src blob:`),
 * the page runs the same `work` itself, with the same result; the outcome says where it ran.
 *
 * Longer than 400 lines because both ends of each message between the page and its worker are
 * kept side by side, so that a change to what is posted is made once, in one file.
 */

import ZipFileStore from "@zarrita/storage/zip";
import { isObject } from "./_runtime_ts/pointers.js";
import type { Problem, Unchecked } from "./_runtime_ts/problems.js";
import type { Readable } from "./_runtime_ts/sources.js";
import type { StoreInput } from "./_runtime_ts/stores.js";
import { StoreError, readStore } from "./_runtime_ts/stores.js";
import type { ReadResult } from "./_runtime_ts/walk.js";
import type { CheckOptions, Checked, PageChecker } from "./checker.js";

/** bundle.py's wrapper around app.js (undefined where the page's code runs unwrapped). */
declare const zomgenPage: (() => void) | undefined;

/** A node of the document: its metadata, and a group's `members`. */
type Node = { readonly [key: string]: unknown };

/** The store to read: a URL, or a zipped store the user chose. */
export type Source = { readonly url: string } | { readonly zip: Blob };

/** The page's boxes, as they were when a check began. */
export interface RunOptions extends CheckOptions {
  /** Take the store's consolidated metadata without reading each node's own files to compare
   * (one request): listed as a place not checked, accepted. */
  readonly trustConsolidated: boolean;
}

/** What the page asks its worker. */
interface Request {
  readonly id: number;
  readonly source: Source;
  readonly options: RunOptions;
}

/** A store read and checked (the document apart: it travels in parts). */
interface Found {
  readonly nodes: number;
  /** The groups the store could not list. */
  readonly unchecked: readonly Unchecked[];
  readonly checked: Checked;
}

interface Failed {
  readonly kind: "failed";
  readonly message: string;
  readonly problems: readonly Problem[];
}

type Outcome = Failed | (Found & { readonly kind: "checked"; readonly document: Node; readonly where: "worker" | "page" }) | { readonly kind: "cancelled" };

/** What the worker tells the page, each message naming the request it answers. */
type Message =
  | { readonly id: number; readonly type: "ready" }
  | { readonly id: number; readonly type: "read"; readonly nodes: number }
  | { readonly id: number; readonly type: "checking"; readonly nodes: number }
  | { readonly id: number; readonly type: "part"; readonly part: Part }
  | { readonly id: number; readonly type: "failed"; readonly failed: Failed }
  | { readonly id: number; readonly type: "checked"; readonly found: Found }
  | { readonly id: number; readonly type: "error"; readonly name: string; readonly message: string };

/** What the page shows of a check under way. */
interface Shown {
  read(nodes: number): void;
  checking(nodes: number): void;
}

/** ...and, where the check runs, the document read, before it is checked. */
interface Progress {
  read(nodes: number): void;
  checking(nodes: number, document: Node): void;
}

/** Read the store and check it, wherever this runs (the worker, or the page). */
async function work(checker: PageChecker, source: Source, options: RunOptions, progress: Progress): Promise<Failed | (Found & { readonly document: Node })> {
  let read: ReadResult;
  try {
    const input = "url" in source ? source.url : await zipStore(source.zip);
    // consolidated metadata is compared with the nodes' own files unless the box says trust it
    const checkConsolidated = !options.trustConsolidated;
    read = await readStore(input, checker.probe, { checkConsolidated, progress: (nodes) => progress.read(nodes) });
  } catch (error) {
    const problems = error instanceof StoreError ? error.problems : [];
    const message = error instanceof Error ? `${explained(problems)} (${error.message.split("\n")[0]})` : String(error);
    return { kind: "failed", message, problems };
  }
  if (read.document === null) return { kind: "failed", message: explained(read.problems), problems: read.problems };
  const nodes = countNodes(read.document);
  progress.checking(nodes, read.document);
  await new Promise((resolve) => setTimeout(resolve, 0)); // let the status paint (where this runs on the page)
  const checked = checker.check(read.document, read.problems, { strict: options.strict });
  return { nodes, unchecked: read.unchecked, checked, document: read.document };
}

function countNodes(node: Node): number {
  let count = 1;
  const members = node["members"];
  if (isObject(members)) for (const child of Object.values(members)) if (isObject(child)) count += countNodes(child);
  return count;
}

/** Why a read failed, in words a user acts on: a refused cross-origin read looks, to a page,
 * like a network error. */
function explained(problems: readonly Problem[]): string {
  const text = problems.map((p) => p.message).join(" ");
  if (/Failed to fetch|NetworkError|fetch failed|Load failed/i.test(text)) {
    return "The store did not answer this page: the server is down, the URL is wrong, or it does not allow pages from other origins to read it (CORS).";
  }
  if (/no Zarr group or array/.test(text)) return "This URL is not a Zarr store: no zarr.json, .zgroup or .zarray at its root.";
  return "The store cannot be read.";
}

async function zipStore(file: Blob): Promise<StoreInput> {
  // ZipFileStore cannot list; its entries, seen as it opens, make the listing.
  let names: string[] = [];
  const store = ZipFileStore.fromBlob(file, {
    transformEntries: (entries) => {
      names = Object.keys(entries);
      return entries;
    },
  });
  await store.get("/zarr.json"); // opens the zip: its central directory is read once
  const keys = names.map((name) => name.replace(/^\/+/, ""));
  const folder = storeFolder(keys);
  if (folder === "") return { store: store as Readable, keys };
  // `zip -r x.zip x.zarr`: the store is the one folder inside, read as its own root
  const inside: Readable = { get: (key) => store.get(`/${folder}${key.slice(1)}`) };
  return { store: inside, keys: keys.filter((key) => key.startsWith(folder)).map((key) => key.slice(folder.length)) };
}

// The files that make a store's root, and the folder some zip tools add beside what was
// zipped (macOS's resource forks): the twin of zip_source.py's ZipSource.store_prefix.
const ROOT_FILES = ["zarr.json", ".zgroup", ".zarray", ".zmetadata"];
const ZIP_CLUTTER = new Set(["__MACOSX"]);

/** Where a zip's store root is: "" where its metadata is at the top (zarr's ZipStore), or the
 * one folder that holds it where the zip holds only that folder (`zip -r x.zip x.zarr`). */
function storeFolder(keys: readonly string[]): string {
  const present = new Set(keys);
  if (ROOT_FILES.some((name) => present.has(name))) return "";
  if (keys.some((key) => !key.includes("/"))) return "";
  const folders = new Set(keys.map((key) => key.split("/")[0] ?? "").filter((name) => !ZIP_CLUTTER.has(name)));
  if (folders.size !== 1) return "";
  const [folder] = [...folders];
  return ROOT_FILES.some((name) => present.has(`${folder}/${name}`)) ? `${folder}/` : "";
}

/** Records of the document, depth first, each member in its group's order: for each, the
 * index of its parent's record (-1 for the root), its name among the parent's members, its
 * value as JSON text, and whether the value is a node whose members (left empty in the text)
 * are records that follow. Posted as they are (structured clone copies strings whole): no
 * JSON around the JSON. */
interface Part {
  readonly parents: number[];
  readonly names: string[];
  readonly texts: string[];
  readonly expands: boolean[];
}

/** Characters of JSON text per part of the document (a few milliseconds to take in). */
const PART_CHARS = 1 << 18;

function* documentParts(document: Node): Generator<Part> {
  const stack: [number, string, unknown][] = [[-1, "", document]];
  let part: Part = { parents: [], names: [], texts: [], expands: [] };
  let chars = 0;
  for (let index = 0, next = stack.pop(); next !== undefined; index++, next = stack.pop()) {
    const [parent, name, value] = next;
    const members = isObject(value) ? value["members"] : undefined;
    const expands = isObject(value) && isObject(members);
    const text = JSON.stringify(expands ? { ...value, members: {} } : value) ?? "null";
    if (expands) {
      const names = Object.keys(members);
      for (let i = names.length - 1; i >= 0; i--) {
        const member = names[i] ?? "";
        stack.push([index, member, members[member]]);
      }
    }
    part.parents.push(parent);
    part.names.push(name);
    part.texts.push(text);
    part.expands.push(expands);
    chars += text.length + name.length;
    if (chars >= PART_CHARS) {
      yield part;
      part = { parents: [], names: [], texts: [], expands: [] };
      chars = 0;
    }
  }
  if (part.texts.length > 0) yield part;
}

/** A record of the document as it arrived: its JSON text, parsed when the page first needs
 * the value (to draw it, or a problem's value in it), and the members its records filled. */
interface Held {
  readonly text: string;
  readonly members: { [name: string]: unknown } | null;
  value?: unknown;
}

/** The document again, from its parts as they arrive, each taken in a task of its own
 * behind the page's timers and drawing (taken as each message came, the parts the worker
 * sends faster than the page takes them would hold the page's timers back until the last).
 * Each node's own metadata stays JSON text until the page reads it: the tree draws 1,000
 * nodes of 100,000, and the page holds 100,000 short texts rather than millions of objects. */
class Assembly {
  private readonly records: Held[] = [];
  private readonly parts: Part[] = [];
  private scheduled = false;
  private stopped = false;
  private then: (() => void) | null = null;
  // Each part is taken in a task of its own, behind whatever the page has waiting (a timer,
  // an event, a frame): posted to itself rather than by setTimeout, which waits 4 ms once
  // nested.
  private readonly channel = new MessageChannel();

  add(part: Part): void {
    this.parts.push(part);
    this.schedule();
  }

  /** Calls `then` once every part added is in the document. */
  finish(then: () => void): void {
    this.then = then;
    this.schedule();
  }

  stop(): void {
    this.stopped = true;
    this.parts.length = 0;
    this.channel.port1.close();
  }

  /** The document (null before its first part). */
  root(): Node | null {
    const root = this.records.length > 0 ? this.value(0) : null;
    return isObject(root) ? root : null;
  }

  private schedule(): void {
    if (this.scheduled || this.stopped) return;
    this.scheduled = true;
    if (this.channel.port1.onmessage === null) this.channel.port1.onmessage = () => this.step();
    this.channel.port2.postMessage(null);
  }

  private step(): void {
    this.scheduled = false;
    if (this.stopped) return;
    const part = this.parts.shift();
    if (part !== undefined) this.take(part);
    if (part !== undefined || this.parts.length > 0) this.schedule();
    else if (this.then !== null) {
      const then = this.then; // in a task of its own: the page draws in it
      this.then = null;
      then();
    }
  }

  private take(part: Part): void {
    for (let i = 0; i < part.texts.length; i++) {
      const index = this.records.length;
      this.records.push({ text: part.texts[i] ?? "null", members: part.expands[i] === true ? {} : null });
      const members = this.records[part.parents[i] ?? -1]?.members;
      const name = part.names[i] ?? "";
      // an own property, as JSON.parse makes them (`__proto__` included), read when first read
      if (members) Object.defineProperty(members, name, { get: () => this.value(index), enumerable: true, configurable: true });
    }
  }

  /** A record's value, parsed once; a node's members are those its records filled. */
  private value(index: number): unknown {
    const held = this.records[index];
    if (held === undefined) return undefined;
    if (!("value" in held)) {
      const value: unknown = JSON.parse(held.text);
      if (held.members !== null && isObject(value)) Object.defineProperty(value, "members", { value: held.members, enumerable: true, writable: true, configurable: true });
      held.value = value;
    }
    return held.value;
  }
}

interface WorkerScope {
  postMessage(message: Message): void;
  onmessage: ((event: MessageEvent<Request>) => void) | null;
}

/** The worker's side: each request read, checked and answered. */
export function serveChecks(checker: PageChecker): void {
  const scope = globalThis as unknown as WorkerScope;
  scope.onmessage = (event) => {
    const { id, source, options } = event.data;
    const post = (message: Message): void => scope.postMessage(message);
    const progress: Progress = {
      read: (nodes) => post({ id, type: "read", nodes }),
      checking: (nodes, document) => {
        post({ id, type: "checking", nodes });
        // before the check: the page parses them while this checks
        for (const part of documentParts(document)) post({ id, type: "part", part });
      },
    };
    work(checker, source, options, progress)
      .then((outcome) => {
        if ("kind" in outcome) return post({ id, type: "failed", failed: outcome });
        const { nodes, unchecked, checked } = outcome;
        return post({ id, type: "checked", found: { nodes, unchecked, checked } });
      })
      .catch((error: unknown) => {
        const name = error instanceof Error ? error.name : "";
        post({ id, type: "error", name, message: error instanceof Error ? error.message : String(error) });
      });
  };
  scope.postMessage({ id: 0, type: "ready" });
}

/** The worker, from this script's own source; null where none can be made. */
function startWorker(): { worker: Worker; url: string } | null {
  if (typeof zomgenPage !== "function" || typeof Worker !== "function" || typeof Blob !== "function") return null;
  let url = "";
  try {
    url = URL.createObjectURL(new Blob([`(${zomgenPage.toString()})();\n`], { type: "text/javascript" }));
    return { worker: new Worker(url, { name: "zomgen checks" }), url };
  } catch {
    if (url) URL.revokeObjectURL(url);
    return null;
  }
}

/** An error from the worker as the page would have seen it thrown (`String(error)` alike). */
function rethrown(name: string, message: string): unknown {
  if (name === "") return message;
  const error = new Error(message);
  error.name = name;
  return error;
}

interface Started {
  readonly worker: Worker;
  readonly url: string;
  /** It said it is ready: it runs. */
  started: boolean;
}

/** The page's side: each check sent to the worker (started with the page, ended and replaced
 * when a new check begins before the last is answered), or run on the page where no worker
 * starts. */
export class Checks {
  /** undefined: none yet; null: none can start. */
  private current: Started | null | undefined;
  private cancel: (() => void) | null = null;
  private requests = 0;

  constructor(private readonly checker: PageChecker) {}

  /** The worker, started where there is none yet (it starts while the user types a URL). */
  prepare(): Started | null {
    if (this.current !== undefined) return this.current;
    const made = startWorker();
    if (made === null) return (this.current = null);
    const current: Started = { ...made, started: false };
    made.worker.addEventListener("message", (event: MessageEvent<Message>) => {
      if (event.data.type !== "ready") return;
      current.started = true;
      URL.revokeObjectURL(current.url);
    });
    made.worker.addEventListener("error", () => {
      // it could not start (a Content-Security-Policy, a browser without them): the page
      // checks from now on
      if (current.started || this.current !== current) return;
      made.worker.terminate();
      URL.revokeObjectURL(current.url);
      this.current = null;
    });
    return (this.current = current);
  }

  run(source: Source, options: RunOptions, progress: Shown): Promise<Outcome> {
    this.cancel?.();
    const current = this.prepare();
    if (current === null) return this.onPage(source, options, progress);
    const { worker } = current;
    const id = ++this.requests;
    const assembly = new Assembly();
    return new Promise<Outcome>((resolve, reject) => {
      const finish = (): void => {
        worker.removeEventListener("message", onMessage);
        worker.removeEventListener("error", onError);
        worker.removeEventListener("messageerror", onError);
        this.cancel = null;
      };
      const end = (): void => {
        worker.terminate();
        URL.revokeObjectURL(current.url);
        if (this.current === current) this.current = undefined;
      };
      const onMessage = (event: MessageEvent<Message>): void => {
        const message = event.data;
        if (message.type === "ready" || message.id !== id) return;
        if (message.type === "read") progress.read(message.nodes);
        else if (message.type === "checking") progress.checking(message.nodes);
        else if (message.type === "part") assembly.add(message.part);
        else {
          finish();
          if (message.type === "failed") resolve(message.failed);
          else if (message.type === "error") reject(rethrown(message.name, message.message));
          else {
            const { found } = message;
            assembly.finish(() => {
              const document = assembly.root();
              if (document === null) reject(new Error("the checks' worker sent no document"));
              else resolve({ kind: "checked", ...found, document, where: "worker" });
            });
          }
        }
      };
      const onError = (event: Event): void => {
        event.preventDefault();
        finish();
        if (!current.started) resolve(this.onPage(source, options, progress)); // it could not start
        else {
          end();
          reject(new Error(event instanceof ErrorEvent ? event.message : "the checks' worker failed"));
        }
      };
      this.cancel = () => {
        finish();
        end();
        assembly.stop();
        resolve({ kind: "cancelled" });
      };
      worker.addEventListener("message", onMessage);
      worker.addEventListener("error", onError);
      worker.addEventListener("messageerror", onError);
      const request: Request = { id, source, options };
      worker.postMessage(request);
    });
  }

  private async onPage(source: Source, options: RunOptions, progress: Shown): Promise<Outcome> {
    const outcome = await work(this.checker, source, options, progress);
    return "kind" in outcome ? outcome : { kind: "checked", ...outcome, where: "page" };
  }
}
