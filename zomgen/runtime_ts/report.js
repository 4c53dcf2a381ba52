/**
 * Ajv's errors -> Problems, the way the Python loader reports them (zomgen/runtime/validation.py):
 * every error split into node path + pointer, a failed `anyOf` / `oneOf` replaced by the errors
 * of the branch that came closest (the deepest cause), wrong-kind nodes reduced to their
 * node_type, duplicates dropped, problems in tree order.
 *
 * With `allErrors`, Ajv lists a failed combinator's branch errors, flat, just before the
 * combinator's own error, and does not say which branch raised which. So each branch is
 * validated again on its own (a fragment of the bundled schema, compiled once by Ajv): that
 * gives the branch's errors, and their count says how many of the flat list were the branch's.
 * This runs only for documents that are invalid.
 */
import { PROTO_ALIAS, SCHEMA_ID, unescapeKey } from "./engine.js";
import { escapeToken, isArray, parsePointer, repr, splitNodePointer } from "./pointers.js";
import { dedupe, treeOrder, wrongKindOnly } from "./problems.js";
/** Messages longer than this are shortened. */
const MAX_MESSAGE = 300;
const COMBINATORS = ["anyOf", "oneOf"];
/** Failures that say "this branch describes another kind of value", at the combinator's value. */
const SHAPE_KEYWORDS = [
    "type", "required", "additionalProperties", "unevaluatedProperties", "dependentRequired",
];
class Reporter {
    engines;
    fragments = new Map();
    constructor(engines) {
        this.engines = engines;
    }
    problems(errors) {
        const found = dedupe(this.walk(errors, "").causes.map((c) => this.problem(c)));
        return wrongKindOnly(found).sort(treeOrder);
    }
    walk(errors, prefix) {
        const entries = [];
        const causes = [];
        let i = errors.length - 1;
        while (i >= 0) {
            const error = errors[i];
            i -= 1;
            // Ajv wraps the errors of `then` / `else` in an `if` error; those errors say it all.
            if (error === undefined || error.keyword === "if")
                continue;
            const cause = { error, path: prefix + error.instancePath };
            entries.push(cause);
            if (COMBINATORS.includes(error.keyword) && isArray(error.schema)) {
                const result = this.combinator(cause);
                i -= result.consumed;
                causes.push(result.causes);
            }
            else {
                causes.push([cause]);
            }
        }
        return { entries: entries.reverse(), causes: causes.reverse().flat() };
    }
    /** The causes in the branch that came closest: the fewest signs of being meant for another
     * kind of value, then the deepest into the instance, then the fewest errors. When two
     * branches tie, the combinator's own error is the honest answer. */
    combinator(cause) {
        const { error, path } = cause;
        const branches = isArray(error.schema) ? error.schema : [];
        const holder = error.parentSchema ? this.engines.locations.get(error.parentSchema) : undefined;
        let consumed = 0;
        const scored = [];
        for (let j = 0; j < branches.length; j++) {
            const branchErrors = this.branchErrors(`${holder ?? ""}/${error.keyword}/${j}`, branches[j], error.data);
            if (branchErrors === null)
                continue;
            consumed += branchErrors.length;
            const walk = this.walk(branchErrors, path);
            const base = depth(path);
            const mismatch = walk.entries.reduce((n, e) => n + otherKind(e, base), 0);
            const deepest = Math.max(0, ...walk.causes.map((c) => depth(c.path)));
            scored.push({ score: [-mismatch, deepest, -walk.causes.length], causes: walk.causes });
        }
        const passing = error.params.passingSchemas;
        if (holder === undefined || (passing !== undefined && passing !== null) || scored.length === 0) {
            return { causes: [cause], consumed };
        }
        scored.sort((a, b) => compareScores(b.score, a.score));
        const [best, second] = scored;
        if (best === undefined || (second !== undefined && compareScores(best.score, second.score) === 0)) {
            return { causes: [cause], consumed };
        }
        return { causes: best.causes, consumed };
    }
    /** The errors of one branch on its own, or null when it passes. */
    branchErrors(pointer, branch, data) {
        if (branch === true)
            return null;
        if (branch === false) {
            return [{ keyword: "false schema", instancePath: "", schemaPath: "#", params: {}, message: "boolean schema is false" }];
        }
        let validate = this.fragments.get(pointer);
        if (validate === undefined) {
            const ref = `${SCHEMA_ID}#${parsePointer(pointer).map((t) => encodeURIComponent(escapeToken(t))).map((t) => "/" + t).join("")}`;
            validate = this.engines.detailed.getSchema(ref) ?? null;
            this.fragments.set(pointer, validate);
        }
        if (validate === null || validate(data) === true)
            return null;
        return [...(validate.errors ?? [])];
    }
    problem({ error, path }) {
        const segments = parsePointer(path).map(unescapeKey);
        const [nodePath, pointer] = splitNodePointer(segments);
        const holder = error.parentSchema ? this.engines.locations.get(error.parentSchema) : undefined;
        let schemaPath = holder === undefined ? error.schemaPath.replace(/^#/, "") : `${holder}/${escapeToken(error.keyword)}`;
        const at = error.params.at;
        if (holder !== undefined && (typeof at === "string" || typeof at === "number"))
            schemaPath += `/${escapeToken(at)}`;
        return { node_path: nodePath, pointer, message: message(error), keyword: error.keyword, schema_path: schemaPath };
    }
}
function depth(path) {
    return path === "" ? 0 : path.split("/").length - 1;
}
function compareScores(a, b) {
    for (let i = 0; i < a.length; i++) {
        const d = (a[i] ?? 0) - (b[i] ?? 0);
        if (d !== 0)
            return d;
    }
    return 0;
}
/** How strongly an error says its branch is for another kind of value: a wrong JSON type most
 * (3), a missing or unexpected key or a wrong tag less (1), anything else not (0). */
function otherKind({ error, path }, base) {
    const below = depth(path) - base;
    if (below === 0 && error.keyword === "type")
        return 3;
    if (below === 0)
        return SHAPE_KEYWORDS.includes(error.keyword) ? 1 : 0;
    return below === 1 && error.keyword === "const" ? 1 : 0;
}
/** Ajv's message, with the value it leaves out (which key was unexpected, which constant). */
function message(error) {
    const params = error.params;
    const base = error.message ?? error.keyword;
    let text;
    if ("additionalProperty" in params)
        text = `${base} (${repr(params["additionalProperty"])} was unexpected)`;
    else if ("unevaluatedProperty" in params)
        text = `${base} (${repr(params["unevaluatedProperty"])} was unexpected)`;
    else if (error.keyword === "const")
        text = `${base} ${JSON.stringify(params["allowedValue"])}`;
    else if (error.keyword === "enum")
        text = `${base} ${JSON.stringify(params["allowedValues"])}`;
    else
        text = base;
    text = text.replaceAll(PROTO_ALIAS, "__proto__");
    return text.length <= MAX_MESSAGE ? text : text.slice(0, MAX_MESSAGE - 3) + "...";
}
/** Every problem of an invalid (escaped) document, from the detailed engine's errors. */
export function report(engines, document) {
    const validate = engines.detailed.getSchema(SCHEMA_ID);
    if (validate === undefined || validate(document) === true)
        return [];
    return new Reporter(engines).problems([...(validate.errors ?? [])]);
}
