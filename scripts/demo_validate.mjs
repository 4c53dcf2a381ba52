// The TypeScript half of the demo: check the document Python loaded with the package's
// compiled validate.js, then the same document with one variable's dimension names dropped.
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const [validateJs, documentFile] = process.argv.slice(2);
const { validate, isXarrayDataset, parse } = await import(pathToFileURL(validateJs).href);
const document = JSON.parse(readFileSync(documentFile, "utf-8"));
const dataset = parse(document);
console.log(`validate.ts: ${validate(document).length} problems; isXarrayDataset: ${isXarrayDataset(document)}; ` +
  `members: ${Object.keys(dataset.members).sort().join(", ")}`);
const { dimension_names: _dropped, ...temperature } = document.members.temperature;
const broken = { ...document, members: { ...document.members, temperature } };
for (const p of validate(broken)) console.log(`validate.ts, broken copy: ${p.node_path}: ${p.pointer || "(node)"}: ${p.message}`);
