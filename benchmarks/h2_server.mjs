// A static file server that speaks HTTP/2 over TLS (and HTTP/1.1 to a client that asks for it),
// for bench_site.py: browsers open at most 6 HTTP/1.1 connections per host, while one HTTP/2
// connection carries any number of requests, as the CDNs and object stores that serve Zarr over
// HTTPS do. Folders answer with an HTML index of their entries, as Python's http.server does.
//
// argv: the folder to serve, the key and certificate files (PEM). Prints its base URL,
// https://127.0.0.1:PORT, on one line once it listens; stops when stdin closes.
import { createReadStream, promises as fs } from "node:fs";
import { createSecureServer } from "node:http2";
import { join, normalize, sep } from "node:path";

const [root, keyFile, certFile] = process.argv.slice(2);
const base = normalize(root) + sep;
const TYPES = { ".html": "text/html; charset=utf-8", ".js": "text/javascript", ".json": "application/json" };
const typeOf = (name) => TYPES[name.slice(name.lastIndexOf("."))] ?? "application/octet-stream";
const escape = (text) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

async function answer(request, response) {
  const pathname = decodeURIComponent(new URL(request.url, "https://localhost").pathname);
  const path = normalize(join(base, pathname));
  if (!(path + sep).startsWith(base)) return response.writeHead(403).end();
  let info;
  try {
    info = await fs.stat(path);
  } catch {
    return response.writeHead(404).end();
  }
  if (info.isDirectory()) {
    if (!pathname.endsWith("/")) return response.writeHead(301, { location: `${pathname}/` }).end();
    const entries = await fs.readdir(path, { withFileTypes: true });
    const links = entries
      .map((e) => (e.isDirectory() ? `${e.name}/` : e.name))
      .sort()
      .map((name) => `<li><a href="${escape(encodeURIComponent(name.replace(/\/$/, "")) + (name.endsWith("/") ? "/" : ""))}">${escape(name)}</a></li>`);
    const page = `<!DOCTYPE html>\n<html><body><ul>\n${links.join("\n")}\n</ul></body></html>\n`;
    return response.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(page);
  }
  response.writeHead(200, { "content-type": typeOf(path), "content-length": info.size });
  createReadStream(path).pipe(response);
}

const [key, cert] = await Promise.all([fs.readFile(keyFile), fs.readFile(certFile)]);
const server = createSecureServer({ key, cert, allowHTTP1: true }, (request, response) => {
  answer(request, response).catch(() => response.writeHead(500).end());
});
server.listen(0, "127.0.0.1", () => {
  process.stdout.write(`https://127.0.0.1:${server.address().port}\n`);
});
process.stdin.on("end", () => server.close(() => process.exit(0)));
process.stdin.resume();
