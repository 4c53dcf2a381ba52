/**
 * The iteration budget of a rule in CEL (rules.ts), counted as Google's engine counts it in the
 * Python run time: every step of every macro's loop (`all`, `exists`, `exists_one`, `map`,
 * `filter`) of one evaluation, nested loops together; the evaluation stops at the 10,000th
 * step, and the rule is not evaluated. cel-js counts nothing itself, so each macro's step is
 * made to call `zomgenIteration()` first: without it a hostile rule (three macros nested over
 * ten thousand members) would hold the page for hours.
 */

/** The steps one evaluation may take: the 10,000th stops it (cel-expr-python's fixed limit). */
export const BUDGET = 10_000;
export const ITERATION = "zomgenIteration";
const MACROS = new Set(["all", "exists", "exists_one", "filter", "map"]);

let iterations = 0;

/** Start counting the steps of a new evaluation. */
export function startCounting(): void {
  iterations = 0;
}

/** Did the evaluation just made reach the budget? (Its value, if any, says nothing then.) */
export function pastBudget(): boolean {
  return iterations >= BUDGET;
}

/** `zomgenIteration()`: one more step, true; throws at the budget, which stops a `map` at once
 * and makes every later step of a quantifier throw at once too. */
export function iteration(): boolean {
  iterations += 1;
  if (iterations >= BUDGET) throw new Error("the iteration budget is spent");
  return true;
}

/** A node of cel-js's parse tree, as far as this module reads it: `rcall` is a method call
 * (`args`: its name, its receiver, its arguments), and every node knows where it stands in the
 * text (`start`, `end`). */
interface Located {
  readonly op: string;
  readonly args: unknown;
  readonly start: number;
  readonly end: number;
}

/** `text` (whose tree is `ast`) with each macro's step counted: a predicate P becomes
 * `(zomgenIteration() && (P))`, and map's transform T `cel.bind(zomgenStep, zomgenIteration(),
 * (T))` (a step counted, then T). */
export function counted(text: string, ast: unknown): string {
  const inserts: [number, string][] = [];
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) {
      node.forEach(visit);
      return;
    }
    if (node === null || typeof node !== "object" || !("op" in node)) return;
    const located = node as Located;
    const args = located.args;
    if (located.op === "rcall" && Array.isArray(args) && MACROS.has(String(args[0]))) {
      const macro = String(args[0]);
      const given = Array.isArray(args[2]) ? (args[2] as Located[]) : [];
      const step = given[given.length - 1];
      const filter = macro === "map" && given.length === 3 ? given[1] : undefined;
      if (filter !== undefined) inserts.push([filter.start, `(${ITERATION}() && (`], [filter.end, "))"]);
      else if (step !== undefined && macro === "map") inserts.push([step.start, `cel.bind(zomgenStep, ${ITERATION}(), (`], [step.end, "))"]);
      else if (step !== undefined) inserts.push([step.start, `(${ITERATION}() && (`], [step.end, "))"]);
    }
    if (Array.isArray(args)) visit(args);
  };
  visit(ast);
  // from the end, so that each insert's offset is still the source's
  let result = text;
  for (const [at, inserted] of inserts.sort((a, b) => b[0] - a[0])) {
    result = result.slice(0, at) + inserted + result.slice(at);
  }
  return result;
}
