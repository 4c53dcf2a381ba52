/**
 * A store over HTTP(S), read through zarrita's FetchStore. zomgen's own `fetch`, given to the
 * store, adds what a loader of untrusted URLs needs: a time-out per request, a size limit read
 * as the bytes arrive (a 50 MB file is refused at the limit, not held whole), redirects kept to
 * the store's origin (and `allowRedirectsTo`), and 403 and 410 read as "no such key", as object
 * stores answer for a missing key when listing is not allowed. Folders are listed from their
 * HTML index where the server writes one. The Python twin is remote.py and httpget.py.
 */

import { FetchStore } from "zarrita";
import { repr } from "./pointers.js";
import { Failure, type Fetched, type Listing, type Source, describe, tooLarge } from "./sources.js";
import { readUpTo } from "./streams.js";

export interface HttpOptions {
  readonly concurrency: number;
  readonly timeoutSeconds: number;
  /** Origins (`https://host[:port]`) a redirect may lead to besides the store's; `*`: any. */
  readonly allowRedirectsTo: readonly string[];
}

// An index page of 100,000 members is about 10 MB.
const MAX_INDEX_BYTES = 64 * 1024 * 1024;

/** Thrown inside the store's fetch; its message becomes the key's Failure. */
class Refused extends Error {}

function lastName(url: string): string {
  const path = new URL(url).pathname.replace(/\/$/, "");
  return decodeURIComponent(path.slice(path.lastIndexOf("/") + 1));
}

async function readLimited(response: Response, limit: number, name: string): Promise<Uint8Array<ArrayBuffer>> {
  const declared = Number(response.headers.get("content-length") ?? Number.NaN);
  if (declared > limit) {
    await response.body?.cancel();
    throw new Refused(tooLarge(name, declared, limit));
  }
  if (response.body === null) return new Uint8Array(0);
  const got = await readUpTo(response.body.getReader(), limit);
  if (typeof got === "number") throw new Refused(tooLarge(name, got, limit));
  return got;
}

class HttpSource implements Source {
  readonly probesOtherVersion = false;
  readonly concurrency: number;
  private readonly base: URL;
  private readonly stores = new Map<number, FetchStore>();

  constructor(
    url: string,
    private readonly options: HttpOptions,
  ) {
    this.base = new URL(url.endsWith("/") ? url : `${url}/`);
    this.concurrency = options.concurrency;
  }

  /** One FetchStore per size limit (the root's files may hold the whole hierarchy). */
  private store(limit: number): FetchStore {
    let store = this.stores.get(limit);
    if (store === undefined) {
      store = new FetchStore(this.base, { fetch: (request) => this.fetch(request, limit) });
      this.stores.set(limit, store);
    }
    return store;
  }

  private allowed(url: string): boolean {
    const origin = new URL(url).origin;
    const allowed = this.options.allowRedirectsTo;
    return origin === this.base.origin || allowed.includes("*") || allowed.includes(origin);
  }

  /** GET `url`, its redirects followed one at a time, each checked before it is asked for
   * (httpget.py alike). A browser hides a redirect's Location from the page (an opaque
   * response): there the browser follows it, under its own rules for other origins, and the
   * origin it ended at is checked after. */
  private async follow(url: URL, signal: AbortSignal, headers?: Headers): Promise<Response> {
    let current = url;
    for (let hop = 0; ; hop++) {
      const response = await fetch(current, { signal, redirect: "manual", ...(headers ? { headers } : {}) });
      if (response.type === "opaqueredirect") {
        const followed = await fetch(current, { signal, redirect: "follow", ...(headers ? { headers } : {}) });
        if (followed.url && !this.allowed(followed.url)) {
          await followed.body?.cancel();
          throw new Refused(refusal(new URL(followed.url)));
        }
        return followed;
      }
      const location = response.headers.get("location");
      if (![301, 302, 303, 307, 308].includes(response.status) || location === null) return response;
      await response.body?.cancel();
      let next: URL;
      try {
        next = new URL(location, current);
      } catch (error) {
        throw new Refused(`cannot follow a redirect to ${repr(location)}: ${describe(error)}`);
      }
      if (next.protocol !== "http:" && next.protocol !== "https:") {
        throw new Refused(`cannot follow a redirect to ${repr(location)}: not an http or https URL with a host`);
      }
      if (!this.allowed(next.href)) throw new Refused(refusal(next));
      if (hop >= MAX_REDIRECTS) throw new Refused(`more than ${MAX_REDIRECTS} redirects`);
      current = next;
    }
  }

  private async fetch(request: Request, limit: number): Promise<Response> {
    const signal = AbortSignal.timeout(this.options.timeoutSeconds * 1000);
    const response = await this.follow(new URL(request.url), signal, request.headers);
    if ([403, 404, 410].includes(response.status)) {
      await response.body?.cancel();
      return new Response(null, { status: 404 });
    }
    if (response.status !== 200) {
      await response.body?.cancel();
      throw new Refused(`HTTP ${response.status} ${response.statusText}`.trimEnd());
    }
    const bytes = await readLimited(response, limit, lastName(request.url));
    return new Response(bytes, { status: 200 });
  }

  async get(key: string, limit: number): Promise<Fetched> {
    const path = key.split("/").map(encodeURIComponent).join("/");
    try {
      return await this.store(limit).get(`/${path}`);
    } catch (error) {
      return new Failure(error instanceof Refused ? error.message : describe(error));
    }
  }

  async list(prefix: string): Promise<Listing> {
    const path = prefix.split("/").map(encodeURIComponent).join("/");
    let response: Response;
    try {
      const signal = AbortSignal.timeout(this.options.timeoutSeconds * 1000);
      response = await this.follow(new URL(path, this.base), signal);
    } catch {
      return undefined; // no index: not an error of the store (the walk probes named members)
    }
    const type = (response.headers.get("content-type") ?? "").split(";")[0]?.trim().toLowerCase();
    if (response.status !== 200 || type !== "text/html") {
      await response.body?.cancel();
      return undefined;
    }
    try {
      const page = new TextDecoder().decode(await readLimited(response, MAX_INDEX_BYTES, "index"));
      return subfolders(page);
    } catch (error) {
      if (error instanceof Refused) return new Failure(`its HTML index is over ${MAX_INDEX_BYTES} bytes`);
      return undefined;
    }
  }
}

// As httpget.py: past this many redirects of one request, it is a problem.
const MAX_REDIRECTS = 5;

/** The words of origins.py's refusal. */
function refusal(url: URL): string {
  const port = url.port || (url.protocol === "https:" ? "443" : "80");
  const shown = `${url.protocol}//${url.hostname}:${port}`;
  return (
    `a redirect to another origin (${shown}) is not followed; name it in ` +
    "allow_redirects_to (zomgen validate --allow-redirects-to) to follow it"
  );
}

export function httpSource(url: string, options: HttpOptions): Source {
  return new HttpSource(url, options);
}

// The links of an HTML page: <a ... href="x/">, the value quoted either way or bare. Read tag
// by tag in one pass: a single pattern over the page tries every `<a` to the end of the page
// when no `>` closes it, quadratic time (a 200 KB index of `<a <a <a ...` froze the reader).
const TAG = /<a\s/gi;
const HREF = /\bhref\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>"']+))/i;

function* hrefs(page: string): Generator<string> {
  TAG.lastIndex = 0;
  for (let start = TAG.exec(page); start !== null; start = TAG.exec(page)) {
    const end = page.indexOf(">", TAG.lastIndex);
    if (end === -1) return; // no tag closes after here
    const found = HREF.exec(page.slice(TAG.lastIndex, end));
    if (found !== null) yield found[1] ?? found[2] ?? found[3] ?? "";
    TAG.lastIndex = end + 1;
  }
}
const ENTITIES: { readonly [name: string]: string } = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

function unescapeHtml(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, entity: string) => {
    if (entity.startsWith("#x") || entity.startsWith("#X")) return String.fromCodePoint(parseInt(entity.slice(2), 16));
    if (entity.startsWith("#")) return String.fromCodePoint(parseInt(entity.slice(1), 10));
    return ENTITIES[entity.toLowerCase()] ?? whole;
  });
}

/** The names of the subfolders an HTML index links to: relative links ending in `/`, one
 * level down (not `./` or `../`, not absolute, no query). */
export function subfolders(page: string): string[] {
  const found = new Set<string>();
  for (const raw of hrefs(page)) {
    const href = unescapeHtml(raw);
    if (href.includes("://") || /^[/?#]|^\.\.?\//.test(href) || !href.endsWith("/")) continue;
    let name: string;
    try {
      name = decodeURIComponent(href.slice(0, -1));
    } catch {
      continue;
    }
    if (name && !name.includes("/")) found.add(name);
  }
  return [...found];
}
