// Drives the validator page in Chromium (Playwright): stdin is {chromium, page, cases:
// [{name, url | zip, strict?, trust?, more?, filter?, shot?, timeoutMs?, heartbeat?}]}; for each case the page is loaded,
// the strict and trust-consolidated boxes ticked where asked, the URL entered (or the zip chosen) and Check pressed;
// stdout is, per case, what a user sees: the summary, the problem and warning rows, the tree's
// first level and every drawn node's type, an error box, the progress lines shown while it
// read, the console's uncaught errors, where the check ran (`checkedIn`: the page's worker or
// the page). With `heartbeat`, a timer on the page records when it runs (every 10 ms where
// nothing holds the page's thread) from before Check is pressed until the result is shown, with
// the time of each status line: how long the page's thread was ever held.
import { readFileSync } from "node:fs";
import { chromium } from "playwright-core";

const job = JSON.parse(readFileSync(0, "utf-8"));
const browser = await chromium.launch({
  executablePath: job.chromium,
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
  ],
});
const results = [];
try {
  for (const one of job.cases) {
    const context = await browser.newContext({ viewport: { width: 1100, height: 800 } });
    const page = await context.newPage();
    const errors = [];
    page.on("pageerror", (error) => errors.push(String(error)));
    page.on("console", (message) => {
      if (message.type() === "error") errors.push(message.text());
    });
    // a script a hostile name smuggled in would show itself here
    const dialogs = [];
    page.on("dialog", (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    const started = Date.now();
    await page.goto(job.page);
    // Every text the status line shows while the store is read and checked.
    await page.evaluate((heartbeat) => {
      window.statuses = [];
      window.statusTimes = [];
      const status = document.querySelector("#status");
      new MutationObserver(() => {
        window.statuses.push(status.textContent);
        window.statusTimes.push([performance.now(), status.textContent]);
      }).observe(status, { childList: true, characterData: true, subtree: true });
      if (heartbeat) {
        window.beats = [];
        setInterval(() => window.beats.push(performance.now()), 10);
      }
    }, Boolean(one.heartbeat));
    if (one.strict) await page.check("#strict");
    if (one.trust) await page.check("#trust-consolidated");
    if (one.zip) {
      await page.setInputFiles("#zip", one.zip);
    } else {
      await page.fill("#url", one.url);
      await page.click("button[type=submit]");
    }
    await page.waitForSelector("#summary, .error", { timeout: one.timeoutMs ?? 60000 });
    const seconds = (Date.now() - started) / 1000;
    // the beats and status lines until now (the result is on the screen)
    const heartbeat = one.heartbeat ? await page.evaluate(() => ({ beats: window.beats, statuses: window.statusTimes, now: performance.now() })) : null;
    const drawn = async () => page.evaluate(() => document.querySelectorAll("#tree > details > .members > [data-path]").length);
    const paged = { before: await drawn(), more: await page.evaluate(() => document.querySelector("button.more")?.textContent ?? null) };
    if (one.more) {
      await page.click("button.more");
      paged.after = await drawn();
    }
    // every node drawn, and every metadata box opened (each fills as it is opened)
    await page.evaluate(() => {
      for (const box of document.querySelectorAll("#tree details")) box.open = true;
    });
    await page.evaluate(() => new Promise((done) => setTimeout(done, 50)));
    let filtered = null;
    if (one.filter !== undefined) {
      await page.fill("#filter", one.filter);
      filtered = await page.evaluate(() =>
        [...document.querySelectorAll("#problems tr")].slice(1).filter((row) => !row.hidden).map((row) => [...row.children].map((cell) => cell.textContent)),
      );
    }
    const seen = await page.evaluate(() => ({
      summary: document.querySelector("#summary")?.textContent ?? null,
      error: document.querySelector(".error")?.textContent ?? null,
      problems: [...document.querySelectorAll("#problems tr")].slice(1).map((row) => [...row.children].map((cell) => cell.textContent)),
      warnings: [...document.querySelectorAll("#warnings tr")].slice(1).map((row) => [...row.children].map((cell) => cell.textContent)),
      unchecked: [...document.querySelectorAll("#unchecked tr")].slice(1).map((row) => [...row.children].map((cell) => cell.textContent)),
      status: document.querySelector("#summary")?.getAttribute("data-status") ?? null,
      checkedIn: document.querySelector("#summary")?.getAttribute("data-checked-in") ?? null,
      types: Object.fromEntries([...document.querySelectorAll("#tree [data-path]")].map((node) => [node.dataset.path, node.querySelector(".type")?.textContent ?? null])),
      statuses: window.statuses.filter((text) => text !== ""),
      tree: [...document.querySelectorAll("#tree > details > .members > [data-path]")].map((node) => node.querySelector(".name")?.textContent + " " + node.querySelector(".type")?.textContent),
      markedNodes: [...document.querySelectorAll("#tree [data-path]")].filter((node) => node.querySelector(":scope > summary > .count, :scope > div:first-child > .count")).map((node) => node.dataset.path),
      rootType: document.querySelector("#tree > details > summary .type")?.textContent ?? null,
      // what the tree shows of each node: its name (and the element that isolates it), its
      // array metadata line, its metadata as JSON once opened, the values its problems quote
      names: [...document.querySelectorAll("#tree [data-path]")].map((node) => {
        const name = node.querySelector(".name");
        return { path: node.dataset.path, text: name?.textContent ?? null, tag: name?.tagName ?? null };
      }),
      meta: Object.fromEntries([...document.querySelectorAll("#tree [data-path]")].map((node) => [node.dataset.path, node.querySelector(":scope > summary > .meta, :scope > div:first-child > .meta")?.textContent ?? null])),
      metadata: Object.fromEntries([...document.querySelectorAll("#tree [data-path]")].map((node) => [node.dataset.path, node.querySelector(":scope > details.metadata > pre")?.textContent ?? null])),
      values: [...document.querySelectorAll("#tree ul.problems code.value")].map((code) => code.textContent),
      descriptions: [...document.querySelectorAll("#tree .description")].map((node) => node.textContent),
      cellTags: [...new Set([...document.querySelectorAll("table.all-problems td > *")].map((cell) => cell.tagName))],
      search: location.search,
      scripts: document.querySelectorAll("#result script, #result [onerror]").length,
    }));
    if (one.shot) await page.screenshot({ path: one.shot, fullPage: false });
    results.push({ name: one.name, seconds, errors, paged, dialogs, filtered, heartbeat, ...seen });
    await context.close();
  }
} finally {
  await browser.close();
}
process.stdout.write(JSON.stringify(results));
