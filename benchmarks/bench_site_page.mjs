// The validator page and the npm package's loader, timed on one store: stdin is {chromium, page,
// package, url, repeat}; stdout is {page, node, pageCheck, nodeCheck}: seconds of each run, whole
// and of the check alone. The page's are what its summary says (from Check to the checked
// result, before the tree is drawn); Node's are validateStore's two parts on the same URL, the
// same machinery without a browser.
import { readFileSync } from "node:fs";
import { chromium } from "playwright-core";

const job = JSON.parse(readFileSync(0, "utf-8"));
const { readStore } = await import(`${job.package}/dist/_runtime_ts/stores.js`);
const { validate } = await import(`${job.package}/dist/validate.js`);
const { schemaText } = await import(`${job.package}/dist/schema.js`);
const schema = JSON.parse(schemaText);
const node = [];
const nodeCheck = [];
for (let i = 0; i < job.repeat; i++) {
  // what validateStore does, timed in its two parts as the page times them
  const started = performance.now();
  const read = await readStore(job.url, schema);
  const checking = performance.now();
  validate(read.document);
  node.push((performance.now() - started) / 1000);
  nodeCheck.push((performance.now() - checking) / 1000);
}
const browser = await chromium.launch({
  executablePath: job.chromium,
  args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
const page = [];
const pageCheck = [];
try {
  for (let i = 0; i < job.repeat; i++) {
    const tab = await browser.newPage();
    await tab.goto(job.page);
    await tab.fill("#url", job.url);
    await tab.click("button[type=submit]");
    const summary = await tab.waitForSelector("#summary, .error", { timeout: 600000 });
    const text = await summary.textContent();
    const seconds = /\(([0-9.]+) s: read [0-9.]+ s, checked ([0-9.]+) s\)/.exec(text ?? "");
    if (seconds === null) throw new Error(`the page says: ${text}`);
    page.push(Number(seconds[1]));
    pageCheck.push(Number(seconds[2]));
    await tab.close();
  }
} finally {
  await browser.close();
}
process.stdout.write(JSON.stringify({ page, node, pageCheck, nodeCheck }));
