// Imports each package's validate.js and checks a few documents with it, so that a schema Ajv
// cannot compile, or a validator that throws, is found; the problems go back for comparison
// with the Python loader's.
// stdin: {"documents": [...], "packages": [{"package": <validate.js>, "name": <package>}, ...]}
// stdout: {name: {"problems": [[Problem, ...] per document], "schema": schema.ts parsed}
//          or {"error": message}}
import { pathToFileURL } from "node:url";

let input = "";
for await (const chunk of process.stdin) input += chunk;
const { documents, packages } = JSON.parse(input);
const results = {};
for (const job of packages) {
  try {
    const pkg = await import(pathToFileURL(job.package).href);
    const { schemaText } = await import(new URL("schema.js", pathToFileURL(job.package)).href);
    results[job.name] = {
      problems: documents.map((document) => pkg.validate(document)),
      schema: JSON.parse(schemaText),
    };
  } catch (e) {
    results[job.name] = { error: String(e && e.message ? e.message : e).slice(0, 500) };
  }
}
process.stdout.write(JSON.stringify(results));
