/**
 * Where metadata bytes come from: the small interface the walk reads through (`Source`), any
 * store of zarrita's (`readableSource`: FetchStore, ZipFileStore, FileSystemStore, or an app's
 * own) and one with its keys (`listedSource`). The HTTP source is http.ts, a local folder
 * under Node local_folder.ts.
 *
 * Keys are store keys relative to the store's root, `a/b/zarr.json`; prefixes end with `/`,
 * except the root's, which is "". The Python loader's sources.py is the twin.
 */

import { readZipEntry } from "./zip_entries.js";

/** A key that exists but could not be read (or a folder that could not be listed). */
export class Failure {
  constructor(readonly message: string) {}
}

/** The key's bytes; undefined: no such key; Failure: it is there but unreadable. */
export type Fetched = Uint8Array | Failure | undefined;
/** Names of the folders below a prefix (and any metadata file names there); undefined: this
 * source cannot list, so the walk probes the members the convention names. */
export type Listing = readonly string[] | Failure | undefined;

export interface Source {
  /** Read `key`, up to `limit` bytes (more is a Failure). */
  get(key: string, limit: number): Promise<Fetched>;
  /** The entries below `prefix`, or undefined where the source cannot list. */
  list(prefix: string): Promise<Listing>;
  /** Requests kept in flight at most. */
  readonly concurrency: number;
  /** Whether the walk also reads the other Zarr version's files of every node (cheap on a
   * local disk, where a node holding both is found that way; a remote walk reads only its
   * own version's and finds mixed groups in their listings). */
  readonly probesOtherVersion: boolean;
}

/** What zarrita's stores implement (`AsyncReadable` and `SyncReadable` of @zarrita/storage):
 * a store an app already has open is read through its `get`. */
export interface Readable {
  get(key: `/${string}`): Promise<Uint8Array | undefined> | Uint8Array | undefined;
}

export function tooLarge(what: string, size: number, limit: number): string {
  return `${what} is ${size} bytes, over the limit of ${limit} bytes for one metadata document`;
}

export function describe(error: unknown): string {
  if (error instanceof Error) {
    if (error.name === "TimeoutError") return "timed out";
    const cause = (error as { cause?: unknown }).cause;
    const detail = cause instanceof Error ? `: ${cause.message}` : "";
    return `${error.message}${detail}`;
  }
  return String(error);
}

/** The names of metadata files, which a listing reports besides folders. */
export const METADATA = new Set(["zarr.json", ".zarray", ".zgroup", ".zattrs", ".zmetadata"]);

export function lastName(key: string): string {
  return key.slice(key.lastIndexOf("/") + 1);
}

/** A zarrita store: read through `get`, never listed. */
export function readableSource(store: Readable, concurrency: number): Source {
  return {
    concurrency,
    probesOtherVersion: false,
    async get(key: string, limit: number): Promise<Fetched> {
      try {
        const entry = await readZipEntry(store, key, limit);
        if (entry !== null && "over" in entry) return new Failure(zipTooLarge(key, entry.statedSize, entry.over, limit));
        const bytes = entry !== null ? entry.bytes : await store.get(`/${key}`);
        if (bytes !== undefined && bytes.length > limit) {
          return new Failure(tooLarge(lastName(key), bytes.length, limit));
        }
        return bytes;
      } catch (error) {
        return new Failure(describe(error));
      }
    },
    list: async () => undefined,
  };
}

/** A zip entry past the limit, by the size it states or by what it inflates to, in the words of
 * sources.py. */
function zipTooLarge(key: string, stated: number, over: "stated" | "inflated", limit: number): string {
  if (over === "stated") return tooLarge(lastName(key), stated, limit);
  return (
    `${lastName(key)} inflates past the limit of ${limit} bytes for one metadata document` +
    ` (its zip entry says ${stated} bytes)`
  );
}

/** A zarrita store with the list of its keys (a zip's entries, read as zarrita's
 * ZipFileStore opens it): listed from the keys, read through `get`, each node probed for
 * both versions' files, as the Python loader reads a zip. */
export function listedSource(store: Readable, keys: readonly string[], concurrency: number): Source {
  const readable = readableSource(store, concurrency);
  const below = new Map<string, Set<string>>();
  for (const key of keys) {
    const parts = key.replace(/^\/+/, "").split("/");
    for (let depth = 0; depth < parts.length; depth++) {
      const prefix = parts.slice(0, depth).map((part) => `${part}/`).join("");
      const name = parts[depth] ?? "";
      const isFolder = depth < parts.length - 1;
      if (isFolder || METADATA.has(name)) {
        if (!below.has(prefix)) below.set(prefix, new Set());
        below.get(prefix)?.add(name);
      }
    }
  }
  return {
    ...readable,
    probesOtherVersion: true,
    list: async (prefix: string) => [...(below.get(prefix) ?? [])],
  };
}
