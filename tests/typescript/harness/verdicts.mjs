// Checks documents against schemas with zomgen's TypeScript runtime (compiled beside this file).
// stdin: [{"schema": <schema.json text>, "documents": [...]}, ...]
// stdout: for each job, for each document: {"valid": bool, "problems": [Problem, ...]}
import { Validator } from "../_runtime_ts/validator.js";

let input = "";
for await (const chunk of process.stdin) input += chunk;
const results = JSON.parse(input).map((job) => {
  const validator = new Validator(job.schema);
  return job.documents.map((document) => {
    const valid = validator.isValid(document);
    return { valid, problems: validator.problems(document) };
  });
});
process.stdout.write(JSON.stringify(results));
