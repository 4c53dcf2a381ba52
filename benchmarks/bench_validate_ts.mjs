// Times a compiled package's validate.js on one document (argv[2]: validate.js; stdin: JSON
// {"text": <the document as JSON text>, "repeat": n}). Prints JSON timings in milliseconds,
// medians of `repeat` runs, all in this one process: JSON.parse of the text (the floor: an app
// must at least parse what it checks), the first check (Ajv compiles the schema), the verdict
// (is<Root>), and validate (every problem).
import { pathToFileURL } from "node:url";

const pkg = await import(pathToFileURL(process.argv[2]).href);
const guard = pkg[Object.keys(pkg).find((name) => /^is[A-Z]/.test(name))];
let input = "";
for await (const chunk of process.stdin) input += chunk;
const { text, repeat } = JSON.parse(input);

function median(run) {
  const times = [];
  let result;
  for (let i = 0; i < repeat; i++) {
    const start = performance.now();
    result = run();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return [times[Math.floor(times.length / 2)], result];
}

const document = JSON.parse(text);
const compileStart = performance.now();
guard({});
const compile = performance.now() - compileStart;
const [parse] = median(() => JSON.parse(text));
const [verdict, valid] = median(() => guard(document));
const [problems, found] = median(() => pkg.validate(document));
process.stdout.write(JSON.stringify({ compile, parse, verdict, problems, valid, count: found.length }));
