// The validator page and the npm package's loader, timed on one store: stdin is {chromium, page,
// package, url, repeat, trust, ignoreCertificateErrors}; stdout is {page, node, pageCheck, nodeCheck}:
// seconds of each run, whole and of the check alone. The page's are what its summary says (from
// Check to the checked result, before the tree is drawn); Node's are validateStore's two parts
// on the same URL, the same machinery without a browser.
//
// Chromium is driven through the DevTools protocol directly, asking only for what it evaluates:
// Playwright records every request for its own events, which here doubled the page's cost per
// request (2,000 files: 6.3 s read under Playwright, 3.5 s without). Each run opens the page
// (with ?url=, which checks at once) in a fresh browser context, so nothing comes from a cache.
// Needs Node's WebSocket (Node 22, or 20 with --experimental-websocket: bench_site.py passes it).
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";

const job = JSON.parse(readFileSync(0, "utf-8"));
const { readStore } = await import("@zomgen/runtime/stores.js");
const { validate } = await import(`${job.package}/dist/validate.js`);
const { schemaText } = await import(`${job.package}/dist/schema.js`);
const schema = JSON.parse(schemaText);
const node = [];
const nodeCheck = [];
for (let i = 0; i < job.repeat; i++) {
  // what validateStore does, timed in its two parts as the page times them
  const started = performance.now();
  const read = await readStore(job.url, schema, { checkConsolidated: !job.trust });
  const checking = performance.now();
  validate(read.document);
  node.push((performance.now() - started) / 1000);
  nodeCheck.push((performance.now() - checking) / 1000);
}

/** Chromium, headless, and a DevTools connection to it: `send(method, params, session?)`. */
async function launch() {
  const args = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--remote-debugging-port=0"];
  // the HTTP/2 server's certificate is made for the run (bench_site.py)
  if (job.ignoreCertificateErrors) args.push("--ignore-certificate-errors");
  const chrome = spawn(job.chromium, [...args, "about:blank"], { stdio: ["ignore", "ignore", "pipe"] });
  const address = await new Promise((resolve, reject) => {
    let said = "";
    chrome.stderr.on("data", (data) => {
      said += data;
      const found = /DevTools listening on (ws:\/\/\S+)/.exec(said);
      if (found) resolve(found[1]);
    });
    chrome.on("exit", () => reject(new Error(`chromium exited: ${said}`)));
  });
  const socket = new WebSocket(address);
  await new Promise((resolve) => socket.addEventListener("open", resolve));
  let last = 0;
  const waiting = new Map();
  socket.addEventListener("message", (event) => {
    const message = JSON.parse(event.data);
    const answer = waiting.get(message.id);
    if (answer === undefined) return;
    waiting.delete(message.id);
    if (message.error) answer.reject(new Error(message.error.message));
    else answer.resolve(message.result);
  });
  const send = (method, params = {}, sessionId = undefined) =>
    new Promise((resolve, reject) => {
      const id = ++last;
      waiting.set(id, { resolve, reject });
      socket.send(JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }));
    });
  return { send, close: () => chrome.kill() };
}

const page = [];
const pageCheck = [];
const browser = await launch();
try {
  for (let i = 0; i < job.repeat; i++) {
    const { browserContextId } = await browser.send("Target.createBrowserContext");
    const url = `${job.page}?url=${encodeURIComponent(job.url)}${job.trust ? "&consolidated=trust" : ""}`;
    const { targetId } = await browser.send("Target.createTarget", { url, browserContextId });
    const { sessionId } = await browser.send("Target.attachToTarget", { targetId, flatten: true });
    let text = "";
    for (let waited = 0; text === "" && waited < 600_000; waited += 100) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      const expression = "document.querySelector('#summary, .error')?.textContent ?? ''";
      const { result } = await browser.send("Runtime.evaluate", { expression, returnByValue: true }, sessionId);
      text = result?.value ?? "";
    }
    const seconds = /\(([0-9.]+) s: read [0-9.]+ s, checked ([0-9.]+) s\)/.exec(text);
    if (seconds === null) throw new Error(`the page says: ${text}`);
    page.push(Number(seconds[1]));
    pageCheck.push(Number(seconds[2]));
    await browser.send("Target.disposeBrowserContext", { browserContextId });
  }
} finally {
  browser.close();
}
process.stdout.write(JSON.stringify({ page, node, pageCheck, nodeCheck }));
