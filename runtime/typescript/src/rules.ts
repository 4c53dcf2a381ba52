/**
 * `x-zomgen-rules`: rules a convention's author writes in CEL, in the form of Kubernetes'
 * `x-kubernetes-validations` (docs/extra-checks.md, "Rules in CEL"). The TypeScript twin of
 * _runtime/rules.py: `self` is the value at the rule's place; a rule that gives `false` is a
 * problem at `fieldPath` with `message` (or what `messageExpression` gives, or one naming the
 * rule); one that cannot be evaluated there, or gives no boolean, is a problem too.
 *
 * The evaluator is @marcbachmann/cel-js (the Python run time uses Google's cel-expr-python);
 * both give the same verdicts and messages (runtime/cases/rules.json). JSON numbers are all
 * `number` here, so a whole number within 64 bits becomes a CEL `int` (a BigInt) before a rule
 * reads it, and every other number a `double`, as in Python (tree.ts). zomgen's library of
 * functions and the variable `nodes` are in tree.ts.
 */

import { Environment, type ParseResult } from "@marcbachmann/cel-js";

import { ITERATION, counted, iteration, pastBudget, startCounting } from "./iterations.js";
import { isArray, isObject, parsePointer } from "./pointers.js";
import type { Problem } from "./problems.js";
import { FUNCTIONS, NODES, asCel, nodesOf, usesNodes } from "./tree.js";
import { type Check, type Violation, malformed } from "./violations.js";

export const RULES = "x-zomgen-rules";
const FIELDS = ["fieldPath", "message", "messageExpression", "reason", "rule"];

interface Rule {
  readonly rule: string;
  readonly message: string | null;
  readonly messageExpression: string | null;
  readonly fieldPath: readonly string[];
  readonly readsNodes: boolean;
}

let environment: Environment | null = null;
const programs = new Map<string, ParseResult | null>();

/** `text` parsed once per process, each macro's step counted (iterations.ts); null when it is
 * not CEL. */
function program(text: string): ParseResult | null {
  let found = programs.get(text);
  if (found === undefined) {
    environment ??= celEnvironment();
    try {
      const written = environment.parse(text);
      // checked as Python's compiler checks it: an unknown function or variable is refused
      found = written.check().valid ? environment.parse(counted(text, written.ast)) : null;
    } catch {
      found = null;
    }
    programs.set(text, found);
  }
  return found;
}

function celEnvironment(): Environment {
  const made = new Environment({ unlistedVariablesAreDyn: true, homogeneousAggregateLiterals: false });
  for (const [signature, handler] of FUNCTIONS) made.registerFunction(signature, handler);
  return made.registerFunction(`${ITERATION}(): bool`, iteration);
}

/** What is wrong with one entry's form (not its CEL), or null. */
export function entryProblem(entry: unknown): string | null {
  if (!isObject(entry)) return "each rule is an object";
  const unknown = Object.keys(entry).filter((key) => !FIELDS.includes(key)).sort();
  if (unknown.length > 0) return `unknown key '${unknown[0]}' (a rule has ${FIELDS.join(", ")})`;
  if (typeof entry["rule"] !== "string") return "each rule has a `rule`, a CEL expression";
  for (const key of ["message", "messageExpression", "fieldPath", "reason"]) {
    if (key in entry && typeof entry[key] !== "string") return `\`${key}\` is a string`;
  }
  return null;
}

/** `problems` with each rule's problem given its rule's text (`rule`), found at its schema path
 * in `schema`, the bundled schema (parsed only when a rule found a problem). */
export function withRuleTexts(problems: Problem[], schema: () => unknown): Problem[] {
  if (!problems.some((problem) => problem.keyword === RULES)) return problems;
  const bundled = schema();
  return problems.map((problem) => {
    if (problem.keyword !== RULES) return problem;
    let entry: unknown = bundled;
    for (const token of parsePointer(problem.schema_path)) {
      entry = isObject(entry) ? entry[token] : isArray(entry) ? entry[Number(token)] : undefined;
    }
    const rule = isObject(entry) ? entry["rule"] : undefined;
    return typeof rule === "string" ? { ...problem, rule } : problem;
  });
}

export function rules(value: unknown): Check {
  const parsed: Rule[] = [];
  let why: string | null = isArray(value) ? null : "expected a list of rules";
  for (const entry of isArray(value) ? value : []) {
    why ??= entryProblem(entry);
    if (why !== null || !isObject(entry)) continue;
    const rule = entry["rule"] as string;
    if (program(rule) === null) {
      why = `the rule ${rule} does not compile as CEL`;
      continue;
    }
    const field = entry["fieldPath"];
    const messageExpression = typeof entry["messageExpression"] === "string" ? entry["messageExpression"] : null;
    parsed.push({
      rule,
      message: typeof entry["message"] === "string" ? entry["message"] : null,
      messageExpression,
      fieldPath: typeof field === "string" && field !== "" ? parsePointer(field) : [],
      readsNodes: usesNodes(rule) || usesNodes(messageExpression ?? ""),
    });
  }

  return (instance: unknown): Violation[] => {
    if (why !== null) return [malformed(RULES, why)];
    const found: Violation[] = [];
    const context = bind(instance, parsed.some((rule) => rule.readsNodes));
    parsed.forEach((rule, index) => {
      const verdict = evaluate(rule.rule, context);
      if (verdict === true) return;
      let message: string;
      if (verdict === false) message = ruleMessage(rule, context);
      else if (verdict === OVER_BUDGET) message = `the rule ${rule.rule} ${OVER_BUDGET_WORDS}`;
      else if (verdict === NOT_EVALUATED) message = `the rule ${rule.rule} cannot be evaluated on this value`;
      else message = `the rule ${rule.rule} gives no boolean`;
      found.push({ path: rule.fieldPath, message, at: index });
    });
    return found;
  };
}

const NOT_EVALUATED = Symbol("not evaluated");
const OVER_BUDGET = Symbol("over budget");
/** How a rule stopped by the iteration budget is reported, in both run times: not a fault of the
 * hierarchy but a place not checked (stores.ts). */
export const OVER_BUDGET_WORDS =
  "was not evaluated: it takes 10,000 iterations or more, the budget of a rule's evaluation";
/** What an unchecked place is called (`Unchecked.reason`) where a rule was stopped so. */
export const RULE_BUDGET = "rule budget";
type Context = Record<string, unknown> | typeof NOT_EVALUATED;

/** The variables a rule reads: `self` made a CEL value once for all the rules of this place,
 * and `nodes` where a rule reads it (only then: it costs a second walk of every node). */
function bind(instance: unknown, withNodes: boolean): Context {
  try {
    const self = asCel(instance);
    return withNodes ? { self, [NODES]: nodesOf(self) } : { self };
  } catch {
    return NOT_EVALUATED; // nests past what the stack holds: no rule can be evaluated
  }
}

/** What the rule `text` gives in `context`, OVER_BUDGET, or NOT_EVALUATED. */
function evaluate(text: string, context: Context): unknown {
  const compiled = program(text);
  if (compiled === null || context === NOT_EVALUATED) return NOT_EVALUATED;
  startCounting();
  let value: unknown;
  try {
    value = compiled(context);
  } catch {
    value = NOT_EVALUATED;
  }
  return pastBudget() ? OVER_BUDGET : value;
}

/** Is `problem` a rule not evaluated past the iteration budget? */
export function overBudget(problem: Problem): boolean {
  return problem.keyword === RULES && problem.message.endsWith(OVER_BUDGET_WORDS);
}

function ruleMessage(rule: Rule, context: Context): string {
  if (rule.messageExpression !== null) {
    const said = evaluate(rule.messageExpression, context);
    if (typeof said === "string" && said !== "") return said;
  }
  return rule.message ?? `fails the rule ${rule.rule}`;
}
