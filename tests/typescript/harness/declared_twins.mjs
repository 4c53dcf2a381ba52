// Runs the catalog page's dispatch (declared.ts, compiled) over hierarchies already read.
// stdin: {"declared": <declared.js>, "catalog": <catalog.js>, "jobs": [{"document", "strict"}]}
// stdout: for each job, the report in `zomgen validate --format json`'s shape.
import { pathToFileURL } from "node:url";

let input = "";
for await (const chunk of process.stdin) input += chunk;
const { declared, catalog, jobs } = JSON.parse(input);
const { DeclaredChecker, reportJson } = await import(pathToFileURL(declared).href);
const { catalogText } = await import(pathToFileURL(catalog).href);
const checker = new DeclaredChecker(JSON.parse(catalogText));
process.stdout.write(JSON.stringify(jobs.map((job) => reportJson(checker.check(job.document, job.strict)))));
