// The TypeScript loader on a zip bomb: stdin {package, store, limit}; the store is opened as
// zarrita's ZipFileStore of the file, as an app (or the page) opens one. stdout: the problems
// of the read, by node path, and this process's peak resident memory (VmHWM, KiB).
import { readFileSync } from "node:fs";
import ZipFileStore from "@zarrita/storage/zip";

const job = JSON.parse(readFileSync(0, "utf-8"));
const stores = await import("@zomgen/runtime/stores.js");
const schema = JSON.parse(readFileSync(`${job.package}/schema.json`, "utf-8"));
let keys = [];
const store = ZipFileStore.fromBlob(new Blob([readFileSync(job.store)]), {
  transformEntries: (entries) => {
    keys = Object.keys(entries);
    return entries;
  },
});
await store.get("/zarr.json");
const read = await stores.readStore({ store, keys }, schema, { maxDocumentBytes: job.limit });
const problems = Object.fromEntries(read.problems.map((p) => [p.node_path, p.message]));
const peak = Number(readFileSync("/proc/self/status", "utf-8").split("VmHWM:")[1].trim().split(/\s+/)[0]);
process.stdout.write(JSON.stringify({ problems, peak }));
