// The TypeScript loader on many stores: stdin is [{package, store, kind, options}], where
// `package` is a built npm package's folder, `kind` says how the store is given ("url" or
// "path" as text, "fetchstore" as zarrita's FetchStore, "zip" as its ZipFileStore of a file, "listed zip" as
// that store with its keys). stdout is, per job, the document
// read (readStore), the problems of validateStore, and what load did.
import { readFileSync } from "node:fs";
import ZipFileStore from "@zarrita/storage/zip";
import { FetchStore } from "zarrita";

// JSON text with every object's keys sorted: two reads of one store attach members in the
// order the answers come.
const canonical = (value) =>
  JSON.stringify(value, (_key, v) =>
    v && typeof v === "object" && !Array.isArray(v) ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, v[k]])) : v,
  );

// A zip file as zarrita's ZipFileStore, and (listed) the keys its entries name, as an app
// passes it to make the zip listable.
async function zip(path, listed) {
  let keys = [];
  const transformEntries = (entries) => {
    keys = Object.keys(entries);
    return entries;
  };
  const store = ZipFileStore.fromBlob(new Blob([readFileSync(path)]), { transformEntries });
  if (!listed) return store;
  await store.get("/zarr.json");
  return { store, keys };
}

const jobs = JSON.parse(readFileSync(0, "utf-8"));
const results = [];
for (const job of jobs) {
  const load = await import(`${job.package}/dist/load.js`);
  const stores = await import("@zomgen/runtime/stores.js");
  const schema = JSON.parse(readFileSync(`${job.package}/schema.json`, "utf-8"));
  const store =
    job.kind === "fetchstore"
      ? new FetchStore(job.store)
      : job.kind === "zip" || job.kind === "listed zip"
        ? await zip(job.store, job.kind === "listed zip")
        : job.store;
  const read = await stores.readStore(store, schema, job.options);
  const result = { document: read.document, read: read.problems };
  try {
    result.problems = await load.validateStore(store, job.options);
  } catch (error) {
    result.storeError = { name: error.name, problems: error.problems ?? null, unchecked: error.unchecked ?? null, message: String(error) };
  }
  try {
    const loaded = await load.load(store, job.options);
    result.loaded = { frozen: Object.isFrozen(loaded), equal: canonical(loaded) === canonical(read.document) };
  } catch (error) {
    result.loadError = error.name;
  }
  results.push(result);
}
process.stdout.write(JSON.stringify(results));
