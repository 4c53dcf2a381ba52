// The RE2 spelling of patterns by zomgen's TypeScript run time (compiled beside this file).
// stdin: [pattern, ...]
// stdout: for each: {"parts": [[source, mustMatch], ...]} or {"unreadable": reason}
import { linearParts, Unreadable } from "../_runtime_ts/patterns.js";

let input = "";
for await (const chunk of process.stdin) input += chunk;
const results = JSON.parse(input).map((pattern) => {
  try {
    return { parts: linearParts(pattern).map((part) => [part.source, part.mustMatch]) };
  } catch (error) {
    if (error instanceof Unreadable) return { unreadable: error.message };
    throw error;
  }
});
process.stdout.write(JSON.stringify(results));
