// A static file server for the benchmarks, in Node so that serving costs the measured run little
// CPU on a 2-core machine (Python's http.server spent 1.6 s of CPU serving the 5,409 requests of
// bench_plate's 2.5 s run). Folders answer with an HTML index of their entries, as Python's
// http.server does.
//
//   static_server.mjs FOLDER [--latency SECONDS]   HTTP/1.1, connections kept alive, every answer
//                                                  sent after the delay (bench_plate, suite.py)
//   static_server.mjs FOLDER ... --no-indexes      every folder a 404, as an object store's static
//                                                  website answers (bench_plate)
//   static_server.mjs FOLDER --tls KEY CERT        HTTP/2 over TLS, and HTTP/1.1 to a client that
//                                                  asks for it (bench_site: browsers open at most
//                                                  6 HTTP/1.1 connections per host, one HTTP/2
//                                                  connection carries any number of requests)
//
// The folder is read into memory when the server starts (the benchmarks write their stores
// first), so an answer costs a lookup, not a stat and a read: the benchmarks measure the client,
// and a request should cost it the delay whoever serves it.
//
// Prints its base URL (http[s]://127.0.0.1:PORT) on one line once it listens; stops when stdin
// closes.
import { promises as fs } from "node:fs";
import { createServer } from "node:http";
import { createSecureServer } from "node:http2";
import { join } from "node:path";

const [root, ...options] = process.argv.slice(2);
const option = (name) => {
  const at = options.indexOf(name);
  return at < 0 ? undefined : options.slice(at + 1);
};
const latency = Number(option("--latency")?.[0] ?? 0) * 1000;
const tls = option("--tls");
const indexes = option("--no-indexes") === undefined;

const TYPES = { ".html": "text/html; charset=utf-8", ".js": "text/javascript", ".json": "application/json" };
const typeOf = (name) => TYPES[name.slice(name.lastIndexOf("."))] ?? "application/octet-stream";
const escape = (text) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// URL path -> [status, headers, body]: every file, every folder's index (at "path/"), and a
// redirect from "path" to "path/"
const answers = new Map();

function add(path, status, headers, body) {
  answers.set(path, [status, { ...headers, "content-length": body.length }, body]);
}

async function load(folder, path) {
  const entries = await fs.readdir(folder, { withFileTypes: true });
  const links = entries
    .map((e) => (e.isDirectory() ? `${e.name}/` : e.name))
    .sort()
    .map((name) => `<li><a href="${escape(encodeURIComponent(name.replace(/\/$/, "")) + (name.endsWith("/") ? "/" : ""))}">${escape(name)}</a></li>`);
  const page = `<!DOCTYPE html>\n<html><body><ul>\n${links.join("\n")}\n</ul></body></html>\n`;
  if (indexes) {
    add(`${path}/`, 200, { "content-type": "text/html; charset=utf-8" }, Buffer.from(page));
    if (path) add(path, 301, { location: `${path}/` }, Buffer.alloc(0));
  }
  for (const entry of entries) {
    const inside = join(folder, entry.name);
    if (entry.isDirectory()) await load(inside, `${path}/${entry.name}`);
    else if (entry.isFile()) add(`${path}/${entry.name}`, 200, { "content-type": typeOf(entry.name) }, await fs.readFile(inside));
  }
}

async function answer(request, response) {
  if (latency > 0) await pause(latency);
  let pathname;
  try {
    pathname = decodeURIComponent(new URL(request.url, "http://localhost").pathname);
  } catch {
    return response.writeHead(400, { "content-length": 0 }).end();
  }
  const [status, headers, body] = answers.get(pathname) ?? [404, { "content-length": 0 }, Buffer.alloc(0)];
  response.writeHead(status, headers).end(body);
}

await load(root, "");
const handle = (request, response) => {
  answer(request, response).catch(() => response.writeHead(500, { "content-length": 0 }).end());
};
let server;
if (tls) {
  const [key, cert] = await Promise.all([fs.readFile(tls[0]), fs.readFile(tls[1])]);
  server = createSecureServer({ key, cert, allowHTTP1: true }, handle);
} else {
  // noDelay: headers and body leave at once (Nagle would hold a small body 40 ms on a kept-alive
  // connection); a backlog of 256, as 64 clients connect at once
  server = createServer({ noDelay: true, keepAlive: true }, handle);
}
server.listen({ port: 0, host: "127.0.0.1", backlog: 256 }, () => {
  process.stdout.write(`${tls ? "https" : "http"}://127.0.0.1:${server.address().port}\n`);
});
process.stdin.on("end", () => server.close(() => process.exit(0)));
process.stdin.resume();
