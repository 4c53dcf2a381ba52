"""Checking a whole ZOM document against a convention schema, and reporting every problem.

The verdict comes from engines.py. Each error of the reference engine becomes a `Problem`: its
absolute location is split into node path + pointer inside the node's document, and an
`anyOf` / `oneOf` failure is replaced by the errors of the branch that came closest (the
deepest cause), so a bad attribute four levels down is named as such instead of as "the whole
subtree matches no branch".

Longer than 400 lines because turning the reference engine's errors into problems is one
pipeline (the causes of a failed combinator, the messages, the order, the duplicates dropped),
read top to bottom in the order a problem passes through it.
"""

from __future__ import annotations

import ast
import copy
import re
import sys
import threading
from collections.abc import Callable, Iterable
from typing import Any, TypeVar, cast

from .checks import CHECKS
from .engines import (
    Engines,
    detail_validator,
    engines_for,
    fast_verdict,
    reference_validator,
)
from .false_schemas import FALSE_SCHEMA
from .meant import ruled_out
from .patterns import search
from .pointers import escape, split_node_pointer, to_pointer
from .problems import Problem
from .pruned import pruning, worth_pruning
from .rules import with_rule_texts
from .values import is_array, is_object

_COMBINATORS = ("anyOf", "oneOf")
# Messages longer than this are shortened: jsonschema quotes the whole failing instance, which
# for a group is its whole subtree.
_MAX_MESSAGE = 300
# Each option's line in the problem of a value that matches no option and was meant for none.
_OPTION_LINE = 120


def is_valid(document: Any, schema: dict[str, Any]) -> bool:
    """The verdict alone (fast engine when installed; the reference otherwise)."""
    verdict = fast_verdict(engines_for(schema), document)
    return verdict if verdict is not None else not check_document(document, schema, fast=False)


def check_document(
    document: dict[str, Any], schema: dict[str, Any], *, fast: bool = True
) -> list[Problem]:
    """Every problem of a whole ZOM document under `schema` (a bundled convention schema):
    JSON Schema errors at their deepest cause, plus the zomgen check keywords. [] if valid."""
    return with_rule_texts(_check_document(document, schema, fast=fast), schema)


def _check_document(
    document: dict[str, Any], schema: dict[str, Any], *, fast: bool
) -> list[Problem]:
    engines = engines_for(schema)
    if fast and fast_verdict(engines, document):
        return []
    reference_validator(schema)
    with engines.lock:
        if engines.locations is None:
            engines.locations = _locations(schema)
        described_before = engines.described > 0
        engines.described += 1
    from referencing.exceptions import Unresolvable

    def describe(value: dict[str, Any]) -> list[Problem]:
        errors: list[Any] = []
        if worth_pruning(value, schema_described_before=described_before):
            with pruning(engines.schema, engines.locations or {}):
                errors = list(engines.reference.iter_errors(value))
        if not errors:  # small, or the engines disagree on a subschema: walk it all
            errors = list(engines.reference.iter_errors(value))
        causes = (c for e in errors for c in _causes(e, engines.schema))
        found = _dedupe(_problem(c, engines) for c in causes)
        return sorted(_wrong_version_only(_wrong_kind_only(found)), key=_tree_order)

    def detail() -> list[Problem]:
        # A store of the other Zarr version is reported at its root alone (_wrong_version_only),
        # so its root is described first, without members: every node below would fail too.
        alone = _root_alone(document)
        if alone is not None:
            first = describe(alone)
            if _wrong_version_at_root(first):
                return first
        return describe(document)

    try:
        try:
            return detail()
        except RecursionError:
            # python-jsonschema recurses ~12 frames per level of groups and stops near 80
            # levels under the default limit; retried where the stack is deep enough.
            return _deeply(detail)
    except RecursionError:
        return _fast_problems(engines, document)
    except Unresolvable as exc:  # a $ref the bundled schema cannot resolve (and nothing else may)
        return [Problem("/", "", f"the schema cannot be applied: {exc}", "schema")]


def _locations(schema: Any) -> dict[int, str]:
    found: dict[int, str] = {}
    stack: list[tuple[Any, str]] = [(schema, "")]
    while stack:
        value, pointer = stack.pop()
        if is_object(value):
            found.setdefault(id(value), pointer)
            stack.extend((v, f"{pointer}/{escape(k)}") for k, v in value.items())
        elif is_array(value):
            stack.extend((v, f"{pointer}/{i}") for i, v in enumerate(value))
    return found


# The deep retry: a thread with a large stack (only the pages used are committed) and a
# recursion limit that covers the reader's maximum depth with room to spare.
_DEEP_STACK_BYTES = 512 * 1024 * 1024


_DEEP_RECURSION_LIMIT = 100_000


_T = TypeVar("_T")


def _deeply(work: Callable[[], _T]) -> _T:
    """`work()` in a thread whose stack and recursion limit let python-jsonschema walk a
    hierarchy hundreds of levels deep. The recursion limit is process-wide, so it is raised
    only while that thread runs and restored after."""
    results: list[_T] = []
    failures: list[BaseException] = []

    def run() -> None:
        try:
            results.append(work())
        except BaseException as exc:  # noqa: BLE001  # re-raised in the calling thread
            failures.append(exc)

    try:
        previous_size = threading.stack_size(_DEEP_STACK_BYTES)
    except (ValueError, RuntimeError):  # a platform without settable stacks: no retry
        raise RecursionError("no deep stack available") from None
    try:
        thread = threading.Thread(target=run, name="zomgen-deep-check", daemon=True)
    finally:
        threading.stack_size(previous_size)
    previous_limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(previous_limit, _DEEP_RECURSION_LIMIT))
    try:
        thread.start()
        thread.join()
    finally:
        sys.setrecursionlimit(previous_limit)
    if failures:
        raise failures[0]
    return results[0]


def _causes(error: Any, root: dict[str, Any]) -> list[Any]:
    """The error itself, or for a failed `anyOf` / `oneOf` the causes in the option the value
    meant: the only one its constants do not rule out (meant.py), else, among those not ruled
    out, the branch that came closest: the fewest signs of being meant for another kind of value
    (a wrong JSON type, missing required keys or unexpected ones at the value itself, a wrong
    tag such as `node_type`), then the one that got deepest into the value before it failed
    (its shallowest cause is the deepest), then the fewest errors; each key missing or unexpected
    counts once (_faults), however the engine groups them. An option that fails at the value's
    own attributes does not come closer by also refusing the members below them: those are
    problems of an option not taken. When two branches tie, the combinator's own error is the
    honest answer, one part per option."""
    if error.validator not in _COMBINATORS or not error.context:
        return [error]
    base = len(error.absolute_path)
    branches: dict[Any, list[Any]] = {}
    options = error.validator_value
    # A `false` option's error carries no schema path: it is a branch of its own, the options
    # that are `false` giving one error each, in their order.
    falses = iter([i for i, o in enumerate(options) if o is False] if is_array(options) else [])
    for sub in error.context:
        path = sub.relative_schema_path
        if not path:
            sub.zomgen_false_option = (error, next(falses, None))
        branches.setdefault(path[0] if path else ("false", len(branches)), []).append(sub)
    if is_array(options):
        out = ruled_out(options, error.instance, root)
        meant = {k: v for k, v in branches.items() if k not in out}
        branches = meant or branches
    scored: list[tuple[tuple[int, int, int], Any, list[Any]]] = []
    for key, subs in branches.items():
        resolved = [c for s in subs for c in _causes(s, root)]
        mismatch = sum(_other_kind(s, base) * _faults(s) for s in subs)
        reached = min(len(c.absolute_path) for c in resolved)
        scored.append(((-mismatch, reached, -sum(_faults(c) for c in resolved)), key, resolved))
    if len(scored) == 1:
        return scored[0][2]
    ranked = sorted(scored, key=lambda item: item[0], reverse=True)
    if ranked[0][0] == ranked[1][0]:
        return [_one_line_per_option(error, [(key, causes) for _s, key, causes in scored])]
    return ranked[0][2]


def _one_line_per_option(error: Any, options: list[tuple[Any, list[Any]]]) -> Any:
    """The combinator's own error, its message giving for each option (one short part each,
    as a problem stays one line) where that option first fails, its shallowest cause: no
    option is nearer than another, so the reader chooses."""
    base = len(error.absolute_path)
    lines: list[str] = []
    for key, causes in options:
        first = min(causes, key=lambda c: len(c.absolute_path))
        where = to_pointer(list(first.absolute_path)[base:]) or "itself"
        # an option that is a union of its own says so, without its options' parts
        text = _short(getattr(first, "zomgen_header", None) or _message(first), _OPTION_LINE)
        label = f"option {key}" if isinstance(key, int) else "a `false` option"
        lines.append(f"{label}: {where}: {text}")
    described = copy.copy(error)
    described.zomgen_header = (
        f"{_summary(error.instance)} matches none of the {error.validator} options"
    )
    described.message = f"{described.zomgen_header}; " + "; ".join(lines)
    described.zomgen_one_line_per_option = True  # each line short already: not cut at 300
    return described


# Failures that say "this branch describes another kind of value", at the combinator's value.
_SHAPE_KEYWORDS = frozenset(
    ("type", "required", "additionalProperties", "unevaluatedProperties", "dependentRequired")
)


def _other_kind(error: Any, base: int) -> int:
    """How strongly `error` says its branch is for another kind of value: a wrong JSON type
    most (3), a missing or unexpected key or a wrong tag less (1), anything else not (0)."""
    depth = len(error.absolute_path) - base
    if depth == 0 and error.validator == "type":
        return 3
    if depth == 0:
        return 1 if error.validator in _SHAPE_KEYWORDS else 0
    return 1 if depth == 1 and error.validator == "const" else 0


def _faults(error: Any) -> int:
    """How many faults `error` stands for when options are compared: one per key it refuses
    for an `additionalProperties` or `unevaluatedProperties` of `false` (python-jsonschema names
    them all in one error), else one. So a key is one fault whether missing (python-jsonschema
    and Ajv give each missing `required` key an error of its own) or unexpected (Ajv gives each
    unexpected key one), and both run times weigh an option alike (report.ts counts Ajv's
    errors): an option refusing seven keys at once does not come closer than one refusing five
    and missing two."""
    if error.validator_value is not False:
        return 1
    if error.validator == "additionalProperties":
        return max(1, len(_unexpected_keys(error.instance, error.schema)))
    if error.validator == "unevaluatedProperties":
        return max(1, _named_in(str(error.message)))
    return 1


def _unexpected_keys(instance: Any, schema: Any) -> list[str]:
    """The keys of `instance` an `additionalProperties` in `schema` applies to: neither named
    in `properties` nor matched by a `patternProperties` pattern (read as patterns.py reads
    them, as the reference engine does); none if it cannot tell."""
    if not is_object(instance) or not is_object(schema):
        return []
    named = schema.get("properties")
    patterns = schema.get("patternProperties")
    searches = [search(p) for p in patterns] if is_object(patterns) else []
    return [
        key
        for key in instance
        if not (is_object(named) and key in named)
        and not any(matcher is not None and matcher(key) for matcher in searches)
    ]


# python-jsonschema's `unevaluatedProperties: false`: "... (<repr>, <repr> were unexpected)".
_UNEXPECTED_NAMES = re.compile(r"\((?P<names>.*) (?:was|were) unexpected\)$", re.DOTALL)


def _named_in(message: str) -> int:
    """How many keys python-jsonschema's message names as unexpected (0 if it names none)."""
    found = _UNEXPECTED_NAMES.search(message)
    if found is None:
        return 0
    try:
        names: object = ast.literal_eval(f"({found['names']},)")
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        return 0
    if not isinstance(names, tuple):
        return 0
    return len(cast("tuple[object, ...]", names))


def _problem(error: Any, engines: Engines) -> Problem:
    node_path, pointer = split_node_pointer(list(error.absolute_path))
    # a `false` subschema's error names no keyword (false_schemas.py names the keys it forbids)
    keyword = FALSE_SCHEMA if error.validator is None else str(error.validator)
    locations = engines.locations or {}
    where = locations.get(id(error.schema))
    combinator, index = getattr(error, "zomgen_false_option", (None, None))
    if combinator is not None and index is not None and id(combinator.schema) in locations:
        # a `false` option: where it stands among its combinator's options
        schema_path = f"{locations[id(combinator.schema)]}/{combinator.validator}/{index}"
    elif where is None:
        schema_path = to_pointer(error.absolute_schema_path)
    elif keyword == FALSE_SCHEMA:  # where the `false` stands: `.../properties/<key>`
        tail = list(error.relative_schema_path)[-2:]
        schema_path = where + "".join(f"/{escape(str(s))}" for s in tail)
    else:
        schema_path = f"{where}/{escape(keyword)}"
        last = error.relative_schema_path[-1] if error.relative_schema_path else keyword
        if keyword in CHECKS and last != keyword:  # the entry of a check's value that failed
            schema_path += f"/{escape(last)}"
    return Problem(node_path, pointer, _message(error), keyword, schema_path)


def _message(error: Any) -> str:
    """python-jsonschema's message, with the value given shown as `_shown` writes it: in its
    place where the message starts with it, after the words (`(given: ...)`) where they leave
    it out (a `const` says only what was expected); shortened to _MAX_MESSAGE characters."""
    message = str(error.message)
    if getattr(error, "zomgen_one_line_per_option", False):
        return message  # each part short already
    given = ""
    if error.validator in _GIVEN_AFTER:
        given = f" (given: {_shown(error.instance)})"
    elif len(message) > _SHOWN:
        shown = repr(error.instance)
        if len(shown) > _SHOWN and message.startswith(shown):
            message = _shown(error.instance) + message[len(shown) :]
    if len(message) + len(given) > _MAX_MESSAGE:
        message = message[: _MAX_MESSAGE - len(given) - 3] + "..."
    return message + given


# The keywords whose python-jsonschema message does not show the value it is about.
_GIVEN_AFTER = frozenset(("const", "minContains", "maxContains", "items", "unevaluatedItems"))
# The value given is shown in full up to this many characters (report.ts's SHOWN).
_SHOWN = 100


def _shown(value: Any) -> str:
    """How a message shows the value given, in both run times: its repr up to _SHOWN
    characters; past that a list or an object by its size, any other value cut short."""
    if (is_array(value) or is_object(value)) and len(value) > _SHOWN:
        return _summary(value)
    text = repr(value)
    if len(text) <= _SHOWN:
        return text
    if is_array(value) or is_object(value):
        return _summary(value)
    return text[: _SHOWN - 3] + "..."


def _short(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _summary(value: Any) -> str:
    if is_object(value):
        return f"{{...}} (an object with {len(value)} keys)"
    if is_array(value):
        return f"[...] (a list of {len(value)} items)"
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _fast_problems(engines: Engines, document: Any) -> list[Problem]:
    detail = detail_validator(engines)
    if detail is None:
        return [Problem("/", "", "the document nests too deeply to check", "schema")]
    problems: list[Problem] = []
    try:
        errors = list(detail.iter_errors(document))
    except ValueError:  # jsonschema-rs's own recursion limit
        return [Problem("/", "", "the document nests too deeply to check", "schema")]
    for error in errors:
        node_path, pointer = split_node_pointer(list(error.instance_path))
        kind = error.kind
        keyword = str(getattr(kind, "keyword", None) or kind.name)
        message = str(error.message)
        if len(message) > _MAX_MESSAGE:
            message = message[: _MAX_MESSAGE - 3] + "..."
        problems.append(
            Problem(node_path, pointer, message, keyword, to_pointer(error.schema_path))
        )
    return sorted(_dedupe(problems), key=_tree_order)


def _tree_order(problem: Problem) -> tuple[list[str], list[str]]:
    """Problems in the order of the tree: by node (parents first), then pointer; a stable
    sort keeps the schema's order among equals."""
    return problem.node_path.split("/"), problem.pointer.split("/")


_KIND_POINTERS = ("/node_type", "/zarr_format")


def _wrong_kind_only(problems: list[Problem]) -> list[Problem]:
    """A node of the wrong kind (a group where an array must be) fails its schema's `const`
    on node_type, and then every `required` key of the kind it is not: only the first says
    anything. For such nodes, keep the problems of node_type and zarr_format."""
    wrong = {p.node_path for p in problems if p.keyword == "const" and p.pointer == "/node_type"}
    if not wrong:
        return problems
    return [p for p in problems if p.node_path not in wrong or p.pointer in _KIND_POINTERS]


def _wrong_version_at_root(problems: list[Problem]) -> bool:
    return any(
        p.node_path == "/" and p.pointer == "/zarr_format" and p.keyword in ("const", "enum")
        for p in problems
    )


def _wrong_version_only(problems: list[Problem]) -> list[Problem]:
    """A store of the other Zarr version (a v2 store checked with a v3 convention) fails at
    its root's `zarr_format`, then at every key of the version it is not, on every node: only
    the first says anything. Then the root's zarr_format and node_type problems are all there
    is to report (not a `false` forbidding `node_type`, a key of the version it is not). A
    single node of the other version inside a store keeps its details."""
    if not _wrong_version_at_root(problems):
        return problems
    return [
        p
        for p in problems
        if p.node_path == "/" and p.pointer in _KIND_POINTERS and p.keyword != FALSE_SCHEMA
    ]


def _root_alone(document: Any) -> dict[str, Any] | None:
    """The root node without its members (None if it has none to leave out)."""
    if not is_object(document) or not is_object(document.get("members")):
        return None
    return {**document, "members": {}} if document["members"] else None


def _dedupe(problems: Iterable[Problem]) -> list[Problem]:
    """One problem per (node, pointer, keyword, message): the same fault reached through two
    schemas (a convention and the base it extends) is reported once."""
    seen: dict[tuple[str, str, str, str], Problem] = {}
    for p in problems:
        seen.setdefault((p.node_path, p.pointer, p.keyword, p.message), p)
    return list(seen.values())
