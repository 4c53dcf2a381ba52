/**
 * One convention's run-time checks in TypeScript: what a generated `validate.ts` calls. The
 * schema is the package's bundled schema.json (as text, from schema.ts); it is compiled by Ajv
 * the first time it is needed, so importing a package costs nothing until a document is checked.
 */

import { type Engines, compileEngines, escapeKeys } from "./engine.js";
import { isArray, isObject } from "./pointers.js";
import { type Problem, ZomError } from "./problems.js";
import { report } from "./report.js";
import { withRuleTexts } from "./rules.js";

export class Validator {
  private compiled: Engines | undefined;
  private readonly schemaText: string;

  constructor(schemaText: string) {
    this.schemaText = schemaText;
  }

  private engines(): Engines {
    if (this.compiled === undefined) {
      try {
        this.compiled = compileEngines(this.schemaText);
      } catch (error) {
        const why = error instanceof Error ? error.message : String(error);
        throw new Error(`zomgen: Ajv cannot compile this package's schema.json: ${why}`);
      }
    }
    return this.compiled;
  }

  /** The verdict alone: Ajv stops at the first failure. A document nested too deeply for the
   * JavaScript stack (thousands of levels) is not valid: it cannot be checked. */
  isValid(document: unknown): boolean {
    const engines = this.engines();
    return deeply(() => engines.fast(escapeKeys(document)) === true, () => false);
  }

  /** Every problem, by node path and JSON pointer; [] when the document is valid. */
  problems(document: unknown): Problem[] {
    const engines = this.engines();
    return deeply(
      () => {
        const escaped = escapeKeys(document);
        if (engines.fast(escaped) === true) return [];
        return withRuleTexts(report(engines, escaped), () => JSON.parse(this.schemaText));
      },
      () => [TOO_DEEP],
    );
  }

  /** Throws ZomError listing every problem unless the document is valid. */
  check(document: unknown): void {
    const problems = this.problems(document);
    if (problems.length > 0) throw new ZomError(problems);
  }
}

/** What the Python loader reports when a document nests deeper than it can walk. */
const TOO_DEEP: Problem = {
  node_path: "/",
  pointer: "",
  message: "the document nests too deeply to check",
  keyword: "schema",
  schema_path: "",
};

/** `work()`, or `tooDeep()` when it runs out of stack (a RangeError: Ajv and the reporter
 * recurse once per level of the document). */
function deeply<T>(work: () => T, tooDeep: () => T): T {
  try {
    return work();
  } catch (error) {
    if (error instanceof RangeError) return tooDeep();
    throw error;
  }
}

/** A deep copy in which every object and list is frozen: what `parse` returns, so writing into
 * a document fails at run time (in strict mode code) as its `readonly` types say it must. Keys
 * are copied as own properties, `__proto__` included. */
export function frozenCopy<T>(value: T): T {
  return freeze(value) as T;
}

function freeze(value: unknown): unknown {
  if (isArray(value)) return Object.freeze(value.map(freeze));
  if (isObject(value)) {
    return Object.freeze(Object.fromEntries(Object.keys(value).map((k) => [k, freeze(value[k])])));
  }
  return value;
}
