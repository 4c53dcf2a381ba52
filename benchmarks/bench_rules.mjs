// Times the TypeScript run time's Validator on documents (stdin: JSON {"jobs": [{"schema":
// <bundled schema as text>, "document": ...}], "repeat": n}), for bench_rules.py. Prints, per
// job, the medians in milliseconds of isValid (Ajv's verdict) and problems (every problem),
// each after a first call that compiles, how many problems there are, and whether a rule was
// stopped by the budget of its evaluation (a place not checked, not a problem).
import { overBudget } from "../runtime/typescript/dist/rules.js";
import { Validator } from "../runtime/typescript/dist/validator.js";

let input = "";
for await (const chunk of process.stdin) input += chunk;
const { jobs, repeat } = JSON.parse(input);

function median(run) {
  run(); // the first call compiles the schema and the rules
  const times = [];
  for (let i = 0; i < repeat; i++) {
    const start = performance.now();
    run();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

const results = jobs.map(({ schema, document }) => {
  const validator = new Validator(schema);
  return {
    verdict: median(() => validator.isValid(document)),
    problems: median(() => validator.problems(document)),
    count: validator.problems(document).filter((p) => !overBudget(p)).length,
    unchecked: validator.problems(document).some(overBudget),
  };
});
process.stdout.write(JSON.stringify(results));
