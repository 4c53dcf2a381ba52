// Metadata file texts through zomgen's TypeScript run time (compiled beside this file).
// stdin: [text, ...]; stdout: for each, "ok" or the message parseObject gives.
import { parseObject } from "../_runtime_ts/node_files.js";

let input = "";
for await (const chunk of process.stdin) input += chunk;
const results = JSON.parse(input).map((text) => {
  const parsed = parseObject(new TextEncoder().encode(text), "zarr.json");
  return typeof parsed === "string" ? parsed : "ok";
});
process.stdout.write(JSON.stringify(results));
