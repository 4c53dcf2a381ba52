/**
 * `x-zomgen-rules`: rules a convention's author writes in CEL, in the form of Kubernetes'
 * `x-kubernetes-validations` (docs/extra-checks.md, "Rules in CEL"). The TypeScript twin of
 * _runtime/rules.py: `self` is the value at the rule's place; a rule that gives `false` is a
 * problem at `fieldPath` with `message` (or what `messageExpression` gives, or one naming the
 * rule); one that cannot be evaluated there, or gives no boolean, is a problem too.
 *
 * The evaluator is @marcbachmann/cel-js (the Python run time uses Google's cel-expr-python);
 * both give the same verdicts and messages (runtime/cases/rules.json). JSON numbers are all
 * `number` here, so an integer becomes a CEL `int` (a BigInt) before a rule reads it, as Python
 * reads JSON integers; one past CEL's 64 bits cannot be evaluated, as in Python.
 */

import { Environment, type ParseResult } from "@marcbachmann/cel-js";

import { isArray, isObject, parsePointer } from "./pointers.js";
import { type Check, type Violation, malformed } from "./violations.js";

export const RULES = "x-zomgen-rules";
const FIELDS = ["fieldPath", "message", "messageExpression", "reason", "rule"];

interface Rule {
  readonly rule: string;
  readonly message: string | null;
  readonly messageExpression: string | null;
  readonly fieldPath: readonly string[];
}

let environment: Environment | null = null;
const programs = new Map<string, ParseResult | null>();

/** `text` parsed once per process (null when it is not CEL). */
function program(text: string): ParseResult | null {
  let found = programs.get(text);
  if (found === undefined) {
    environment ??= new Environment({
      unlistedVariablesAreDyn: true,
      homogeneousAggregateLiterals: false,
    }).registerFunction("indices(list): list<int>", indices);
    try {
      found = environment.parse(text);
      // checked as Python's compiler checks it: an unknown function or variable is refused
      if (!found.check().valid) found = null;
    } catch {
      found = null;
    }
    programs.set(text, found);
  }
  return found;
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
    parsed.push({
      rule,
      message: typeof entry["message"] === "string" ? entry["message"] : null,
      messageExpression:
        typeof entry["messageExpression"] === "string" ? entry["messageExpression"] : null,
      fieldPath: typeof field === "string" && field !== "" ? parsePointer(field) : [],
    });
  }

  return (instance: unknown): Violation[] => {
    if (why !== null) return [malformed(RULES, why)];
    const found: Violation[] = [];
    const self = asCel(instance); // once for all the rules of this place
    parsed.forEach((rule, index) => {
      const verdict = evaluate(rule.rule, self);
      if (verdict === true) return;
      let message: string;
      if (verdict === false) message = ruleMessage(rule, self);
      else if (verdict === NOT_EVALUATED) message = `the rule ${rule.rule} cannot be evaluated on this value`;
      else message = `the rule ${rule.rule} gives no boolean`;
      found.push({ path: rule.fieldPath, message, at: index });
    });
    return found;
  };
}

const NOT_EVALUATED = Symbol("not evaluated");

/** `indices(list)`: 0, 1, ... size - 1, to pair lists by position (neither engine has
 * two-variable comprehensions): `indices(self.shape).all(i, self.shape[i] == ...)`. */
function indices(items: readonly unknown[]): bigint[] {
  return items.map((_item, index) => BigInt(index));
}

/** What the rule `text` gives with `self` bound to `self` (a value `asCel` made), or
 * NOT_EVALUATED. */
function evaluate(text: string, self: unknown): unknown {
  const compiled = program(text);
  if (compiled === null || self === NOT_EVALUATED) return NOT_EVALUATED;
  try {
    return compiled({ self });
  } catch {
    return NOT_EVALUATED;
  }
}

function ruleMessage(rule: Rule, self: unknown): string {
  if (rule.messageExpression !== null) {
    const said = evaluate(rule.messageExpression, self);
    if (typeof said === "string" && said !== "") return said;
  }
  return rule.message ?? `fails the rule ${rule.rule}`;
}

const INT_MIN = -(2n ** 63n);
const INT_MAX = 2n ** 63n - 1n;

/** `value` with its integers as BigInt (CEL `int`), or NOT_EVALUATED when one is past 64 bits. */
function asCel(value: unknown): unknown {
  if (typeof value === "number") {
    if (!Number.isInteger(value)) return value;
    const whole = BigInt(value);
    return whole < INT_MIN || whole > INT_MAX ? NOT_EVALUATED : whole;
  }
  if (isArray(value)) {
    const items = value.map(asCel);
    return items.includes(NOT_EVALUATED) ? NOT_EVALUATED : items;
  }
  if (!isObject(value)) return value;
  const entries = Object.entries(value).map(([key, item]) => [key, asCel(item)] as const);
  return entries.some(([, item]) => item === NOT_EVALUATED) ? NOT_EVALUATED : Object.fromEntries(entries);
}
