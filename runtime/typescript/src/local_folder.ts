/**
 * A store in a local folder, under Node: read with `node:fs/promises` (imported when a folder
 * is opened, so the package bundles for a browser, where it is never reached).
 *
 * Reads stay inside the store, as the Python loader's (sources.py's DirSource and
 * confinement.py): a colleague's store may hold a member folder, or a `zarr.json`, that is a
 * symbolic link to their home; reading through it would echo their files in problems. Such a
 * member is a problem at its node, and nothing outside is read. A link to elsewhere inside the
 * store is followed. A folder reached a second time (a link that loops, or to another node) is
 * reported, not walked until the depth limit. Same rules and messages as the Python twin; of
 * two sibling folders that are one (a link to a sibling), the one reported is whichever is
 * listed second, which folders listed at once may make either.
 */

import { Failure, type Fetched, type Listing, METADATA, type Source, describe, lastName, tooLarge } from "./sources.js";

export const LEAVES_STORE = "a symlink that leads out of the store: zomgen reads nothing outside it";

interface Stats {
  size: number;
  dev: number;
  ino: number;
  isFile(): boolean;
  isDirectory(): boolean;
  isSymbolicLink(): boolean;
}

interface Entry {
  name: string;
  isDirectory(): boolean;
  isSymbolicLink(): boolean;
}

/** The parts of Node's `fs/promises` a folder needs (typed here, so that the package compiles
 * without Node's type definitions). */
interface FileSystem {
  stat(path: string): Promise<Stats>;
  lstat(path: string): Promise<Stats>;
  realpath(path: string): Promise<string>;
  readlink(path: string): Promise<string>;
  readFile(path: string): Promise<Uint8Array>;
  readdir(path: string, options: { withFileTypes: true }): Promise<Entry[]>;
}

const NODE_FS = "node:fs/promises";

const codeOf = (error: unknown): unknown => (error as { code?: unknown }).code;

function missing(error: unknown): boolean {
  const code = codeOf(error);
  return code === "ENOENT" || code === "ENOTDIR";
}

/** The system's words for a failed call, without the path (which Node puts in its message):
 * "EACCES: permission denied, open '/x'" -> "Permission denied", as Python's strerror. */
function osFailure(error: unknown): Failure {
  if (codeOf(error) === "ELOOP") return new Failure("symlink loop");
  const text = describe(error);
  const found = /^[A-Z0-9]+: ([^,]+)/.exec(text);
  const words = found?.[1] ?? text;
  return new Failure(words.charAt(0).toUpperCase() + words.slice(1));
}

/** `path` with `.` and `..` resolved by its text alone (for a link whose target is gone). */
function normalized(path: string): string {
  const parts: string[] = [];
  for (const part of path.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") parts.pop();
    else parts.push(part);
  }
  return `/${parts.join("/")}`;
}

/** Which keys of the store lie at, or below, a link that leads out of it. One `lstat` per
 * folder, remembered; a folder listed as a plain folder inside the store needs none. */
class Confinement {
  private readonly leaves = new Map<string, Promise<boolean>>();

  constructor(
    private readonly fs: FileSystem,
    private readonly base: string,
    private readonly realBase: string,
  ) {}

  leadsOut(key: string): Promise<boolean> {
    let known = this.leaves.get(key);
    if (known === undefined) {
      const parent = key.includes("/") ? key.slice(0, key.lastIndexOf("/")) : "";
      known = (async () => (parent !== "" && (await this.leadsOut(parent))) || this.linkOut(key))();
      this.leaves.set(key, known);
    }
    return known;
  }

  sawFolder(key: string): void {
    if (!this.leaves.has(key)) this.leaves.set(key, Promise.resolve(false));
  }

  private async linkOut(key: string): Promise<boolean> {
    const path = this.base + key;
    try {
      if (!(await this.fs.lstat(path)).isSymbolicLink()) return false;
    } catch {
      return false;
    }
    return !`${await this.target(path)}/`.startsWith(this.realBase);
  }

  /** Where a link leads: its real path, or for a link whose target is gone (or loops), the
   * target's path by its text. */
  private async target(path: string): Promise<string> {
    try {
      return await this.fs.realpath(path);
    } catch {
      try {
        const to = await this.fs.readlink(path);
        return normalized(to.startsWith("/") ? to : `${path.slice(0, path.lastIndexOf("/"))}/${to}`);
      } catch {
        return path;
      }
    }
  }
}

/** A local folder, under Node: `root` is the store's folder. A message instead where `root`
 * is no folder (the words of opening.py). */
export async function folderSource(root: string, concurrency: number): Promise<Source | string> {
  const fs = (await import(/* @vite-ignore */ NODE_FS)) as FileSystem;
  let realRoot: string;
  try {
    const info = await fs.stat(root);
    if (!info.isDirectory()) return `${root}: not a folder (read a zip store with zarrita's ZipFileStore)`;
    realRoot = await fs.realpath(root);
  } catch (error) {
    return missing(error) ? `${root}: no such file or folder` : `${root}: ${describe(error)}`;
  }
  const base = root.endsWith("/") ? root : `${root}/`;
  const inside = new Confinement(fs, base, realRoot.endsWith("/") ? realRoot : `${realRoot}/`);
  // (device, inode) of every folder listed so far -> its prefix
  const seen = new Map<string, string>();

  async function readFile(key: string, limit: number): Promise<Fetched> {
    const path = base + key;
    const folder = key.includes("/") ? key.slice(0, key.lastIndexOf("/")) : "";
    if (folder !== "" && (await inside.leadsOut(folder))) return new Failure(LEAVES_STORE);
    try {
      const link = await fs.lstat(path);
      if (link.isSymbolicLink() && (await inside.leadsOut(key))) return new Failure(LEAVES_STORE);
      const info = link.isSymbolicLink() ? await fs.stat(path) : link;
      if (!info.isFile()) return new Failure("is a folder or a special file, not a regular file");
      if (info.size > limit) return new Failure(tooLarge(lastName(key), info.size, limit));
      const data = await fs.readFile(path);
      return data.length > limit ? new Failure(tooLarge(lastName(key), data.length, limit)) : data;
    } catch (error) {
      return missing(error) ? undefined : osFailure(error);
    }
  }

  async function listFolder(prefix: string): Promise<Listing> {
    const parent = prefix.replace(/\/+$/, "");
    if (parent !== "" && (await inside.leadsOut(parent))) return new Failure(LEAVES_STORE);
    const folder = base + prefix;
    try {
      const info = await fs.stat(folder);
      const identity = `${info.dev}:${info.ino}`;
      const first = seen.get(identity) ?? prefix;
      seen.set(identity, first);
      if (first !== prefix) return new Failure(`symlink loop: this folder is the folder of /${first.replace(/\/+$/, "")} again`);
      const names: string[] = [];
      for (const entry of await fs.readdir(folder, { withFileTypes: true })) {
        if (entry.isDirectory()) {
          names.push(entry.name);
          inside.sawFolder(parent !== "" ? `${parent}/${entry.name}` : entry.name);
        } else if (entry.isSymbolicLink()) {
          if (await linksToFolder(`${base}${prefix}${entry.name}`)) names.push(entry.name);
        } else if (METADATA.has(entry.name)) names.push(entry.name);
      }
      return names;
    } catch (error) {
      return missing(error) ? [] : osFailure(error);
    }
  }

  /** A link to a folder, or one that loops (kept, so that reading it reports the loop at that
   * member instead of skipping it in silence). */
  async function linksToFolder(path: string): Promise<boolean> {
    try {
      return (await fs.stat(path)).isDirectory();
    } catch (error) {
      return codeOf(error) === "ELOOP";
    }
  }

  return {
    concurrency,
    probesOtherVersion: true,
    get: readFile,
    list: listFolder,
  };
}
