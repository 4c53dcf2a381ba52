// Checks documents with generated packages' validate.js, the way an app would call it.
// stdin: [{"package": <path of validate.js>, "documents": [...]}, ...]
// stdout: for each job, for each document:
//   {"problems": validate(d), "guard": is<Root>(d), "parsed": parse(d) or null,
//    "frozen": whether parse's result is deeply frozen, "error": what parse threw, or null}
import { pathToFileURL } from "node:url";

function deeplyFrozen(value) {
  if (value === null || typeof value !== "object") return true;
  return Object.isFrozen(value) && Object.values(value).every(deeplyFrozen);
}

let input = "";
for await (const chunk of process.stdin) input += chunk;
const results = [];
for (const job of JSON.parse(input)) {
  const pkg = await import(pathToFileURL(job.package).href);
  const guards = Object.keys(pkg).filter((name) => /^is[A-Z]/.test(name));
  if (guards.length !== 1) throw new Error(`expected one is<Root> guard, found ${guards}`);
  results.push(
    job.documents.map((document) => {
      const result = { problems: pkg.validate(document), guard: pkg[guards[0]](document) };
      try {
        const parsed = pkg.parse(document);
        return { ...result, parsed, frozen: deeplyFrozen(parsed), error: null };
      } catch (e) {
        const error = { name: e.name, isZomError: e instanceof pkg.ZomError, problems: e.problems ?? null };
        return { ...result, parsed: null, frozen: null, error };
      }
    }),
  );
}
process.stdout.write(JSON.stringify(results));
