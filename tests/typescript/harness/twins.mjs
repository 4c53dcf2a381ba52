// Runs the compiled TypeScript type-check cases: the run-time twins of their negatives.
// stdin: [{"module": <case .js>, "package": <validate.js>, "documents": [export, ...],
//          "functions": [export, ...]}, ...]
// stdout: for each: {"documents": {name: problems}, "functions": {name: what calling it threw}}
import { pathToFileURL } from "node:url";

let input = "";
for await (const chunk of process.stdin) input += chunk;
const results = [];
for (const job of JSON.parse(input)) {
  const mod = await import(pathToFileURL(job.module).href);
  const pkg = await import(pathToFileURL(job.package).href);
  const documents = {};
  for (const name of job.documents) documents[name] = pkg.validate(mod[name]);
  const functions = {};
  for (const name of job.functions) {
    try {
      mod[name]();
      functions[name] = null;
    } catch (e) {
      functions[name] = { name: e.name, isTypeError: e instanceof TypeError, message: String(e.message) };
    }
  }
  results.push({ documents, functions });
}
process.stdout.write(JSON.stringify(results));
