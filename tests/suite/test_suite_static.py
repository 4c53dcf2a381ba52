"""The JSON-Schema-Test-Suite through the five checkers: no false rejection outside the
languages' own gaps, and no drop in the invalid instances rejected statically.

Every instance is written as a literal of the generated `documents.Case` TypedDict and of the
TypeScript `Case` type; every valid one is also built through the dataclass constructors. The
expected outcome of each (instance, form) is pinned in `expected_static.json`:

- `valid_rejected`: valid instances a checker rejects, each with the language gap that makes it
  unavoidable (one of `LANGUAGE_GAPS`, documented in docs/exact-types.md). Any other valid
  instance rejected is a failure.
- `invalid_rejected`: invalid instances a checker rejects. One no longer rejected is a failure
  (a drop); one newly rejected is reported too, so the pins stay exact.

After a deliberate change, `ZOMGEN_UPDATE_PINS=1` rewrites the pins (review the diff: a new
`valid_rejected` entry needs its gap named by hand).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.support.suite_build import Suite
from tests.support.suite_static import CHECKERS, run_checkers, write_cases

# The suite builds a package per group of the suite once (a minute or more): the full
# suite runs it, the fast subset does not.
pytestmark = [pytest.mark.slow, pytest.mark.checkers, pytest.mark.node]

PINS = Path(__file__).with_name("expected_static.json")
UPDATE = os.environ.get("ZOMGEN_UPDATE_PINS") == "1"
# Why a checker must reject some valid instances: the language cannot say what JSON Schema says.
LANGUAGE_GAPS = {
    "python-int-is-not-float": "JSON Schema's integer 1 equals 1.0; Python's `int` and "
    "`Literal[1]` reject the float 1.0",
    "javascript-object-prototype": "a TypeScript object literal inherits `toString`, "
    "`constructor`...; a type with an optional property of that name rejects `{}`",
}


def _key(instance: str, form: str) -> str:
    return f"{instance} {form}"


@pytest.fixture(scope="module")
def verdicts(suite: Suite) -> tuple[Suite, dict[str, set[str]], dict[str, list[str]]]:
    layout = write_cases(suite)
    found = run_checkers(layout)
    rejected = {c: {_key(i, f) for i, f in found.rejected[c]} for c in CHECKERS}
    return suite, rejected, found.stray


def test_generated_types_are_clean_in_every_checker(
    verdicts: tuple[Suite, dict[str, set[str]], dict[str, list[str]]],
) -> None:
    _suite, _rejected, stray = verdicts
    assert {c: lines for c, lines in stray.items() if lines} == {}


def test_static_verdicts_are_pinned(
    verdicts: tuple[Suite, dict[str, set[str]], dict[str, list[str]]],
) -> None:
    suite, rejected, _stray = verdicts
    instances = {i.id: i for built in suite.packages() for i in built.group.instances}
    valid = {iid: i.valid for iid, i in instances.items()}
    pins = json.loads(PINS.read_text("utf-8")) if PINS.exists() else {}
    if UPDATE:
        new: dict[str, object] = {}
        for checker in CHECKERS:
            new[checker] = {
                "valid_rejected": {
                    k: _gap(instances[k.split(" ")[0]].data, checker) or "UNEXPLAINED"
                    for k in sorted(rejected[checker])
                    if valid[k.split(" ")[0]]
                },
                "invalid_rejected": sorted(
                    k for k in rejected[checker] if not valid[k.split(" ")[0]]
                ),
            }
        PINS.write_text(json.dumps(new, indent=1) + "\n", encoding="utf-8")
        pins = new
    problems: list[str] = []
    for checker in CHECKERS:
        pinned = pins.get(checker, {"valid_rejected": {}, "invalid_rejected": []})
        gaps = pinned["valid_rejected"]
        for key in sorted(rejected[checker]):
            if valid[key.split(" ")[0]] and key not in gaps:
                problems.append(f"{checker}: valid instance rejected: {key}")
        for key, gap in sorted(gaps.items()):
            if gap not in LANGUAGE_GAPS:
                problems.append(f"{checker}: {key}: {gap!r} is not a documented language gap")
            if key not in rejected[checker]:
                problems.append(f"{checker}: pinned gap no longer rejected (re-pin): {key}")
        expected = set(pinned["invalid_rejected"])
        actual = {k for k in rejected[checker] if not valid[k.split(" ")[0]]}
        problems += [
            f"{checker}: invalid instance no longer rejected: {k}"
            for k in sorted(expected - actual)
        ]
        problems += [
            f"{checker}: invalid instance now rejected (re-pin): {k}"
            for k in sorted(actual - expected)
        ]
    assert problems == []


def test_every_valid_instance_is_accepted_outside_the_language_gaps(
    verdicts: tuple[Suite, dict[str, set[str]], dict[str, list[str]]],
) -> None:
    """The figure the issue judges: per checker, valid instances accepted, counted."""
    suite, rejected, _stray = verdicts
    documents = [i for built in suite.packages() for i in built.group.instances if i.valid]
    assert len(documents) > 1200
    for checker in CHECKERS:
        wrongly = [
            i.id
            for i in documents
            if _key(i.id, "document") in rejected[checker] and _gap(i.data, checker) is None
        ]
        assert wrongly == [], checker


def _gap(data: object, checker: str) -> str | None:
    """The language gap that explains rejecting `data`, recognised from the value itself."""
    if checker != "tsc" and _has_integral_float(data):
        return "python-int-is-not-float"
    if checker == "tsc" and data == {}:
        return "javascript-object-prototype"
    return None


def _has_integral_float(value: object) -> bool:
    if isinstance(value, float):
        return value.is_integer()
    if isinstance(value, list):
        return any(_has_integral_float(v) for v in value)
    if isinstance(value, dict):
        return any(_has_integral_float(v) for v in value.values())
    return False
