"""The JSON-Schema-Test-Suite through generated packages, at run time.

For every group that builds and every instance in it: `parse` of the wrapped document must give
the suite's verdict (a model when valid, `ZomError` when not, never another exception), and for
a valid one `dump(parse(doc))` must give back the very document, JSON types included (`1` stays
`1`, `1.0` stays `1.0`, `{}` stays `{}`). Which groups build is pinned in
test_suite_build.py; which instances the checkers accept, in test_suite_static.py.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from tests.support.node import HARNESS, compile_typescript, run_node
from tests.support.suite_build import Suite
from tests.support.suite_cases import document, typed

# The suite builds a package per group of the suite once (a minute or more): the full
# suite runs it, the fast subset does not.
pytestmark = pytest.mark.slow


@dataclass(frozen=True)
class Outcome:
    instance: str
    what: str  # "crash: ...", "verdict: ...", "round trip: ..."


def run_instances(suite: Suite) -> tuple[int, list[Outcome]]:
    """Parse (and dump) every instance of every built group; return the number of instances
    run and everything that differs from the suite."""
    wrong: list[Outcome] = []
    count = 0
    for built in suite.packages():
        package = suite.module(built)
        for instance in built.group.instances:
            count += 1
            doc = document(instance.data)
            try:
                model = package.parse(doc)
            except package.ZomError:
                if instance.valid:
                    wrong.append(Outcome(instance.id, "verdict: valid instance refused"))
                continue
            except Exception as exc:  # noqa: BLE001 - any other exception is the defect
                wrong.append(Outcome(instance.id, f"crash in parse: {type(exc).__name__}: {exc}"))
                continue
            if not instance.valid:
                wrong.append(Outcome(instance.id, "verdict: invalid instance accepted"))
                continue
            try:
                back = package.dump(model)
            except Exception as exc:  # noqa: BLE001
                wrong.append(Outcome(instance.id, f"crash in dump: {type(exc).__name__}: {exc}"))
                continue
            if typed(back) != typed(doc):
                wrong.append(Outcome(instance.id, f"round trip: {doc!r} -> {back!r}"))
    return count, wrong


def test_every_instance_gets_the_suites_verdict_and_round_trips(suite: Suite) -> None:
    count, wrong = run_instances(suite)
    assert count > 1800
    assert not wrong, "\n".join(f"{w.instance}: {w.what}" for w in wrong)


# Where Ajv 8.20's `unevaluatedItems` / `unevaluatedProperties` depart from the specification
# (docs/typescript.md): items a `contains` matched and keys an `if` evaluated are not counted as
# evaluated, and an `anyOf` stops at its first passing branch. The Python run time follows the
# suite on all of them.
AJV_UNEVALUATED = {
    "draft2020-12/unevaluatedItems/8/1",
    "draft2020-12/unevaluatedItems/8/2",
    "draft2020-12/unevaluatedItems/21/2",
    "draft2020-12/unevaluatedItems/22/1",
    "draft2020-12/unevaluatedItems/23/4",
    "draft2020-12/unevaluatedItems/23/5",
    "draft2020-12/unevaluatedItems/23/6",
    "draft2020-12/unevaluatedItems/23/7",
    "draft2020-12/unevaluatedItems/24/3",
    "draft2020-12/unevaluatedItems/27/0",
    "draft2020-12/unevaluatedProperties/15/0",
    "draft2020-12/unevaluatedProperties/15/3",
    "draft2020-12/unevaluatedProperties/39/0",
}


@pytest.mark.node
def test_typescript_validate_gives_the_suites_verdicts(suite: Suite) -> None:
    """Every built package's validate.ts, compiled by the project's tsc and run under Node,
    gives the suite's verdict on every instance (so the two run times agree with each other),
    except the pinned departures of Ajv's `unevaluated*` keywords."""
    packages = [b for b in suite.packages()]
    include = [f"{b.group.package}/{p}" for b in packages for p in ("*.ts", "_runtime_ts/*.ts")]
    out = compile_typescript(suite.folder, include)
    payload = [
        {
            "package": str(out / b.group.package / "validate.js"),
            "documents": [document(i.data) for i in b.group.instances],
        }
        for b in packages
    ]
    results = run_node(HARNESS / "package_verdicts.mjs", payload)
    wrong = [
        f"{instance.id}: suite says {'valid' if instance.valid else 'invalid'}, "
        f"validate.ts found {result['problems']}"
        for built, verdicts in zip(packages, results, strict=True)
        for instance, result in zip(built.group.instances, verdicts, strict=True)
        if (not result["problems"]) != instance.valid
    ]
    departing = {line.split(":")[0] for line in wrong}
    assert departing == AJV_UNEVALUATED, "\n".join(wrong)
