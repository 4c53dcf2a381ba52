// The shared cases of runtime/cases/ (runtime/cases/README.md), run by this run time: each
// case's document checked against its schema must give exactly its problems, messages included.
// The Python run time runs the same files (tests/runtime/test_shared_cases.py).
// Usage: node test/cases.mjs [FOLDER]   (after `npm run build`; FOLDER defaults to
// runtime/cases); exit 0 when every case holds.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Validator } from "../dist/validator.js";

const folder = process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), "..", "..", "cases");
const FIELDS = ["node_path", "pointer", "keyword", "schema_path", "message", "rule"];

/** A problem as the case files spell it: these fields, in this order (others are left out; a
 * problem of no rule in CEL has no `rule`). */
const row = (problem) => JSON.stringify(FIELDS.map((field) => problem[field] ?? ""));

let held = 0;
const failures = [];
for (const file of readdirSync(folder).filter((name) => name.endsWith(".json")).sort()) {
  for (const { name, schema, document, problems } of JSON.parse(readFileSync(join(folder, file), "utf8")).cases) {
    const validator = new Validator(JSON.stringify(schema));
    const found = validator.problems(document).map(row).sort();
    const wanted = problems.map(row).sort();
    const valid = validator.isValid(document);
    if (JSON.stringify(found) === JSON.stringify(wanted) && valid === (wanted.length === 0)) {
      held += 1;
    } else {
      failures.push(`${file}: ${name}\n  wanted ${wanted.join("\n         ")}\n  found  ${found.join("\n         ")}\n  valid  ${valid}`);
    }
  }
}
for (const failure of failures) console.log(failure);
console.log(`shared cases: ${held} of ${held + failures.length} as expected`);
process.exit(failures.length === 0 ? 0 : 1);
