/**
 * One entry of a zip read through zarrita's ZipFileStore, inflated only up to a byte limit,
 * whatever size it states: the twin of _runtime/zip_entries.py.
 *
 * ZipFileStore's `get` inflates a whole entry (unzipit, through DecompressionStream) before
 * anything can look at its size: a 255 KB zip cost 593 MiB in Node and 658 MiB in the page
 * (issue 53). Here the entry's stated size is checked first, and a deflated entry is inflated
 * from its raw bytes as a stream that is stopped as soon as it passes the limit.
 *
 * ZipFileStore keeps its reader and its entries in fields TypeScript calls private, and unzipit
 * the local header's offset in `_rawEntry` (zarrita reads it the same way for its range reads):
 * they are looked for at run time, and a store without them is read through `get` as before.
 */

import { readUpTo } from "./streams.js";

/** What reading one entry came to. */
export type ZipRead =
  | { readonly bytes: Uint8Array | undefined }
  | { readonly statedSize: number; readonly over: "stated" | "inflated" };

interface Entry {
  readonly size: number;
  readonly compressedSize: number;
  readonly compressionMethod: number;
  readonly _rawEntry?: { readonly relativeOffsetOfLocalHeader?: unknown };
}

interface Reader {
  read(offset: number, length: number): Promise<Uint8Array>;
}

const STORED = 0;
const DEFLATED = 8;
const LOCAL_HEADER = 30;

/** The entry under `key` of a zarrita ZipFileStore, or null when `store` is not one (or not
 * as this code knows it): then the caller reads it through `get`. */
export async function readZipEntry(store: object, key: string, limit: number): Promise<ZipRead | null> {
  const found = await zipParts(store);
  if (found === null) return null;
  const [entries, reader] = found;
  const entry = Object.prototype.hasOwnProperty.call(entries, key) ? entries[key] : undefined;
  if (!isEntry(entry)) return { bytes: undefined };
  if (entry.size > limit) return { statedSize: entry.size, over: "stated" };
  const offset = entry._rawEntry?.relativeOffsetOfLocalHeader;
  if (entry.compressionMethod !== DEFLATED || typeof offset !== "number") return null;
  const header = await reader.read(offset, LOCAL_HEADER);
  const nameLength = (header[26] ?? 0) + (header[27] ?? 0) * 256;
  const extraLength = (header[28] ?? 0) + (header[29] ?? 0) * 256;
  const raw = await reader.read(offset + LOCAL_HEADER + nameLength + extraLength, entry.compressedSize);
  const bytes = await inflateUpTo(raw, limit);
  return bytes === null ? { statedSize: entry.size, over: "inflated" } : { bytes };
}

async function zipParts(store: object): Promise<[Record<string, unknown>, Reader] | null> {
  const { info, reader } = store as { info?: unknown; reader?: unknown };
  if (!(info instanceof Promise) || typeof reader !== "object" || reader === null) return null;
  if (typeof (reader as { read?: unknown }).read !== "function") return null;
  const entries = ((await info) as { entries?: unknown }).entries;
  if (typeof entries !== "object" || entries === null) return null;
  return [entries as Record<string, unknown>, reader as Reader];
}

function isEntry(value: unknown): value is Entry {
  if (typeof value !== "object" || value === null) return false;
  const entry = value as { [key: string]: unknown };
  return (
    typeof entry["size"] === "number" &&
    typeof entry["compressedSize"] === "number" &&
    (entry["compressionMethod"] === STORED || entry["compressionMethod"] === DEFLATED)
  );
}

/** `raw` inflated (deflate, raw), or null as soon as it passes `limit` bytes. */
async function inflateUpTo(raw: Uint8Array, limit: number): Promise<Uint8Array | null> {
  const stream = new DecompressionStream("deflate-raw");
  const writer = stream.writable.getWriter();
  // not awaited: the stream is read below as it is written, or the two would wait on each other
  writer.write(raw as Uint8Array<ArrayBuffer>).then(() => writer.close(), () => undefined);
  const got = await readUpTo(stream.readable.getReader(), limit);
  return typeof got === "number" ? null : got;
}
